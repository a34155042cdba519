// Finding the MPI calls a program makes that libsimfab-capture.so does not record (see
// unrecorded_calls.hpp).
#include "unrecorded_calls.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

namespace simfab::capture {

std::string canonical_mpi_name(std::string_view symbol) {
  std::string s(symbol);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.rfind("pmpi_", 0) == 0) s.erase(0, 1);
  if (s.rfind("mpi_", 0) != 0) return {};
  if (s.size() > 4 && s.compare(s.size() - 4, 4, "_f08") == 0) s.erase(s.size() - 4);
  while (s.size() > 4 && s.back() == '_') s.pop_back();
  return s.size() > 4 ? s : std::string();
}

bool call_is_covered(std::string_view symbol, const std::vector<std::string>& wrapped) {
  if (symbol.rfind("MPI_", 0) == 0 && std::find(wrapped.begin(), wrapped.end(), symbol) != wrapped.end()) return true;
  const std::string canonical = canonical_mpi_name(symbol);
  return !canonical.empty() && allowed_unrecorded(canonical);
}

std::string join_call_names(const std::vector<UnrecordedCall>& calls) {
  std::string out;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (i > 0) out += i + 1 == calls.size() ? " and " : ", ";
    out += calls[i].name;
  }
  return out;
}

namespace {

// The number of .dynsym entries, from the GNU hash table (the highest symbol index any chain
// reaches, plus one).
std::size_t gnu_hash_symbols(const std::uint32_t* table) {
  const std::uint32_t nbuckets = table[0], symoffset = table[1], bloom_size = table[2];
  const auto* bloom = reinterpret_cast<const ElfW(Addr)*>(table + 4);
  const auto* buckets = reinterpret_cast<const std::uint32_t*>(bloom + bloom_size);
  const std::uint32_t* chain = buckets + nbuckets;
  std::uint32_t last = 0;
  for (std::uint32_t b = 0; b < nbuckets; ++b) last = std::max(last, buckets[b]);
  if (last < symoffset) return symoffset;
  while ((chain[last - symoffset] & 1u) == 0) ++last;
  return last + 1;
}

// What one loaded object imports and defines.
struct ObjectSymbols {
  std::string name;
  bool is_self = false;          // this library
  bool defines_mpi = false;      // an MPI library, its bindings or a tool
  std::vector<std::string> imports;  // undefined function symbols named like MPI functions
  std::vector<std::string> defines;  // defined MPI_ functions
};

bool mpi_named(const char* name) {
  return std::strncmp(name, "MPI_", 4) == 0 || std::strncmp(name, "PMPI_", 5) == 0 ||
         std::strncmp(name, "mpi_", 4) == 0 || std::strncmp(name, "pmpi_", 5) == 0;
}

struct Scan {
  const void* self_base = nullptr;
  std::vector<ObjectSymbols> objects;
};

std::string object_name(const char* path) {
  if (path == nullptr || *path == '\0') return program_invocation_short_name;
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

int scan_object(dl_phdr_info* info, std::size_t, void* data) {
  Scan& scan = *static_cast<Scan*>(data);
  const char* path = info->dlpi_name != nullptr ? info->dlpi_name : "";
  if (std::strstr(path, "linux-vdso") != nullptr || std::strstr(path, "linux-gate") != nullptr) return 0;
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn == nullptr) return 0;
  // ld.so relocates these pointers in place on most targets; where it does not, they are offsets.
  const auto address = [&](ElfW(Addr) p) { return p < info->dlpi_addr ? p + info->dlpi_addr : p; };
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  std::size_t count = 0;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symbols = reinterpret_cast<const ElfW(Sym)*>(address(d->d_un.d_ptr)); break;
      case DT_STRTAB: strings = reinterpret_cast<const char*>(address(d->d_un.d_ptr)); break;
      case DT_HASH: count = reinterpret_cast<const std::uint32_t*>(address(d->d_un.d_ptr))[1]; break;
      case DT_GNU_HASH:
        if (count == 0) count = gnu_hash_symbols(reinterpret_cast<const std::uint32_t*>(address(d->d_un.d_ptr)));
        break;
      default: break;
    }
  }
  if (symbols == nullptr || strings == nullptr) return 0;
  ObjectSymbols object;
  object.name = object_name(path);
  object.is_self = reinterpret_cast<const void*>(info->dlpi_addr) == scan.self_base;
  for (std::size_t s = 1; s < count; ++s) {
    const ElfW(Sym)& sym = symbols[s];
    const int type = ELF64_ST_TYPE(sym.st_info);
    const char* name = strings + sym.st_name;
    if ((type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC) || !mpi_named(name)) continue;
    if (sym.st_shndx == SHN_UNDEF) {
      object.imports.emplace_back(name);
    } else if (type != STT_NOTYPE) {
      object.defines_mpi = true;
      if (std::strncmp(name, "MPI_", 4) == 0) object.defines.emplace_back(name);
    }
  }
  // Open MPI's components (mca_*.so under .../openmpi/): the MPI library's own imports.
  if (std::strstr(path, "/openmpi/") != nullptr) object.defines_mpi = true;
  scan.objects.push_back(std::move(object));
  return 0;
}

}  // namespace

std::vector<UnrecordedCall> find_unrecorded_calls(const void* self) {
  Scan scan;
  Dl_info here{};
  if (::dladdr(self, &here) != 0) scan.self_base = here.dli_fbase;
  dl_iterate_phdr(scan_object, &scan);
  std::vector<std::string> wrapped;
  for (const ObjectSymbols& o : scan.objects)
    if (o.is_self) wrapped = o.defines;
  std::vector<UnrecordedCall> out;
  for (const ObjectSymbols& o : scan.objects) {
    if (o.defines_mpi || o.is_self) continue;
    for (const std::string& name : o.imports) {
      if (call_is_covered(name, wrapped)) continue;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const UnrecordedCall& c) { return c.name == name; });
      if (!seen) out.push_back(UnrecordedCall{name, o.name});
    }
  }
  std::sort(out.begin(), out.end(), [](const UnrecordedCall& a, const UnrecordedCall& b) { return a.name < b.name; });
  return out;
}

}  // namespace simfab::capture
