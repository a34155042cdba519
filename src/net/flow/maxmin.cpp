// Progressive filling for weighted max-min fairness; see maxmin.hpp for the model, the
// equations and a worked example.
#include "net/flow/maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace simfab::flow {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
uint32_t raw(ConstraintId c) { return static_cast<uint32_t>(c); }
uint32_t raw(FlowId f) { return static_cast<uint32_t>(f); }
}  // namespace

bool MaxMinSystem::valid_capacity(double c) { return std::isfinite(c) && c > 0; }
bool MaxMinSystem::valid_bound(double b) { return b == 0 || (std::isfinite(b) && b > 0); }
bool MaxMinSystem::valid_weight(double w) { return std::isfinite(w) && w > 0; }

MaxMinSystem::Constraint& MaxMinSystem::constraint(ConstraintId c) {
  SIMFAB_CHECK(raw(c) < constraints_.size(), "unknown constraint id " + std::to_string(raw(c)));
  return constraints_[raw(c)];
}
const MaxMinSystem::Constraint& MaxMinSystem::constraint(ConstraintId c) const {
  SIMFAB_CHECK(raw(c) < constraints_.size(), "unknown constraint id " + std::to_string(raw(c)));
  return constraints_[raw(c)];
}
const MaxMinSystem::Flow& MaxMinSystem::flow(FlowId f) const {
  SIMFAB_CHECK(live(f), "unknown or removed flow id " + std::to_string(raw(f)));
  return flows_[raw(f)];
}
bool MaxMinSystem::live(FlowId f) const { return raw(f) < flows_.slots() && flows_[raw(f)].live; }

void MaxMinSystem::mark_dirty(uint32_t c) {
  if (constraints_[c].dirty) return;
  constraints_[c].dirty = true;
  dirty_constraints_.push_back(c);
}

ConstraintId MaxMinSystem::add_constraint(double capacity, ConstraintKind kind) {
  SIMFAB_CHECK(valid_capacity(capacity), "constraint capacity must be finite and > 0, got " +
                                             std::to_string(capacity));
  SIMFAB_CHECK(constraints_.size() < UINT32_MAX, "more than 2^32-1 constraints");
  Constraint& c = constraints_.emplace_back();
  c.capacity = capacity;
  c.kind = kind;
  return ConstraintId(static_cast<uint32_t>(constraints_.size() - 1));
}

void MaxMinSystem::set_capacity(ConstraintId id, double capacity) {
  SIMFAB_CHECK(valid_capacity(capacity), "constraint capacity must be finite and > 0, got " +
                                             std::to_string(capacity));
  Constraint& c = constraint(id);
  if (c.capacity == capacity) return;
  // An unsaturated shared constraint limits nobody; growing it keeps it unsaturated.
  const bool harmless = c.kind == ConstraintKind::kShared && !c.saturated && capacity > c.capacity;
  c.capacity = capacity;
  if (!harmless) mark_dirty(raw(id));
}

double MaxMinSystem::capacity(ConstraintId c) const { return constraint(c).capacity; }
ConstraintKind MaxMinSystem::kind(ConstraintId c) const { return constraint(c).kind; }

FlowId MaxMinSystem::add_flow(double weight, double bound, std::span<const ConstraintId> route,
                              std::span<const double> usage) {
  SIMFAB_CHECK(valid_weight(weight), "flow weight must be finite and > 0, got " +
                                         std::to_string(weight));
  SIMFAB_CHECK(valid_bound(bound), "flow bound must be 0 (none) or finite and > 0, got " +
                                       std::to_string(bound));
  SIMFAB_CHECK(!route.empty() || bound > 0, "a flow with an empty route needs a bound");
  SIMFAB_CHECK(usage.empty() || usage.size() == route.size(), "one usage coefficient per route entry");
  std::vector<RouteEntry> entries;
  entries.reserve(route.size());
  for (size_t k = 0; k < route.size(); ++k) {
    constraint(route[k]);  // checks the id
    const double a = usage.empty() ? 1.0 : usage[k];
    SIMFAB_CHECK(valid_weight(a), "usage coefficient must be finite and > 0, got " + std::to_string(a));
    entries.push_back(RouteEntry{raw(route[k]), 0, a});
  }
  std::sort(entries.begin(), entries.end(),
            [](const RouteEntry& a, const RouteEntry& b) { return a.constraint < b.constraint; });
  for (size_t k = 1; k < entries.size(); ++k)
    SIMFAB_CHECK(entries[k - 1].constraint != entries[k].constraint,
                 "constraint " + std::to_string(entries[k].constraint) +
                     " appears twice in a flow's route");

  const uint32_t id = flows_.acquire();
  Flow& f = flows_[id];  // a recycled slot keeps stale fields: set them all
  f.weight = weight;
  f.bound = bound;
  f.rate = 0;
  f.live = true;
  f.dirty = true;
  f.mark = kNoMark;
  for (RouteEntry& e : entries) {
    Constraint& c = constraints_[e.constraint];
    e.pos = static_cast<uint32_t>(c.flows.size());
    c.flows.push_back(id);  // the constraints are not touched: the new flow visits them
    c.usage.push_back(e.usage);
  }
  f.route = std::move(entries);
  dirty_flows_.push_back(id);
  return FlowId(id);
}

void MaxMinSystem::remove_flow(FlowId fid) {
  flow(fid);  // checks liveness
  Flow& f = flows_[raw(fid)];
  for (const RouteEntry& e : f.route) {
    Constraint& c = constraints_[e.constraint];
    const uint32_t moved = c.flows.back();
    c.flows[e.pos] = moved;
    c.usage[e.pos] = c.usage.back();
    c.flows.pop_back();
    c.usage.pop_back();
    if (moved != raw(fid)) {
      for (RouteEntry& me : flows_[moved].route) {
        if (me.constraint == e.constraint) {
          me.pos = e.pos;
          break;
        }
      }
    }
    // Freed capacity matters only where it was the bottleneck (fatpipes are never saturated).
    if (constraints_[e.constraint].saturated) mark_dirty(e.constraint);
  }
  f.route.clear();
  f.live = false;
  f.dirty = false;  // a pending entry in dirty_flows_ is skipped by solve()
  flows_.release(raw(fid));
}

double MaxMinSystem::rate(FlowId f) const {
  SIMFAB_CHECK(!needs_solve(), "rate() read before solve()");
  return flow(f).rate;
}

double MaxMinSystem::usage(ConstraintId id) const {
  SIMFAB_CHECK(!needs_solve(), "usage() read before solve()");
  const Constraint& c = constraint(id);
  double sum = 0;
  for (size_t k = 0; k < c.flows.size(); ++k) {
    const double used = c.usage[k] * flows_[c.flows[k]].rate;
    sum = c.kind == ConstraintKind::kShared ? sum + used : std::max(sum, used);
  }
  return sum;
}

bool MaxMinSystem::saturated(ConstraintId id) const {
  SIMFAB_CHECK(!needs_solve(), "saturated() read before solve()");
  return constraint(id).saturated;
}

void MaxMinSystem::next_epoch() {
  if (epoch_ == UINT32_MAX) {  // marks wrap: forget them all once every 2^32 solves
    for (Constraint& c : constraints_) c.mark = c.expanded = kNoMark;
    for (uint32_t f = 0; f < flows_.slots(); ++f) flows_[f].mark = kNoMark;
    epoch_ = kNoMark;
  }
  ++epoch_;
}

MaxMinSystem::SolveStats MaxMinSystem::solve() {
  SolveStats stats;
  recomputed_.clear();
  if (!needs_solve()) return stats;
  next_epoch();
  closure_.clear();
  visited_.clear();
  pending_.clear();
  // Seeds: every flow of a touched constraint, and the flows added since the last solve (a flow
  // removed, and possibly re-added, since it was queued is handled by its current state).
  for (uint32_t c : dirty_constraints_) {
    constraints_[c].dirty = false;
    expand(c);
  }
  for (uint32_t f : dirty_flows_) {
    if (f >= flows_.slots() || !flows_[f].live || !flows_[f].dirty) continue;
    flows_[f].dirty = false;
    join(f);
  }
  dirty_constraints_.clear();
  dirty_flows_.clear();
  propagate();
  do {
    std::sort(closure_.begin(), closure_.end());  // K in id order (maxmin.hpp, Determinism)
    ++stats.passes;
    stats.rounds += fill_closure();
  } while (grow_at_boundary());
  for (size_t j = 0; j < visited_.size(); ++j) {
    Constraint& c = constraints_[visited_[j]];
    c.saturated = c.kind == ConstraintKind::kShared && saturated_now(j);
  }
  recomputed_.reserve(closure_.size());
  for (uint32_t f : closure_) recomputed_.push_back(FlowId(f));
  stats.flows = closure_.size();
  stats.constraints = visited_.size();
  return stats;
}

void MaxMinSystem::visit(uint32_t c) {
  if (constraints_[c].mark == epoch_) return;
  constraints_[c].mark = epoch_;
  visited_.push_back(c);
}

void MaxMinSystem::join(uint32_t f) {
  Flow& fl = flows_[f];
  if (fl.mark == epoch_) return;
  fl.mark = epoch_;
  fl.dirty = false;
  closure_.push_back(f);
  pending_.push_back(f);
}

void MaxMinSystem::expand(uint32_t c) {
  if (constraints_[c].expanded == epoch_) return;
  constraints_[c].expanded = epoch_;
  visit(c);
  for (uint32_t f : constraints_[c].flows) join(f);
}

void MaxMinSystem::propagate() {
  while (!pending_.empty()) {
    const uint32_t f = pending_.back();
    pending_.pop_back();
    for (const RouteEntry& e : flows_[f].route) {
      const Constraint& c = constraints_[e.constraint];
      if (c.kind != ConstraintKind::kShared) continue;  // part of e_i, couples nobody
      visit(e.constraint);
      if (c.saturated) expand(e.constraint);
    }
  }
}

bool MaxMinSystem::saturated_now(size_t j) const {
  return at_capacity_[j] ||
         frozen_sum_[j] >= constraints_[visited_[j]].capacity * (1 - kSaturatedTol);
}

bool MaxMinSystem::grow_at_boundary() {
  bool grew = false;
  const size_t m = visited_.size();  // expand() appends to visited_: index, do not iterate
  for (size_t j = 0; j < m; ++j) {
    const uint32_t c = visited_[j];
    if (!has_fixed_[j] || constraints_[c].expanded == epoch_ || !saturated_now(j)) continue;
    expand(c);
    grew = true;
  }
  if (grew) propagate();
  return grew;
}

size_t MaxMinSystem::fill_closure() {
  const size_t m = visited_.size();
  const size_t n = closure_.size();
  // Constraints, by local index j (position in visited_): F_j starts with the fixed flows' rates.
  frozen_sum_.assign(m, 0.0);
  active_weight_.assign(m, 0.0);
  active_count_.assign(m, 0);
  at_capacity_.assign(m, 0);
  has_fixed_.assign(m, 0);
  for (size_t j = 0; j < m; ++j) {
    Constraint& c = constraints_[visited_[j]];
    c.local = static_cast<uint32_t>(j);
    if (c.kind != ConstraintKind::kShared || c.expanded == epoch_) continue;
    for (size_t k = 0; k < c.flows.size(); ++k) {  // a boundary constraint: fixed flows keep their rates
      const Flow& f = flows_[c.flows[k]];
      if (f.mark == epoch_) continue;
      frozen_sum_[j] += c.usage[k] * f.rate;
      has_fixed_[j] = 1;
    }
  }
  // Flows, by local index i (position in closure_, id order): e_i, w_i, and their shared
  // constraints as local indices (CSR); W_j and the flow counts summed in id order.
  own_limit_.resize(n);
  weight_.resize(n);
  frozen_.assign(n, 0);
  route_start_.clear();
  route_local_.clear();
  route_usage_.clear();
  limit_order_.clear();
  for (size_t i = 0; i < n; ++i) {
    const Flow& f = flows_[closure_[i]];
    double limit = f.bound > 0 ? f.bound : kInf;
    route_start_.push_back(static_cast<uint32_t>(route_local_.size()));
    for (const RouteEntry& e : f.route) {
      const Constraint& c = constraints_[e.constraint];
      if (c.kind == ConstraintKind::kFatpipe) {
        limit = std::min(limit, c.capacity / e.usage);
        continue;
      }
      route_local_.push_back(c.local);
      route_usage_.push_back(e.usage);
      active_weight_[c.local] += e.usage * f.weight;
      ++active_count_[c.local];
    }
    SIMFAB_CHECK(limit < kInf || route_start_.back() < route_local_.size(),
                 "an unbounded flow without a shared constraint");
    own_limit_[i] = limit;
    weight_[i] = f.weight;
    if (limit < kInf) limit_order_.push_back(static_cast<uint32_t>(i));
  }
  route_start_.push_back(static_cast<uint32_t>(route_local_.size()));
  // The reverse lists, constraint -> its flows of K, in id order: a counting sort that fills each
  // list from its end (active_count_ serves as the cursor, then is restored).
  users_start_.assign(m + 1, 0);
  for (size_t j = 0; j < m; ++j) users_start_[j + 1] = users_start_[j] + active_count_[j];
  users_.resize(route_local_.size());
  for (size_t i = n; i-- > 0;)
    for (uint32_t k = route_start_[i]; k < route_start_[i + 1]; ++k) {
      const uint32_t j = route_local_[k];
      users_[users_start_[j] + --active_count_[j]] = static_cast<uint32_t>(i);
    }
  for (size_t j = 0; j < m; ++j) active_count_[j] = users_start_[j + 1] - users_start_[j];
  // Own limits in the order the level reaches them: e_i / w_i, ties by id. A min-heap, popped only
  // as far as the level goes: when a shared constraint freezes the flows first (an incast under a
  // window bound), the order of the rest is never needed, so this costs O(K), not O(K log K).
  auto later_limit = [&](uint32_t a, uint32_t b) {
    const double la = own_limit_[a] / weight_[a], lb = own_limit_[b] / weight_[b];
    return la > lb || (la == lb && a > b);
  };
  std::make_heap(limit_order_.begin(), limit_order_.end(), later_limit);
  auto pop_limit = [&] {
    std::pop_heap(limit_order_.begin(), limit_order_.end(), later_limit);
    limit_order_.pop_back();
  };

  // The level of the constraint j: the t at which it saturates if nothing else freezes first.
  auto level = [&](uint32_t j) {
    const double left = std::max(0.0, constraints_[visited_[j]].capacity - frozen_sum_[j]);
    return left / active_weight_[j];
  };
  // heap_: a min-heap of levels, one entry per constraint still open. Freezing a flow at t on j
  // never lowers j's level L (the new level is L + u (L - t) / (W_j - u) >= L, u = a_ij w_i), so a key
  // is a lower bound of the current level: a top whose key is out of date goes back in with its
  // current level, and a top whose key is current is the true minimum. (Rounding can lower a
  // level by a hair; the top is then re-keyed the same way.)
  auto later = [](const LevelEntry& a, const LevelEntry& b) {
    return a.level > b.level || (a.level == b.level && a.local > b.local);
  };
  auto settle_top = [&] {  // true with a current top, false when no constraint is open
    while (!heap_.empty()) {
      const uint32_t j = heap_.front().local;
      const bool open = !at_capacity_[j] && active_count_[j] > 0;
      const double current = open ? level(j) : 0;
      if (open && current == heap_.front().level) return true;
      std::pop_heap(heap_.begin(), heap_.end(), later);
      if (!open) {
        heap_.pop_back();
        continue;
      }
      heap_.back().level = current;
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
    return false;
  };
  heap_.clear();
  for (size_t j = 0; j < m; ++j)
    if (active_count_[j] > 0)
      heap_.push_back(LevelEntry{level(static_cast<uint32_t>(j)), static_cast<uint32_t>(j)});
  std::make_heap(heap_.begin(), heap_.end(), later);

  size_t frozen = 0;
  auto usage_on = [&](uint32_t i, uint32_t j) {  // a_ij of local flow i on local constraint j
    for (uint32_t k = route_start_[i]; k < route_start_[i + 1]; ++k)
      if (route_local_[k] == j) return route_usage_[k];
    return 0.0;
  };
  // Freezing flow i at `rate` moves it from W_j to F_j on each of its constraints.
  auto freeze = [&](uint32_t i, double rate) {
    flows_[closure_[i]].rate = rate;
    frozen_[i] = 1;
    ++frozen;
    for (uint32_t k = route_start_[i]; k < route_start_[i + 1]; ++k) {
      const uint32_t j = route_local_[k];
      frozen_sum_[j] += route_usage_[k] * rate;
      active_weight_[j] -= route_usage_[k] * weight_[i];
      if (--active_count_[j] > 0 && !(active_weight_[j] > 0)) {
        // Cancellation ate W_j (weights ~1e16 apart): sum it afresh.
        active_weight_[j] = 0;
        for (uint32_t u = users_start_[j]; u < users_start_[j + 1]; ++u)
          if (!frozen_[users_[u]]) active_weight_[j] += usage_on(users_[u], j) * weight_[users_[u]];
      }
    }
  };

  size_t rounds = 0;
  double t_prev = 0;  // limit_order_ (a heap) holds every unfrozen bounded flow
  while (frozen < n) {
    ++rounds;
    while (!limit_order_.empty() && frozen_[limit_order_.front()]) pop_limit();
    double t = kInf;
    if (!limit_order_.empty()) t = own_limit_[limit_order_.front()] / weight_[limit_order_.front()];
    if (settle_top()) t = std::min(t, heap_.front().level);
    SIMFAB_CHECK(t < kInf, "a progressive-filling round found no next level");
    // Rounding in F_j can put a level a hair below the previous one: levels never go down.
    t = std::max(t, t_prev);
    t_prev = t;
    saturating_.clear();
    while (settle_top() && heap_.front().level <= t) {
      at_capacity_[heap_.front().local] = 1;
      saturating_.push_back(heap_.front().local);
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    // Flows reaching their own limit take e_i; then the flows of the saturated constraints.
    const size_t before = frozen;
    while (!limit_order_.empty()) {
      const uint32_t i = limit_order_.front();
      if (own_limit_[i] / weight_[i] > t) break;
      pop_limit();
      if (!frozen_[i]) freeze(i, own_limit_[i]);
    }
    for (uint32_t j : saturating_)
      for (uint32_t u = users_start_[j]; u < users_start_[j + 1]; ++u)
        if (!frozen_[users_[u]]) freeze(users_[u], weight_[users_[u]] * t);
    // The argmin of t always freezes at least one flow, so there are at most n rounds.
    SIMFAB_CHECK(frozen > before, "a progressive-filling round froze no flow");
  }
  return rounds;
}

}  // namespace simfab::flow
