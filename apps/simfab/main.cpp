// The `simfab` command. Exit status: 0 success, 2 bad input (nothing written), 3 deadlock
// detected in the replayed application, 1 internal error.
//
//   simfab run [--platform FILE] (--goal FILE | --trace FILE) [--hostfile FILE] [--cfg key=value]...
//              [--json FILE] [--reproducible] [--quiet]
//   simfab config --list
//   simfab coll --list
//   simfab version | --version
//   simfab help | --help
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/spelling.hpp"
#include "mpi/coll/registry.hpp"
#include "report/summary.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  simfab run [--platform FILE] (--goal FILE | --trace FILE) [--hostfile FILE]\n"
    "             [--cfg key=value]... [--json FILE] [--reproducible] [--quiet]\n"
    "      Predict the run of an application (a GOAL schedule or a SimGrid time-independent\n"
    "      trace) on a platform (YAML). A GOAL schedule may run without --platform (ideal hosts).\n"
    "      --hostfile FILE   the host of each rank: one host name (or host:count) per line, as\n"
    "                        smpirun takes it; default: rank r on the platform's host r\n"
    "      --cfg key=value   set a model parameter (simfab config --list shows them all);\n"
    "                        it overrides the platform file's config: section\n"
    "      --json FILE       also write the results as JSON (written only on success)\n"
    "      --reproducible    write 0 for wall time and memory in the JSON (byte-identical reruns)\n"
    "      --quiet           print nothing on success\n"
    "  simfab config --list   every configuration key with its type, default and meaning\n"
    "  simfab coll --list     every collective algorithm (chosen with --cfg mpi/<collective>=NAME)\n"
    "  simfab version         the version\n"
    "exit status: 0 success, 2 bad input, 3 deadlock in the replayed application, 1 internal error\n";

InputError usage_error(const std::string& what, const std::string& text = {}) {
  return InputError(SourceLoc{"command line", 0, 0}, what + " (simfab help shows the usage)", text);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(SourceLoc{path, 0, 0}, "cannot write the JSON output file");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(SourceLoc{path, 0, 0}, "cannot write the JSON output file");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(SourceLoc{path, 0, 0}, "cannot write the JSON output file");
  }
}

int cmd_coll(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] != "--list") throw usage_error("expected 'simfab coll --list'");
  for (size_t i = 0; i < static_cast<size_t>(coll::CollOp::kCount); ++i) {
    const auto op = static_cast<coll::CollOp>(i);
    std::cout << coll::coll_op_name(op) << " (--cfg " << coll::coll_op_key(op) << "=ALGORITHM)\n";
    for (const coll::CollAlgorithm& a : coll::coll_algorithms(op))
      std::cout << "    " << a.name << ": " << a.doc << "\n";
  }
  return 0;
}

int cmd_config(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] != "--list") throw usage_error("expected 'simfab config --list'");
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& [name, key] : cfg.keys()) {
    std::cout << name << " (" << cfg_type_name(key.type) << ", default " << key.default_text << ")\n    "
              << key.doc << "\n";
    if (!key.choices.empty()) {
      std::cout << "    choices:";
      for (const auto& c : key.choices) std::cout << " " << c;
      std::cout << "\n";
    }
  }
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  Config cfg;
  register_builtin_keys(cfg);
  SimulationInput in;
  std::string json_path;
  bool reproducible = false, quiet = false;
  static const std::vector<std::string_view> kOptions = {"--platform", "--goal",  "--trace",        "--hostfile",
                                                         "--cfg",      "--json",  "--reproducible", "--quiet"};
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::string value;
    bool has_inline = false;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_inline = true;
    }
    auto take = [&]() -> std::string {
      if (has_inline) return value;
      if (i + 1 >= args.size()) throw usage_error("option " + a + " needs a value");
      return args[++i];
    };
    if (a == "--platform") in.platform_path = take();
    else if (a == "--goal") in.goal_path = take();
    else if (a == "--trace") in.trace_path = take();
    else if (a == "--hostfile") in.hostfile_path = take();
    else if (a == "--cfg") cfg.set_assignment(take(), SourceLoc{"--cfg", 0, 0});
    else if (a == "--json") json_path = take();
    else if (a == "--reproducible" && !has_inline) reproducible = true;
    else if (a == "--quiet" && !has_inline) quiet = true;
    else {
      std::string near = nearest_name(a, kOptions);
      throw usage_error("unknown option '" + args[i] + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
  }
  if (in.goal_path.empty() == in.trace_path.empty())
    throw usage_error("give exactly one application: --goal FILE or --trace FILE");

  RunResult r = run_simulation(in, cfg);
  if (!r.exec.blocked.empty()) {
    std::cerr << "simfab: deadlock: the application can make no more progress; " << r.exec.blocked.size()
              << " of " << r.num_ranks << " ranks are blocked:\n";
    size_t shown = 0;
    for (const auto& b : r.exec.blocked) {
      if (shown++ == 32) {
        std::cerr << "  ... and " << (r.exec.blocked.size() - 32) << " more\n";
        break;
      }
      std::cerr << "  rank " << b.rank << ": " << b.waits_for << "\n";
    }
    return 3;
  }
  if (!json_path.empty()) write_file_atomically(json_path, result_json(r, cfg, reproducible));
  if (!quiet) print_summary(std::cout, r);
  return 0;
}

int main_impl(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "run") return cmd_run(args);
  if (cmd == "config") return cmd_config(args);
  if (cmd == "coll") return cmd_coll(args);
  if (cmd == "version" || cmd == "--version") {
    std::cout << "simfab " << SIMFAB_VERSION << "\n";
    return 0;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  throw usage_error("unknown command '" + cmd + "'; expected run, config, coll, version or help");
}

}  // namespace
}  // namespace simfab

int main(int argc, char** argv) {
  try {
    return simfab::main_impl(argc, argv);
  } catch (const simfab::InputError& e) {
    std::cerr << simfab::format_error(e);
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "simfab: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "simfab: internal error: " << e.what() << "\n";
    return 1;
  }
}
