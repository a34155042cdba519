// CopyLinker: simfab's own loader for the private copies of an MPI program (online/loader=simfab,
// the default). It does for each rank what the system's dynamic linker does for one dlopen, at a
// fraction of the cost in memory mappings, memory and time, so that 65,536 privatized ranks fit in
// one process.
//
// Layout. The program's memory image (ElfDynamic: segments at their virtual addresses, .bss
// zeroed) is written K times, back to back, into one memfd (anonymous, in RAM). One reservation of
// copies x span bytes of address space holds every copy, copy i at base + i x span. Copies
// [gK, gK + K) are one mapping of the memfd (MAP_PRIVATE, read/write/execute), so:
//   - the program's pages are shared by every copy that does not write them: all copies i with the
//     same i mod K map the same page of the memfd. Text and read-only data cost K x their size in
//     all; a copy's private memory is what relocations and the program write (GOT, .data,
//     .data.rel.ro, touched .bss), copied on write;
//   - a copy costs no memory mapping of its own: ceil(copies / K) mappings for all. K is chosen
//     from the process's free mappings (vm.max_map_count; memory_maps.hpp), 1 when they suffice.
// The price: segments are not protected from each other (text is writable, data executable), as
// in a single read/write/execute mapping; relocated read-only data (RELRO) stays writable.
//
// Linking. The first load resolves every symbol once: the program's needed libraries are opened
// with dlopen (RTLD_NOW | RTLD_LOCAL; searched in DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH with
// $ORIGIN, then the system's paths; libsimfab-abi.so, the link-time stand-in for simfab's own
// functions, is skipped), then each referenced symbol is looked up as the dynamic linker would for
// an RTLD_LOCAL object: its own definition first if it was linked -Bsymbolic (DT_SYMBOLIC, as
// simfab-cc does), then the global scope (the simfab executable, which defines MPI_*, and its
// libraries), then its own definition, then its needed libraries. A versioned reference takes the
// version it names when the first definition's library has several (an old memcpy@GLIBC_2.2.5);
// an interposer earlier in the search order (a sanitizer's operator new) still comes first. The
// result is a list of fixups (offset, value, whether the value is relative to the copy's base),
// so each further copy is: one write per relocation, its initialisers, and
// the registration of its unwind tables (__register_frame: C++ exceptions, and simfab's errors
// raised inside MPI calls, unwind through the program's frames). Loading a copy is O(relocations),
// not O(copies) as the dynamic linker's list of loaded objects makes a dlopen.
//
// Order of initialisers and finalisers: DT_INIT then DT_INIT_ARRAY in order (with the rank's argc,
// argv and the environment) when a copy loads; DT_FINI_ARRAY in reverse then DT_FINI, copies in
// reverse load order, when the linker is destroyed (C++ static destructors and atexit handlers
// registered by a copy run then, through __cxa_finalize in the copy's finaliser).
//
// What it does not do: debuggers (gdb) and dladdr do not see the copies (use online/loader=dlopen
// to debug a program); ElfDynamic lists what makes a program fall back to the dynamic linker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "online/elf_dynamic.hpp"

namespace simfab::online {

// "the program calls MPI_Foo, which simfab does not implement" when `symbol` is an MPI function
// (C: MPI_*, PMPI_*; gfortran: mpi_*_, named as MPI_FOO (Fortran)); "" for any other symbol.
std::string missing_mpi_function(const std::string& symbol);

class CopyLinker {
 public:
  // `copies`: how many copies the run will load (indexes 0..copies-1); `per_mapping`: K (>= 1).
  // InputError when the memfd or the address space cannot be had.
  CopyLinker(ElfDynamic elf, std::string path, size_t copies, size_t per_mapping);
  ~CopyLinker();
  CopyLinker(const CopyLinker&) = delete;
  CopyLinker& operator=(const CopyLinker&) = delete;

  // Maps, relocates and initialises copy `index` (once), and returns its load base. The first call
  // resolves the symbols: InputError naming a function simfab lacks, or a library not found.
  uintptr_t load(size_t index, int argc, char** argv);
  // Copy `index`'s address of the program's own definition `name`; nullptr when it has none or
  // the copy is not loaded.
  void* symbol(size_t index, const char* name) const;

  // The offset of `addr` in copy `index`'s image, or -1 when it lies outside (a call site).
  int64_t offset_in(size_t index, const void* addr) const {
    const auto a = reinterpret_cast<uintptr_t>(addr);
    return index < copies_ && a >= base_of(index) && a < base_of(index) + elf_.span
               ? static_cast<int64_t>(a - base_of(index)) : -1;
  }

  size_t per_mapping() const { return per_mapping_; }
  // Bytes of the memfd (K memory images), shared by all copies.
  size_t shared_bytes() const { return per_mapping_ * elf_.span; }

 private:
  struct Fixup {
    uint64_t offset;
    uint64_t value;
    enum Kind : uint8_t { kAbsolute, kBased, kIndirect } kind;
  };
  void resolve();
  void open_needed();
  uint64_t lookup(const ElfDynamic::Symbol& sym, bool* based) const;
  uintptr_t base_of(size_t index) const { return reservation_ + index * elf_.span; }
  void finalise(size_t index);

  ElfDynamic elf_;
  std::string path_;
  size_t copies_;
  size_t per_mapping_;
  int memfd_ = -1;
  uintptr_t reservation_ = 0;
  std::vector<bool> group_mapped_;
  std::vector<bool> loaded_;
  std::vector<size_t> load_order_;
  bool resolved_ = false;
  std::vector<Fixup> fixups_;
  std::vector<void*> needed_;  // dlopen handles of the needed libraries
  std::unordered_map<std::string, uint64_t> defined_;  // own definitions by name
};

}  // namespace simfab::online
