// The `simfab` command. Exit status: 0 success, 2 bad input (nothing written), 3 deadlock
// detected in the replayed application, 5 a host or link failed (state profiles), 1 internal error.
//
//   simfab run [--platform FILE] (--goal FILE | --trace FILE | --otf2 FILE [--speed S]) [--hostfile FILE] [--cfg key=value]...
//              [--json FILE] [--reproducible] [--quiet]
//   simfab exec -np N [--platform FILE] [--hostfile FILE] [--cfg key=value]... [--json FILE]
//               [--reproducible] [--quiet] PROGRAM [ARGS...]
//   simfab convert (DIR|FILE... | --otf2 FILE) [--ti FILE] [--goal FILE] [--speed S] [--pinning A,B] [--salvage] [--quiet]
//   simfab sweep SPEC.yaml -o RESULTS.csv [-j N] [--progress MODE] [--retry-failed] [--dry-run] [--quiet]
//   simfab goal --trace FILE [--platform FILE] [--hostfile FILE] [--cfg key=value]... -o FILE [--quiet]
//   simfab goal --compile FILE.goal -o FILE.sgb [--quiet]
//   simfab platform describe FILE [--json] | routes FILE --from A --to B [--salt N] [--json]
//                 | export FILE --format dot|json|lft [-o FILE]
//   simfab config --list
//   simfab coll --list
//   simfab version | --version
//   simfab help | --help
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate_cmd.hpp"
#include "cli_options.hpp"
#include "convert_cmd.hpp"
#include "hybrid_cmd.hpp"
#include "platform_cmd.hpp"
#include "report_cmd.hpp"
#include "run_outputs.hpp"
#include "run_sweep.hpp"
#include "sweep_cmd.hpp"
#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/coll/smpi_names.hpp"
#include "replay/goal_binary.hpp"
#include "report/summary.hpp"
#include "sim/goal_export.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  simfab run [--platform FILE [--platform-var NAME=VALUE]...] (--goal FILE | --trace FILE | --otf2 FILE)\n"
    "             [--hostfile FILE] [--cfg key=value]... [--json FILE] [--reproducible] [--quiet] [--sweep SPEC]\n"
    "      Predict the run of an application (a GOAL schedule, a SimGrid time-independent\n"
    "      trace, or an OTF2 archive of a real run: Score-P's traces.otf2) on a platform (YAML).\n"
    "      A GOAL schedule may run without --platform (ideal hosts).\n"
    "      --speed S         with --otf2: the traced machine's flop/s per core; the time between\n"
    "                        MPI calls becomes computation the platform's hosts run at their\n"
    "                        speed (default: fixed time)\n"
    "      --platform-var NAME=VALUE   the value of ${NAME} in the platform file (repeatable;\n"
    "                        ${NAME:-DEFAULT} takes DEFAULT when NAME is not given)\n"
    "      --hostfile FILE   the host of each rank: one host name (or host:count) per line, as\n"
    "                        smpirun takes it; default: rank r on the platform's host r\n"
    "      --cfg key=value   set a model parameter (simfab config --list shows them all);\n"
    "                        it overrides the platform file's config: section\n"
    "      --switch T:key=value[,key=value...]   from simulated time T on, messages go through\n"
    "                        the model these network keys give (repeatable; e.g.\n"
    "                        2ms:network/model=packet); messages in flight finish in theirs\n"
    "      --pcontrol L:key=value,...   what MPI_Pcontrol(L) (simfab exec) switches to\n"
    "      --switch-after COLL:K:key=value,...   switch when each rank's K-th COLL returns\n"
    "      --json FILE       also write the results as JSON (written only on success)\n"
    "      --reproducible    write 0 for wall time and memory in the JSON (byte-identical reruns)\n"
    "      --quiet           print nothing on success\n"
    "      --sweep SPEC      run once per setting and print a time/energy table: KEY=A..B,\n"
    "                        KEY=v1,v2 or a file of key=value lines (pstate = energy/pstate);\n"
    "                        the settings run as separate processes on all cores (the short\n"
    "                        form of simfab sweep)\n"
    "      --trace-out FILE  a timeline in Chrome/Perfetto trace-event JSON (open it in\n"
    "                        ui.perfetto.dev, or turn it into HTML with simfab report)\n"
    "      --paje FILE       a timeline in Paje (ViTE, pajeng)\n"
    "      --otf2-out DIR    the predicted run as an OTF2 archive DIR/traces.otf2 (Vampir,\n"
    "                        otf2-print; simfab run --otf2 reads it back)\n"
    "      --trace-ranks A-B --trace-window T0:T1   what the timelines keep (e.g. 0-15, 1ms:2ms)\n"
    "      --stats DIR       CSV statistics: per-rank time breakdown, communication matrix,\n"
    "                        message sizes, collectives, links, NICs, energy\n"
    "      --portals-log DIR with --cfg nic/model=portals: the NIC's CSV event log (seed 000's\n"
    "                        format, log_0.csv, log_1.csv, ... of 10,000 rows each)\n"
    "      --progress auto|always|never   a status line on stderr (auto: when it is a terminal, and\n"
    "                        not for exec, whose program writes there too)\n"
    "  simfab exec -np N [--platform FILE [--platform-var NAME=VALUE]...] [--hostfile FILE]\n"
    "              [--cfg key=value]... [--json FILE]\n"
    "              [--reproducible] [--quiet] [--trace-out FILE] [--paje FILE] [--stats DIR]\n"
    "              [--trace-ranks A-B] [--trace-window T0:T1] [--progress MODE] [--portals-log DIR]\n"
    "              [--switch T:key=value,...]... [--pcontrol L:key=value,...]...\n"
    "              [--switch-after COLL:K:key=value,...]... [--tag-output] PROGRAM [ARGS...]\n"
    "      Run an MPI program built with simfab-cc, simfab-cxx or simfab-fc (Fortran) inside the\n"
    "      simulation: N ranks, each with its own copy of the program's globals, its MPI calls\n"
    "      simulated, its MPI_Wtime (and gettimeofday, clock_gettime, ...) the simulated time.\n"
    "      Without --platform, a default cluster of N hosts. The program's output comes first,\n"
    "      then the summary. Options end at PROGRAM. Run directly, such a program runs as\n"
    "      `simfab exec -np ${SIMFAB_NP:-1} --quiet`.\n"
    "      -np N, -n N       the number of ranks\n"
    "      --tag-output      prefix each line of the ranks' output with [1,RANK]<stdout>: or\n"
    "                        [1,RANK]<stderr>: (mpirun's --tag-output)\n"
    "      The other options are run's (--progress auto draws nothing: the program writes there).\n"
    "  simfab hybrid -np N [--platform FILE [--platform-var NAME=VALUE]...] [--hostfile FILE]\n"
    "              [--cfg key=value]... [--json FILE]\n"
    "              [--quiet] [--reproducible] [--trace-out FILE] [--paje FILE] [--stats DIR]\n"
    "              [--trace-ranks A-B] [--trace-window T0:T1] [--ti-out FILE]\n"
    "              [--switch T:key=value,...]... [--pcontrol L:key=value,...]...\n"
    "              [--switch-after COLL:K:key=value,...]... [--mpirun-arg ARG]... [--] PROGRAM [ARGS...]\n"
    "      Run a real MPI program (built with mpicc, mpicxx or mpif90; not recompiled) on the real\n"
    "      MPI with simfab supplying the network: mpirun starts N ranks and one simulator process;\n"
    "      the program's MPI_Wtime returns its virtual time on the simulated platform, its results\n"
    "      stay exact. hybrid/compute=none: communication only. Same outputs as simfab run.\n"
    "      --ti-out FILE     also the run's intrusion-free trace as a TI trace (simfab run replays it)\n"
    "      --mpirun-arg ARG  pass ARG to mpirun (repeatable; $SIMFAB_MPIRUN replaces mpirun)\n"
    "      The other options are run's.\n"
    "  simfab sweep SPEC.yaml -o|--output RESULTS.csv [-j|--jobs N] [--progress auto|always|never]\n"
    "               [--retry-failed] [--dry-run] [--quiet]\n"
    "      Run every point of a parameter sweep (the spec: inputs, --cfg keys, axes whose Cartesian\n"
    "      product it runs, explicit points, repetitions, timeout), each as its own simfab run, N at\n"
    "      a time (default: all cores), into one CSV row per point in grid order (the settings, then\n"
    "      makespan_ps, makespan_s, energy_j, messages, wall_s, status, error). Rerunning the command\n"
    "      runs only the points missing from RESULTS.csv; a failed point is a row with its error.\n"
    "      Under mpirun -np K (or srun): process 0 hands the points to the K-1 others as they become\n"
    "      free and writes the same CSV (simfab-sweep-mpi, built with an MPI library).\n"
    "      -j, --jobs N      points run at once (under mpirun: per worker process, default 1)\n"
    "      --progress MODE   a status line with the sweep's ETA on stderr (auto: when a terminal)\n"
    "      --retry-failed    run again the points whose row is not ok\n"
    "      --dry-run         list the points, done or to run, and run nothing\n"
  "  simfab goal --trace FILE [--platform FILE [--platform-var NAME=VALUE]...] [--hostfile FILE]\n"
    "             [--cfg key=value]... -o FILE\n"
    "             [--quiet]\n"
    "      Export a time-independent trace as a GOAL schedule (collectives expanded with the\n"
    "      algorithms replay would use, compute turned into time with the platform's host speeds;\n"
    "      ideal hosts without --platform) that `simfab run --goal` or LogGOPSim can replay.\n"
    "  simfab goal --compile FILE.goal -o FILE.sgb [--quiet]\n"
    "      Compile a GOAL schedule into simfab's binary form: `simfab run --goal FILE.sgb` reads it\n"
    "      without parsing the text (several times faster for large schedules).\n"
    "      -o, --output FILE  the GOAL file (written only on success)\n"
    "  simfab convert (DIR|FILE... | --otf2 FILE.otf2) [--ti OUT.ti] [--goal OUT.goal] [--otf2-out DIR]\n"
    "                 [--speed 2Gf] [--pinning A_us,B_us_per_byte] [--reduce-flops F]\n"
    "                 [--comm-creation measured|simulated] [--salvage] [--quiet]\n"
    "      Convert the per-rank traces of a real MPI run (simfab's capture library or liballprof),\n"
    "      or an OTF2 archive (--otf2: Score-P's, or simfab's --otf2-out), into a time-independent\n"
    "      trace (a list OUT.ti and OUT.ti_files/), a GOAL schedule, and/or an OTF2 archive\n"
    "      (--otf2-out DIR: the measured run, for Vampir).\n"
    "      --speed S         the traced machine's flop/s per core: the time between MPI calls\n"
    "                        becomes flops (default: the traces' # speed: line, else sleeps)\n"
    "      --pinning A,B     memory-pinning compensation: a transfer of n bytes this rank has\n"
    "                        not used before is charged A + B*n us\n"
    "      --reduce-flops F  flops per element a TI reduction charges (default 1; OTF2 0.125/byte)\n"
    "      --comm-creation measured|simulated   charge communicator creations the shortest time\n"
    "                        a member spent in them (default), or only the modelled exchange\n"
    "      --salvage         keep what is valid in damaged traces (a crashed run's .part files)\n"
    "  simfab platform describe FILE [--json]\n"
    "      Hosts, switches, links, diameter, average hop count, bisection bandwidth and a\n"
    "      sample route of a platform.\n"
    "  simfab platform routes FILE --from HOST --to HOST [--salt N] [--json]\n"
    "      The route between two hosts, hop by hop (--salt: the per-message randomness of\n"
    "      Valiant routing).\n"
    "  simfab platform routes FILE --all\n"
    "      Every ordered host pair, a host to itself included: 'A B LATENCY_US : LINK ...'.\n"
    "  simfab platform export FILE --format dot|json|lft [-o|--output FILE]\n"
    "      The platform's graph (Graphviz dot, JSON) or the linear forwarding tables of its\n"
    "      destination-routed topologies.\n"
    "      Each platform command takes --platform-var NAME=VALUE (repeatable): ${NAME} in FILE.\n"
    "  simfab config --list   every configuration key with its type, default and meaning\n"
    "  simfab coll --list     every collective algorithm (chosen with --cfg mpi/<collective>=NAME)\n"
    "  simfab calibrate fit SAMPLES.csv [MORE.csv...] [-o PLATFORM.yaml] [--plot FIT.svg] [--json FIT.json]\n"
    "             [--hosts N] [--breakpoints auto|B1,B2,...] [--max-segments N] [--min-samples N]\n"
    "             [--weights relative|ordinary] [--outlier-factor F] [--keep best|all]\n"
    "             [--max-spread F|P%] [--quiet]\n"
    "      Fit a platform to MPI measurements (piecewise-linear, per message-size segment).\n"
    "      -o, --output FILE  the calibrated platform (YAML); --hosts N its host count (default 2)\n"
    "      --breakpoints      the last size of each segment, or auto (searched, up to\n"
    "                         --max-segments N, default 6); --min-samples N per segment\n"
    "      --weights          least squares on relative (default) or ordinary errors\n"
    "      --outlier-factor F drop measurements more than F times the median at their size\n"
    "                         (default 3; 0 keeps all)\n"
    "      --keep best|all    several runs: fit the best repetition of each size (default) or all\n"
    "      --max-spread F     refuse (exit 2) when the repetitions spread more than F above their\n"
    "                         best (default 50 %; 0 never refuses)\n"
    "  simfab calibrate program [-o FILE]   the MPI calibration program that measures them (C)\n"
    "      -o, --output FILE  where to write it (default: standard output)\n"
    "  simfab calibrate regions REFERENCE.csv MEASURED.csv [-o FACTORS.csv] [--quiet]\n"
    "      Per code region factors from two --stats regions.csv (for --cfg cpu/region-factors=).\n"
    "      -o, --output FILE  the factors (CSV)\n"
    "  simfab report RUN [RUN2] -o|--output REPORT.html [--title TEXT] [--max-slices N]\n"
    "  simfab report RESULTS.csv -o|--output REPORT.html [--title TEXT]\n"
    "      One self-contained HTML page of a run, or two compared (RUN2 against RUN): each RUN is a\n"
    "      `simfab run --trace-out` file, its --json result or an OTF2 archive (ARCHIVE.otf2: the\n"
    "      measured run). Or the results of `simfab sweep SPEC.yaml -o RESULTS.csv` (told by their\n"
    "      header): any result column against any axis, one line per value of the other axes, or a\n"
    "      heatmap over two axes; failed points are marked with their error. --title: the page's\n"
    "      title (default: the application, or `simfab sweep: RESULTS.csv`).\n"
    "  simfab COMMAND --help  that command's part of this text\n"
    "  simfab version         the version\n"
    "exit status: 0 success, 2 bad input (or an MPI usage error in exec), 3 deadlock, 4 a rank of exec\n"
    "crashed, 5 a host or link of the platform failed (state profiles), 1 internal error; exec: a rank's\n"
    "own non-zero exit status or MPI_Abort code\n";

// Prints the entries of kUsage for `cmd` (lines from "  simfab CMD" up to the next entry of
// another command); false when there is none.
bool command_usage(const std::string& cmd, std::ostream& out) {
  const std::string_view usage = kUsage;
  const std::string head = "  simfab " + cmd + " ";
  bool printing = false, any = false;
  for (size_t pos = 0; pos < usage.size();) {
    size_t end = usage.find('\n', pos);
    if (end == std::string_view::npos) end = usage.size();
    const std::string_view line = usage.substr(pos, end - pos);
    if (line.rfind("  simfab ", 0) == 0) printing = line.rfind(head, 0) == 0;
    else if (line.rfind("exit status", 0) == 0) printing = false;
    if (printing) {
      out << line << "\n";
      any = true;
    }
    pos = end + 1;
  }
  return any;
}

int cmd_coll(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] != "--list") throw usage_error("expected 'simfab coll --list'");
  for (size_t i = 0; i < static_cast<size_t>(coll::CollOp::kCount); ++i) {
    const auto op = static_cast<coll::CollOp>(i);
    std::cout << coll::coll_op_name(op) << " (--cfg " << coll::coll_op_key(op) << "=ALGORITHM)\n";
    for (const coll::CollAlgorithm& a : coll::coll_algorithms(op))
      std::cout << "    " << a.name << ": " << a.doc << "\n";
    const std::string sg_key = coll::smpi_key(op);
    if (sg_key.empty()) continue;
    std::cout << "  SimGrid's names (--cfg " << sg_key << "=NAME; * = the nearest simfab algorithm, not SimGrid's messages):\n   ";
    for (const coll::SmpiName& n : coll::smpi_names(op))
      std::cout << " " << n.simgrid << (n.exact ? "" : "*") << "=" << n.simfab;
    std::cout << "\n";
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

int report_deadlock(const RunResult& r) {
  std::cout.flush();
  if (!r.exec.network_stuck.empty()) std::cerr << "simfab: the network deadlocked: " << r.exec.network_stuck << "\n";
  std::cerr << "simfab: deadlock: the application can make no more progress; " << r.exec.blocked.size() << " of "
            << r.num_ranks << " ranks are blocked"
            << (r.exec.network_stuck.empty() ? ":\n"
                                             : " (their messages are stuck in the network's cycle above, so a "
                                               "send or receive below may have a partner whose packets never "
                                               "arrived):\n");
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

int finish_run(const RunResult& r, const Config& cfg, bool quiet, RunOutputs& outputs) {
  outputs.finish(r);
  if (!quiet) print_summary(std::cout, r, cfg);
  return 0;
}

int cmd_exec(const std::vector<std::string>& args) {
  Config cfg;
  register_builtin_keys(cfg);
  SimulationInput in;
  std::string json_path;
  bool reproducible = false, quiet = false;
  // Options come first; the first argument that is not one is the program, the rest its own.
  size_t i = 0;
  std::vector<std::string> options;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.empty() || a[0] != '-') break;
    options.push_back(a);
    const bool flag = a == "--reproducible" || a == "--quiet" || a == "--tag-output" || a.find('=') != std::string::npos;
    if (!flag && i + 1 < args.size()) options.push_back(args[++i]);
  }
  static constexpr CliOption kOptions[] = {
      {"-np"},       {"-n"},           {"--platform"},    {"--platform-var"}, {"--hostfile"},     {"--cfg"},
      {"--json"},    {"--reproducible", false},           {"--quiet", false}, {"--trace-out"},
      {"--paje"},    {"--stats"},      {"--trace-ranks"}, {"--trace-window"}, {"--progress"},
      {"--portals-log"}, {"--switch"}, {"--pcontrol"}, {"--switch-after"}, {"--tag-output", false}};
  OutputOptions out_opts;
  out_opts.program_shares_terminal = true;
  parse_options(options, kOptions, [&](std::string_view name, const std::string& value) {
    if (apply_input_option(name, value, in, cfg) || apply_output_option(name, value, out_opts)) return;
    if (name == "-np" || name == "-n") {
      char* end = nullptr;
      const long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 1 || n > 1'000'000)
        throw usage_error("-np expects a number of ranks between 1 and 1000000, got '" + value + "'");
      in.num_ranks = static_cast<int>(n);
    } else if (name == "--json") {
      json_path = value;
    } else if (name == "--reproducible") {
      reproducible = true;
    } else if (name == "--tag-output") {
      in.tag_output = true;
    } else {
      quiet = true;
    }
  });
  if (!in.goal_path.empty() || !in.trace_path.empty())
    throw usage_error("simfab exec runs a program; --goal and --trace belong to simfab run");
  if (i == args.size()) throw usage_error("give the program to run: simfab exec -np N [options] PROGRAM [ARGS...]");
  if (in.num_ranks == 0) throw usage_error("give the number of ranks: -np N");
  in.program.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  out_opts.json = json_path;
  RunOutputs outputs(std::move(out_opts));
  RunHooks hooks;
  outputs.prepare(hooks, cfg, reproducible, quiet);
  RunResult r = run_simulation(in, cfg, hooks);
  if (!r.exec.blocked.empty()) return report_deadlock(r);
  return finish_run(r, cfg, quiet, outputs);
}

int cmd_run(const std::vector<std::string>& args) {
  Config cfg;
  register_builtin_keys(cfg);
  SimulationInput in;
  std::string json_path;
  std::string sweep;
  bool reproducible = false, quiet = false;
  static constexpr CliOption kOptions[] = {
      {"--platform"}, {"--platform-var"}, {"--goal"},  {"--trace"},       {"--hostfile"},     {"--cfg"},
      {"--json"},     {"--reproducible", false},      {"--quiet", false}, {"--sweep"},
      {"--otf2"},     {"--speed"},
      {"--trace-out"}, {"--paje"}, {"--stats"},       {"--trace-ranks"},  {"--trace-window"}, {"--progress"},
      {"--otf2-out"},
      {"--portals-log"}, {"--switch"}, {"--pcontrol"}, {"--switch-after"}};
  OutputOptions out_opts;
  parse_options(args, kOptions, [&](std::string_view name, const std::string& value) {
    if (apply_input_option(name, value, in, cfg) || apply_output_option(name, value, out_opts)) return;
    if (name == "--json") json_path = value;
    else if (name == "--reproducible") reproducible = true;
    else if (name == "--sweep") sweep = value;
    else if (name == "--speed") in.otf2_speed = parse_speed_option(value);
    else quiet = true;
  });
  if (int(!in.goal_path.empty()) + int(!in.trace_path.empty()) + int(!in.otf2_path.empty()) != 1)
    throw usage_error("give exactly one application: --goal FILE, --trace FILE or --otf2 ARCHIVE.otf2");
  if (in.otf2_speed > 0 && in.otf2_path.empty())
    throw usage_error("--speed scales the computation of an OTF2 trace (--otf2); a TI trace's computations are flops already");
  if (!sweep.empty()) {
    if (!out_opts.trace_out.empty() || !out_opts.paje.empty() || !out_opts.stats_dir.empty() || out_opts.filtered ||
        !out_opts.otf2_out.empty() ||
        out_opts.progress != OutputOptions::Progress::kAuto || !out_opts.portals_log.empty())
      throw usage_error("--sweep runs many simulations; --trace-out, --paje, --otf2-out, --stats, --trace-ranks, "
                        "--trace-window, --progress and --portals-log belong to a single run");
    return run_sweep(sweep, single_run_arguments(args), cfg, json_path, quiet);
  }

  out_opts.json = json_path;
  RunOutputs outputs(std::move(out_opts));
  RunHooks hooks;
  outputs.prepare(hooks, cfg, reproducible, quiet);
  RunResult r = run_simulation(in, cfg, hooks);
  if (!r.exec.blocked.empty()) return report_deadlock(r);
  return finish_run(r, cfg, quiet, outputs);
}

// `simfab goal --compile IN.goal -o OUT.sgb`: the compiled form (replay/goal_binary.hpp).
int compile_goal(const std::string& in_path, const std::string& out_path, bool quiet) {
  bool compiled = false;
  const GoalSchedule g = load_goal_file(in_path, compiled);
  if (compiled) throw InputError(SourceLoc{in_path, 0, 0}, "is already a compiled GOAL schedule");
  write_file_atomically(out_path, "the compiled GOAL file", [&](std::ostream& out) { write_compiled_goal(g, out); });
  if (!quiet)
    std::cout << "simfab: compiled " << in_path << " into " << out_path << ": " << g.num_ranks << " ranks, "
              << g.op_count() << " ops, " << g.succ.size() << " dependencies\n";
  return 0;
}

int cmd_goal(const std::vector<std::string>& args) {
  Config cfg;
  register_builtin_keys(cfg);
  SimulationInput in;
  std::string out_path;
  bool quiet = false;
  std::string compile;
  static constexpr CliOption kOptions[] = {{"--trace"}, {"--platform"}, {"--platform-var"}, {"--hostfile"}, {"--cfg"},
                                           {"-o"},      {"--output"},   {"--quiet", false}, {"--compile"}};
  parse_options(args, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "--compile") compile = value;
    else if (apply_input_option(name, value, in, cfg)) return;
    else if (name == "--quiet") quiet = true;
    else out_path = value;
  });
  if (!compile.empty()) {
    if (!in.trace_path.empty() || !in.platform_path.empty() || !in.hostfile_path.empty())
      throw usage_error("--compile takes a GOAL file and -o alone: 'simfab goal --compile IN.goal -o OUT.sgb'");
    if (out_path.empty()) throw usage_error("give the compiled file to write: -o FILE.sgb");
    return compile_goal(compile, out_path, quiet);
  }
  if (in.trace_path.empty()) throw usage_error("give the trace to export: --trace FILE");
  if (out_path.empty()) throw usage_error("give the GOAL file to write: -o FILE");
  GoalExportResult r;
  write_file_atomically(out_path, "the GOAL output file",
                        [&](std::ostream& out) { r = export_trace_as_goal(in, cfg, out); });
  if (!quiet)
    std::cout << "simfab: wrote " << out_path << ": " << r.num_ranks << " ranks, " << r.stats.ops << " ops, "
              << r.stats.dependencies << " dependencies\n";
  return 0;
}

int main_impl(int argc, char** argv) {
  install_interrupt_handlers();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h") && command_usage(cmd, std::cout)) return 0;
  if (cmd == "run") return cmd_run(args);
  if (cmd == "exec") return cmd_exec(args);
  if (cmd == "hybrid") return cmd_hybrid(args);
  if (cmd == "sweep") return cmd_sweep(args);
  if (cmd == "goal") return cmd_goal(args);
  if (cmd == "convert") return cmd_convert(args);
  if (cmd == "platform") return cmd_platform(args);
  if (cmd == "config") return cmd_config(args);
  if (cmd == "coll") return cmd_coll(args);
  if (cmd == "calibrate") return cmd_calibrate(args);
  if (cmd == "report") return cmd_report(args);
  if (cmd == "version" || cmd == "--version") {
    std::cout << "simfab " << SIMFAB_VERSION << "\n";
    return 0;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  throw usage_error("unknown command '" + cmd + "'; expected run, exec, hybrid, sweep, goal, convert, calibrate, report, platform, config, coll, version or help");
}

}  // namespace
}  // namespace simfab

int main(int argc, char** argv) {
  try {
    return simfab::main_impl(argc, argv);
  } catch (const simfab::InputError& e) {
    std::fflush(stdout);
    std::cerr << simfab::format_error(e);
    return 2;
  } catch (const simfab::PlatformFailure& e) {
    std::fflush(stdout);
    std::cerr << "simfab: failure: " << e.what() << "\n";
    return 5;
  } catch (const std::bad_alloc&) {
    std::cerr << "simfab: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "simfab: internal error: " << e.what() << "\n";
    return 1;
  }
}
