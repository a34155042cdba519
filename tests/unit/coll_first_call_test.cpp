// mpi/first-call (mpi/coll/first_call.hpp): each rank's first blocking call of a collective costs
// its set-up once, in a TI replay; the calibrated library names it and the trace its library.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "mpi/coll/first_call.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab::coll {
namespace {

TEST(FirstCall, ParsesTheTableAndChargesOncePerRankAndCollective) {
  std::string what;
  FirstCallCosts c = FirstCallCosts::parse("allreduce=1.2e-05; bcast=7e-06;", what);
  ASSERT_TRUE(what.empty()) << what;
  EXPECT_TRUE(c.any());
  EXPECT_EQ(c.cost(CollOp::kAllreduce), SimTime::from_seconds(12e-6));
  EXPECT_EQ(c.cost(CollOp::kBarrier), SimTime::zero());
  EXPECT_EQ(c.charge(3, CollOp::kAllreduce), SimTime::from_seconds(12e-6));
  EXPECT_EQ(c.charge(3, CollOp::kAllreduce), SimTime::zero());  // the second call
  EXPECT_EQ(c.charge(0, CollOp::kAllreduce), SimTime::from_seconds(12e-6));  // another rank
  EXPECT_EQ(c.charge(3, CollOp::kBcast), SimTime::from_seconds(7e-6));
  EXPECT_FALSE(FirstCallCosts::parse("none", what).any());
  for (const char* bad : {"allredux=1", "allreduce", "allreduce=-1", "allreduce=1e9", "allreduce=1us"}) {
    FirstCallCosts::parse(bad, what);
    EXPECT_FALSE(what.empty()) << bad;
  }
}

// Two ranks, two allreduces and a barrier: with allreduce=10 us the first allreduce starts 10 us
// later on both ranks, and nothing else changes (the second is already set up): +10 us exactly.
// With barrier=2 us as well: +12 us.
TEST(FirstCall, ATiReplayPaysEachFirstCallOnce) {
  const std::string trace =
      "0 allreduce 1 0\n1 allreduce 1 0\n0 allreduce 1 0\n1 allreduce 1 0\n0 barrier\n1 barrier\n";
  const auto makespan = [&](const char* cfg_line) {
    Config cfg;
    register_builtin_keys(cfg);
    if (cfg_line) cfg.set_assignment(cfg_line, {});
    SimulationInput in;
    in.platform_path = testing::write_test_file(
        "p.yaml", "clusters:\n  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n");
    in.trace_path = testing::write_test_file("t.ti", trace);
    return run_simulation(in, cfg).exec.makespan;
  };
  const SimTime base = makespan(nullptr);
  EXPECT_EQ(makespan("mpi/first-call=allreduce=1e-5") - base, SimTime::from_seconds(10e-6));
  EXPECT_EQ(makespan("mpi/first-call=allreduce=1e-5;barrier=2e-6") - base, SimTime::from_seconds(12e-6));
  try {
    makespan("mpi/first-call=allredux=1");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("bad value for mpi/first-call"), std::string::npos) << e.message();
  }
}

// A trace that names Open MPI replays with the ompi selector unless the run chose one.
TEST(FirstCall, TheTracesLibraryPicksTheCollectivesSelector) {
  Config cfg;
  register_builtin_keys(cfg);
  EXPECT_EQ(select_library_collectives(cfg, "Open MPI v4.1.4, package: Debian", {}), "ompi");
  EXPECT_EQ(cfg.choice("mpi/coll-selector"), "ompi");
  Config mpich;
  register_builtin_keys(mpich);
  EXPECT_EQ(select_library_collectives(mpich, "MPICH Version: 4.0", {}), "mpich");
  Config other;
  register_builtin_keys(other);
  EXPECT_EQ(select_library_collectives(other, "Some MPI 1.0", {}), "");
  EXPECT_EQ(other.choice("mpi/coll-selector"), "schedgen");
  Config chosen;
  register_builtin_keys(chosen);
  chosen.set("mpi/coll-selector", "mpich", {});
  EXPECT_EQ(select_library_collectives(chosen, "Open MPI v4.1.4", {}), "");
  EXPECT_EQ(chosen.choice("mpi/coll-selector"), "mpich");
}

}  // namespace
}  // namespace simfab::coll
