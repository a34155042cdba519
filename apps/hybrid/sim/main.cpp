// simfab-hybrid-sim: the simulator process of a hybrid run (issue 25; src/hybrid/hybrid_simulator.hpp).
// The last process of the job becomes this program (apps/hybrid/wrap_init.cpp); its options come
// from SIMFAB_HYBRID_OPTS (apps/simfab/hybrid_options.hpp), then its own command line.
//
// It loads the platform (the default cluster without --platform), maps the N ranks to hosts, sends
// each rank its Setup, replays the ranks' streams while they run (answering MPI_Wtime), reads the
// streams to their ends and writes the outputs of `simfab run` (summary, --json, --stats,
// --trace-out, --paje) for the predicted run. Bad input, a deadlock of the simulated run or a
// stall (HybridStall) ends the whole job through MPI_Abort: exit 2 for bad input, 3 for a
// deadlock or a stall; outputs are written only after a complete run.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "../../simfab/cli_options.hpp"
#include "../../simfab/hybrid_options.hpp"
#include "../../simfab/run_outputs.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "energy/greedy_lb.hpp"
#include "hybrid/hybrid_simulator.hpp"
#include "mpi_transport.hpp"
#include "online/online_run.hpp"
#include "report/summary.hpp"

namespace {

using namespace simfab;

std::string deadlock_text(const RunResult& r) {
  std::ostringstream os;
  if (!r.exec.network_stuck.empty()) os << "simfab: the network deadlocked: " << r.exec.network_stuck << "\n";
  os << "simfab hybrid: deadlock in the simulated run: " << r.exec.blocked.size() << " of " << r.num_ranks
     << " ranks are blocked:";
  size_t shown = 0;
  for (const auto& b : r.exec.blocked) {
    if (shown++ == 32) break;
    os << "\n  rank " << b.rank << ": " << b.waits_for;
  }
  return os.str();
}

int simulate(hybrid::MpiTransport& transport, int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  Config cfg;
  register_builtin_keys(cfg);
  HybridRunOptions o;
  std::vector<std::string> args;
  if (const char* env = std::getenv("SIMFAB_HYBRID_OPTS")) args = split_options(env);
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  parse_hybrid_options(args, o, cfg);
  const int n = transport.num_ranks();
  o.in.num_ranks = n;
  Platform platform = load_run_platform(o.in, cfg);
  if (o.in.platform_path.empty()) platform = online::default_cluster(n);
  const char* app = std::getenv("SIMFAB_HYBRID_APP");
  RunResult out;
  out.model = cfg.choice("network/model");
  out.application = app ? app : "hybrid";
  out.application_format = "hybrid";
  const std::vector<HostId> rank_host = map_ranks(o.in, platform, n, out.application);

  hybrid::HybridSimulator sim(transport, platform, rank_host, cfg);
  RunOutputs outputs(o.out);
  RunHooks hooks;
  outputs.prepare(hooks, cfg, o.reproducible, o.quiet);
  sim.send_setups();
  OpPool ops;
  Engine engine;
  TiProgram program(sim.trace(), ops, platform, rank_host, coll::CollChoice::from(cfg), energy::lb_options(cfg));
  sim.attach(program);
  execute_program(platform, rank_host, program, ops, engine, cfg, out, hooks, o.in.switches);
  if (!out.exec.blocked.empty()) transport.abort(3, deadlock_text(out));
  sim.drain();
  if (!o.ti_out.empty())  // every rank's stream in turn: a shared trace whose ranks come in blocks
    write_file_atomically(o.ti_out, "the hybrid run's TI trace (--ti-out)", [&](std::ostream& os) {
      for (int r = 0; r < n; ++r) os << sim.trace().text(static_cast<uint32_t>(r));
    });
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  outputs.finish(out);
  if (!o.quiet) {
    std::cout.flush();
    print_summary(std::cout, out, cfg);
    std::cout.flush();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  simfab::hybrid::MpiTransport transport(&argc, &argv);
  try {
    const int rc = simulate(transport, argc, argv);
    transport.finalize();
    return rc;
  } catch (const simfab::InputError& e) {
    transport.abort(2, "simfab hybrid: " + simfab::format_error(e));
  } catch (const simfab::hybrid::HybridStall& e) {
    transport.abort(3, std::string("simfab hybrid: ") + e.what());
  } catch (const std::exception& e) {
    transport.abort(1, std::string("simfab hybrid: internal error: ") + e.what());
  }
}
