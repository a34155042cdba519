// The simulator side of hybrid execution without MPI (issue 25): TI streams that fill while the
// replay runs (TiTrace::open_stream) and HybridSimulator over a scripted transport: the same
// prediction as the trace read from a file, MPI_Wtime answered with the rank's virtual time at its
// `wtime` line, and a stall (every rank waiting, nothing coming) reported, never waited on.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "hybrid/hybrid_simulator.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "net/riesen/riesen_network.hpp"
#include "platform/platform.hpp"
#include "platform/yaml_platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

// 1 flop = 1 ps.
Platform tera_platform(int n) {
  Platform p;
  for (int i = 0; i < n; ++i) p.add_host(Host{"h" + std::to_string(i), 1, 1e12, -1, -1});
  return p;
}

const LogGOPSParams kParams{SimTime::ps(1000), SimTime::ps(100), SimTime::ps(0), 1.0, 0, 65535};

const std::vector<std::string> kLines0 = {"0 init\n", "0 compute 5000\n", "0 send 1 7 100\n",
                                          "0 recv 1 7 100\n", "0 wtime\n", "0 finalize\n"};
const std::vector<std::string> kLines1 = {"1 init\n", "1 recv 0 7 100\n", "1 compute 2000\n", "1 send 0 7 100\n",
                                          "1 finalize\n"};

SimTime replay(TiTrace& trace, std::vector<std::pair<int, double>>* wtimes = nullptr) {
  const Platform platform = tera_platform(2);
  Engine engine;
  LogGOPSNetwork net(engine, platform, kParams);
  OpPool ops;
  const std::vector<HostId> hosts{0, 1};
  TiProgram program(trace, ops, platform, hosts);
  if (wtimes) program.set_wtime_hook([&](RankId r, SimTime t) { wtimes->emplace_back(r, t.seconds()); });
  Executor ex(engine, net, ops, program, hosts);
  const ExecutionResult res = ex.run();
  EXPECT_TRUE(res.blocked.empty());
  return res.makespan;
}

TEST(HybridStream, LinesArrivingDuringTheReplayGiveTheSamePredictionAsTheWholeTrace) {
  std::string whole;
  for (const auto& l : kLines0) whole += l;
  for (const auto& l : kLines1) whole += l;
  auto file_trace = TiTrace::open_stream(2, "whole", [](RankId) {});
  file_trace->append(0, whole.substr(0, whole.find("1 init")));
  file_trace->append(1, whole.substr(whole.find("1 init")));
  file_trace->end_stream(0);
  file_trace->end_stream(1);
  const SimTime expected = replay(*file_trace);

  // One line at a time, only when the replay asks for it.
  size_t next[2] = {0, 0};
  int asked = 0;
  std::unique_ptr<TiTrace> stream;
  stream = TiTrace::open_stream(2, "hybrid", [&](RankId r) {
    ++asked;
    const auto& lines = r == 0 ? kLines0 : kLines1;
    size_t& i = next[static_cast<size_t>(r)];
    if (i == lines.size()) stream->end_stream(r);
    else stream->append(r, lines[i++]);
  });
  std::vector<std::pair<int, double>> wtimes;
  EXPECT_EQ(replay(*stream, &wtimes), expected);
  EXPECT_GE(asked, static_cast<int>(kLines0.size() + kLines1.size()));
  // Rank 0 reads the clock after its round trip: 5000 (compute) + 2 x (o + L + o + 100 G) + the
  // receiver's 2000 in between... exactly its finish time minus nothing (wtime is a zero step).
  ASSERT_EQ(wtimes.size(), 1u);
  EXPECT_EQ(wtimes[0].first, 0);
  EXPECT_DOUBLE_EQ(wtimes[0].second, 5000e-12 + 2 * (100 + 1000 + 100 + 99) * 1e-12 + 2000e-12);
}

TEST(HybridStream, ALineOfAnotherRankIsAnError) {
  auto t = TiTrace::open_stream(1, "hybrid", [](RankId) {});
  t->append(0, "1 init\n");
  t->end_stream(0);
  uint64_t pos = 0;
  TiLine line;
  EXPECT_THROW(t->next_line(0, pos, line), InputError);
}

// A transport that plays back a script of messages and records the simulator's answers.
class ScriptedTransport final : public hybrid::HybridTransport {
 public:
  std::deque<hybrid::HybridMessage> script;
  std::vector<hybrid::Setup> setups;
  std::vector<std::pair<int, double>> wtimes;
  int idles = 0;
  void send_setup(int, const hybrid::Setup& s) override { setups.push_back(s); }
  bool poll(hybrid::HybridMessage& m) override {
    if (script.empty()) return false;
    m = script.front();
    script.pop_front();
    return true;
  }
  void idle() override { ++idles; }
  void send_wtime(int rank, double s) override { wtimes.emplace_back(rank, s); }
};

Config hybrid_config() {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("hybrid/stall-timeout", "20ms", SourceLoc{});
  return cfg;
}

TEST(HybridSimulator, AnswersWtimeAndTellsEachRankItsFlopRate) {
  Platform platform = parse_platform_yaml(
      "clusters:\n  - {name: c, prefix: n, count: 2, speed: 2Gf, bandwidth: 10Gbps, latency: 1us}\n", "test");
  const std::vector<HostId> hosts{0, 1};
  Config cfg = hybrid_config();
  ScriptedTransport t;
  std::string r0, r1;
  for (const auto& l : kLines0) r0 += l;
  for (const auto& l : kLines1) r1 += l;
  t.script.push_back({hybrid::kWtimeLines, 0, r0.substr(0, r0.find("0 finalize"))});
  t.script.push_back({hybrid::kLines, 1, r1});
  t.script.push_back({hybrid::kEnd, 1, ""});
  t.script.push_back({hybrid::kLines, 0, "0 finalize\n"});
  t.script.push_back({hybrid::kEnd, 0, ""});
  hybrid::HybridSimulator sim(t, platform, hosts, cfg);
  sim.send_setups();
  ASSERT_EQ(t.setups.size(), 2u);
  EXPECT_DOUBLE_EQ(t.setups[0].flops_per_s, 2e9);  // the host's speed (cpu/reference-speed 0)
  EXPECT_EQ(t.setups[0].copy_above, 4096u);
  EXPECT_EQ(t.setups[0].copy_max, 65535u);  // LogGOPS: eager up to loggops/S = 65535 bytes
  Engine engine;
  OpPool ops;
  TiProgram program(sim.trace(), ops, platform, hosts);
  sim.attach(program);
  RunResult out;
  execute_program(platform, hosts, program, ops, engine, cfg, out);
  sim.drain();
  ASSERT_EQ(t.wtimes.size(), 1u);
  EXPECT_EQ(t.wtimes[0].first, 0);
  EXPECT_GT(t.wtimes[0].second, 4e-6);  // two 1-us hops each way, and the computations
  EXPECT_LE(t.wtimes[0].second, out.exec.makespan.seconds());
}

TEST(HybridSimulator, EveryRankWaitingAndNothingComingIsAStallNotAHang) {
  Platform platform = parse_platform_yaml(
      "clusters:\n  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n", "test");
  const std::vector<HostId> hosts{0, 1};
  Config cfg = hybrid_config();
  ScriptedTransport t;
  t.script.push_back({hybrid::kWtimeLines, 0, "0 init\n0 compute 1e9\n0 wtime\n"});
  t.script.push_back({hybrid::kLines, 1, "1 init\n"});
  t.script.push_back({hybrid::kBlocked, 1, std::string(1, '\0') + "MPI_Recv"});  // no pending lines
  hybrid::HybridSimulator sim(t, platform, hosts, cfg);
  Engine engine;
  OpPool ops;
  TiProgram program(sim.trace(), ops, platform, hosts);
  sim.attach(program);
  RunResult out;
  try {
    execute_program(platform, hosts, program, ops, engine, cfg, out);
    FAIL() << "no stall reported";
  } catch (const hybrid::HybridStall& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("causality inversion"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 1: blocked in MPI_Recv"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 0: waiting for MPI_Wtime"), std::string::npos) << what;
  }
  EXPECT_GT(t.idles, 0);
}

TEST(HybridSimulator, BadHybridValuesAreInputErrors) {
  Platform platform = parse_platform_yaml(
      "clusters:\n  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n", "test");
  Config cfg = hybrid_config();
  cfg.set("hybrid/compute-scale", "-1", SourceLoc{});
  EXPECT_THROW(hybrid::check_hybrid_config(platform, cfg), InputError);
  cfg.set("hybrid/compute-scale", "0.5", SourceLoc{});
  EXPECT_NO_THROW(hybrid::check_hybrid_config(platform, cfg));
}

TEST(RiesenNetwork, DelayIsSizeOverScaledBandwidthPlusScaledLatencyAndCollectivesScale) {
  Platform platform = parse_platform_yaml(
      "clusters:\n  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 8Gbps, latency: 1us}\n", "test");
  Engine engine;
  const RiesenNetwork plain(engine, platform, RiesenParams{1, 1, 1});
  // B = 1e9 B/s, L = 2 us (two links): 1e6 B take 1 ms + 2 us.
  EXPECT_EQ(plain.delay(0, 1, 1000000, false), SimTime::ps(1'002'000'000));
  const RiesenNetwork scaled(engine, platform, RiesenParams{4, 0.5, 0});
  EXPECT_EQ(scaled.delay(0, 1, 1000000, false), SimTime::ps(250'000'000 + 1'000'000));
  EXPECT_EQ(scaled.delay(0, 1, 1000000, true), SimTime::zero());  // gamma = 0: free collectives
  EXPECT_EQ(plain.protocol(1 << 30), Protocol::kEager);
  Config cfg = hybrid_config();
  cfg.set("hybrid/bw-scale", "0", SourceLoc{});
  EXPECT_THROW(riesen_params(cfg), InputError);
}

}  // namespace
}  // namespace simfab
