// ProgramImage: an MPI program built by simfab-cc (an ELF shared object that defines `main`),
// loaded once per simulated rank so that every rank has private globals and statics.
//
// How it works (privatization by private copies, as S4BXI and SMPI's dlopen mode do). The dynamic
// linker loads a given file once, however often it is opened, so each copy must be a distinct
// file: load_copy() writes the image into a fresh memfd_create() file (anonymous, in RAM, never on
// disk), dlopen()s it through /proc/self/fd/N with RTLD_NOW | RTLD_LOCAL, and closes the fd at once
// (the mapping keeps the file alive), so open files do not grow with the number of ranks. The
// dynamic linker also treats a name it has loaded before as the same object, and fd numbers are
// reused, so every copy is opened under a path that no other copy used: "/proc/self/fd/" followed
// by "./" and ".//" steps spelling a process-wide serial number in binary, then N. RTLD_LOCAL keeps
// a copy's symbols out of the global scope, so copy 2's references never bind to copy 1; its
// undefined symbols (MPI_*, __wrap_exit) bind to the simfab executable, which exports them. RTLD_NOW
// resolves everything at load time, so a call simfab does not implement is an error before any rank
// runs, not a crash in the middle of the run. Constructors of the copy (C++ statics,
// __attribute__((constructor))) run in load_copy(), destructors in ~ProgramImage() (dlclose).
//
// What is private and what is not. Private per copy: everything linked into the program's shared
// object (its globals, function statics, thread_local data, static libraries linked into it). Shared
// by all ranks: the libraries it depends on (libc, libm, libstdc++, ...), e.g. rand()'s state,
// std::cout, environment variables, the current directory.
//
// Costs. Each copy is the whole loadable part of the file in RAM (the memfd; its text pages are not
// shared with other copies, since each copy is a distinct file), plus the pages the dynamic linker
// and the program write (relocated data, GOT, .data, touched .bss), plus about 2 KiB of dynamic-linker
// bookkeeping. Sections that are not loaded (debug info, symbol tables, section headers) are left
// out of the copies, so -g costs nothing per rank. Measured: a 12 KiB C program costs 18 KiB per
// copy, a 16 KiB C++ one 22 KiB (~50,000 copies per GiB); a 5 MiB code costs ~5 MiB per rank (~200
// ranks per GiB). image_bytes() and writable_bytes() give the numbers for the memory report. Each
// copy holds 5 memory mappings, and vm.max_map_count (65530 by default) caps a process's mappings:
// with a fiber's 2, about 9,000 ranks by default. Loading is O(copies) per
// dlopen in glibc (it compares the new name with every loaded object), so O(copies^2) in total:
// negligible below ~10^4 copies.
//
// Limits. x86-64/AArch64 ELF64 objects only. Not thread-safe (dlerror is per thread; use from one
// thread).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace simfab::online {

class ProgramImage {
 public:
  using Main = int (*)(int, char**);

  // Reads `path`. InputError when it is missing, is not an ELF shared object (an ordinary
  // executable: "build it with simfab-cc, which makes a shared object"), or defines no `main`.
  explicit ProgramImage(const std::string& path);
  // dlcloses every copy, last loaded first (their destructors run).
  ~ProgramImage();
  ProgramImage(const ProgramImage&) = delete;
  ProgramImage& operator=(const ProgramImage&) = delete;

  // Loads copy `index` (each index at most once) and returns its main. InputError when the dynamic
  // linker refuses it: "the program calls MPI_Foo, which simfab does not implement" for an MPI_ or
  // PMPI_ symbol that does not resolve (for gfortran's `mpi_foo_`: "calls MPI_FOO (Fortran)"), else
  // the dynamic linker's message.
  Main load_copy(int index);

  // The address of `name` in copy `index` (nullptr if the copy does not define it).
  void* symbol(int index, const char* name) const;

  const std::string& path() const { return path_; }
  // Bytes of the image each copy holds in RAM (its memfd).
  size_t image_bytes() const { return image_.size(); }
  // Bytes of each copy's writable segments (data, bss, relocated data), rounded up to pages: an
  // upper bound on the private pages a copy dirties beyond image_bytes().
  size_t writable_bytes() const { return writable_bytes_; }
  size_t copies() const { return loaded_; }

 private:
  std::string path_;
  std::string image_;  // the loadable prefix of the file, section headers cleared
  size_t writable_bytes_ = 0;
  std::vector<void*> handles_;  // by copy index; nullptr = not loaded
  std::vector<int> load_order_;
  size_t loaded_ = 0;
};

}  // namespace simfab::online
