// ProgramImage: an MPI program built by simfab-cc (an ELF shared object that defines `main`),
// loaded once per simulated rank so that every rank has private globals and statics.
//
// Two loaders (online/loader):
//   - simfab (the default, `auto`): simfab's own loader, CopyLinker (copy_linker.hpp). The program
//     is held once in memory; copies share its unwritten pages and are grouped into few memory
//     mappings; symbols are resolved once for all copies. 65,536 copies of a small program fit in
//     one process. `auto` falls back to the system's dynamic linker, saying why on stderr, when
//     the program needs what CopyLinker does not do (ElfDynamic::unsupported: thread-local
//     storage, text relocations, another machine than x86-64); `simfab` refuses it instead.
//   - dlopen: the system's dynamic linker, one private file per copy (as S4BXI and SMPI's dlopen
//     privatization do). load_copy() writes the image into a fresh memfd_create() file and dlopen()s
//     it through /proc/self/fd/N with RTLD_NOW | RTLD_LOCAL (the dynamic linker loads a given file
//     once, however often it is opened, and treats a name it has loaded before as the same object,
//     so every copy is a distinct file opened under a path no other copy used: "/proc/self/fd/"
//     followed by "./" and ".//" steps spelling a process-wide serial number in binary, then N).
//     Debuggers see these copies. Each costs its whole image in RAM and 5 memory mappings, and each
//     dlopen is O(copies) in glibc (it compares the new name with every loaded object): about 9,000
//     ranks at most under the default vm.max_map_count.
// Both resolve every symbol at load time, so a call simfab does not implement is an error before
// any rank runs: "the program calls MPI_Foo, which simfab does not implement"; the program's
// undefined MPI_* symbols bind to the simfab executable, which exports them. Constructors of a
// copy (C++ statics, __attribute__((constructor))) run in load_copy(), destructors in
// ~ProgramImage().
//
// What is private and what is not. Private per copy: everything linked into the program's shared
// object (its globals, function statics, static libraries linked into it; thread_local data under
// dlopen). Shared by all ranks: the libraries it depends on (libc, libm, libstdc++, ...), e.g.
// rand()'s state, std::cout, environment variables, the current directory.
//
// Costs (simfab loader): the image once (K times, K = copies per mapping), plus the pages each copy
// writes (relocated data, GOT, .data, touched .bss); sections that are not loaded (debug info,
// symbol tables) are not held, so -g costs nothing per rank. image_bytes() and writable_bytes()
// give the numbers for the memory report.
//
// Limits. ELF64 objects only (the simfab loader: x86-64). Not thread-safe (use from one thread).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "online/copy_linker.hpp"

namespace simfab::online {

class ProgramImage {
 public:
  using Main = int (*)(int, char**);
  enum class Loader { kAuto, kSimfab, kDlopen };

  // Reads `path`. InputError when it is missing, is not an ELF shared object (an ordinary
  // executable: "build it with simfab-cc, which makes a shared object"), or defines no `main`.
  // Under Loader::kSimfab, also when CopyLinker cannot load it (saying why).
  explicit ProgramImage(const std::string& path, Loader loader = Loader::kAuto);
  // dlcloses every copy, last loaded first (their destructors run).
  ~ProgramImage();
  ProgramImage(const ProgramImage&) = delete;
  ProgramImage& operator=(const ProgramImage&) = delete;

  // Declares how many copies the run loads (indexes 0..copies-1) and how many share one memory
  // mapping (memory_maps.hpp); required before load_copy() under the simfab loader.
  void prepare(size_t copies, size_t per_mapping);

  // Loads copy `index` (each index at most once), runs its initialisers (given the rank's argc and
  // argv), and returns its main. InputError when the dynamic
  // linker refuses it: "the program calls MPI_Foo, which simfab does not implement" for an MPI_ or
  // PMPI_ symbol that does not resolve (for gfortran's `mpi_foo_`: "calls MPI_FOO (Fortran)"), else
  // the dynamic linker's message.
  Main load_copy(int index, int argc, char** argv);

  // The address of `name` in copy `index` (nullptr if the copy does not define it).
  void* symbol(int index, const char* name) const;

  // The offset of code address `addr` in copy `index` (the same for every copy: the program's
  // own address of it), or -1 when it is not the copy's (simfab's code, a library). O(1) under
  // the simfab loader; dladdr() under dlopen.
  int64_t offset_in(int index, const void* addr) const;
  const std::string& path() const { return path_; }
  // "simfab" or "dlopen": the loader in use.
  const char* loader_name() const { return use_dlopen_ ? "dlopen" : "simfab"; }
  // Bytes of the program held in RAM: the simfab loader's shared images, or per copy under dlopen.
  size_t image_bytes() const { return linker_ ? linker_->shared_bytes() : image_.size(); }
  // Bytes of each copy's writable segments (data, bss, relocated data), rounded up to pages: an
  // upper bound on the private pages a copy dirties beyond image_bytes().
  size_t writable_bytes() const { return writable_bytes_; }
  size_t copies() const { return loaded_; }

 private:
  std::string path_;
  std::string image_;  // dlopen: the loadable prefix of the file, section headers cleared
  bool use_dlopen_ = false;
  ElfDynamic elf_;                      // simfab loader: until prepare() hands it to the linker
  std::unique_ptr<CopyLinker> linker_;
  size_t writable_bytes_ = 0;
  std::vector<void*> handles_;  // by copy index; nullptr = not loaded
  std::vector<uintptr_t> bases_;  // dlopen: by copy index, its load base (link_map's l_addr)
  std::vector<int> load_order_;
  size_t loaded_ = 0;
};

}  // namespace simfab::online
