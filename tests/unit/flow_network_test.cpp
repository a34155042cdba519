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

ExecutionResult run_flow(const std::string& goal, const std::vector<std::string>& cfg_lines = {}) {
  GoalSchedule g = parse_goal_text(goal, "flow.goal");
  Platform platform = shared_link_platform();
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", "flow", {});
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  Engine engine;
  flow::FlowNetwork net(engine, platform, cfg);
  GoalProgram prog(g);
  std::vector<HostId> rank_host{0, 1, 2, 3};
  Executor ex(engine, net, g.ops, prog, rank_host);
  return ex.run();
}

constexpr int64_t kUs = 1000000;  // ps
constexpr int64_t kMs = 1000 * kUs;

const char* kOneFlow = "num_ranks 4 rank 0 { s: send 1000000b to 2 tag 0 } rank 1 { } "
                       "rank 2 { r: recv 1000000b from 0 tag 0 } rank 3 { }";

TEST(FlowNetwork, OneFlowTakesLatencyPlusSizeOverBandwidth) {
  ExecutionResult r = run_flow(kOneFlow);
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.finish[2].ps(), 1 * kUs + 1 * kMs);  // 1 us + 1e6 B / 1e9 B/s
  EXPECT_EQ(r.finish[0].ps(), 1 * kUs + 1 * kMs);  // rendezvous: the sender completes at the match
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

TEST(FlowNetwork, BadTablesNameTheKey) {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set_assignment("flow/bw-factor=0:1;0:2", {});
  Platform p = shared_link_platform();
  Engine engine;
  try {
    flow::FlowNetwork net(engine, p, cfg);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad table for flow/bw-factor: section 2 starts at 0"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace simfab
