// CaptureState: setting up and closing a rank's trace file, and the handle and request tables.
// See capture_state.hpp; the file format is docs/capture-format.md.
#include "capture_state.hpp"

#include "unrecorded_calls.hpp"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

extern char** environ;

namespace simfab::capture {
namespace {

constexpr int kWorldId = 1;
constexpr int kSelfId = 2;
constexpr int kAbortCode = 2;
constexpr const char* kDirVar = "SIMFAB_CAPTURE_DIR";
constexpr const char* kSpeedVar = "SIMFAB_CAPTURE_SPEED";
constexpr const char* kFormatVar = "SIMFAB_CAPTURE_FORMAT";
constexpr const char* kSimfabVar = "SIMFAB_CAPTURE_SIMFAB";
constexpr const char* kAllowVar = "SIMFAB_CAPTURE_ALLOW_UNRECORDED";
constexpr const char* kDefaultDir = "simfab-capture";

std::string errno_text(int err) { return std::strerror(err); }

// mkdir -p: creates every missing directory of `path` (absolute). Returns an error message, empty
// on success.
std::string make_directories(const std::string& path) {
  for (std::size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    const std::string prefix = path.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0755) == 0) continue;
    const int err = errno;
    struct stat st;
    if (::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    return "cannot create the capture directory '" + path + "' (" + kDirVar + "): '" + prefix +
           "': " + errno_text(err == EEXIST ? ENOTDIR : err) + "; set " + kDirVar +
           " to a writable directory";
  }
  return {};
}

// 64 bits from the wall clock and the pid through splitmix64's finaliser: distinct runs started at
// different times or by different processes get different ids.
std::uint64_t make_run_id() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  std::uint64_t z = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
  z ^= static_cast<std::uint64_t>(::getpid()) << 40;
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void flush_at_exit_hook() { capture_state().flush_at_exit(); }

}  // namespace

CaptureState& capture_state() {
  static CaptureState* state = new CaptureState();
  return *state;
}

std::string CaptureState::configure() {
  const char* speed = std::getenv(kSpeedVar);
  if (speed != nullptr && *speed != '\0') {
    char* end = nullptr;
    errno = 0;
    const double flops = std::strtod(speed, &end);
    if (end == speed || *end != '\0' || errno == ERANGE || !std::isfinite(flops) || flops <= 0) {
      return std::string(kSpeedVar) + "='" + speed +
             "' is not a speed: expected a positive number of flop/s such as 2e9";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", flops);
    speed_ = text;
  }

  const char* format = std::getenv(kFormatVar);
  if (format != nullptr && *format != '\0') {
    if (std::strcmp(format, "otf2") == 0) otf2_ = true;
    else if (std::strcmp(format, "text") != 0)
      return std::string(kFormatVar) + "='" + format + "' is not a format: expected text (the default) or otf2";
  }

  const char* dir = std::getenv(kDirVar);
  dir_ = (dir != nullptr && *dir != '\0') ? dir : kDefaultDir;
  if (dir_[0] != '/') {
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd) == nullptr) {
      return "cannot resolve the capture directory '" + dir_ + "' (" + kDirVar +
             "): getcwd: " + errno_text(errno) + "; set " + kDirVar + " to an absolute path";
    }
    dir_ = std::string(cwd) + "/" + dir_;
  }
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  if (std::string error = make_directories(dir_); !error.empty()) return error;

  final_path_ = dir_ + "/rank-" + std::to_string(rank_) + ".txt";
  part_path_ = final_path_ + ".part";
  if (!writer_.open(part_path_)) {
    return "cannot create '" + part_path_ + "': " + errno_text(errno) + "; set " + kDirVar +
           " to a writable directory";
  }
  return {};
}

std::string CaptureState::check_calls(std::string& warning) {
  const std::vector<UnrecordedCall> calls = find_unrecorded_calls(reinterpret_cast<const void*>(&capture_state));
  if (calls.empty()) return {};
  const std::string what = "the program calls " + join_call_names(calls) +
                           ", which simfab-capture does not record; its trace would replay wrongly";
  const char* allow = std::getenv(kAllowVar);
  if (allow != nullptr && std::strcmp(allow, "1") == 0) {
    warning = what;
    return {};
  }
  return what + " (" + calls.front().name + " is imported by " + calls.front().object + "; set " + kAllowVar +
         "=1 to capture it anyway)";
}

void CaptureState::agree_or_abort(const std::string& error) {
  // Every rank learns whether one failed; the lowest failing rank alone reports (one message).
  int bad = error.empty() ? size_ : rank_;
  int first_bad = size_;
  PMPI_Allreduce(&bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_bad < size_) {
    if (writer_.is_open()) {
      writer_.close();
      ::unlink(part_path_.c_str());
    }
    if (rank_ == first_bad) fail(error);
    // first_bad never joins: this waits until its PMPI_Abort ends the job.
    PMPI_Barrier(MPI_COMM_WORLD);
    PMPI_Abort(MPI_COMM_WORLD, kAbortCode);
  }
}

void CaptureState::check_fortran_program() {
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &size_);
  std::string warning;
  const std::string error = check_calls(warning);
  agree_or_abort(error);
  if (!warning.empty() && rank_ == 0)
    std::fprintf(stderr, "simfab-capture: warning: %s; only the C bindings are recorded, so this Fortran program "
                         "runs uncaptured (%s=1)\n", warning.c_str(), kAllowVar);
}

void CaptureState::begin(const char* init_func, int thread_level) {
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &size_);
  std::string warning;
  std::string error = configure();
  if (error.empty()) error = check_calls(warning);
  agree_or_abort(error);

  std::uint64_t run_id = rank_ == 0 ? make_run_id() : 0;
  PMPI_Bcast(&run_id, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);

  comms_.insert(comms_.key_of(MPI_COMM_WORLD), CommInfo{kWorldId, rank_, size_, size_, false});
  comms_.insert(comms_.key_of(MPI_COMM_SELF), CommInfo{kSelfId, 0, 1, 1, false});
  next_comm_id_ = kSelfId + 1;

  write_header(run_id);
  writer_.put(init_func);
  writer_.put(":-:-:-:");
  writer_.put_int(now_ns());
  writer_.put('\n');
  end_record();
  active_ = true;
  pid_ = ::getpid();
  std::atexit(flush_at_exit_hook);

  if (!warning.empty() && rank_ == 0)
    std::fprintf(stderr, "simfab-capture: warning: %s (captured anyway: %s=1)\n", warning.c_str(), kAllowVar);
  if (thread_level == MPI_THREAD_MULTIPLE && rank_ == 0) {
    std::fprintf(stderr,
                 "simfab-capture: warning: MPI_THREAD_MULTIPLE: the capture library is not "
                 "thread-safe; MPI calls made by several threads at once corrupt the trace\n");
  }
}

void CaptureState::write_header(std::uint64_t run_id) {
  char run[17];
  std::snprintf(run, sizeof run, "%016llx", static_cast<unsigned long long>(run_id));
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown");
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  PMPI_Get_library_version(library, &len);
  std::string lib(library, library + std::strcspn(library, "\r\n"));
  while (!lib.empty() && (lib.back() == ' ' || lib.back() == '\t')) lib.pop_back();

  TraceWriter& w = writer_;
  w.put("# simfab-capture 1\n# run: ");
  w.put(run);
  w.put("\n# rank: ");
  w.put_int(rank_);
  w.put("\n# size: ");
  w.put_int(size_);
  w.put("\n# world: ");
  w.put_int(kWorldId);
  w.put("\n# self: ");
  w.put_int(kSelfId);
  w.put("\n# hostname: ");
  w.put(host);
  w.put("\n# clock: CLOCK_MONOTONIC\n# time-unit: ns\n");
  if (!speed_.empty()) {
    w.put("# speed: ");
    w.put(speed_);
    w.put('\n');
  }
  w.put("# library: ");
  w.put(lib);
  w.put('\n');
}

void CaptureState::finish(std::int64_t call_ns) {
  writer_.put("MPI_Finalize:");
  writer_.put_int(call_ns);
  writer_.put(":-\n# end\n");
  active_ = false;
  if (!writer_.close()) fail("cannot write '" + part_path_ + "': " + errno_text(errno));
  if (std::rename(part_path_.c_str(), final_path_.c_str()) != 0) {
    fail("cannot rename '" + part_path_ + "' to '" + final_path_ + "': " + errno_text(errno));
  }
}

void CaptureState::write_otf2() {
  PMPI_Barrier(MPI_COMM_WORLD);  // every rank's file is complete and renamed
  int status = 0;
  std::string message;
  if (rank_ == 0) {
    std::string simfab;
    if (const char* given = std::getenv(kSimfabVar); given != nullptr && *given != '\0') {
      simfab = given;
    } else {
      Dl_info info{};
      if (::dladdr(reinterpret_cast<void*>(&capture_state), &info) != 0 && info.dli_fname != nullptr) {
        simfab = info.dli_fname;
        simfab = simfab.substr(0, simfab.find_last_of('/') + 1) + "simfab";
      }
    }
    const std::string out = dir_ + "/otf2";
    std::vector<std::string> args = {simfab, "convert", dir_, "--otf2-out", out, "--quiet"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // simfab itself must not load this library: the environment without LD_PRELOAD.
    std::vector<char*> envp;
    for (char** e = environ; *e != nullptr; ++e)
      if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0) envp.push_back(*e);
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int err = ::posix_spawn(&pid, simfab.c_str(), nullptr, nullptr, argv.data(), envp.data());
    if (err != 0) {
      status = 1;
      message = "cannot run '" + simfab + "' to write the OTF2 archive (" + kFormatVar + "=otf2): " +
                errno_text(err) + "; set " + kSimfabVar + " to the simfab executable";
    } else {
      int ws = 0;
      while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
      }
      if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        status = 1;
        message = "'" + simfab + " convert " + dir_ + " --otf2-out " + out + "' failed (its message is above)";
      }
    }
  }
  PMPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != 0 && rank_ == 0) fail(message);
  if (status != 0) PMPI_Barrier(MPI_COMM_WORLD);  // rank 0's PMPI_Abort ends the job
}

void CaptureState::flush_at_exit() {
  // A child forked by the rank inherits the buffer: only the rank itself writes it out.
  if (active_ && writer_.is_open() && ::getpid() == pid_) writer_.close();
  active_ = false;
}

void CaptureState::fail(const std::string& message) {
  std::fprintf(stderr, "simfab-capture: rank %d: %s\n", rank_, message.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, kAbortCode);
  std::_Exit(kAbortCode);
}

void CaptureState::write_site() {
  if (site_ == nullptr || site_ == written_site_) return;
  auto [it, added] = site_names_.try_emplace(site_);
  if (added) {
    Dl_info info{};
    char hex[32];
    if (::dladdr(site_, &info) != 0 && info.dli_fname != nullptr && info.dli_fname[0] != '\0') {
      const char* base = std::strrchr(info.dli_fname, '/');
      std::snprintf(hex, sizeof hex, "+0x%llx",
                    static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(site_) -
                                                    reinterpret_cast<std::uintptr_t>(info.dli_fbase)));
      it->second = std::string(base ? base + 1 : info.dli_fname) + hex;
    } else {
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(site_)));
      it->second = hex;
    }
  }
  writer_.put('@');
  writer_.put(it->second);
  writer_.put('\n');
  written_site_ = site_;
}

void CaptureState::end_record() {
  if (!writer_.flush_if_full()) fail("cannot write '" + part_path_ + "': " + errno_text(errno));
}

CommInfo CaptureState::comm(MPI_Comm comm) {
  const auto key = comms_.key_of(comm);
  if (const CommInfo* known = comms_.find(key)) return *known;
  CommInfo info;
  info.id = next_comm_id_++;
  PMPI_Comm_rank(comm, &info.rank);
  PMPI_Comm_size(comm, &info.size);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  info.inter = inter != 0;
  info.remote_size = info.size;
  if (info.inter) PMPI_Comm_remote_size(comm, &info.remote_size);
  comms_.insert(key, info);
  return info;
}

TypeInfo CaptureState::type(MPI_Datatype type) {
  const auto key = types_.key_of(type);
  if (const TypeInfo* known = types_.find(key)) return *known;
  TypeInfo info;
  info.id = next_type_id_++;
  MPI_Count size = 0;
  MPI_Count lb = 0;
  MPI_Count extent = 0;
  PMPI_Type_size_x(type, &size);
  PMPI_Type_get_extent_x(type, &lb, &extent);
  info.size = static_cast<std::int64_t>(size);
  info.extent = static_cast<std::int64_t>(extent);
  types_.insert(key, info);
  return info;
}

int CaptureState::op(MPI_Op op) {
  const auto key = ops_.key_of(op);
  if (const int* known = ops_.find(key)) return *known;
  const int id = next_op_id_++;
  ops_.insert(key, id);
  return id;
}

std::uint64_t CaptureState::new_request(MPI_Request request, bool is_send) {
  if (request == MPI_REQUEST_NULL) return 0;
  const std::uint64_t id = next_request_id_++;
  requests_.insert(requests_.key_of(request), RequestInfo{id, is_send});
  return id;
}

MPI_Request* CaptureState::save_requests(const MPI_Request* requests, int n) {
  const std::size_t count = n > 0 ? static_cast<std::size_t>(n) : 0;
  if (saved_requests_.size() < count) saved_requests_.resize(count);
  for (std::size_t i = 0; i < count; ++i) saved_requests_[i] = requests[i];
  return saved_requests_.data();
}

MPI_Status* CaptureState::scratch_statuses(int n) {
  const std::size_t count = n > 0 ? static_cast<std::size_t>(n) : 1;
  if (statuses_.size() < count) statuses_.resize(count);
  return statuses_.data();
}

}  // namespace simfab::capture
