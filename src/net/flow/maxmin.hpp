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
// A flow may consume more or less than its rate on a constraint: its usage coefficient a_ij > 0
// (SimGrid's "consumption weight"; 1 unless given). A shared constraint then bounds
// sum_i a_ij rho_i <= C_j and a fatpipe bounds a_ij rho_i <= C_j. SimGrid's cross traffic is
// the use: a flow loads its reverse route at 5 % of its rate (a_ij = 0.05), and a shared link
// that a flow crosses in both directions at 1.05. Everything below holds with w_i replaced by
// a_ij w_i in the sums over a constraint (W_j, F_j) and C_j by C_j / a_ij in a fatpipe's limit.
// A route lists each constraint at most once (REQUIRES, checked): a route that crosses a link
// twice is a routing bug, and silently deduplicating it would under-count its load (a caller
// that means it merges the two uses into one coefficient).
// A route may be empty only if the flow has a bound (a loopback copy): its rate is its bound.
//
// The solution: progressive filling
// ---------------------------------
// Raise a common level t from 0; every unfrozen flow runs at rho_i = w_i * t. Let
//   e_i = min(b_i, min over fatpipe constraints j of i of C_j / a_ij)   (the flow's own limit)
//   F_j = sum of a_ij rho_i over the frozen flows on shared constraint j
//   W_j = sum of a_ij w_i over the unfrozen flows on shared constraint j
// The next event is at t* = min( min_j (C_j - F_j) / W_j , min_i e_i / w_i ). Every constraint
// reaching its capacity at t* saturates and freezes its unfrozen flows at w_i * t*; every flow
// reaching its own limit at t* freezes at e_i. Repeat until every flow is frozen. Each round
// freezes at least one flow, so there are at most n rounds, and in practice one per distinct
// bottleneck level.
// Implementation: the own limits sit in a min-heap by e_i / w_i, popped only as far as t goes; the
// constraint levels L_j = (C_j - F_j) / W_j sit in another. Freezing a flow at t <= L_j on j gives j the level
// (L_j W_j - u t) / (W_j - u) = L_j + u (L_j - t) / (W_j - u) >= L_j, u = a_ij w_i: levels only rise,
// so a heap key is a lower bound of its constraint's level, and a top whose key is out of date
// is re-keyed and pushed back instead of updating every key at every freeze. W_j is kept by
// subtraction (summed afresh if cancellation ever drives it to <= 0 while flows remain).
//
// Invariants of the result (checked by tests/unit/maxmin_test.cpp on random instances):
//   Feasibility: for every shared j, sum_{i uses j} a_ij rho_i <= C_j (1 + 1e-9); for every
//     fatpipe j and flow i using it, a_ij rho_i <= C_j (1 + 1e-9); rho_i <= b_i when bounded.
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
// Incremental solving: the saturated closure
// ------------------------------------------
// add_flow, remove_flow and set_capacity only record what they touch; solve() then recomputes the
// rates of a "closure" K of flows and keeps every other rate (the fixed flows X) as it was. The
// previous solution P is summarised by one flag per shared constraint, `saturated`: its usage
// reached C_j (1 - 1e-9), or progressive filling saturated it. Fatpipe constraints never couple
// flows (each flow is limited by them on its own): they only enter the flow's own limit e_i, are
// never saturated, and never bring other flows into K.
//
//   touched constraints T: a capacity change (a shared one that was not saturated and grows is
//     ignored: it stays unsaturated and limited nobody), or a flow removed from a saturated shared
//     constraint. Removing a flow from an unsaturated constraint touches nothing: every flow
//     there is limited elsewhere, and its usage only goes down.
//   seeds: the flows added since the last solve, and all the flows of every touched constraint.
//   closure rule: for each flow of K, each shared constraint j of its route is visited; if j is
//     saturated in P (or touched), all of j's flows join K ("expanded"). A visited constraint that
//     is not expanded is a boundary constraint: in the sub-solve its frozen sum F_j starts at the
//     sum of the rates of its fixed flows.
//   sub-solve: progressive filling of K alone, with capacities C_j - F_j.
//   growth: a boundary constraint that carries fixed flows and is saturated after the sub-solve
//     (or over capacity) is expanded, the rule is applied to its flows, and K is solved again.
//     K only grows, so this stops (at most once per flow, in practice one or two passes).
// Afterwards `saturated` is recomputed for every constraint visited.
//
// Why the result Q equals the from-scratch solution (up to rounding). The weighted max-min
// allocation is unique, and an allocation is it iff it is feasible and every flow runs at its own
// limit e_i or has a bottleneck (a saturated shared constraint on which its rate/weight is
// maximal). Invariant (holds after every solve, by induction): every flow that is not at its own
// limit has a bottleneck flagged `saturated`, and an unflagged constraint has usage < C (1-1e-9).
//   Feasibility. A constraint with a flow of K was visited: the sub-solve respects C_j - F_j. A
//     constraint with no flow of K is not touched (touched ones are expanded) and gained no flow
//     (new flows are in K): same capacity, a subset of its old flows at their old rates.
//   A fixed flow x. If x ran at its own limit in P, it still does: its bound is fixed and a
//     fatpipe whose capacity changed would have put x into K. Otherwise x had a flagged bottleneck
//     j in P. j is not touched (x would be in K), so it kept its capacity and lost no flow; it
//     gained none (a new flow visits j, which is flagged, and pulls x in); no flow of j is in K
//     (it would have visited j and expanded it). So j carries exactly the same rates: it is still
//     saturated and x still maximal on it. Its flag is untouched, so the invariant carries over.
//   A flow k of K. Progressive filling gives k its own limit, or a constraint j saturated in the
//     sub-problem with k maximal among the flows of K on j. If j carried fixed flows, it would be
//     a saturated boundary constraint, which growth forbids at the end; so all of j's flows are in
//     K, j is saturated in the whole system, and k is maximal on it. j is flagged by the filling.
// So Q is the max-min allocation. Completion events: only the flows of K can change rate; the
// caller reads them from recomputed() instead of scanning every flow.
//
// Determinism. A solve freezes the flows of K in an order fixed by the closure (own limits by
// e_i / w_i then id; saturated constraints by level; each one's flows by id) and takes every sum
// in an order that is a function of the calls made; the closure as a set does not depend on the
// order in which it is explored. The rates of the fixed flows, though, come from earlier solves
// with other closures, so:
//   - identical call sequences give bit-identical rates, flags and recomputed() lists (what
//     simfab's reproducible runs need: no hashing, no pointer order, no clock);
//   - any sequence gives rates equal to the from-scratch solution of the live flows within 1e-9
//     relative (floating-point rounding only; checked by the random churn test), but not
//     bit-identical: the order of additions and the closure sizes change the rounding.
// Flow ids are recycled last-released-first (SlotPool); constraint ids are dense, never reused.
//
// Errors: all REQUIRES below are programming errors of the caller and are enforced with
// SIMFAB_CHECK (abort). Capacities and bounds usually come from users (platform files, --cfg):
// validate them first with valid_capacity()/valid_bound() and throw an InputError with the
// location and the offending text.
//
// Complexity. add_flow O(r log r); remove_flow O(r * r_max) (swap-removal from each constraint's
// flow list); set_capacity O(1); rate O(1); recomputed() O(1). solve(), with K the closure, V the
// constraints visited, D = sum over V of their flow counts, r the route length and P the passes
// (1 + the growths, each of which adds a flow; in practice P <= 2):
//   O(K r + D) to build the closure, then per pass O(D + K log K) to sum the F_j of the boundary
//   constraints and sort K, and O(K r log V) for progressive filling (each freeze updates r
//   constraints in O(1); each heap re-key is paid for by one of those updates).
// Nothing depends on the flows outside K except through D (the fixed flows of the boundary
// constraints are summed). A flow start or end whose constraints are not saturated costs
// O(r log r + D); one that touches a saturated constraint recomputes everything connected to it
// through saturated constraints, which is all the flows when one saturated link (an
// oversubscribed backbone, a host limiter in a dense all-to-all) ties them together: the
// from-scratch cost. bench/maxmin_bench.cpp measures both situations.
// Memory: per flow ~64 B + 16 B per route entry; per constraint ~72 B + 12 B per flow using it;
// solve scratch ~24 B per flow + 8 B per route entry of the largest closure, ~50 B per visited
// constraint (kept between solves, so steady state allocates nothing).
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
    size_t flows = 0;        // flows recomputed: the closure K (= recomputed().size())
    size_t constraints = 0;  // constraints visited: those of K's routes, and touched ones
    size_t rounds = 0;       // progressive-filling rounds, summed over the passes
    size_t passes = 0;       // progressive fillings of K: 1 + the times the closure grew
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
  // REQUIRES: valid_capacity(capacity), c exists. Touches c (its flows are recomputed), except
  // when c is shared, not saturated, and grows: then no rate can change.
  void set_capacity(ConstraintId c, double capacity);
  double capacity(ConstraintId c) const;
  ConstraintKind kind(ConstraintId c) const;

  // REQUIRES: valid_weight(weight), valid_bound(bound), every constraint exists and appears
  // once, route is non-empty or bound > 0, and `usage` is empty (every a_ij = 1) or holds one
  // valid_weight coefficient per route entry. The flow's rate is known after the next solve().
  FlowId add_flow(double weight, double bound, std::span<const ConstraintId> route,
                  std::span<const double> usage = {});
  // REQUIRES: f is live. Its id may be handed out again by a later add_flow. Touches the
  // saturated constraints of f's route; if there are none, no rate changes and no solve is due.
  void remove_flow(FlowId f);
  bool live(FlowId f) const;
  size_t num_flows() const { return flows_.live(); }
  size_t num_constraints() const { return constraints_.size(); }

  // Recomputes the rates of the saturated closure of what was touched since the last solve.
  SolveStats solve();
  // The live flows whose rate the last solve() recomputed, in increasing id order: the only ones
  // whose rate may have changed (it may also be bit-identical). Empty after a solve() that had
  // nothing to do. Changed only by solve(); a flow removed since is still listed.
  std::span<const FlowId> recomputed() const { return recomputed_; }
  // True when something changed since the last solve().
  bool needs_solve() const { return !dirty_constraints_.empty() || !dirty_flows_.empty(); }

  // REQUIRES: f is live and !needs_solve(). In bytes/s (the unit of the capacities).
  double rate(FlowId f) const;
  // Sum of a_ij rho_i over the flows using c (for a fatpipe, the maximum). REQUIRES: !needs_solve().
  double usage(ConstraintId c) const;
  // The flag the closure is built from: c is shared and, in the last solve that visited it, its
  // usage reached capacity * (1 - 1e-9) or progressive filling saturated it. REQUIRES:
  // !needs_solve().
  bool saturated(ConstraintId c) const;

 private:
  static constexpr uint32_t kNoMark = 0;
  // Relative tolerance of the `saturated` flag: usage >= capacity * (1 - kSaturatedTol).
  static constexpr double kSaturatedTol = 1e-9;
  struct Constraint {
    double capacity = 0;
    ConstraintKind kind = ConstraintKind::kShared;
    bool dirty = false;      // touched since the last solve
    bool saturated = false;  // see saturated(); always false for a fatpipe
    uint32_t mark = kNoMark;      // solve epoch in which this constraint was visited
    uint32_t expanded = kNoMark;  // solve epoch in which all its flows joined the closure
    uint32_t local = 0;           // index into visited_ (and the scratch arrays) while solving
    std::vector<uint32_t> flows;  // flows using it, in no particular order
    std::vector<double> usage;    // their coefficients a_ij, parallel to `flows`
  };
  struct RouteEntry {
    uint32_t constraint;
    uint32_t pos;  // index of this flow in constraints_[constraint].flows
    double usage;  // a_ij
  };
  struct Flow {
    double weight = 0;
    double bound = 0;  // 0 = none
    double rate = 0;
    bool live = false;
    bool dirty = false;  // added since the last solve
    uint32_t mark = kNoMark;  // solve epoch in which it joined the closure
    std::vector<RouteEntry> route;  // sorted by constraint id
  };

  Constraint& constraint(ConstraintId c);
  const Constraint& constraint(ConstraintId c) const;
  const Flow& flow(FlowId f) const;
  void mark_dirty(uint32_t c);
  void next_epoch();
  // Closure building: visit puts a constraint in visited_, join a flow in closure_ (and pending_),
  // expand all the flows of a constraint; propagate applies the closure rule to pending_.
  void visit(uint32_t c);
  void join(uint32_t f);
  void expand(uint32_t c);
  void propagate();
  // Progressive filling of closure_ against visited_, fixed flows counted in F_j. Returns the
  // number of rounds.
  size_t fill_closure();
  // Whether visited_[j] is saturated after fill_closure() (the `saturated` flag to be).
  bool saturated_now(size_t j) const;
  // Expands the boundary constraints that fill_closure() saturated; true if the closure grew.
  bool grow_at_boundary();

  SlotPool<Flow> flows_;
  std::vector<Constraint> constraints_;
  std::vector<uint32_t> dirty_constraints_;
  std::vector<uint32_t> dirty_flows_;
  uint32_t epoch_ = kNoMark;
  std::vector<FlowId> recomputed_;

  // Solve scratch, kept to avoid allocating in steady state.
  std::vector<uint32_t> closure_;   // K, flow ids
  std::vector<uint32_t> visited_;   // constraint ids, in visiting order
  std::vector<uint32_t> pending_;   // flows of K whose route is still to be visited
  // Per local constraint j (index into visited_).
  std::vector<double> frozen_sum_;      // F_j
  std::vector<double> active_weight_;   // W_j
  std::vector<uint32_t> active_count_;  // unfrozen flows of K on j
  std::vector<uint8_t> at_capacity_;    // saturated by the filling
  std::vector<uint8_t> has_fixed_;      // boundary constraint carrying fixed flows
  std::vector<uint32_t> users_start_;   // j's flows of K, by id:
  std::vector<uint32_t> users_;         //   users_[users_start_[j] .. users_start_[j+1]]
  // Per local flow i (index into closure_).
  std::vector<double> own_limit_;       // e_i
  std::vector<double> weight_;          // w_i
  std::vector<uint8_t> frozen_;
  std::vector<uint32_t> route_start_;   // route_local_[route_start_[i] .. route_start_[i+1]]
  std::vector<uint32_t> route_local_;   // i's shared constraints, as local indices
  std::vector<double> route_usage_;     //   and a_ij of each
  std::vector<uint32_t> limit_order_;   // min-heap of the unfrozen flows with a finite e_i, by e_i / w_i
  struct LevelEntry {
    double level;
    uint32_t local;
  };
  std::vector<LevelEntry> heap_;        // min-heap of lower bounds of the constraint levels
  std::vector<uint32_t> saturating_;    // constraints saturating in the current round
};

}  // namespace simfab::flow
