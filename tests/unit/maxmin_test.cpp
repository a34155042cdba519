// Max-min fair sharing (net/flow/maxmin): closed-form cases, the header's worked example, seed
// 003's limiter, random-instance invariants, incremental solving by saturated closure (random
// churn against from-scratch solves, closure sizes, recomputed()), and bad calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
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

TEST(MaxMin, UsageCoefficientsModelSimGridCrossTraffic) {
  // SimGrid's cross traffic: a flow loads its own route at 1 and its reverse route at 0.05. Two
  // hosts exchanging over one shared link of 100 (both directions on it) use it at 1.05 each:
  // 2 * 1.05 * rho = 100. Over split-duplex twins, a one-way flow alone gets 100, and two
  // opposite flows each get 100 / 1.05 (1 * rho_a + 0.05 * rho_b = 100 on each twin).
  MaxMinSystem s;
  const ConstraintId shared = s.add_constraint(100), up = s.add_constraint(100), down = s.add_constraint(100);
  const FlowId a = s.add_flow(1, 0, Route{shared}, std::vector<double>{1.05});
  const FlowId b = s.add_flow(1, 0, Route{shared}, std::vector<double>{1.05});
  const FlowId c = s.add_flow(1, 0, Route{up, down}, std::vector<double>{1, 0.05});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 100 / 2.1);
  EXPECT_DOUBLE_EQ(s.rate(b), 100 / 2.1);
  EXPECT_DOUBLE_EQ(s.rate(c), 100);
  EXPECT_DOUBLE_EQ(s.usage(shared), 100);
  const FlowId d = s.add_flow(1, 0, Route{down, up}, std::vector<double>{1, 0.05});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(c), 100 / 1.05);
  EXPECT_DOUBLE_EQ(s.rate(d), 100 / 1.05);
  // A fatpipe caps a flow at C / a_ij.
  const ConstraintId pipe = s.add_constraint(10, kFatpipe);
  const FlowId e = s.add_flow(1, 0, Route{pipe}, std::vector<double>{2});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(e), 5);
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
  std::vector<double> usage;  // a_ij per route entry, or empty (all 1)
  double a(size_t k) const { return usage.empty() ? 1.0 : usage[k]; }
};

// One flow in three uses coefficients (SimGrid's cross traffic: 0.05 to 1.05, and beyond).
void random_usage(std::mt19937_64& rng, FlowSpec& f) {
  if (below(rng, 3) != 0) return;
  for (size_t k = 0; k < f.route.size(); ++k) f.usage.push_back(below(rng, 4) == 0 ? 0.05 : uniform(rng, 0.05, 3));
}
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
    random_usage(rng, f);
    in.flows.push_back(std::move(f));
  }
  return in;
}

void build(MaxMinSystem& s, const Instance& in, std::vector<FlowId>& ids) {
  for (size_t j = 0; j < in.capacity.size(); ++j) s.add_constraint(in.capacity[j], in.kind[j]);
  for (const FlowSpec& f : in.flows) ids.push_back(s.add_flow(f.weight, f.bound, f.route, f.usage));
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
    for (size_t k = 0; k < in.flows[i].route.size(); ++k) {
      const auto j = static_cast<uint32_t>(in.flows[i].route[k]);
      const double used = in.flows[i].a(k) * r;
      sum[j] += used;
      max_norm[j] = std::max(max_norm[j], r / in.flows[i].weight);
      if (in.kind[j] == kFatpipe) {
        EXPECT_LE(used, in.capacity[j] * (1 + kRel));
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
    for (size_t k = 0; k < f.route.size(); ++k)
      if (in.kind[static_cast<uint32_t>(f.route[k])] == kFatpipe)
        own = std::min(own, in.capacity[static_cast<uint32_t>(f.route[k])] / f.a(k));
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

// Rates equal within 1e-9 relative: what maxmin.hpp guarantees between an incremental solve and
// a from-scratch one (not bit-identity: fixed flows keep rates rounded in earlier closures).
void expect_close(double got, double want, size_t flow) {
  EXPECT_LE(std::fabs(got - want), 1e-9 * std::fabs(want)) << "flow " << flow << ": " << got
                                                            << " vs from scratch " << want;
}

// A fresh system holding the live flows of `in` (added in id order, as the incremental one would
// have numbered them from scratch), solved; returns its rates indexed like `ids`.
std::vector<double> from_scratch(const Instance& in, const std::vector<FlowId>& ids,
                                 const std::vector<bool>& live) {
  std::vector<size_t> order;
  for (size_t k = 0; k < ids.size(); ++k)
    if (live[k]) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return static_cast<uint32_t>(ids[a]) < static_cast<uint32_t>(ids[b]);
  });
  MaxMinSystem fresh;
  for (size_t j = 0; j < in.capacity.size(); ++j) fresh.add_constraint(in.capacity[j], in.kind[j]);
  std::vector<FlowId> fresh_ids(ids.size());
  for (size_t k : order)
    fresh_ids[k] = fresh.add_flow(in.flows[k].weight, in.flows[k].bound, in.flows[k].route, in.flows[k].usage);
  fresh.solve();
  std::vector<double> rates(ids.size(), 0);
  for (size_t k : order) rates[k] = fresh.rate(fresh_ids[k]);
  return rates;
}

TEST(MaxMin, IncrementalEqualsFromScratchWithBatchedChanges) {
  // Random add/remove sequences, several changes sometimes batched into one solve; after each
  // solve the incremental result must equal a fresh system holding the live flows.
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
        ids[i] = s.add_flow(in.flows[i].weight, in.flows[i].bound, in.flows[i].route, in.flows[i].usage);
      }
      live[i] = !live[i];
      if (below(rng, 3) == 0) continue;  // sometimes batch several changes into one solve
      s.solve();
      expect_maxmin(s, in, ids, live);
      const std::vector<double> want = from_scratch(in, ids, live);
      for (size_t k = 0; k < ids.size(); ++k)
        if (live[k]) expect_close(s.rate(ids[k]), want[k], k);
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

  // A capacity change recomputes b1's flows and, through fb2 and the saturated b2, fb3: nothing
  // else.
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

// ---- Saturated closure ------------------------------------------------------------------------

std::vector<uint32_t> raw_ids(std::span<const FlowId> ids) {
  std::vector<uint32_t> out;
  for (FlowId f : ids) out.push_back(static_cast<uint32_t>(f));
  return out;
}

TEST(MaxMin, RecomputedListsTheSolvedFlowsInIdOrder) {
  MaxMinSystem s;
  const ConstraintId l1 = s.add_constraint(10);
  const ConstraintId l2 = s.add_constraint(4);
  const ConstraintId fat = s.add_constraint(3, kFatpipe);
  const FlowId a = s.add_flow(1, 0, Route{l1});
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0}));
  EXPECT_TRUE(s.saturated(l1));
  const FlowId b = s.add_flow(1, 0, Route{l2});
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{1}));  // l2 was empty: a is not touched
  EXPECT_EQ(s.rate(b), 4);
  // c joins the saturated l1: a and c are recomputed, listed by id.
  const FlowId c = s.add_flow(1, 0, Route{fat, l1});
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(s.rate(a), 7);
  EXPECT_EQ(s.rate(c), 3);
  EXPECT_FALSE(s.saturated(fat));  // fatpipes are never saturated: they couple nobody
  // d only crosses the fatpipe that also limits c: d alone is solved.
  const FlowId d = s.add_flow(1, 0, Route{fat});
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{3}));
  EXPECT_EQ(s.rate(d), 3);
  // Removing c frees capacity on the saturated l1: a is recomputed.
  s.remove_flow(c);
  MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0}));
  EXPECT_EQ(st.flows, 1u);
  EXPECT_EQ(s.rate(a), 10);
  // Removing b, the only flow of the saturated l2: l2 is touched, but nobody is left to solve.
  s.remove_flow(b);
  EXPECT_TRUE(s.needs_solve());
  st = s.solve();
  EXPECT_TRUE(s.recomputed().empty());
  EXPECT_EQ(st.constraints, 1u);
  EXPECT_FALSE(s.saturated(l2));
  // e reuses b's id (last released first); it joins the saturated l1 and the empty l2, which
  // holds it at 4.
  const FlowId e = s.add_flow(1, 0, Route{l2, l1});
  EXPECT_EQ(e, b);
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s.rate(a), 6);
  EXPECT_EQ(s.rate(e), 4);
  // Growing the saturated l2 is solved: e and a now split l1.
  s.set_capacity(l2, 100);
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s.rate(a), 5);
  EXPECT_EQ(s.rate(e), 5);
  EXPECT_FALSE(s.saturated(l2));
  // Growing l2 again, now unsaturated, changes nothing: no solve is due. Shrinking it is solved.
  s.set_capacity(l2, 200);
  EXPECT_FALSE(s.needs_solve());
  s.set_capacity(l2, 2);
  s.solve();
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s.rate(e), 2);
  EXPECT_EQ(s.rate(a), 8);
  // Nothing to do: nothing recomputed.
  EXPECT_EQ(s.solve().flows, 0u);
  EXPECT_TRUE(s.recomputed().empty());
}

TEST(MaxMin, ClosureGrowsWhenANewFlowSaturatesABoundaryConstraint) {
  // f1 is held at 8 by its private p; l (10) is not saturated, so f2 first fills l's leftover 2
  // with f1 fixed. l is then saturated while carrying the fixed f1: it joins the closure, and the
  // second pass gives the max-min answer f1 = f2 = 5.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(10);
  const ConstraintId p = s.add_constraint(8);
  const FlowId f1 = s.add_flow(1, 0, Route{l, p});
  s.solve();
  EXPECT_EQ(s.rate(f1), 8);
  EXPECT_TRUE(s.saturated(p));
  EXPECT_FALSE(s.saturated(l));
  const FlowId f2 = s.add_flow(1, 0, Route{l});
  const MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(st.passes, 2u);
  EXPECT_EQ(st.flows, 2u);
  EXPECT_EQ(s.rate(f1), 5);
  EXPECT_EQ(s.rate(f2), 5);
  EXPECT_TRUE(s.saturated(l));
  EXPECT_FALSE(s.saturated(p));
  // A flow that leaves l slack is solved alone, in one pass, against f1 and f2 fixed.
  const ConstraintId big = s.add_constraint(100);
  const FlowId g = s.add_flow(1, 3, Route{big});
  const MaxMinSystem::SolveStats st2 = s.solve();
  EXPECT_EQ(st2.passes, 1u);
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{static_cast<uint32_t>(g)}));
}

TEST(MaxMin, FatpipesNeverCoupleFlows) {
  // A fatpipe backbone under private NIC links: each flow is limited by its NIC or the backbone
  // on its own, so a start recomputes that flow only; a backbone change recomputes its flows.
  MaxMinSystem s;
  const ConstraintId backbone = s.add_constraint(10, kFatpipe);
  std::vector<FlowId> flows;
  for (int k = 0; k < 4; ++k) {
    const ConstraintId nic = s.add_constraint(2);
    flows.push_back(s.add_flow(1, 0, Route{nic, backbone}));
    const MaxMinSystem::SolveStats st = s.solve();
    EXPECT_EQ(st.flows, 1u);
    EXPECT_EQ(st.constraints, 1u);  // its NIC; the backbone is part of its own limit
  }
  s.set_capacity(backbone, 1);
  const MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(st.flows, 4u);
  EXPECT_EQ(st.constraints, 5u);  // the backbone and the four NICs
  for (FlowId f : flows) EXPECT_EQ(s.rate(f), 1);
}

// A chain of n flows: flow i uses limiters i and i+1 (capacity `limiter`) and has a private limit
// of 1: a bound for even i, a NIC of capacity 1 of its own for odd i.
std::vector<FlowId> build_chain(MaxMinSystem& s, size_t n, double limiter,
                                std::vector<ConstraintId>& limiters) {
  for (size_t j = 0; j <= n; ++j) limiters.push_back(s.add_constraint(limiter));
  std::vector<FlowId> flows;
  for (size_t i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      flows.push_back(s.add_flow(1, 1, Route{limiters[i], limiters[i + 1]}));
    } else {
      const ConstraintId nic = s.add_constraint(1);
      flows.push_back(s.add_flow(1, 0, Route{limiters[i], limiters[i + 1], nic}));
    }
  }
  return flows;
}

TEST(MaxMin, UnsaturatedChainRecomputesOnlyTheTouchedFlows) {
  // Limiters of 10 carry at most 2 flows of rate 1: none is saturated, so the chain is one
  // connected component but its saturated closure is a single flow.
  constexpr size_t kN = 1000;
  MaxMinSystem s;
  std::vector<ConstraintId> lim;
  const std::vector<FlowId> chain = build_chain(s, kN, 10, lim);
  EXPECT_EQ(s.solve().flows, kN);
  for (ConstraintId c : lim) EXPECT_FALSE(s.saturated(c));

  const FlowId extra = s.add_flow(1, 1, Route{lim[500], lim[501]});
  MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(st.flows, 1u);
  EXPECT_EQ(st.constraints, 2u);
  EXPECT_EQ(raw_ids(s.recomputed()), (std::vector<uint32_t>{static_cast<uint32_t>(extra)}));
  EXPECT_EQ(s.rate(extra), 1);

  // Leaving unsaturated limiters changes nobody's rate: nothing to solve.
  s.remove_flow(extra);
  EXPECT_FALSE(s.needs_solve());
  EXPECT_EQ(s.solve().flows, 0u);

  // An unbounded flow saturates limiters 10 and 11 (8 = 10 - 2 on each): they carry fixed
  // flows, so the closure grows to flows 9, 10, 11 and one more pass; still O(1).
  const FlowId greedy = s.add_flow(1, 0, Route{lim[10], lim[11]});
  st = s.solve();
  EXPECT_EQ(st.passes, 2u);
  EXPECT_EQ(st.flows, 4u);
  EXPECT_EQ(s.rate(greedy), 8);
  EXPECT_TRUE(s.saturated(lim[10]));
  s.remove_flow(greedy);
  st = s.solve();
  EXPECT_EQ(st.flows, 3u);  // the flows of the two limiters it saturated
  for (FlowId f : chain) EXPECT_EQ(s.rate(f), 1);
}

TEST(MaxMin, SaturatedChainRecomputesTheWholeChain) {
  // Limiters of 1.5 shared by two flows each are all saturated (0.75 per flow): every flow is
  // tied to the next through a saturated constraint, so touching one recomputes all of them. The
  // closure is exact here: an extra flow on limiter 500 does shift every rate of the chain.
  constexpr size_t kN = 1000;
  MaxMinSystem s;
  std::vector<ConstraintId> lim;
  const std::vector<FlowId> chain = build_chain(s, kN, 1.5, lim);
  s.solve();
  EXPECT_EQ(s.rate(chain[500]), 0.75);
  const FlowId extra = s.add_flow(1, 1, Route{lim[500]});
  const MaxMinSystem::SolveStats st = s.solve();
  EXPECT_EQ(st.flows, kN + 1);
  EXPECT_EQ(s.recomputed().size(), kN + 1);
  EXPECT_EQ(s.rate(extra), 0.5);
  EXPECT_EQ(s.rate(chain[499]), 0.5);
  EXPECT_EQ(s.rate(chain[500]), 0.5);
}

// Churn instances: 30-200 constraints (1 in 6 a fatpipe), routes of 1-6 distinct constraints.
FlowSpec random_flow(std::mt19937_64& rng, const Instance& in) {
  const auto m = static_cast<uint32_t>(in.capacity.size());
  FlowSpec f;
  f.weight = below(rng, 2) == 0 ? 1.0 : uniform(rng, 0.25, 4);
  f.bound = below(rng, 10) < 3 ? uniform(rng, 0.5, 50) : 0;
  std::vector<uint32_t> perm(m);
  for (uint32_t j = 0; j < m; ++j) perm[j] = j;
  const uint32_t len = 1 + below(rng, 6);
  for (uint32_t k = 0; k < len; ++k) {  // partial Fisher-Yates: distinct constraints
    std::swap(perm[k], perm[k + below(rng, m - k)]);
    f.route.push_back(ConstraintId(perm[k]));
  }
  random_usage(rng, f);
  return f;
}

TEST(MaxMin, IncrementalEqualsFromScratchUnderRandomChurn) {
  // 2000 random adds, removes and capacity changes per instance, each followed by solve(). After
  // each: rates within 1e-9 of a from-scratch solve, the max-min invariants, recomputed() sorted
  // and live, every other rate bit-identical to before, the saturated flags right, and a twin
  // system fed the same calls bit-identical (the determinism simfab relies on).
  std::mt19937_64 rng(2025);
  size_t growths = 0, recomputed = 0, live_sum = 0;
  for (int trial = 0; trial < 2; ++trial) {
    SCOPED_TRACE(trial);
    Instance in;
    const uint32_t m = 30 + below(rng, 171);
    for (uint32_t j = 0; j < m; ++j) {
      in.capacity.push_back(uniform(rng, 1, 100));
      in.kind.push_back(below(rng, 6) == 0 ? kFatpipe : kShared);
    }
    MaxMinSystem s, twin;
    for (uint32_t j = 0; j < m; ++j) {
      s.add_constraint(in.capacity[j], in.kind[j]);
      twin.add_constraint(in.capacity[j], in.kind[j]);
    }
    std::vector<FlowId> ids;  // ids[k]: the k-th flow ever added (in.flows[k])
    std::vector<bool> live;
    std::vector<size_t> live_list;  // indices k of the live flows
    const size_t target = m;        // adds and removes balance around `target` live flows
    for (int step = 0; step < 2000; ++step) {
      SCOPED_TRACE(step);
      std::vector<double> before(ids.size(), -1);
      for (size_t k : live_list) before[k] = s.rate(ids[k]);
      if (below(rng, 100) < 15) {
        const uint32_t j = below(rng, m);
        in.capacity[j] = below(rng, 3) == 0 ? in.capacity[j] * 2 : uniform(rng, 1, 100);
        s.set_capacity(ConstraintId(j), in.capacity[j]);
        twin.set_capacity(ConstraintId(j), in.capacity[j]);
      } else if (below(rng, static_cast<uint32_t>(2 * target)) >= live_list.size()) {
        in.flows.push_back(random_flow(rng, in));
        const FlowSpec& f = in.flows.back();
        ids.push_back(s.add_flow(f.weight, f.bound, f.route, f.usage));
        EXPECT_EQ(twin.add_flow(f.weight, f.bound, f.route, f.usage), ids.back());
        live.push_back(true);
        live_list.push_back(ids.size() - 1);
      } else {
        const size_t pos = below(rng, static_cast<uint32_t>(live_list.size()));
        const size_t k = live_list[pos];
        s.remove_flow(ids[k]);
        twin.remove_flow(ids[k]);
        live[k] = false;
        before[k] = -1;
        live_list[pos] = live_list.back();
        live_list.pop_back();
      }
      const MaxMinSystem::SolveStats st = s.solve();
      const MaxMinSystem::SolveStats twin_st = twin.solve();
      growths += st.passes > 1;
      recomputed += st.flows;
      live_sum += live_list.size();

      const std::span<const FlowId> rec = s.recomputed();
      ASSERT_EQ(rec.size(), st.flows);
      EXPECT_EQ(raw_ids(rec), raw_ids(twin.recomputed()));
      EXPECT_EQ(twin_st.rounds, st.rounds);
      EXPECT_TRUE(std::is_sorted(rec.begin(), rec.end()));
      EXPECT_TRUE(std::adjacent_find(rec.begin(), rec.end()) == rec.end());
      for (FlowId f : rec) EXPECT_TRUE(s.live(f));
      const std::vector<double> want = from_scratch(in, ids, live);
      for (size_t k : live_list) {
        const double r = s.rate(ids[k]);
        EXPECT_EQ(r, twin.rate(ids[k])) << "flow " << k;
        expect_close(r, want[k], k);
        const bool listed = std::binary_search(rec.begin(), rec.end(), ids[k]);
        if (!listed) {  // includes new flows: before[k] = -1 never equals a rate
          EXPECT_EQ(r, before[k]) << "flow " << k << " changed rate but is not in recomputed()";
        }
      }
      expect_maxmin(s, in, ids, live);
      for (uint32_t j = 0; j < m; ++j) {
        if (in.kind[j] != kShared) continue;
        const double u = s.usage(ConstraintId(j));
        if (s.saturated(ConstraintId(j))) {
          EXPECT_GE(u, in.capacity[j] * (1 - 2e-9)) << "constraint " << j;
        } else {
          EXPECT_LT(u, in.capacity[j] * (1 - 0.5e-9)) << "constraint " << j;
        }
      }
      if (HasFailure()) return;  // one diagnosis, not thousands
    }
  }
  // The run must exercise the closure growth and recompute less than everything.
  EXPECT_GT(growths, 0u);
  EXPECT_LT(recomputed, live_sum);
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
  EXPECT_DEATH(s.saturated(l), "before solve");
  s.solve();
  s.remove_flow(f);
  s.solve();
  EXPECT_DEATH(s.rate(f), "unknown or removed flow");
  EXPECT_DEATH(s.remove_flow(f), "unknown or removed flow");
}

}  // namespace
}  // namespace simfab::flow
