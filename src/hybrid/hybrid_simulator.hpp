// HybridSimulator: the simulator process of a hybrid run (seed 002 §2.1-2.5, issue 25): it replays
// the ranks' streams of TI lines (hybrid_protocol.hpp) with simfab's executor, network models and
// collective algorithms while the real program runs, and answers each rank's MPI_Wtime with its
// virtual time.
//
// ORDER. The replay is simfab's TI replay (replay/ti_program.hpp) over a trace of streams
// (TiTrace::open_stream): the engine processes events in virtual-time order, and when it needs a
// rank's next line that has not arrived it blocks (more()) reading the ranks' messages, any
// rank's, until that rank's stream grows. So the simulation is conservative: an event is processed
// only when every rank's next call is known or the rank is known to be busy until later (in an
// op, or waiting in the simulation for a message), and contention between messages that overlap
// in virtual time is what the network model makes of it (flow and packet models share links).
//
// DEADLOCK FREEDOM (docs/architecture.md, "Hybrid execution", has the argument in full). The
// simulator waits only for a rank's next line. A rank sends every line before it waits anywhere
// (rule 1 of apps/hybrid/hybrid_state.hpp) and waits only in real MPI calls and in MPI_Wtime.
// MPI_Wtime's answer needs only lines already sent. A real call returns once the lines the
// simulation needed to complete it have been sent (the peers' matching calls come first in their
// streams), except where a real call waits longer than its simulated counterpart; rule 2 removes
// the known cases (eager sends, rooted collectives' one-way roles). What remains (a real
// collective algorithm waiting on a rank its simulated counterpart does not need) is detected: if
// every rank is blocked in a real call, waiting for MPI_Wtime or finished, while the simulation
// waits for a line, for hybrid/stall-timeout of wall time, the run stops with HybridStall naming
// each rank's state: a real deadlock of the program, or a causality inversion. Never a hang.
//
// Cost per message of the application: its line (~40 B) and, per blocking call that waits, one
// message to the simulator; the simulator parses lines as fast as TI replay.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "hybrid/hybrid_protocol.hpp"
#include "platform/platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"

namespace simfab::hybrid {

struct HybridMessage {
  int tag = 0;
  int source = 0;
  std::string data;
};

// How the simulator reaches the ranks (MPI in apps/hybrid/sim/; a fake in the unit tests).
class HybridTransport {
 public:
  virtual ~HybridTransport() = default;
  virtual void send_setup(int rank, const Setup& setup) = 0;
  // Non-blocking: the next message from any rank, in each rank's order.
  virtual bool poll(HybridMessage& m) = 0;
  // Nothing came: let the ranks run a little (a short sleep).
  virtual void idle() = 0;
  virtual void send_wtime(int rank, double seconds) = 0;
};

// Every rank waits and nothing reaches the simulator: the run cannot go on.
class HybridStall : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The run's hybrid/* settings and what follows from the platform and model. Throws InputError
// for a bad hybrid/* or cpu/reference-speed value, or a model the platform cannot run.
struct HybridSettings {
  double compute_scale = 1;
  double reference_speed = 0;  // flop/s of this machine (cpu/reference-speed); 0: each host's speed
  bool measured = true;        // hybrid/compute
  uint64_t copy_above = 4096;
  uint64_t copy_max = 0;       // the model's largest eager message
  double stall_timeout_s = 10;
};
HybridSettings hybrid_settings(const Platform& platform, const Config& cfg);
inline void check_hybrid_config(const Platform& platform, const Config& cfg) { (void)hybrid_settings(platform, cfg); }

class HybridSimulator {
 public:
  // `rank_host`: the platform host of each rank. Throws InputError for bad hybrid/* values.
  HybridSimulator(HybridTransport& transport, const Platform& platform, const std::vector<HostId>& rank_host,
                  const Config& cfg);

  void send_setups();
  TiTrace& trace() { return *trace_; }
  // Answers the `wtime` lines `program` reads.
  void attach(TiProgram& program);
  // After the replay: reads until every rank's stream has ended.
  void drain();

 private:
  void more(RankId r);
  void dispatch(HybridMessage& m);
  bool stalled() const;
  [[noreturn]] void fail_stalled(RankId waiting_for) const;

  HybridTransport& transport_;
  const Platform& platform_;
  std::vector<HostId> rank_host_;
  std::unique_ptr<TiTrace> trace_;
  HybridSettings settings_;
  std::chrono::duration<double> stall_timeout_;
  enum class Rank : uint8_t { kRunning, kBlocked, kWtime, kEnded };
  std::vector<Rank> ranks_;
  std::vector<std::string> blocked_in_;  // the real call a blocked rank waits in
};

}  // namespace simfab::hybrid
