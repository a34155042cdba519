#include "online/program_image.hpp"

#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/error.hpp"

namespace simfab::online {

namespace {

constexpr const char* kRebuild = "build it with simfab-cc (or simfab-cxx, simfab-fc), which makes a shared object";

// Process-wide, so that no two copies (of any image) are ever opened under the same name.
uint64_t g_copy_serial = 0;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InputError(SourceLoc{path, 0, 0}, what);
}

bool in_file(uint64_t offset, uint64_t bytes, size_t file_bytes) {
  return offset <= file_bytes && bytes <= file_bytes - offset;
}

template <class T>
T read_at(const std::string& bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// Whether the dynamic symbol table (found through the section headers) defines `main`: 1 yes, 0 no,
// -1 cannot tell (no section headers; load_copy() checks with dlsym then).
int defines_main(const std::string& bytes, const Elf64_Ehdr& eh) {
  if (eh.e_shoff == 0 || eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      !in_file(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr), bytes.size()))
    return -1;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    const auto sh = read_at<Elf64_Shdr>(bytes, eh.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr));
    if (sh.sh_type != SHT_DYNSYM || sh.sh_link >= eh.e_shnum) continue;
    const auto strtab = read_at<Elf64_Shdr>(bytes, eh.e_shoff + uint64_t{sh.sh_link} * sizeof(Elf64_Shdr));
    if (!in_file(sh.sh_offset, sh.sh_size, bytes.size()) ||
        !in_file(strtab.sh_offset, strtab.sh_size, bytes.size()))
      return -1;
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      const auto sym = read_at<Elf64_Sym>(bytes, sh.sh_offset + off);
      if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strtab.sh_size) continue;
      const char* name = bytes.data() + strtab.sh_offset + sym.st_name;
      const size_t room = strtab.sh_size - sym.st_name;
      if (strnlen(name, room) == 4 && std::memcmp(name, "main", 4) == 0) return 1;
    }
    return 0;
  }
  return -1;
}

// "/proc/self/fd/" + serial in binary as "./" (0) and ".//" (1) steps + fd: a new name for the
// dynamic linker, the same file for the kernel.
std::string unique_fd_path(uint64_t serial, int fd) {
  std::string path = "/proc/self/fd/";
  for (; serial != 0; serial >>= 1) path += (serial & 1) ? ".//" : "./";
  return path + std::to_string(fd);
}

std::string basename_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The symbol named by a dynamic linker message "...: undefined symbol: NAME[, version V]".
std::string undefined_symbol(const std::string& message) {
  static const std::string kMarker = "undefined symbol: ";
  const size_t at = message.find(kMarker);
  if (at == std::string::npos) return {};
  const size_t begin = at + kMarker.size();
  size_t end = begin;
  while (end < message.size() && message[end] != ',' && message[end] != ' ' && message[end] != '\n') ++end;
  return message.substr(begin, end - begin);
}

}  // namespace

ProgramImage::ProgramImage(const std::string& path, Loader loader) : path_(path), use_dlopen_(loader == Loader::kDlopen) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot read the program: ") + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string bytes = std::move(buffer).str();

  if (bytes.size() < EI_NIDENT || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
    fail(path, std::string("the program is not an ELF file; ") + kRebuild);
  if (static_cast<unsigned char>(bytes[EI_CLASS]) != ELFCLASS64 || bytes.size() < sizeof(Elf64_Ehdr))
    fail(path, std::string("the program is not a 64-bit ELF object; ") + kRebuild);
  const auto eh = read_at<Elf64_Ehdr>(bytes, 0);
  if (eh.e_type == ET_REL) fail(path, std::string("the program is an object file (.o), not a shared object; ") + kRebuild);
  if (eh.e_type == ET_EXEC) fail(path, std::string("the program is an executable, not a shared object; ") + kRebuild);
  if (eh.e_type != ET_DYN) fail(path, std::string("the program is not an ELF shared object; ") + kRebuild);
  if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
      !in_file(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), bytes.size()))
    fail(path, std::string("the program's ELF program headers are damaged; ") + kRebuild);

  // The loadable prefix: everything a program header refers to. What follows (debug info, the
  // static symbol table, section headers) is never mapped by the dynamic linker.
  uint64_t end = eh.e_phoff + uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    const auto ph = read_at<Elf64_Phdr>(bytes, eh.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr));
    if (!in_file(ph.p_offset, ph.p_filesz, bytes.size()))
      fail(path, std::string("the program's ELF segments extend past the end of the file; ") + kRebuild);
    // A PIE (DF_1_PIE) cannot be dlopen()ed; a shared object with an interpreter (what simfab-cc
    // makes: it can also be executed, apps/wrappers/simfab_start.cpp) can.
    if (ph.p_type == PT_DYNAMIC) {
      for (uint64_t at = ph.p_offset; at + sizeof(Elf64_Dyn) <= ph.p_offset + ph.p_filesz; at += sizeof(Elf64_Dyn)) {
        const auto dyn = read_at<Elf64_Dyn>(bytes, at);
        if (dyn.d_tag == DT_NULL) break;
        if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE) != 0)
          fail(path, std::string("the program is an executable (position-independent), not a shared object; ") + kRebuild);
      }
    }
    end = std::max<uint64_t>(end, ph.p_offset + ph.p_filesz);
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W) != 0) {
      const uint64_t first = ph.p_vaddr / page * page;
      const uint64_t last = (ph.p_vaddr + ph.p_memsz + page - 1) / page * page;
      writable_bytes_ += last - first;
    }
  }
  const int has_main = defines_main(bytes, eh);
  if (has_main == 0) fail(path, "the program defines no `main` function");
  if (!use_dlopen_) {
    elf_ = ElfDynamic::parse(bytes, path);
    if (!elf_.unsupported.empty() && loader == Loader::kSimfab)
      fail(path, "simfab's loader (online/loader=simfab) cannot load the program: " + elf_.unsupported +
                     "; use online/loader=auto or dlopen");
    if (!elf_.unsupported.empty()) {
      std::fprintf(stderr, "simfab: loading %s with the system's dynamic linker (online/loader=dlopen): %s\n",
                   path.c_str(), elf_.unsupported.c_str());
      use_dlopen_ = true;
    }
    if (!use_dlopen_) {
      if (has_main == -1 && !std::any_of(elf_.symbols.begin(), elf_.symbols.end(), [](const auto& s) {
            return s.defined && s.name == "main";
          }))
        fail(path, "the program defines no `main` function");
      return;
    }
    elf_ = ElfDynamic{};
  }

  bytes.resize(end);
  auto* header = reinterpret_cast<Elf64_Ehdr*>(bytes.data());  // cleared in place: no sections
  if (eh.e_shoff >= end) {
    header->e_shoff = 0;
    header->e_shnum = 0;
    header->e_shstrndx = SHN_UNDEF;
  }
  image_ = std::move(bytes);
}

ProgramImage::~ProgramImage() {
  linker_.reset();
  for (auto it = load_order_.rbegin(); it != load_order_.rend(); ++it) ::dlclose(handles_[*it]);
}

void ProgramImage::prepare(size_t copies, size_t per_mapping) {
  if (use_dlopen_ || linker_) return;
  linker_ = std::make_unique<CopyLinker>(std::move(elf_), path_, copies, per_mapping);
}

ProgramImage::Main ProgramImage::load_copy(int index, int argc, char** argv) {
  SIMFAB_CHECK(index >= 0, "negative program copy index");
  if (!use_dlopen_) {
    SIMFAB_CHECK(linker_ != nullptr, "ProgramImage::prepare() not called before load_copy()");
    linker_->load(static_cast<size_t>(index), argc, argv);
    ++loaded_;
    return reinterpret_cast<Main>(linker_->symbol(static_cast<size_t>(index), "main"));
  }
  const auto slot = static_cast<size_t>(index);
  if (handles_.size() <= slot) handles_.resize(slot + 1, nullptr);
  SIMFAB_CHECK(handles_[slot] == nullptr, "program copy " + std::to_string(index) + " loaded twice");

  const std::string memfd_name = "simfab:" + basename_of(path_).substr(0, 200) + ":" + std::to_string(index);
  const int fd = ::memfd_create(memfd_name.c_str(), MFD_CLOEXEC);
  if (fd < 0) fail(path_, std::string("cannot create a private copy of the program (memfd_create): ") + std::strerror(errno));
  size_t done = 0;
  while (done < image_.size()) {
    const ssize_t n = ::write(fd, image_.data() + done, image_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      fail(path_, std::string("cannot write a private copy of the program: ") + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  const std::string name = unique_fd_path(++g_copy_serial, fd);
  ::dlerror();
  void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  ::close(fd);
  if (handle == nullptr) {
    const char* raw = ::dlerror();
    std::string message = raw != nullptr ? raw : "unknown dynamic linker error";
    if (std::string missing = missing_mpi_function(undefined_symbol(message)); !missing.empty()) fail(path_, missing);
    for (size_t at; (at = message.find(name)) != std::string::npos;) message.replace(at, name.size(), path_);
    fail(path_, "cannot load the program: " + message);
  }
  void* main_symbol = ::dlsym(handle, "main");
  if (main_symbol == nullptr) {
    ::dlclose(handle);
    fail(path_, "the program defines no `main` function");
  }
  handles_[slot] = handle;
  if (bases_.size() <= slot) bases_.resize(slot + 1, 0);
  if (link_map* map = nullptr; ::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map) bases_[slot] = map->l_addr;
  load_order_.push_back(index);
  ++loaded_;
  return reinterpret_cast<Main>(main_symbol);
}

int64_t ProgramImage::offset_in(int index, const void* addr) const {
  if (linker_) return linker_->offset_in(static_cast<size_t>(index), addr);
  const size_t slot = static_cast<size_t>(index);
  Dl_info info{};
  if (slot >= bases_.size() || bases_[slot] == 0 || ::dladdr(addr, &info) == 0 ||
      reinterpret_cast<uintptr_t>(info.dli_fbase) != bases_[slot])
    return -1;
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(addr) - bases_[slot]);
}

void* ProgramImage::symbol(int index, const char* name) const {
  if (linker_) return linker_->symbol(static_cast<size_t>(index), name);
  const size_t slot = static_cast<size_t>(index);
  if (slot >= handles_.size() || handles_[slot] == nullptr) return nullptr;
  return ::dlsym(handles_[slot], name);
}

}  // namespace simfab::online
