#include "sweep/point_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace simfab {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

}  // namespace

int available_cores() {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
}

PointRunner::PointRunner(int jobs, double timeout_s, std::string executable)
    : jobs_(jobs), timeout_s_(timeout_s), executable_(std::move(executable)) {
  SIMFAB_CHECK(jobs >= 1, "a sweep runs at least one point at a time");
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/simfab-sweep.XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(SourceLoc{pattern, 0, 0}, std::string("cannot create the sweep's temporary directory: ") +
                                                   std::strerror(errno) + " (set TMPDIR)");
  dir_ = pattern;
  register_pending_output(dir_, true);
}

PointRunner::~PointRunner() {
  kill_all();
  unregister_pending_output(dir_);
  ::rmdir(dir_.c_str());
}

void PointRunner::kill_all() {
  for (Child& c : running_) ::kill(c.pid, SIGKILL);
  for (Child& c : running_) {
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    if (c.pidfd >= 0) ::close(c.pidfd);
    for (const std::string& p : {c.json_path, c.err_path}) {
      ::unlink(p.c_str());
      unregister_pending_output(p);
    }
  }
  running_.clear();
}

void PointRunner::start(size_t index, const Arguments& arguments) {
  Child c{index, 0, -1, std::chrono::steady_clock::now(), dir_ + "/" + std::to_string(index) + ".json",
          dir_ + "/" + std::to_string(index) + ".err"};
  register_pending_output(c.json_path);
  register_pending_output(c.err_path);
  unregister_pending_output(dir_);  // the directory goes last, once its files are removed
  register_pending_output(dir_, true);
  const std::vector<std::string> args = arguments(index, c.json_path);
  std::vector<char*> argv;
  std::string exe = "simfab";
  argv.push_back(exe.data());
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const int err_fd = ::open(c.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (err_fd < 0) throw InputError(SourceLoc{c.err_path, 0, 0}, std::string("cannot write: ") + std::strerror(errno));
  std::fflush(nullptr);
  c.pid = ::fork();
  if (c.pid == 0) {  // the point: async-signal-safe calls only until exec
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(143);
    const int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(executable_.c_str(), argv.data());
    const char msg[] = "simfab: cannot run the simfab executable for a sweep point: ";
    [[maybe_unused]] ssize_t n = ::write(2, msg, sizeof msg - 1);
    n = ::write(2, executable_.c_str(), executable_.size());
    n = ::write(2, "\n", 1);
    ::_exit(127);
  }
  ::close(err_fd);
  if (c.pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  c.pidfd = open_pidfd(c.pid);
  running_.push_back(std::move(c));
}

PointOutcome PointRunner::finish(Child& c, int status) {
  PointOutcome o;
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  o.timed_out = c.timed_out;
  o.json = read_all(c.json_path);
  o.stderr_text = read_all(c.err_path);
  for (const std::string& p : {c.json_path, c.err_path}) {
    ::unlink(p.c_str());
    unregister_pending_output(p);
  }
  if (c.pidfd >= 0) ::close(c.pidfd);
  return o;
}

bool PointRunner::run(std::span<const size_t> todo, const Arguments& arguments, const OnDone& on_done,
                      const OnTick& on_tick) {
  size_t next = 0;
  const Next from_list = [&]() -> std::optional<size_t> {
    if (next == todo.size()) return std::nullopt;
    return todo[next++];
  };
  return run_from(from_list, arguments, on_done, on_tick);
}

bool PointRunner::run_from(const Next& next, const Arguments& arguments, const OnDone& on_done, const OnTick& on_tick) {
  using Clock = std::chrono::steady_clock;
  bool more = true;
  auto last_tick = Clock::now();
  while (more || !running_.empty()) {
    while (more && static_cast<int>(running_.size()) < jobs_) {
      const std::optional<size_t> p = next();
      if (p) start(*p, arguments);
      else more = false;
    }
    if (running_.empty()) break;
    // Sleep until a point ends, a deadline passes or the progress line is due.
    const auto now = Clock::now();
    auto wake = last_tick + std::chrono::milliseconds(500);
    std::vector<pollfd> fds;
    bool unpolled = false;
    for (const Child& c : running_) {
      if (c.pidfd >= 0) fds.push_back(pollfd{c.pidfd, POLLIN, 0});
      else unpolled = true;
      if (timeout_s_ > 0)
        wake = std::min(wake, c.start + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(timeout_s_)));
    }
    if (unpolled) wake = std::min(wake, now + std::chrono::milliseconds(5));
    const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count();
    ::poll(fds.data(), fds.size(), static_cast<int>(std::clamp<int64_t>(wait_ms + 1, 0, 500)));
    for (size_t i = 0; i < running_.size();) {
      Child& c = running_[i];
      int status = 0;
      const pid_t r = ::waitpid(c.pid, &status, WNOHANG);
      if (r == 0) {
        if (timeout_s_ > 0 && !c.timed_out &&
            std::chrono::duration<double>(Clock::now() - c.start).count() > timeout_s_) {
          c.timed_out = true;
          ::kill(c.pid, SIGKILL);
        }
        ++i;
        continue;
      }
      Child done = std::move(c);
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
      PointOutcome o = finish(done, status);
      if (!on_done(done.index, o)) {
        kill_all();
        return false;
      }
    }
    if (Clock::now() - last_tick >= std::chrono::milliseconds(500)) {
      last_tick = Clock::now();
      if (on_tick) on_tick();
    }
  }
  return true;
}

}  // namespace simfab
