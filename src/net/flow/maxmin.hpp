// MaxMinSystem: weighted max-min fair bandwidth sharing between flows over capacity constraints
// (SimGrid's LMM "linear max-min" system, src/kernel/lmm/System.hpp; seed 003 §B.4.5).
//
// The concept
// -----------
// A constraint j (a link, a NIC, a limiter) has a capacity C_j > 0 in bytes/s and a kind:
//   kShared   the flows crossing it share it:           sum_{i uses j} rho_i <= C_j
//   kFatpipe  each flow may use all of it, no sharing:  rho_i <= C_j for every i using j
// A split-duplex link is two kShared constraints, one per direction (a flow uses the up one of its
// source and the down one of its destination); seed 003's per-host limiter, shared by both
// directions, is a third kShared constraint used by every flow to or from the host.
//
// A flow i has a weight w_i > 0, an optional rate bound b_i > 0 (e.g. the TCP window bound
// gamma / (2 * latency); 0 = unbounded) and a route: the set of constraints it uses.
// Convention: rate is proportional to weight. Among flows limited by the same constraint,
// rho_i / w_i is equal, so weights 1 and 3 on one shared link of capacity C get C/4 and 3C/4.
// (SimGrid calls 1/w_i the "sharing penalty": rho_i proportional to 1/penalty_i.)
// A route lists each constraint at most once (REQUIRES, checked): a route that crosses a link
// twice is a routing bug, and silently deduplicating it would under-count its load.
// A route may be empty only if the flow has a bound (a loopback copy): its rate is its bound.
//
// The solution: progressive filling
// ---------------------------------
// Raise a common level t from 0; every unfrozen flow runs at rho_i = w_i * t. Let
//   e_i = min(b_i, min over fatpipe constraints j of i of C_j)       (the flow's own limit)
//   F_j = sum of the rates of the frozen flows on shared constraint j
//   W_j = sum of the weights of the unfrozen flows on shared constraint j
// The next event is at t* = min( min_j (C_j - F_j) / W_j , min_i e_i / w_i ). Every constraint
// reaching its capacity at t* saturates and freezes its unfrozen flows at w_i * t*; every flow
// reaching its own limit at t* freezes at e_i. Repeat until every flow is frozen. Each round
// freezes at least one flow, so there are at most n rounds, and in practice one per distinct
// bottleneck level.
//
// Invariants of the result (checked by tests/unit/maxmin_test.cpp on random instances):
//   Feasibility: for every shared j, sum_{i uses j} rho_i <= C_j (1 + 1e-9); for every fatpipe j
//     and flow i using it, rho_i <= C_j (1 + 1e-9); rho_i <= b_i when bounded.
//   Max-min optimality: every flow i either runs at its own limit e_i, or has a bottleneck: a
//     shared constraint j on its route that is saturated (sum = C_j within 1e-9) and on which
//     rho_i / w_i is maximal among the flows using j. No flow can then be sped up without slowing
//     down a flow whose rate/weight is not larger.
//
// Worked example (tests: MaxMin.WorkedExampleThreeLinksFourFlows), all weights 1:
//   L1 = 10, L2 = 10, L3 = 4 (shared);  f1: {L1}  f2: {L1, L2}  f3: {L2, L3}  f4: {L3}
//   round 1: candidates L1 = 10/2 = 5, L2 = 10/2 = 5, L3 = 4/2 = 2  ->  t* = 2, L3 saturates:
//            f3 = f4 = 2.
//   round 2: F_L2 = 2; candidates L1 = 10/2 = 5, L2 = (10 - 2)/1 = 8  ->  t* = 5, L1 saturates:
//            f1 = f2 = 5.  L2 carries 5 + 2 = 7 <= 10 and is not a bottleneck.
//   Result: f1 = 5, f2 = 5, f3 = 2, f4 = 2. (With L2 = 6, round 2 gives L2 = (6 - 2)/1 = 4 < 5:
//   f2 = 4 on L2, then round 3 gives f1 = 10 - 4 = 6 on L1.)
//
// Incremental solving
// -------------------
// add_flow, remove_flow and set_capacity only mark what they touch; solve() recomputes the
// connected components (flows linked through shared or fatpipe constraints, transitively) that
// contain a touched flow or constraint, and leaves every other rate as it was: rates in an
// untouched component cannot change. solve() reports how many flows it recomputed.
//
// Determinism: a component is solved with its flows in id order and constraint sums accumulated
// in that order, so the result depends only on the ids, weights, bounds, routes and capacities,
// not on the history of additions and removals nor on the order within a route. Flow ids are
// recycled last-released-first (SlotPool); constraint ids are dense and never reused.
//
// Errors: all REQUIRES below are programming errors of the caller and are enforced with
// SIMFAB_CHECK (abort). Capacities and bounds usually come from users (platform files, --cfg):
// validate them first with valid_capacity()/valid_bound() and throw an InputError with the
// location and the offending text.
//
// Complexity (n flows, m constraints, r route length, all restricted to the recomputed
// components; I rounds, I <= n):
//   add_flow O(r log r); remove_flow O(r * r_max) (swap-removal from each constraint's flow list);
//   set_capacity O(1); rate O(1);
//   solve O(n r + m + n log n) for the component search and sort, plus O(I * (n_a r + m_a)) for
//   progressive filling, where n_a, m_a are the flows and constraints still unfrozen in a round
//   (frozen ones are dropped from the scan; W_j is re-summed over them each round, so no
//   rounding drift accumulates). A heap of constraint levels would bring the filling
//   down to O((n r) log m); not needed yet.
// Memory: per flow ~64 B + 8 B per route entry; per constraint ~48 B + 4 B per flow using it.
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/slot_pool.hpp"

namespace simfab::flow {

enum class ConstraintKind : uint8_t { kShared, kFatpipe };
enum class ConstraintId : uint32_t {};
enum class FlowId : uint32_t {};

class MaxMinSystem {
 public:
  struct SolveStats {
    size_t flows = 0;        // flows recomputed (in the touched components)
    size_t constraints = 0;  // constraints in the touched components
    size_t rounds = 0;       // progressive-filling rounds, summed over components
  };

  MaxMinSystem() = default;
  MaxMinSystem(const MaxMinSystem&) = delete;
  MaxMinSystem& operator=(const MaxMinSystem&) = delete;

  // True for a finite capacity > 0 (bytes/s): what callers check before add_constraint and
  // set_capacity, to report bad user input properly.
  static bool valid_capacity(double c);
  // True for 0 (= unbounded) or a finite bound > 0.
  static bool valid_bound(double b);
  // True for a finite weight > 0.
  static bool valid_weight(double w);

  // REQUIRES: valid_capacity(capacity).
  ConstraintId add_constraint(double capacity, ConstraintKind kind = ConstraintKind::kShared);
  // REQUIRES: valid_capacity(capacity), c exists. Marks c's component for recomputation.
  void set_capacity(ConstraintId c, double capacity);
  double capacity(ConstraintId c) const;
  ConstraintKind kind(ConstraintId c) const;

  // REQUIRES: valid_weight(weight), valid_bound(bound), every constraint exists and appears
  // once, and route is non-empty or bound > 0. The flow's rate is known after the next solve().
  FlowId add_flow(double weight, double bound, std::span<const ConstraintId> route);
  // REQUIRES: f is live. Its id may be handed out again by a later add_flow.
  void remove_flow(FlowId f);
  bool live(FlowId f) const;
  size_t num_flows() const { return flows_.live(); }
  size_t num_constraints() const { return constraints_.size(); }

  // Recomputes the rates of the components touched since the last solve.
  SolveStats solve();
  // True when something changed since the last solve().
  bool needs_solve() const { return !dirty_constraints_.empty() || !dirty_flows_.empty(); }

  // REQUIRES: f is live and !needs_solve(). In bytes/s (the unit of the capacities).
  double rate(FlowId f) const;
  // Sum of the rates of the flows using c (for a fatpipe, their maximum). REQUIRES: !needs_solve().
  double usage(ConstraintId c) const;

 private:
  static constexpr uint32_t kNoMark = 0;
  struct Constraint {
    double capacity = 0;
    ConstraintKind kind = ConstraintKind::kShared;
    bool dirty = false;
    uint32_t mark = kNoMark;   // solve epoch in which this constraint was visited
    uint32_t local = 0;        // index into the solve scratch arrays while solving
    std::vector<uint32_t> flows;  // flows using it, in no particular order
  };
  struct RouteEntry {
    uint32_t constraint;
    uint32_t pos;  // index of this flow in constraints_[constraint].flows
  };
  struct Flow {
    double weight = 0;
    double bound = 0;  // 0 = none
    double rate = 0;
    bool live = false;
    bool dirty = false;
    uint32_t mark = kNoMark;
    std::vector<RouteEntry> route;  // sorted by constraint id
  };

  Constraint& constraint(ConstraintId c);
  const Constraint& constraint(ConstraintId c) const;
  const Flow& flow(FlowId f) const;
  void mark_dirty(uint32_t c);
  // Collects the component reachable from the seeds into comp_flows_/comp_constraints_.
  void collect_component(uint32_t seed_constraint, uint32_t seed_flow);
  // Progressive filling on comp_flows_/comp_constraints_. Returns the number of rounds.
  size_t fill_component();

  SlotPool<Flow> flows_;
  std::vector<Constraint> constraints_;
  std::vector<uint32_t> dirty_constraints_;
  std::vector<uint32_t> dirty_flows_;
  uint32_t epoch_ = kNoMark;

  // Solve scratch, kept to avoid allocating in steady state.
  std::vector<uint32_t> comp_flows_;
  std::vector<uint32_t> comp_constraints_;
  std::vector<uint32_t> stack_;
  std::vector<double> frozen_sum_;     // F_j, per local constraint
  std::vector<double> active_weight_;  // W_j
  std::vector<uint32_t> active_count_;
  std::vector<uint8_t> saturated_;
  std::vector<double> own_limit_;      // e_i, per local flow
  std::vector<uint32_t> active_flows_;
  std::vector<uint32_t> active_constraints_;
};

}  // namespace simfab::flow
