// FlowNetwork closed forms (issue 3): latency * lat_factor + size / (bw * bw_factor) alone, fair
// halves when two flows share a link, and rate changes when a flow joins or leaves mid-transfer.
#include <gtest/gtest.h>

#include "core/config.hpp"
#include "mpi/executor.hpp"
#include "net/flow/flow_network.hpp"
#include "replay/goal_program.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

// Four hosts a0..a3; one shared link L (1e9 B/s, 1 us) carries a0->a2 and a1->a3.
Platform shared_link_platform() {
  Platform p;
  LinkId l = p.add_link(Link{"L", 1e9, SimTime::ps(1000000)});
  for (int i = 0; i < 4; ++i) p.add_host(Host{"a" + std::to_string(i), 1, 1e9, -1, -1});
  p.add_route(0, 2, {l}, false);
  p.add_route(1, 3, {l}, false);
  return p;
}

struct FlowRun {
  ExecutionResult r;
  NetworkStats stats;
};

FlowRun run_flow_on(const Platform& platform, const std::string& goal, const std::vector<std::string>& cfg_lines,
                    std::vector<HostId> rank_host) {
  GoalSchedule g = parse_goal_text(goal, "flow.goal");
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", "flow", {});
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  Engine engine;
  flow::FlowNetwork net(engine, platform, cfg);
  GoalProgram prog(g);
  Executor ex(engine, net, g.ops, prog, std::move(rank_host));
  FlowRun out{ex.run(), {}};
  out.stats = net.statistics();
  return out;
}

ExecutionResult run_flow(const std::string& goal, const std::vector<std::string>& cfg_lines = {}) {
  return run_flow_on(shared_link_platform(), goal, cfg_lines, {0, 1, 2, 3}).r;
}

constexpr int64_t kUs = 1000000;  // ps
constexpr int64_t kMs = 1000 * kUs;

const char* kOneFlow = "num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } rank 1 { } "
                       "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { }";

TEST(FlowNetwork, OneFlowTakesLatencyPlusSizeOverBandwidth) {
  ExecutionResult r = run_flow(kOneFlow);
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.finish[2].ps(), 1 * kUs + 1 * kMs);  // 1 us + 1e6 B / 1e9 B/s
  EXPECT_EQ(r.finish[0].ps(), 1 * kUs + 1 * kMs);  // synchronous: the sender completes with the data
}

TEST(FlowNetwork, FactorsScaleLatencyAndBandwidth) {
  ExecutionResult r = run_flow(kOneFlow, {"flow/lat-factor=0:2", "flow/bw-factor=0:0.5"});
  EXPECT_EQ(r.finish[2].ps(), 2 * kUs + 2 * kMs);
}

TEST(FlowNetwork, OverheadsChargeTheCpus) {
  // os = 1 us + 1 ps/B, or = 2 us: the data leaves after os and the receiver adds or.
  ExecutionResult r = run_flow(kOneFlow, {"flow/os=0:1e-6:1e-12", "flow/or=0:2e-6:0"});
  EXPECT_EQ(r.finish[2].ps(), (1 * kUs + 1000000) + 1 * kUs + 1 * kMs + 2 * kUs);
}

TEST(FlowNetwork, TwoFlowsOnOneLinkGetHalfEach) {
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } rank 1 { s: send 1000000b to 3 tag 0 } "
                               "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { r: recv 1000000b from 1 tag 0 }");
  EXPECT_EQ(r.finish[2].ps(), 1 * kUs + 2 * kMs);
  EXPECT_EQ(r.finish[3].ps(), 1 * kUs + 2 * kMs);
}

TEST(FlowNetwork, RatesChangeWhenAFlowJoinsAndLeaves) {
  // A starts at 0; B's data enters the link at 0.5 ms + 1 us. A alone moves 5e5 B by then, then
  // both run at half rate: A finishes 1 ms later (1.501 ms); B has moved 5e5 B and finishes the
  // rest alone at full rate in 0.5 ms (2.001 ms).
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } "
                               "rank 1 { c: calc 500000000  s: send 1000000b to 3 tag 0  s requires c } "
                               "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { r: recv 1000000b from 1 tag 0 }");
  EXPECT_EQ(r.finish[2].ps(), 1501 * kUs);
  EXPECT_EQ(r.finish[3].ps(), 2001 * kUs);
}

TEST(FlowNetwork, EagerBelowTheThreshold) {
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { s: send 1000b to 2 tag 0 } rank 1 { } "
                               "rank 2 { r: recv 1000b from 0 tag 0 } rank 3 { }");
  EXPECT_EQ(r.finish[0].ps(), 0);                     // eager, no overhead: done at issue
  EXPECT_EQ(r.finish[2].ps(), 1 * kUs + 1000000);     // 1 us + 1000 B / 1e9 B/s
}

// The InputError that constructing the model with `assignment` raises ("" when none).
std::string construction_error(const std::string& assignment) {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set_assignment(assignment, {});
  Platform p = shared_link_platform();
  Engine engine;
  try {
    flow::FlowNetwork net(engine, p, cfg);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FlowNetwork, BadTablesNameTheKey) {
  EXPECT_NE(construction_error("flow/bw-factor=0:1;0:2").find("bad value for flow/bw-factor: section 2 starts at 0"),
            std::string::npos);
}

// Seed 003 §IV-A protocol modes (digest tests S2-S4): the receiver posts its receive 1 ms late.
std::string late_receiver(Bytes size) {
  const std::string k = std::to_string(size);
  return "num_ranks 4 rank 0 { s: send " + k + "b to 2 tag 0 } rank 1 { } "
         "rank 2 { c: calc 1000000000  r: recv " + k + "b from 0 tag 0  r requires c } rank 3 { }";
}

TEST(FlowProtocol, AsynchronousSenderReturnsAndDataWaitsAtTheReceiver) {
  // S2: k <= S_a; os = 1 us, or = 2 us. The data has arrived long before the receive is posted.
  ExecutionResult r = run_flow(late_receiver(65536), {"flow/os=0:1e-6:0", "flow/or=0:2e-6:0"});
  EXPECT_EQ(r.finish[0].ps(), 1 * kUs);
  // The data arrived at 1 + 65.5 us; the receiver's CPU takes it (or = 2 us) once its calc is done.
  EXPECT_EQ(r.finish[2].ps(), 1 * kMs + 2 * kUs);
}

TEST(FlowProtocol, DetachedSenderReturnsButDataStartsAtThePost) {
  // S3: S_a < k <= S_d: recv completion = post (1 ms) + 1 us + k / B.
  ExecutionResult r = run_flow(late_receiver(100000), {"flow/os=0:1e-6:0"});
  EXPECT_EQ(r.finish[0].ps(), 1 * kUs);
  EXPECT_EQ(r.finish[2].ps(), 1 * kMs + 1 * kUs + 100 * kUs);
}

TEST(FlowProtocol, SynchronousSenderWaitsForTheData) {
  // S4: k > S_d: both complete when the data has arrived, at post + 1 us + k / B.
  ExecutionResult r = run_flow(late_receiver(1000000));
  EXPECT_EQ(r.finish[0].ps(), 1 * kMs + 1 * kUs + 1 * kMs);
  EXPECT_EQ(r.finish[2].ps(), r.finish[0].ps());
}

TEST(FlowProtocol, ModesChangeExactlyAtTheThresholds) {
  // The sender of a late-received message finishes at os (1 us) unless it is synchronous.
  const std::vector<std::string> os{"flow/os=0:1e-6:0"};
  EXPECT_EQ(run_flow(late_receiver(65536), os).finish[0].ps(), 1 * kUs);    // asynchronous
  EXPECT_EQ(run_flow(late_receiver(65537), os).finish[0].ps(), 1 * kUs);    // detached
  EXPECT_EQ(run_flow(late_receiver(327680), os).finish[0].ps(), 1 * kUs);   // detached
  EXPECT_GT(run_flow(late_receiver(327681), os).finish[0].ps(), 1 * kMs);   // synchronous
  // Asynchronous data arrives before the post; detached data only moves after it.
  EXPECT_EQ(run_flow(late_receiver(65536), os).finish[2].ps(), 1 * kMs);
  EXPECT_EQ(run_flow(late_receiver(65537), os).finish[2].ps(), 1 * kMs + 1 * kUs + 65537000);
  // Thresholds are keys: everything eager.
  EXPECT_EQ(run_flow(late_receiver(1000000), {"flow/async-threshold=1MB", "flow/detached-threshold=1MB"})
                .finish[0].ps(),
            0);
}

TEST(FlowProtocol, BlockingSendsPayOsNotOis) {
  // GOAL sends are blocking (os); TI isends pay ois (FlowContention.IsendPaysOis).
  ExecutionResult blocking = run_flow(kOneFlow, {"flow/os=0:5e-6:0", "flow/ois=0:1e-6:0"});
  EXPECT_EQ(blocking.finish[2].ps(), 5 * kUs + 1 * kUs + 1 * kMs);
}

TEST(FlowProtocol, AsyncAboveDetachedThresholdIsAnError) {
  EXPECT_NE(construction_error("flow/async-threshold=1MB").find("must not exceed flow/detached-threshold"),
            std::string::npos);
}

TEST(FlowNetwork, APairDeliversInIssueOrder) {
  // Both eager: a 1 MB message then a 100 B one on the same pair and tag. The small one finishes
  // first (both share L: 0.2 us at half rate) but waits for the large one, so r1 receives the large
  // one at 1 + 0.2 + 999.9 us, and the 10 us calc that follows r1 ends the rank.
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { a: send 1000000b to 2 tag 0  b: send 100b to 2 tag 0 } rank 1 { } "
                               "rank 2 { r1: recv 1000000b from 0 tag 0  c: calc 10000000  r2: recv 100b from 0 tag 0 "
                               "c requires r1  r2 requires r1 } rank 3 { }",
                               {"flow/async-threshold=10MB", "flow/detached-threshold=10MB"});
  EXPECT_EQ(r.finish[2].ps(), 1011100000);
}

TEST(FlowNetwork, TcpWindowBoundsTheRate) {
  // gamma / (2 * 1 us) = 1000 B / 2e-6 s = 5e8 B/s: 1e6 B take 2 ms.
  ExecutionResult r = run_flow(kOneFlow, {"flow/tcp-gamma=1000"});
  EXPECT_EQ(r.finish[2].ps(), 1 * kUs + 2 * kMs);
}

TEST(FlowNetwork, FatpipeLinksAreNotShared) {
  Platform fatpipe;
  Link f{"L", 1e9, SimTime::ps(1000000)};
  f.sharing = LinkSharing::kFatpipe;
  LinkId fl = fatpipe.add_link(f);
  for (int i = 0; i < 4; ++i) fatpipe.add_host(Host{"a" + std::to_string(i), 1, 1e9, -1, -1});
  fatpipe.add_route(0, 2, {fl}, false);
  fatpipe.add_route(1, 3, {fl}, false);
  FlowRun run = run_flow_on(fatpipe,
                            "num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } rank 1 { s: send 1000000b to 3 tag 0 } "
                            "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { r: recv 1000000b from 1 tag 0 }",
                            {}, {0, 1, 2, 3});
  EXPECT_EQ(run.r.finish[2].ps(), 1 * kUs + 1 * kMs);
  EXPECT_EQ(run.r.finish[3].ps(), 1 * kUs + 1 * kMs);
}

TEST(FlowNetwork, LinkStatisticsCountBytesBusyTimeAndPeak) {
  FlowRun run = run_flow_on(shared_link_platform(),
                            "num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } rank 1 { s: send 1000000b to 3 tag 0 } "
                            "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { r: recv 1000000b from 1 tag 0 }",
                            {}, {0, 1, 2, 3});
  ASSERT_TRUE(run.stats.present);
  EXPECT_EQ(run.stats.flows, 2u);
  EXPECT_EQ(run.stats.peak_flows, 2u);
  ASSERT_EQ(run.stats.links.size(), 1u);
  const LinkUsage& l = run.stats.links[0];
  EXPECT_EQ(l.name, "L");
  EXPECT_EQ(l.bytes, 2e6);
  EXPECT_EQ(l.flows, 2u);
  EXPECT_EQ(l.peak_flows, 2u);
  EXPECT_EQ(l.busy.ps(), 2 * kMs);  // both flows share it from 1 us to 2.001 ms
  EXPECT_DOUBLE_EQ(run.stats.flow_seconds, 4e-3);
}

TEST(FlowProtocol, AnIrecvOverlapsTheTransferWithComputation) {
  // Detached (100 kB): the envelope is matched at once although rank 2 computes for 1 ms, so the
  // data (1 us + 100 us) is there before the calc ends.
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { s: send 100000b to 2 tag 0 } rank 1 { } "
                               "rank 2 { r: recv 100000b from 0 tag 0  c: calc 1000000000  c irequires r } rank 3 { }");
  EXPECT_EQ(r.finish[2].ps(), 1 * kMs);
}

TEST(FlowProtocol, SynchronousSendCompletesWhenTheDataArrives) {
  // 400 kB: the data arrives at 1 + 400 us while the receiver computes; the sender is done then.
  ExecutionResult r = run_flow("num_ranks 4 rank 0 { s: send 400000b to 2 tag 0 } rank 1 { } "
                               "rank 2 { r: recv 400000b from 0 tag 0  c: calc 1000000000  c irequires r } rank 3 { }");
  EXPECT_EQ(r.finish[0].ps(), 401 * kUs);
  EXPECT_EQ(r.finish[2].ps(), 1 * kMs);
}

TEST(FlowNetwork, OrderIsKeptPerRankPairNotPerHostPair) {
  // Ranks 0, 1 on host a0 and 2, 3 on host a2 (route over L): rank 1's 10 B to rank 3 shares L
  // with rank 0's 4 MB to rank 2 (half of 1e9 B/s) but does not wait for it: 1 us + 20 ns.
  FlowRun run = run_flow_on(shared_link_platform(),
                            "num_ranks 4 rank 0 { s: send 4000000b to 2 tag 0 } rank 1 { s: send 10b to 3 tag 0 } "
                            "rank 2 { r: recv 4000000b from 0 tag 0 } rank 3 { r: recv 10b from 1 tag 0 }",
                            {"flow/async-threshold=10MB", "flow/detached-threshold=10MB"}, {0, 0, 2, 2});
  EXPECT_EQ(run.r.finish[3].ps(), 1 * kUs + 20000);
}

TEST(FlowNetwork, RateChangesLeaveNoStaleEvents) {
  // Rank 0 sends i kB to rank i (i = 1..N) over one shared link: every completion speeds up all
  // the others. Each rate change moves a due time in the model's heap instead of adding an event,
  // so events stay linear in N (they grew as N^2 / 2 with one engine event per rate change).
  constexpr int kN = 200;
  Platform p;
  LinkId l = p.add_link(Link{"L", 1e9, SimTime::ps(1000000)});
  for (int i = 0; i <= kN; ++i) p.add_host(Host{"h" + std::to_string(i), 1, 1e9, -1, -1});
  std::string g = "num_ranks " + std::to_string(kN + 1) + " rank 0 {";
  for (int i = 1; i <= kN; ++i) {
    p.add_route(0, i, {l}, false);
    g += " s" + std::to_string(i) + ": send " + std::to_string(i * 1000) + "b to " + std::to_string(i) + " tag 0";
  }
  g += " }";
  for (int i = 1; i <= kN; ++i)
    g += " rank " + std::to_string(i) + " { r: recv " + std::to_string(i * 1000) + "b from 0 tag 0 }";
  std::vector<HostId> hosts;
  for (int i = 0; i <= kN; ++i) hosts.push_back(i);
  FlowRun run = run_flow_on(p, g, {"flow/async-threshold=1MB", "flow/detached-threshold=1MB"}, hosts);
  ASSERT_TRUE(run.r.blocked.empty());
  EXPECT_LT(run.r.events, 10u * kN);
  // Max-min on one link finishes the flows in size order; the last ends when all bytes are through.
  EXPECT_EQ(run.r.makespan.ps(), 1 * kUs + SimTime::from_seconds(1000.0 * kN * (kN + 1) / 2 / 1e9).ps());
}

}  // namespace
}  // namespace simfab
