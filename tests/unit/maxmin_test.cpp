// Max-min fair sharing (net/flow/maxmin): closed-form cases, the header's worked example, seed
// 003's limiter, incremental solving by component, random-instance invariants, and bad calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "net/flow/maxmin.hpp"

namespace simfab::flow {
namespace {

using Route = std::vector<ConstraintId>;
constexpr ConstraintKind kShared = ConstraintKind::kShared;
constexpr ConstraintKind kFatpipe = ConstraintKind::kFatpipe;

TEST(MaxMin, OneFlowOnOneLinkGetsTheCapacity) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(125e6);
  const FlowId f = s.add_flow(1, 0, Route{l});
  EXPECT_TRUE(s.needs_solve());
  s.solve();
  EXPECT_FALSE(s.needs_solve());
  EXPECT_EQ(s.rate(f), 125e6);
}

TEST(MaxMin, TwoEqualFlowsHalveASharedLink) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(10);
  const FlowId a = s.add_flow(1, 0, Route{l});
  const FlowId b = s.add_flow(1, 0, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(a), 5);
  EXPECT_EQ(s.rate(b), 5);
  EXPECT_EQ(s.usage(l), 10);
}

TEST(MaxMin, FatpipeGivesEveryFlowTheFullCapacity) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(10, kFatpipe);
  const FlowId a = s.add_flow(1, 0, Route{l});
  const FlowId b = s.add_flow(1, 0, Route{l});
  const FlowId c = s.add_flow(3, 0, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(a), 10);
  EXPECT_EQ(s.rate(b), 10);
  EXPECT_EQ(s.rate(c), 10);
  EXPECT_EQ(s.usage(l), 10);  // for a fatpipe: the largest rate
}

TEST(MaxMin, WeightsOneAndThreeGetAQuarterAndThreeQuarters) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(8);
  const FlowId a = s.add_flow(1, 0, Route{l});
  const FlowId b = s.add_flow(3, 0, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(a), 2);  // C/4
  EXPECT_EQ(s.rate(b), 6);  // 3C/4
}

TEST(MaxMin, WorkedExampleThreeLinksFourFlows) {
  // The example of maxmin.hpp: L3 saturates first (f3 = f4 = 4/2), then L1 (f1 = f2 = 10/2).
  MaxMinSystem s;
  const ConstraintId l1 = s.add_constraint(10);
  const ConstraintId l2 = s.add_constraint(10);
  const ConstraintId l3 = s.add_constraint(4);
  const FlowId f1 = s.add_flow(1, 0, Route{l1});
  const FlowId f2 = s.add_flow(1, 0, Route{l1, l2});
  const FlowId f3 = s.add_flow(1, 0, Route{l2, l3});
  const FlowId f4 = s.add_flow(1, 0, Route{l3});
  const MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(s.rate(f1), 5);
  EXPECT_EQ(s.rate(f2), 5);
  EXPECT_EQ(s.rate(f3), 2);
  EXPECT_EQ(s.rate(f4), 2);
  EXPECT_EQ(s.usage(l2), 7);  // not a bottleneck
  EXPECT_EQ(st.flows, 4u);
  EXPECT_EQ(st.constraints, 3u);
  EXPECT_EQ(st.rounds, 2u);

  // L2 = 6: after f3 = 2, L2 leaves 4 for f2 (level 4 < L1's 5), then f1 takes the rest of L1.
  s.set_capacity(l2, 6);
  EXPECT_EQ(s.solve().rounds, 3u);
  EXPECT_EQ(s.rate(f1), 6);
  EXPECT_EQ(s.rate(f2), 4);
  EXPECT_EQ(s.rate(f3), 2);
  EXPECT_EQ(s.rate(f4), 2);
}

TEST(MaxMin, BoundedFlowTakesItsBoundAndLeavesTheRest) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(10);
  const FlowId bounded = s.add_flow(1, 1.5, Route{l});
  const FlowId a = s.add_flow(1, 0, Route{l});
  const FlowId b = s.add_flow(1, 0, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(bounded), 1.5);
  EXPECT_EQ(s.rate(a), 4.25);  // (10 - 1.5) / 2
  EXPECT_EQ(s.rate(b), 4.25);
  // A bound above the fair share is not binding.
  const FlowId loose = s.add_flow(1, 100, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(bounded), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(loose), 8.5 / 3);
  // A flow with no route runs at its bound (a loopback copy).
  const FlowId local = s.add_flow(1, 7, Route{});
  s.solve();
  EXPECT_EQ(s.rate(local), 7);
}

TEST(MaxMin, FatpipeLimitsAFlowThatAlsoSharesALink) {
  // f1 crosses a fatpipe of 2 and a shared link of 10 with f2: f1 = 2, f2 = 8.
  MaxMinSystem s;
  const ConstraintId fat = s.add_constraint(2, kFatpipe);
  const ConstraintId l = s.add_constraint(10);
  const FlowId f1 = s.add_flow(1, 0, Route{fat, l});
  const FlowId f2 = s.add_flow(1, 0, Route{l});
  s.solve();
  EXPECT_EQ(s.rate(f1), 2);
  EXPECT_EQ(s.rate(f2), 8);
}

TEST(MaxMin, Seed003LimiterTwoHostsExchangingGetThreeQuartersEach) {
  // Seed 003 §B.4.3: per host an uplink B, a downlink B and a limiter 1.5 B shared by both
  // directions. A flow out of and a flow into the same host: each limiter carries two flows.
  const double bw = 1.25e9;
  MaxMinSystem s;
  ConstraintId up[2], down[2], lim[2];
  for (int h = 0; h < 2; ++h) {
    up[h] = s.add_constraint(bw);
    down[h] = s.add_constraint(bw);
    lim[h] = s.add_constraint(1.5 * bw);
  }
  const FlowId ab = s.add_flow(1, 0, Route{up[0], lim[0], down[1], lim[1]});
  const FlowId ba = s.add_flow(1, 0, Route{up[1], lim[1], down[0], lim[0]});
  s.solve();
  EXPECT_EQ(s.rate(ab), 0.75 * bw);
  EXPECT_EQ(s.rate(ba), 0.75 * bw);
  // One way only: no degradation.
  s.remove_flow(ba);
  s.solve();
  EXPECT_EQ(s.rate(ab), bw);
}

TEST(MaxMin, Seed003CabinetLimiterTwentyFlowsGetSixPointFiveTenthsEach) {
  // 10 flows out of and 10 into a cabinet: cabinet up/down 10 Gb, limiter 13 Gb shared by all
  // 20, each flow on its own 10 Gb NIC link. The limiter binds: 13 / 20 = 0.65 Gb each.
  MaxMinSystem s;
  const ConstraintId up = s.add_constraint(10);
  const ConstraintId down = s.add_constraint(10);
  const ConstraintId lim = s.add_constraint(13);
  std::vector<FlowId> flows;
  for (int k = 0; k < 20; ++k) {
    const ConstraintId nic = s.add_constraint(10);
    flows.push_back(s.add_flow(1, 0, Route{nic, k < 10 ? up : down, lim}));
  }
  s.solve();
  for (FlowId f : flows) EXPECT_DOUBLE_EQ(s.rate(f), 0.65);
  EXPECT_NEAR(s.usage(lim), 13, 13e-12);
}

// ---- Random instances -------------------------------------------------------------------------

// Our own uniform mappings (std::uniform_*_distribution differs across standard libraries).
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
}
uint32_t below(std::mt19937_64& rng, uint32_t n) { return static_cast<uint32_t>(rng() % n); }

struct FlowSpec {
  double weight;
  double bound;
  Route route;
};
struct Instance {
  std::vector<double> capacity;
  std::vector<ConstraintKind> kind;
  std::vector<FlowSpec> flows;
};

Instance random_instance(std::mt19937_64& rng) {
  Instance in;
  const uint32_t m = 1 + below(rng, 8);
  for (uint32_t j = 0; j < m; ++j) {
    in.capacity.push_back(uniform(rng, 1, 100));
    in.kind.push_back(below(rng, 5) == 0 ? kFatpipe : kShared);
  }
  const uint32_t n = 1 + below(rng, 16);
  for (uint32_t i = 0; i < n; ++i) {
    FlowSpec f;
    f.weight = below(rng, 2) == 0 ? 1.0 : uniform(rng, 0.25, 4);
    f.bound = below(rng, 10) < 3 ? uniform(rng, 0.5, 50) : 0;
    std::vector<uint32_t> perm(m);
    for (uint32_t j = 0; j < m; ++j) perm[j] = j;
    const uint32_t len = 1 + below(rng, std::min<uint32_t>(4, m));
    for (uint32_t k = 0; k < len; ++k) {  // partial Fisher-Yates: distinct constraints
      std::swap(perm[k], perm[k + below(rng, m - k)]);
      f.route.push_back(ConstraintId(perm[k]));
    }
    in.flows.push_back(std::move(f));
  }
  return in;
}

void build(MaxMinSystem& s, const Instance& in, std::vector<FlowId>& ids) {
  for (size_t j = 0; j < in.capacity.size(); ++j) s.add_constraint(in.capacity[j], in.kind[j]);
  for (const FlowSpec& f : in.flows) ids.push_back(s.add_flow(f.weight, f.bound, f.route));
}

// Feasibility and max-min optimality, as stated in maxmin.hpp. `live` selects the flows present.
void expect_maxmin(const MaxMinSystem& s, const Instance& in, const std::vector<FlowId>& ids,
                   const std::vector<bool>& live) {
  constexpr double kRel = 1e-9;
  const size_t m = in.capacity.size();
  std::vector<double> sum(m, 0), max_norm(m, 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!live[i]) continue;
    const double r = s.rate(ids[i]);
    EXPECT_GT(r, 0);
    if (in.flows[i].bound > 0) {
      EXPECT_LE(r, in.flows[i].bound * (1 + kRel));
    }
    for (ConstraintId c : in.flows[i].route) {
      const auto j = static_cast<uint32_t>(c);
      sum[j] += r;
      max_norm[j] = std::max(max_norm[j], r / in.flows[i].weight);
      if (in.kind[j] == kFatpipe) {
        EXPECT_LE(r, in.capacity[j] * (1 + kRel));
      }
    }
  }
  for (size_t j = 0; j < m; ++j) {
    if (in.kind[j] == kShared) {
      EXPECT_LE(sum[j], in.capacity[j] * (1 + kRel)) << "constraint " << j;
    }
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!live[i]) continue;
    const FlowSpec& f = in.flows[i];
    const double r = s.rate(ids[i]);
    double own = f.bound > 0 ? f.bound : INFINITY;
    for (ConstraintId c : f.route)
      if (in.kind[static_cast<uint32_t>(c)] == kFatpipe)
        own = std::min(own, in.capacity[static_cast<uint32_t>(c)]);
    bool ok = r >= own * (1 - kRel);
    for (ConstraintId c : f.route) {
      const auto j = static_cast<uint32_t>(c);
      if (in.kind[j] == kShared && sum[j] >= in.capacity[j] * (1 - kRel) &&
          r / f.weight >= max_norm[j] * (1 - kRel))
        ok = true;
    }
    EXPECT_TRUE(ok) << "flow " << i << " rate " << r << " has neither its limit nor a bottleneck";
  }
}

TEST(MaxMin, PropertyFeasibleAndMaxMinOptimalOnRandomInstances) {
  std::mt19937_64 rng(2024);  // fixed seed: the same instances on every machine
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE(trial);
    const Instance in = random_instance(rng);
    MaxMinSystem s;
    std::vector<FlowId> ids;
    build(s, in, ids);
    const MaxMinSystem::SolveStats st = s.solve();
    EXPECT_EQ(st.flows, in.flows.size());
    EXPECT_LE(st.rounds, in.flows.size());
    expect_maxmin(s, in, ids, std::vector<bool>(ids.size(), true));
  }
}

TEST(MaxMin, IncrementalEqualsFromScratchBitForBit) {
  // Random add/remove sequences; after each step the incremental result must equal a fresh
  // system holding the live flows added in the same id order (same sums in the same order).
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE(trial);
    Instance in = random_instance(rng);
    MaxMinSystem s;
    for (size_t j = 0; j < in.capacity.size(); ++j) s.add_constraint(in.capacity[j], in.kind[j]);
    std::vector<FlowId> ids(in.flows.size());
    std::vector<bool> live(in.flows.size(), false);
    for (int step = 0; step < 30; ++step) {
      const uint32_t i = below(rng, static_cast<uint32_t>(in.flows.size()));
      if (live[i]) {
        s.remove_flow(ids[i]);
      } else {
        ids[i] = s.add_flow(in.flows[i].weight, in.flows[i].bound, in.flows[i].route);
      }
      live[i] = !live[i];
      if (below(rng, 3) == 0) continue;  // sometimes batch several changes into one solve
      s.solve();
      expect_maxmin(s, in, ids, live);
      std::vector<size_t> order;
      for (size_t k = 0; k < ids.size(); ++k)
        if (live[k]) order.push_back(k);
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return static_cast<uint32_t>(ids[a]) < static_cast<uint32_t>(ids[b]);
      });
      MaxMinSystem fresh;
      for (size_t j = 0; j < in.capacity.size(); ++j)
        fresh.add_constraint(in.capacity[j], in.kind[j]);
      std::vector<FlowId> fresh_ids(ids.size());
      for (size_t k : order)
        fresh_ids[k] = fresh.add_flow(in.flows[k].weight, in.flows[k].bound, in.flows[k].route);
      fresh.solve();
      for (size_t k : order) EXPECT_EQ(s.rate(ids[k]), fresh.rate(fresh_ids[k])) << "flow " << k;
    }
  }
}

TEST(MaxMin, IncrementalSolveSkipsDisjointComponents) {
  MaxMinSystem s;
  const ConstraintId a = s.add_constraint(10);
  const ConstraintId b1 = s.add_constraint(6);
  const ConstraintId b2 = s.add_constraint(9);
  const FlowId fa = s.add_flow(1, 0, Route{a});
  const FlowId fb1 = s.add_flow(1, 0, Route{b1});
  const FlowId fb2 = s.add_flow(1, 0, Route{b1, b2});
  const FlowId fb3 = s.add_flow(1, 0, Route{b2});
  EXPECT_EQ(s.solve().flows, 4u);
  EXPECT_EQ(s.solve().flows, 0u);  // nothing changed

  const FlowId fa2 = s.add_flow(1, 0, Route{a});
  MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(st.flows, 2u);  // only {fa, fa2}: the b component is untouched
  EXPECT_EQ(st.constraints, 1u);
  EXPECT_EQ(s.rate(fa), 5);
  EXPECT_EQ(s.rate(fa2), 5);
  EXPECT_EQ(s.rate(fb1), 3);
  EXPECT_EQ(s.rate(fb2), 3);
  EXPECT_EQ(s.rate(fb3), 6);

  // A capacity change recomputes its component (b1 and, through fb2, b2) and nothing else.
  s.set_capacity(b1, 2);
  st = s.solve();
  EXPECT_EQ(st.flows, 3u);
  EXPECT_EQ(st.constraints, 2u);
  EXPECT_EQ(s.rate(fb1), 1);
  EXPECT_EQ(s.rate(fb2), 1);
  EXPECT_EQ(s.rate(fb3), 8);

  // Removing the bridge fb2 recomputes both halves it leaves behind, not the a component.
  s.remove_flow(fb2);
  EXPECT_FALSE(s.live(fb2));
  st = s.solve();
  EXPECT_EQ(st.flows, 2u);
  EXPECT_EQ(s.rate(fb1), 2);
  EXPECT_EQ(s.rate(fb3), 9);
  EXPECT_EQ(s.rate(fa), 5);
}

TEST(MaxMin, RemovedIdsAreRecycledDeterministically) {
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(12);
  const FlowId a = s.add_flow(1, 0, Route{l});
  const FlowId b = s.add_flow(1, 0, Route{l});
  const FlowId c = s.add_flow(1, 0, Route{l});
  s.remove_flow(b);
  const FlowId d = s.add_flow(2, 0, Route{l});  // reuses b's slot before any solve
  EXPECT_EQ(d, b);
  EXPECT_EQ(s.num_flows(), 3u);
  s.solve();
  EXPECT_EQ(s.rate(a), 3);
  EXPECT_EQ(s.rate(c), 3);
  EXPECT_EQ(s.rate(d), 6);
}

TEST(MaxMin, ValidatorsForUserSuppliedValues) {
  EXPECT_TRUE(MaxMinSystem::valid_capacity(1e9));
  EXPECT_FALSE(MaxMinSystem::valid_capacity(0));
  EXPECT_FALSE(MaxMinSystem::valid_capacity(-1));
  EXPECT_FALSE(MaxMinSystem::valid_capacity(NAN));
  EXPECT_FALSE(MaxMinSystem::valid_capacity(INFINITY));
  EXPECT_TRUE(MaxMinSystem::valid_bound(0));
  EXPECT_TRUE(MaxMinSystem::valid_bound(3));
  EXPECT_FALSE(MaxMinSystem::valid_bound(-3));
  EXPECT_FALSE(MaxMinSystem::valid_bound(NAN));
  EXPECT_TRUE(MaxMinSystem::valid_weight(0.5));
  EXPECT_FALSE(MaxMinSystem::valid_weight(0));
  EXPECT_FALSE(MaxMinSystem::valid_weight(NAN));
}

TEST(MaxMinDeathTest, CallerErrorsAreChecked) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(1);
  EXPECT_DEATH(s.add_constraint(0), "capacity must be finite and > 0");
  EXPECT_DEATH(s.add_constraint(NAN), "capacity must be finite and > 0");
  EXPECT_DEATH(s.set_capacity(l, -2), "capacity must be finite and > 0");
  EXPECT_DEATH(s.add_flow(0, 0, Route{l}), "weight must be finite and > 0");
  EXPECT_DEATH(s.add_flow(1, -1, Route{l}), "bound must be 0");
  EXPECT_DEATH(s.add_flow(1, 0, Route{ConstraintId(7)}), "unknown constraint id 7");
  EXPECT_DEATH(s.add_flow(1, 0, Route{l, l}), "appears twice");
  EXPECT_DEATH(s.add_flow(1, 0, Route{}), "empty route needs a bound");
  const FlowId f = s.add_flow(1, 0, Route{l});
  EXPECT_DEATH(s.rate(f), "before solve");
  s.solve();
  s.remove_flow(f);
  s.solve();
  EXPECT_DEATH(s.rate(f), "unknown or removed flow");
  EXPECT_DEATH(s.remove_flow(f), "unknown or removed flow");
}

}  // namespace
}  // namespace simfab::flow
