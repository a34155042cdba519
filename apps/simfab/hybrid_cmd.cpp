#include "hybrid_cmd.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>

#include "cli_options.hpp"
#include "core/engine.hpp"
#include "core/executable_dir.hpp"
#include "hybrid/hybrid_simulator.hpp"
#include "hybrid_options.hpp"
#include "nic/nic_registry.hpp"
#include "online/online_run.hpp"

namespace simfab {

namespace {

// The launcher: $SIMFAB_MPIRUN, else mpirun on the PATH.
std::string launcher() {
  if (const char* m = std::getenv("SIMFAB_MPIRUN"); m && *m) return m;
  return "mpirun";
}

// What a failed job may have left: the outputs' temporary files (PATH.tmp.<pid>, AtomicFile) and a
// statistics directory this run created.
void remove_partial_outputs(const HybridRunOptions& o, bool stats_dir_existed) {
  namespace fs = std::filesystem;
  for (const std::string& path : {o.out.json, o.out.trace_out, o.out.paje}) {
    if (path.empty()) continue;
    const fs::path p(path);
    std::error_code ec;
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().filename().string().rfind(p.filename().string() + ".tmp.", 0) == 0) fs::remove(e.path(), ec);
  }
  if (!o.out.stats_dir.empty() && !stats_dir_existed) {
    std::error_code ec;
    fs::remove_all(o.out.stats_dir, ec);
  }
}

// The program's file: PROGRAM itself when it names a path, else its first match on $PATH.
std::string program_file(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t begin = 0; begin <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', begin), dirs.size());
    const std::string candidate = (end > begin ? dirs.substr(begin, end - begin) : ".") + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    begin = end + 1;
  }
  return program;
}

// Whether the program was built by simfab-cc/-cxx/-fc for simfab exec: such programs link
// libsimfab-abi.so (apps/wrappers), which names itself in their dynamic section. Under mpirun they
// would each start a simulation of their own and never meet the simulator.
bool built_for_exec(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, 4) || std::memcmp(magic, "\x7f" "ELF", 4) != 0) return false;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::string kAbi("libsimfab-abi.so\0", 17);
  return bytes.find(kAbi) != std::string::npos;
}

}  // namespace

int cmd_hybrid(const std::vector<std::string>& args) {
  // simfab's options first (-np, --mpirun-arg and the simulator's), then `--` or the program.
  size_t i = 0;
  int np = 0;
  std::vector<std::string> sim_args, mpirun_args;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.empty() || a[0] != '-') break;
    const bool flag = a == "--reproducible" || a == "--quiet" || a.find('=') != std::string::npos;
    const std::string value = !flag && i + 1 < args.size() ? args[i + 1] : std::string();
    if (a == "-np" || a == "-n") {
      char* end = nullptr;
      const long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1 || n > 1'000'000)
        throw usage_error("-np expects a number of ranks between 1 and 1000000, got '" + value + "'");
      np = static_cast<int>(n);
      ++i;
      continue;
    }
    if (a == "--mpirun-arg") {
      if (i + 1 == args.size()) throw usage_error("--mpirun-arg expects an argument for mpirun");
      mpirun_args.push_back(value);
      ++i;
      continue;
    }
    sim_args.push_back(a);
    if (!flag && i + 1 < args.size()) sim_args.push_back(args[++i]);
  }
  if (np == 0) throw usage_error("give the number of ranks: simfab hybrid -np N [options] -- PROGRAM [ARGS...]");
  if (i == args.size()) throw usage_error("give the program to run: simfab hybrid -np N [options] -- PROGRAM [ARGS...]");
  if (built_for_exec(program_file(args[i])))
    throw InputError(SourceLoc{args[i], 0, 0},
                     "built with simfab's compiler wrappers (simfab-cc, simfab-cxx, simfab-fc), for simfab exec; "
                     "simfab hybrid runs a program built with the real MPI's compilers (mpicc, mpicxx, mpif90): "
                     "rebuild it with mpicc, or run this one with simfab exec");

  // Check what can be checked before the job starts: the options, keys and values, the platform,
  // the mapping, the model and the hybrid keys (the simulator checks them again).
  Config cfg;
  register_builtin_keys(cfg);
  HybridRunOptions o;
  parse_hybrid_options(sim_args, o, cfg);
  o.in.num_ranks = np;
  Platform platform = load_run_platform(o.in, cfg);
  if (o.in.platform_path.empty()) platform = online::default_cluster(np);
  const std::vector<HostId> rank_host = map_ranks(o.in, platform, np, args[i]);
  hybrid::check_hybrid_config(platform, cfg);

  const std::string dir = executable_dir();
  const std::string lib = dir + "/libsimfab-hybrid.so", sim = dir + "/simfab-hybrid-sim";
  for (const std::string& f : {lib, sim})
    if (access(f.c_str(), R_OK) != 0)
      throw InputError(SourceLoc{f, 0, 0}, "not found: simfab was built without an MPI library (install "
                                           "libopenmpi-dev and rebuild) or its build directory moved");
  std::vector<std::string> cmd{launcher()};
  if (geteuid() == 0) cmd.emplace_back("--allow-run-as-root");
  cmd.insert(cmd.end(), {"--oversubscribe", "-np", std::to_string(np + 1), "-x", "LD_PRELOAD=" + lib, "-x",
                         "SIMFAB_HYBRID_SIM=" + sim, "-x", "SIMFAB_HYBRID_APP=" + args[i], "-x",
                         "SIMFAB_HYBRID_OPTS=" + join_options(sim_args)});
  cmd.insert(cmd.end(), mpirun_args.begin(), mpirun_args.end());
  cmd.insert(cmd.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());

  const bool stats_existed = !o.out.stats_dir.empty() && std::filesystem::exists(o.out.stats_dir);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw InputError(SourceLoc{cmd[0], 0, 0}, std::string("cannot start: ") + std::strerror(errno));
  if (pid == 0) {
    std::vector<char*> argv;
    for (std::string& s : cmd) argv.push_back(s.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "simfab hybrid: cannot start '%s': %s (install openmpi-bin, or set SIMFAB_MPIRUN)\n",
                 argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (rc != 0) {
    remove_partial_outputs(o, stats_existed);
    std::cerr << "simfab hybrid: the job ended with status " << rc << "\n";
  }
  return rc;
}

}  // namespace simfab
