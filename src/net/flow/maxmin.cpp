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
  c.capacity = capacity;
  mark_dirty(raw(id));
}

double MaxMinSystem::capacity(ConstraintId c) const { return constraint(c).capacity; }
ConstraintKind MaxMinSystem::kind(ConstraintId c) const { return constraint(c).kind; }

FlowId MaxMinSystem::add_flow(double weight, double bound, std::span<const ConstraintId> route) {
  SIMFAB_CHECK(valid_weight(weight), "flow weight must be finite and > 0, got " +
                                         std::to_string(weight));
  SIMFAB_CHECK(valid_bound(bound), "flow bound must be 0 (none) or finite and > 0, got " +
                                       std::to_string(bound));
  SIMFAB_CHECK(!route.empty() || bound > 0, "a flow with an empty route needs a bound");
  std::vector<RouteEntry> entries;
  entries.reserve(route.size());
  for (ConstraintId c : route) {
    constraint(c);  // checks the id
    entries.push_back(RouteEntry{raw(c), 0});
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
    std::vector<uint32_t>& users = constraints_[e.constraint].flows;
    e.pos = static_cast<uint32_t>(users.size());
    users.push_back(id);
    mark_dirty(e.constraint);
  }
  f.route = std::move(entries);
  dirty_flows_.push_back(id);
  return FlowId(id);
}

void MaxMinSystem::remove_flow(FlowId fid) {
  flow(fid);  // checks liveness
  Flow& f = flows_[raw(fid)];
  for (const RouteEntry& e : f.route) {
    std::vector<uint32_t>& users = constraints_[e.constraint].flows;
    const uint32_t moved = users.back();
    users[e.pos] = moved;
    users.pop_back();
    if (moved != raw(fid)) {
      for (RouteEntry& me : flows_[moved].route) {
        if (me.constraint == e.constraint) {
          me.pos = e.pos;
          break;
        }
      }
    }
    mark_dirty(e.constraint);
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
  for (uint32_t f : c.flows)
    sum = c.kind == ConstraintKind::kShared ? sum + flows_[f].rate : std::max(sum, flows_[f].rate);
  return sum;
}

MaxMinSystem::SolveStats MaxMinSystem::solve() {
  SolveStats stats;
  if (!needs_solve()) return stats;
  if (epoch_ == UINT32_MAX) {  // marks wrap: forget them all once every 2^32 solves
    for (Constraint& c : constraints_) c.mark = kNoMark;
    for (uint32_t f = 0; f < flows_.slots(); ++f) flows_[f].mark = kNoMark;
    epoch_ = kNoMark;
  }
  ++epoch_;
  // Seeds in id order, so components are solved in a history-independent order.
  std::sort(dirty_constraints_.begin(), dirty_constraints_.end());
  std::sort(dirty_flows_.begin(), dirty_flows_.end());
  auto solve_from = [&](uint32_t seed_c, uint32_t seed_f) {
    collect_component(seed_c, seed_f);
    stats.flows += comp_flows_.size();
    stats.constraints += comp_constraints_.size();
    stats.rounds += fill_component();
  };
  for (uint32_t c : dirty_constraints_) {
    constraints_[c].dirty = false;
    if (constraints_[c].mark != epoch_) solve_from(c, SlotPool<Flow>::kNone);
  }
  for (uint32_t f : dirty_flows_) {
    // A flow removed (and possibly re-added) since it was queued is handled by its current state.
    if (f >= flows_.slots() || !flows_[f].live || !flows_[f].dirty) continue;
    flows_[f].dirty = false;
    if (flows_[f].mark != epoch_) solve_from(SlotPool<Flow>::kNone, f);
  }
  dirty_constraints_.clear();
  dirty_flows_.clear();
  return stats;
}

void MaxMinSystem::collect_component(uint32_t seed_c, uint32_t seed_f) {
  comp_flows_.clear();
  comp_constraints_.clear();
  stack_.clear();  // holds constraint ids still to expand
  auto visit_flow = [&](uint32_t f) {
    Flow& fl = flows_[f];
    if (fl.mark == epoch_) return;
    fl.mark = epoch_;
    fl.dirty = false;
    comp_flows_.push_back(f);
    for (const RouteEntry& e : fl.route) {
      if (constraints_[e.constraint].mark == epoch_) continue;
      constraints_[e.constraint].mark = epoch_;
      stack_.push_back(e.constraint);
    }
  };
  if (seed_c != SlotPool<Flow>::kNone) {
    constraints_[seed_c].mark = epoch_;
    stack_.push_back(seed_c);
  } else {
    visit_flow(seed_f);
  }
  while (!stack_.empty()) {
    const uint32_t c = stack_.back();
    stack_.pop_back();
    comp_constraints_.push_back(c);
    for (uint32_t f : constraints_[c].flows) visit_flow(f);
  }
  std::sort(comp_flows_.begin(), comp_flows_.end());
  std::sort(comp_constraints_.begin(), comp_constraints_.end());
}

size_t MaxMinSystem::fill_component() {
  const size_t m = comp_constraints_.size();
  const size_t n = comp_flows_.size();
  frozen_sum_.assign(m, 0.0);
  active_weight_.assign(m, 0.0);
  active_count_.assign(m, 0);
  saturated_.assign(m, 0);
  own_limit_.assign(n, kInf);
  for (size_t j = 0; j < m; ++j) constraints_[comp_constraints_[j]].local = static_cast<uint32_t>(j);

  active_flows_.clear();
  for (size_t i = 0; i < n; ++i) {
    const Flow& f = flows_[comp_flows_[i]];
    double limit = f.bound > 0 ? f.bound : kInf;
    for (const RouteEntry& e : f.route) {
      const Constraint& c = constraints_[e.constraint];
      if (c.kind == ConstraintKind::kFatpipe) limit = std::min(limit, c.capacity);
    }
    own_limit_[i] = limit;
    active_flows_.push_back(static_cast<uint32_t>(i));
  }
  active_constraints_.clear();
  for (size_t j = 0; j < m; ++j)
    if (constraints_[comp_constraints_[j]].kind == ConstraintKind::kShared)
      active_constraints_.push_back(static_cast<uint32_t>(j));

  // The level of the constraint j: the t at which it saturates if nothing else freezes first.
  auto level = [&](uint32_t j) {
    const double left = std::max(0.0, constraints_[comp_constraints_[j]].capacity - frozen_sum_[j]);
    return left / active_weight_[j];
  };

  size_t rounds = 0;
  double t_prev = 0;
  while (!active_flows_.empty()) {
    ++rounds;
    // W_j summed afresh over the unfrozen flows, in id order (no drift from subtractions).
    for (uint32_t j : active_constraints_) {
      active_weight_[j] = 0;
      active_count_[j] = 0;
    }
    for (uint32_t i : active_flows_) {
      const Flow& f = flows_[comp_flows_[i]];
      for (const RouteEntry& e : f.route) {
        const Constraint& c = constraints_[e.constraint];
        if (c.kind != ConstraintKind::kShared) continue;
        active_weight_[c.local] += f.weight;
        ++active_count_[c.local];
      }
    }
    size_t keep = 0;
    for (uint32_t j : active_constraints_)
      if (active_count_[j] > 0) active_constraints_[keep++] = j;
    active_constraints_.resize(keep);

    double t = kInf;
    for (uint32_t j : active_constraints_) t = std::min(t, level(j));
    for (uint32_t i : active_flows_) t = std::min(t, own_limit_[i] / flows_[comp_flows_[i]].weight);
    SIMFAB_CHECK(t < kInf, "an unbounded flow without a shared constraint");
    // Rounding in F_j can put a level a hair below the previous one: levels never go down.
    t = std::max(t, t_prev);
    t_prev = t;
    for (uint32_t j : active_constraints_) saturated_[j] = level(j) <= t;

    // Freeze, in flow id order; compact the active list in place.
    keep = 0;
    for (uint32_t i : active_flows_) {
      Flow& f = flows_[comp_flows_[i]];
      bool frozen = false;
      if (own_limit_[i] / f.weight <= t) {
        f.rate = own_limit_[i];
        frozen = true;
      } else {
        for (const RouteEntry& e : f.route) {
          const Constraint& c = constraints_[e.constraint];
          if (c.kind == ConstraintKind::kShared && saturated_[c.local]) {
            frozen = true;
            break;
          }
        }
        if (frozen) f.rate = f.weight * t;
      }
      if (!frozen) {
        active_flows_[keep++] = i;
        continue;
      }
      for (const RouteEntry& e : f.route) {
        const Constraint& c = constraints_[e.constraint];
        if (c.kind == ConstraintKind::kShared) frozen_sum_[c.local] += f.rate;
      }
    }
    // The argmin of t always freezes at least one flow, so there are at most n rounds.
    SIMFAB_CHECK(keep < active_flows_.size(), "a progressive-filling round froze no flow");
    active_flows_.resize(keep);
  }
  return rounds;
}

}  // namespace simfab::flow
