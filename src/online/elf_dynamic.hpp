// ElfDynamic: what simfab's own program loader (copy_linker.hpp) needs from an ELF64 shared object,
// read once from the file: the memory image its loadable segments make, and the dynamic section's
// relocations, symbols, versions, needed libraries, search paths, initialisers and unwind tables.
//
// The memory image. A shared object's PT_LOAD segments say where each part of the file goes in
// memory, relative to the load base: segment s occupies [p_vaddr, p_vaddr + p_memsz), of which the
// first p_filesz bytes come from the file at p_offset and the rest (.bss) is zero. The image here
// is that layout, flattened: `image` holds the bytes up to the last one that comes from the file,
// file bytes copied to their virtual addresses, gaps zero; `span` (the highest segment end,
// rounded up to pages) is what a copy occupies, the rest of it zero (.bss). Every address the
// dynamic section gives (DT_RELA, DT_SYMTAB, ...) is an offset into it; each is bounds-checked, so a
// damaged or hostile file is an InputError, never a read out of bounds.
//
// What the loader cannot do (it then says why in `unsupported`, and ProgramImage falls back to the
// system's dynamic linker, or refuses with that reason under online/loader=simfab):
//   - another machine than x86-64 (the relocation types below are x86-64's);
//   - thread-local storage (PT_TLS; TLS relocations): its blocks are the dynamic linker's business;
//   - text relocations (DT_TEXTREL), packed relative relocations (DT_RELR), REL (not RELA) tables;
//   - relocation types other than NONE, 64, GLOB_DAT, JUMP_SLOT, RELATIVE and IRELATIVE;
//   - STT_GNU_IFUNC symbols defined by the program.
// Parsing is O(file size + relocations + symbols).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simfab::online {

struct ElfDynamic {
  // One dynamic relocation (Elf64_Rela, x86-64 types).
  struct Reloc {
    uint64_t offset = 0;  // where to write, from the load base
    uint32_t type = 0;    // R_X86_64_*
    uint32_t symbol = 0;  // index into `symbols`; 0 = none
    int64_t addend = 0;
  };
  // One dynamic symbol; `version` names the version a reference requires ("" = none or default).
  struct Symbol {
    std::string name;
    std::string version;
    uint64_t value = 0;      // offset from the load base when defined
    bool defined = false;    // st_shndx != SHN_UNDEF
    bool weak = false;       // STB_WEAK
    unsigned char type = 0;  // STT_*
  };

  std::string image;             // the memory image (see above), up to its last file byte
  size_t span = 0;               // image size: a multiple of the page size
  // The parts of the image that hold file bytes ([begin, end) offsets, in segment order): the rest
  // (.bss, gaps between segments) is zero and need not be written anywhere.
  std::vector<std::pair<uint64_t, uint64_t>> contents;
  std::vector<Reloc> relocs;     // DT_RELA, then DT_JMPREL
  std::vector<Symbol> symbols;   // the dynamic symbol table, by index
  std::vector<std::string> needed;       // DT_NEEDED, in order
  std::vector<std::string> rpath;        // DT_RPATH directories ($ORIGIN not yet substituted)
  std::vector<std::string> runpath;      // DT_RUNPATH directories
  bool symbolic = false;                 // DT_SYMBOLIC / DF_SYMBOLIC: own definitions first
  uint64_t init = 0;                     // DT_INIT (0: none)
  uint64_t fini = 0;                     // DT_FINI
  std::vector<uint64_t> init_array;      // DT_INIT_ARRAY entries' positions (slots, relocated per copy)
  std::vector<uint64_t> fini_array;      // DT_FINI_ARRAY slots
  uint64_t eh_frame = 0;                 // .eh_frame (from PT_GNU_EH_FRAME), 0 when absent
  std::string unsupported;               // why simfab's loader cannot load it ("" = it can)

  // Parses `file` (the whole ELF file); `path` names it in errors. InputError when the file is
  // damaged (a table outside the image, a string without its terminator, ...).
  static ElfDynamic parse(const std::string& file, const std::string& path);
};

}  // namespace simfab::online
