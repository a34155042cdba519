#include "online/elf_dynamic.hpp"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "core/error.hpp"

namespace simfab::online {

namespace {

[[noreturn]] void damaged(const std::string& path, const std::string& what) {
  throw InputError(SourceLoc{path, 0, 0}, "the program's ELF dynamic section is damaged: " + what);
}

// Bounds-checked reads of the memory image.
class ImageReader {
 public:
  ImageReader(const std::string& image, const std::string& path) : image_(image), path_(path) {}

  template <class T>
  T at(uint64_t offset, const char* what) const {
    check(offset, sizeof(T), what);
    T value;
    std::memcpy(&value, image_.data() + offset, sizeof(T));
    return value;
  }
  void check(uint64_t offset, uint64_t bytes, const char* what) const {
    if (offset > image_.size() || bytes > image_.size() - offset)
      damaged(path_, std::string(what) + " lies outside the loaded segments");
  }
  // The NUL-terminated string at strtab + index, within the table's `size` bytes.
  std::string string(uint64_t strtab, uint64_t size, uint64_t index, const char* what) const {
    check(strtab, size, what);
    if (index >= size) damaged(path_, std::string(what) + ": name index past the string table");
    const char* begin = image_.data() + strtab + index;
    const size_t n = strnlen(begin, size - index);
    if (n == size - index) damaged(path_, std::string(what) + ": a name without its terminator");
    return std::string(begin, n);
  }

 private:
  const std::string& image_;
  const std::string& path_;
};

std::vector<std::string> split_paths(const std::string& list) {
  std::vector<std::string> out;
  size_t begin = 0;
  for (;;) {
    const size_t colon = list.find(':', begin);
    const std::string part = list.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
    if (!part.empty()) out.push_back(part);
    if (colon == std::string::npos) return out;
    begin = colon + 1;
  }
}

void note_unsupported(ElfDynamic& d, const std::string& why) {
  if (d.unsupported.empty()) d.unsupported = why;
}

bool known_reloc(uint32_t type) {
  switch (type) {
    case R_X86_64_NONE:
    case R_X86_64_64:
    case R_X86_64_GLOB_DAT:
    case R_X86_64_JUMP_SLOT:
    case R_X86_64_RELATIVE:
    case R_X86_64_IRELATIVE:
      return true;
    default:
      return false;
  }
}

void read_relocs(ElfDynamic& d, const ImageReader& in, uint64_t table, uint64_t bytes, const char* what) {
  if (bytes == 0) return;
  in.check(table, bytes, what);
  for (uint64_t at = table; at + sizeof(Elf64_Rela) <= table + bytes; at += sizeof(Elf64_Rela)) {
    const auto r = in.at<Elf64_Rela>(at, what);
    ElfDynamic::Reloc rel;
    rel.offset = r.r_offset;
    rel.type = static_cast<uint32_t>(ELF64_R_TYPE(r.r_info));
    rel.symbol = static_cast<uint32_t>(ELF64_R_SYM(r.r_info));
    rel.addend = r.r_addend;
    if (!known_reloc(rel.type))
      note_unsupported(d, "it has relocations of type " + std::to_string(rel.type) +
                              (rel.type >= R_X86_64_DTPMOD64 && rel.type <= R_X86_64_TPOFF32 ? " (thread-local storage)" : ""));
    d.relocs.push_back(rel);
  }
}

// The version names a VERNEED table gives, by version index (vna_other).
std::map<uint16_t, std::string> needed_versions(const ImageReader& in, uint64_t verneed, uint64_t count,
                                                uint64_t strtab, uint64_t strsz) {
  std::map<uint16_t, std::string> out;
  uint64_t at = verneed;
  for (uint64_t i = 0; i < count && at != 0; ++i) {
    const auto vn = in.at<Elf64_Verneed>(at, "a version requirement");
    uint64_t aux = at + vn.vn_aux;
    for (unsigned j = 0; j < vn.vn_cnt; ++j) {
      const auto va = in.at<Elf64_Vernaux>(aux, "a version requirement");
      out[va.vna_other] = in.string(strtab, strsz, va.vna_name, "a version name");
      if (va.vna_next == 0) break;
      aux += va.vna_next;
    }
    if (vn.vn_next == 0) break;
    at += vn.vn_next;
  }
  return out;
}

// .eh_frame from .eh_frame_hdr: version 1, then the encoding of eh_frame_ptr (pc-relative signed
// 4 bytes, DW_EH_PE_pcrel | DW_EH_PE_sdata4 = 0x1b, is what GNU ld writes). 0 when not that form.
uint64_t eh_frame_of(const ImageReader& in, uint64_t hdr) {
  const auto version = in.at<uint8_t>(hdr, ".eh_frame_hdr");
  const auto encoding = in.at<uint8_t>(hdr + 1, ".eh_frame_hdr");
  if (version != 1 || encoding != 0x1b) return 0;
  const auto delta = in.at<int32_t>(hdr + 4, ".eh_frame_hdr");
  return static_cast<uint64_t>(static_cast<int64_t>(hdr + 4) + delta);
}

}  // namespace

ElfDynamic ElfDynamic::parse(const std::string& file, const std::string& path) {
  ElfDynamic d;
  Elf64_Ehdr eh;
  std::memcpy(&eh, file.data(), sizeof eh);  // the caller checked the ELF header's size and kind
  if (eh.e_machine != EM_X86_64) note_unsupported(d, "it is not an x86-64 object");
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<Elf64_Phdr> phdrs(eh.e_phnum);
  for (unsigned i = 0; i < eh.e_phnum; ++i)
    std::memcpy(&phdrs[i], file.data() + eh.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr), sizeof(Elf64_Phdr));

  uint64_t span = 0, filled = 0;
  for (const Elf64_Phdr& ph : phdrs) {
    if (ph.p_type == PT_TLS) note_unsupported(d, "it has thread-local storage (PT_TLS)");
    if (ph.p_type != PT_LOAD) continue;
    if (ph.p_memsz < ph.p_filesz || ph.p_vaddr + ph.p_memsz < ph.p_vaddr || ph.p_vaddr + ph.p_memsz > (uint64_t{1} << 40))
      damaged(path, "a loadable segment's sizes are inconsistent");
    span = std::max(span, ph.p_vaddr + ph.p_memsz);
    filled = std::max(filled, ph.p_vaddr + ph.p_filesz);
  }
  if (span == 0) damaged(path, "it has no loadable segment");
  d.span = (span + page - 1) / page * page;
  d.image.assign(filled, '\0');  // .bss beyond the last file byte is not held (a Fortran COMMON may be GBs)
  uint64_t dynamic = 0, dynamic_bytes = 0, eh_hdr = 0;
  for (const Elf64_Phdr& ph : phdrs) {
    if (ph.p_type == PT_LOAD) {
      std::memcpy(d.image.data() + ph.p_vaddr, file.data() + ph.p_offset, ph.p_filesz);
      if (ph.p_filesz > 0) d.contents.emplace_back(ph.p_vaddr, ph.p_vaddr + ph.p_filesz);
    }
    if (ph.p_type == PT_DYNAMIC) dynamic = ph.p_vaddr, dynamic_bytes = ph.p_memsz;
    if (ph.p_type == PT_GNU_EH_FRAME) eh_hdr = ph.p_vaddr;
  }
  if (dynamic == 0) damaged(path, "it has no PT_DYNAMIC segment");
  const ImageReader in(d.image, path);
  in.check(dynamic, dynamic_bytes, "the dynamic section");

  std::map<int64_t, uint64_t> tag;  // single-valued tags
  std::vector<uint64_t> needed, rpath, runpath;
  for (uint64_t at = dynamic; at + sizeof(Elf64_Dyn) <= dynamic + dynamic_bytes; at += sizeof(Elf64_Dyn)) {
    const auto dyn = in.at<Elf64_Dyn>(at, "the dynamic section");
    if (dyn.d_tag == DT_NULL) break;
    if (dyn.d_tag == DT_NEEDED) needed.push_back(dyn.d_un.d_val);
    else if (dyn.d_tag == DT_RPATH) rpath.push_back(dyn.d_un.d_val);
    else if (dyn.d_tag == DT_RUNPATH) runpath.push_back(dyn.d_un.d_val);
    else tag[dyn.d_tag] = dyn.d_un.d_val;
  }
  auto get = [&](int64_t t) { const auto it = tag.find(t); return it == tag.end() ? uint64_t{0} : it->second; };
  const uint64_t strtab = get(DT_STRTAB), strsz = get(DT_STRSZ);
  for (uint64_t n : needed) d.needed.push_back(in.string(strtab, strsz, n, "DT_NEEDED"));
  for (uint64_t n : rpath)
    for (std::string& p : split_paths(in.string(strtab, strsz, n, "DT_RPATH"))) d.rpath.push_back(std::move(p));
  for (uint64_t n : runpath)
    for (std::string& p : split_paths(in.string(strtab, strsz, n, "DT_RUNPATH"))) d.runpath.push_back(std::move(p));

  if (tag.count(DT_TEXTREL) || (get(DT_FLAGS) & DF_TEXTREL)) note_unsupported(d, "it has text relocations (DT_TEXTREL)");
  if (tag.count(DT_RELR)) note_unsupported(d, "it has packed relative relocations (DT_RELR)");
  if (tag.count(DT_REL) || (tag.count(DT_PLTREL) && get(DT_PLTREL) != DT_RELA))
    note_unsupported(d, "it has REL relocation tables");
  d.symbolic = tag.count(DT_SYMBOLIC) || (get(DT_FLAGS) & DF_SYMBOLIC);
  read_relocs(d, in, get(DT_RELA), get(DT_RELASZ), "DT_RELA");
  read_relocs(d, in, get(DT_JMPREL), get(DT_PLTRELSZ), "DT_JMPREL");

  // The symbol table has no size of its own: the hash table gives it (DT_GNU_HASH: the highest
  // index a bucket's chain reaches; DT_HASH: nchain); without either, the highest index a
  // relocation uses.
  const uint64_t symtab = get(DT_SYMTAB);
  uint64_t count = 0;
  for (const Reloc& r : d.relocs) count = std::max<uint64_t>(count, uint64_t{r.symbol} + 1);
  if (const uint64_t gnu = get(DT_GNU_HASH); gnu != 0) {
    const auto nbuckets = in.at<uint32_t>(gnu, "DT_GNU_HASH");
    const auto symoffset = in.at<uint32_t>(gnu + 4, "DT_GNU_HASH");
    const auto bloom = in.at<uint32_t>(gnu + 8, "DT_GNU_HASH");
    const uint64_t buckets = gnu + 16 + uint64_t{bloom} * 8, chains = buckets + uint64_t{nbuckets} * 4;
    uint32_t last = 0;
    for (uint32_t b = 0; b < nbuckets; ++b) last = std::max(last, in.at<uint32_t>(buckets + uint64_t{b} * 4, "DT_GNU_HASH"));
    uint64_t n = symoffset;
    if (last >= symoffset) {
      n = last;
      while ((in.at<uint32_t>(chains + (n - symoffset) * 4, "DT_GNU_HASH") & 1) == 0) ++n;
      ++n;
    }
    count = std::max(count, n);
  } else if (const uint64_t hash = get(DT_HASH); hash != 0) {
    count = std::max<uint64_t>(count, in.at<uint32_t>(hash + 4, "DT_HASH"));
  }
  const uint64_t versym = get(DT_VERSYM);
  const auto versions = needed_versions(in, get(DT_VERNEED), get(DT_VERNEEDNUM), strtab, strsz);
  for (uint64_t i = 0; i < count && symtab != 0; ++i) {
    const auto s = in.at<Elf64_Sym>(symtab + i * sizeof(Elf64_Sym), "the dynamic symbol table");
    Symbol sym;
    sym.name = in.string(strtab, strsz, s.st_name, "a dynamic symbol");
    sym.defined = s.st_shndx != SHN_UNDEF;
    sym.value = s.st_value;
    sym.weak = ELF64_ST_BIND(s.st_info) == STB_WEAK;
    sym.type = ELF64_ST_TYPE(s.st_info);
    if (versym != 0 && !sym.defined) {
      const auto index = static_cast<uint16_t>(in.at<uint16_t>(versym + i * 2, "DT_VERSYM") & 0x7fff);
      if (const auto it = versions.find(index); it != versions.end()) sym.version = it->second;
    }
    if (sym.type == STT_TLS) note_unsupported(d, "it has thread-local symbols (" + sym.name + ")");
    if (sym.type == STT_GNU_IFUNC && sym.defined) note_unsupported(d, "it defines an indirect function (" + sym.name + ")");
    d.symbols.push_back(std::move(sym));
  }
  for (const Reloc& r : d.relocs) {
    if (r.symbol >= d.symbols.size() && r.symbol != 0) damaged(path, "a relocation names a symbol past the table");
    if (r.offset > d.span || d.span - r.offset < 8) damaged(path, "a relocation's target lies outside the loaded segments");
  }

  d.init = get(DT_INIT);
  d.fini = get(DT_FINI);
  auto slots = [&](int64_t array, int64_t bytes, std::vector<uint64_t>& out) {
    const uint64_t base = get(array), n = get(bytes) / 8;
    in.check(base, n * 8, "an initialiser array");
    for (uint64_t i = 0; i < n; ++i) out.push_back(base + i * 8);
  };
  slots(DT_INIT_ARRAY, DT_INIT_ARRAYSZ, d.init_array);
  slots(DT_FINI_ARRAY, DT_FINI_ARRAYSZ, d.fini_array);
  if (d.init != 0) in.check(d.init, 1, "DT_INIT");
  if (d.fini != 0) in.check(d.fini, 1, "DT_FINI");
  if (eh_hdr != 0) d.eh_frame = eh_frame_of(in, eh_hdr);
  if (d.eh_frame != 0) in.check(d.eh_frame, 4, ".eh_frame");
  return d;
}

}  // namespace simfab::online
