#include "online/copy_linker.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "online/asan_unpoison.hpp"

extern "C" void __register_frame(void* begin);    // libgcc: unwind tables of code it did not load
extern "C" void __deregister_frame(void* begin);  // NOLINT(bugprone-reserved-identifier)
extern char** environ;

namespace simfab::online {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InputError(SourceLoc{path, 0, 0}, what);
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// `dir` with $ORIGIN / ${ORIGIN} replaced by the program's directory.
std::string substitute_origin(std::string dir, const std::string& origin) {
  for (const char* token : {"${ORIGIN}", "$ORIGIN"})
    for (size_t at; (at = dir.find(token)) != std::string::npos;) dir.replace(at, std::strlen(token), origin);
  return dir;
}

void write_all(int fd, const char* data, size_t bytes, off_t offset, const std::string& path) {
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, data, bytes, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, std::string("cannot write the program's memory image: ") + std::strerror(errno));
    data += n;
    bytes -= static_cast<size_t>(n);
    offset += n;
  }
}

}  // namespace

std::string missing_mpi_function(const std::string& symbol) {
  if (symbol.rfind("MPI_", 0) == 0 || symbol.rfind("PMPI_", 0) == 0)
    return "the program calls " + symbol + ", which simfab does not implement";
  if ((symbol.rfind("mpi_", 0) == 0 || symbol.rfind("pmpi_", 0) == 0) && symbol.back() == '_') {
    std::string fortran = symbol.substr(0, symbol.size() - 1);  // gfortran's name: lower case + `_`
    for (char& c : fortran) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "the program calls " + fortran + " (Fortran), which simfab does not implement";
  }
  return {};
}

CopyLinker::CopyLinker(ElfDynamic elf, std::string path, size_t copies, size_t per_mapping)
    : elf_(std::move(elf)), path_(std::move(path)), copies_(copies), per_mapping_(per_mapping < 1 ? 1 : per_mapping) {
  SIMFAB_CHECK(copies_ >= 1, "CopyLinker without copies");
  if (per_mapping_ > copies_) per_mapping_ = copies_;
  memfd_ = ::memfd_create("simfab:program", MFD_CLOEXEC);
  if (memfd_ < 0) fail(path_, std::string("cannot hold the program in memory (memfd_create): ") + std::strerror(errno));
  // Only the file's bytes are written: zero pages (.bss, gaps) stay holes of the memfd, so they cost
  // nothing until a copy touches them, and the kernel's fault-around does not map them into copies
  // that never do.
  if (::ftruncate(memfd_, static_cast<off_t>(per_mapping_ * elf_.span)) != 0)
    fail(path_, std::string("cannot size the program's memory image: ") + std::strerror(errno));
  for (size_t k = 0; k < per_mapping_; ++k)
    for (const auto& [begin, end] : elf_.contents)
      write_all(memfd_, elf_.image.data() + begin, end - begin, static_cast<off_t>(k * elf_.span + begin), path_);
  std::string().swap(elf_.image);  // the memfd holds it now
  void* reservation = ::mmap(nullptr, copies_ * elf_.span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reservation == MAP_FAILED) {
    const int err = errno;
    ::close(memfd_);
    fail(path_, "cannot reserve address space for " + std::to_string(copies_) + " copies of the program (" +
                    std::to_string(copies_ * elf_.span) + " bytes): " + std::strerror(err));
  }
  reservation_ = reinterpret_cast<uintptr_t>(reservation);
  group_mapped_.assign((copies_ + per_mapping_ - 1) / per_mapping_, false);
  loaded_.assign(copies_, false);
  for (const ElfDynamic::Symbol& s : elf_.symbols)
    if (s.defined && !s.name.empty()) defined_.emplace(s.name, s.value);
}

CopyLinker::~CopyLinker() {
  for (auto it = load_order_.rbegin(); it != load_order_.rend(); ++it) finalise(*it);
  ::munmap(reinterpret_cast<void*>(reservation_), copies_ * elf_.span);
  ::close(memfd_);
  for (auto it = needed_.rbegin(); it != needed_.rend(); ++it) ::dlclose(*it);
}

void CopyLinker::finalise(size_t index) {
  const uintptr_t base = base_of(index);
  using Fn = void (*)();
  for (auto it = elf_.fini_array.rbegin(); it != elf_.fini_array.rend(); ++it) {
    const auto fn = *reinterpret_cast<Fn*>(base + *it);
    if (fn != nullptr && reinterpret_cast<uintptr_t>(fn) != ~uintptr_t{0}) fn();
  }
  if (elf_.fini != 0) reinterpret_cast<Fn>(base + elf_.fini)();
  if (elf_.eh_frame != 0) __deregister_frame(reinterpret_cast<void*>(base + elf_.eh_frame));
}

void CopyLinker::open_needed() {
  const std::string origin = directory_of(path_);
  std::vector<std::string> dirs;
  if (elf_.runpath.empty())
    for (const std::string& d : elf_.rpath) dirs.push_back(substitute_origin(d, origin));
  if (const char* env = std::getenv("LD_LIBRARY_PATH"))
    for (std::string list = env; !list.empty();) {
      const size_t colon = list.find(':');
      if (colon != 0) dirs.push_back(list.substr(0, colon));
      list = colon == std::string::npos ? std::string() : list.substr(colon + 1);
    }
  for (const std::string& d : elf_.runpath) dirs.push_back(substitute_origin(d, origin));
  for (const std::string& name : elf_.needed) {
    if (name == "libsimfab-abi.so") continue;  // link-time stand-ins for the executable's functions
    std::string file = name;
    if (name.find('/') == std::string::npos)
      for (const std::string& d : dirs)
        if (::access((d + "/" + name).c_str(), F_OK) == 0) {
          file = d + "/" + name;
          break;
        }
    ::dlerror();
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      fail(path_, "cannot load the program: " + std::string(why != nullptr ? why : name));
    }
    needed_.push_back(handle);
  }
}

uint64_t CopyLinker::lookup(const ElfDynamic::Symbol& sym, bool* based) const {
  *based = false;
  if (sym.defined && elf_.symbolic) return *based = true, sym.value;
  void* found = ::dlsym(RTLD_DEFAULT, sym.name.c_str());  // the first definition in search order
  if (found != nullptr && !sym.version.empty()) {
    // A versioned reference takes the version it names from the library that has several (an
    // old memcpy@GLIBC_2.2.5), but an interposer earlier in the search order (the executable,
    // a sanitizer's operator new) still wins, as with the dynamic linker.
    void* versioned = ::dlvsym(RTLD_DEFAULT, sym.name.c_str(), sym.version.c_str());
    Dl_info a{}, b{};
    if (versioned != nullptr && versioned != found && ::dladdr(found, &a) != 0 && ::dladdr(versioned, &b) != 0 &&
        a.dli_fbase == b.dli_fbase)
      found = versioned;
  }
  if (found != nullptr) return reinterpret_cast<uint64_t>(found);
  if (sym.defined) return *based = true, sym.value;
  for (void* handle : needed_)
    if ((found = ::dlsym(handle, sym.name.c_str())) != nullptr) return reinterpret_cast<uint64_t>(found);
  if (sym.weak) return 0;
  if (std::string message = missing_mpi_function(sym.name); !message.empty()) fail(path_, message);
  fail(path_, "cannot load the program: undefined symbol: " + sym.name +
                  (sym.version.empty() ? std::string() : ", version " + sym.version));
}

void CopyLinker::resolve() {
  open_needed();
  std::vector<std::pair<uint64_t, bool>> resolved(elf_.symbols.size(), {0, false});
  std::vector<bool> done(elf_.symbols.size(), false);
  fixups_.reserve(elf_.relocs.size());
  for (const ElfDynamic::Reloc& r : elf_.relocs) {
    if (r.type == R_X86_64_NONE) continue;
    if (r.type == R_X86_64_RELATIVE) {
      fixups_.push_back({r.offset, static_cast<uint64_t>(r.addend), Fixup::kBased});
      continue;
    }
    if (r.type == R_X86_64_IRELATIVE) {
      fixups_.push_back({r.offset, static_cast<uint64_t>(r.addend), Fixup::kIndirect});
      continue;
    }
    uint64_t value = 0;
    bool based = false;
    if (r.symbol != 0) {
      if (!done[r.symbol]) {
        bool b = false;
        resolved[r.symbol] = {lookup(elf_.symbols[r.symbol], &b), b};
        done[r.symbol] = true;
      }
      std::tie(value, based) = resolved[r.symbol];
    }
    if (r.type == R_X86_64_64) value += static_cast<uint64_t>(r.addend);  // S + A; GLOB_DAT, JUMP_SLOT: S
    fixups_.push_back({r.offset, value, based ? Fixup::kBased : Fixup::kAbsolute});
  }
  resolved_ = true;
}

uintptr_t CopyLinker::load(size_t index, int argc, char** argv) {
  SIMFAB_CHECK(index < copies_, "program copy " + std::to_string(index) + " beyond the reserved copies");
  SIMFAB_CHECK(!loaded_[index], "program copy " + std::to_string(index) + " loaded twice");
  if (!resolved_) resolve();
  const size_t group = index / per_mapping_;
  if (!group_mapped_[group]) {
    const size_t first = group * per_mapping_;
    const size_t n = std::min(per_mapping_, copies_ - first);
    void* at = ::mmap(reinterpret_cast<void*>(base_of(first)), n * elf_.span, PROT_READ | PROT_WRITE | PROT_EXEC,
                      MAP_PRIVATE | MAP_FIXED, memfd_, 0);
    if (at == MAP_FAILED)
      fail(path_, "cannot map copies " + std::to_string(first) + ".." + std::to_string(first + n - 1) +
                      " of the program: " + std::strerror(errno));
    unpoison_mapping(at, n * elf_.span);
    group_mapped_[group] = true;
  }
  const uintptr_t base = base_of(index);
  for (const Fixup& f : fixups_) {
    uint64_t value = f.kind == Fixup::kAbsolute ? f.value : base + f.value;
    if (f.kind == Fixup::kIndirect) value = reinterpret_cast<uint64_t (*)()>(value)();
    std::memcpy(reinterpret_cast<void*>(base + f.offset), &value, sizeof value);
  }
  loaded_[index] = true;
  load_order_.push_back(index);
  if (elf_.eh_frame != 0) __register_frame(reinterpret_cast<void*>(base + elf_.eh_frame));
  if (elf_.init != 0) reinterpret_cast<void (*)()>(base + elf_.init)();
  using Init = void (*)(int, char**, char**);
  for (uint64_t slot : elf_.init_array) {
    const auto fn = *reinterpret_cast<Init*>(base + slot);
    if (fn != nullptr && reinterpret_cast<uintptr_t>(fn) != ~uintptr_t{0}) fn(argc, argv, environ);
  }
  return base;
}

void* CopyLinker::symbol(size_t index, const char* name) const {
  if (index >= copies_ || !loaded_[index]) return nullptr;
  const auto it = defined_.find(name);
  return it == defined_.end() ? nullptr : reinterpret_cast<void*>(base_of(index) + it->second);
}

}  // namespace simfab::online
