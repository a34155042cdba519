#include "net/flow/flow_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simfab::flow {

namespace {

// Event index: transfer id (32 bits) | phase (3 bits); kProfile: the constraint id.
constexpr ConstraintId kNoConstraint = static_cast<ConstraintId>(UINT32_MAX);
constexpr uint8_t kSolvePriority = 255;  // after every other event of the same instant

}  // namespace

FlowNetwork::FlowNetwork(Engine& engine, const Platform& platform, FlowParams params, EventKinds kinds)
    : Network(kinds), engine_(engine), platform_(platform), link_constraint_(platform.links().size(), kNoConstraint),
      p_(std::move(params)), loopback_(kNoConstraint),
      bandwidth_profiles_(platform.has_profiles(Platform::ProfileKind::kBandwidth)),
      state_profiles_(platform.has_profiles(Platform::ProfileKind::kLinkState)) {
  engine_.set_handler(kinds_.own, this);
}

SimTime FlowNetwork::seconds(double s) {
  if (!(s < 9.2e6)) return SimTime::never();  // beyond ~106 days: the executor reports it
  return SimTime::from_seconds(s);
}

SimTime FlowNetwork::send_overhead(HostId, HostId, Bytes size) const {
  if (p_.overheads_if_detached && size >= p_.detached_below) return SimTime::zero();
  return seconds(p_.os.value(size));
}
SimTime FlowNetwork::isend_overhead(HostId, HostId, Bytes size) const { return seconds(p_.ois.value(size)); }
SimTime FlowNetwork::recv_overhead(HostId, HostId, Bytes size) const {
  if (p_.overheads_if_detached && size >= p_.detached_below) return SimTime::zero();
  return seconds(p_.orr.value(size));
}

ConstraintId FlowNetwork::constraint_of(LinkId l) {
  ConstraintId& c = link_constraint_[static_cast<size_t>(l)];
  if (c != kNoConstraint) return c;
  const Link& link = platform_.link(l);
  c = system_.add_constraint(platform_.bandwidth_at(l, engine_.now()),
                             link.sharing == LinkSharing::kFatpipe ? ConstraintKind::kFatpipe : ConstraintKind::kShared);
  LinkState fresh;
  fresh.link = l;
  link_state_.push_back(fresh);
  return c;
}

void FlowNetwork::schedule(SimTime t, Phase phase, uint32_t id, uint8_t priority) {
  engine_.schedule(t, kinds_.own, uint64_t{id} | (uint64_t{static_cast<uint8_t>(phase)} << 32), priority);
}

ConstraintId FlowNetwork::loopback_constraint() {
  if (loopback_ == kNoConstraint) {
    loopback_ = system_.add_constraint(p_.loopback_bw, ConstraintKind::kFatpipe);
    link_state_.emplace_back();  // link -1: the model's own, not a platform link
  }
  return loopback_;
}

// A new transfer; when `ordered`, the last of its stream's delivery order.
uint32_t FlowNetwork::enqueue(uint64_t stream, uint64_t token, bool ordered) {
  const uint32_t id = transfers_.acquire();
  Transfer& t = transfers_[id];
  t.token = token;
  t.remaining = t.rate = t.bound = 0;
  t.stream = stream;
  t.next_in_pair = kNone;
  t.arrived = false;
  t.ordered = ordered;
  t.forward = 0;
  t.weight = t.factor = 1;
  t.route.clear();  // keeps its capacity: slots are recycled, so steady state allocates nothing
  t.usage.clear();
  t.stage = Stage::kLatency;
  if (!ordered) return id;
  auto [it, fresh] = pairs_.try_emplace(t.stream, PairQueue{id, id});
  if (!fresh) {
    transfers_[it->second.tail].next_in_pair = id;
    it->second.tail = id;
  }
  return id;
}

// The route of a message (in route_scratch_), or an InputError naming the two hosts.
void FlowNetwork::find_route(HostId src, HostId dst) {
  if (platform_.is_ideal())
    throw InputError(SourceLoc{}, std::string("network/model=") + p_.model + " needs a platform with links (--platform)");
  if (!platform_.route_into(src, dst, route_scratch_, RouteRequest{routed_++, this}))
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "no route between host '" + platform_.host(src).name +
                                                              "' and host '" + platform_.host(dst).name +
                                                              "' (a message needs one)");
}

double FlowNetwork::load(LinkId l) const {
  const ConstraintId c = link_constraint_[static_cast<size_t>(l)];
  return c == kNoConstraint ? 0 : link_state_[static_cast<size_t>(c)].routed;
}

void FlowNetwork::transfer(const NetMessage& m) {
  find_route(m.src, m.dst);
  if (state_profiles_) route_around_off_links(m.src, m.dst, m.departs);
  const Bytes payload = m.size + p_.envelope;
  const uint32_t id = enqueue(m.stream, m.token, p_.order_matched_data || protocol(m.size) == Protocol::kEager);
  Transfer& t = transfers_[id];
  t.src = m.src;
  t.dst = m.dst;
  t.payload = static_cast<double>(payload);
  t.remaining = t.payload;
  const double latency_s = take_route(t, m.departs);
  const SimTime start = saturating_add(m.departs, seconds(latency_s * p_.lat_factor.value(payload)));
  if (start == SimTime::never())
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds: a message's latency is too long");
  schedule(start, Phase::kStart, id);
}

// Transfer t takes the route in route_scratch_ (links' values at `at`): its constraints, the
// routed counts, cross traffic, and its rate bound and weight. Returns the route's latency (s).
double FlowNetwork::take_route(Transfer& t, SimTime at) {
  double latency_s = 0, min_bw = std::numeric_limits<double>::infinity(), penalty = 0;
  t.route.clear();
  t.usage.clear();
  for (LinkId l : route_scratch_) {
    const double bw = platform_.bandwidth_at(l, at);
    latency_s += platform_.latency_at(l, at).seconds();
    min_bw = std::min(min_bw, bw);
    penalty += p_.weight_s / bw;
    const ConstraintId c = constraint_of(l);
    if (state_profiles_) arm_off_event(l, c, at);
    use(t, c, 1.0);
  }
  if (route_scratch_.empty() && t.src == t.dst && p_.loopback_bw > 0) {  // smpi's default loopback
    latency_s = p_.loopback_latency.seconds();
    min_bw = p_.loopback_bw;
    penalty = p_.weight_s / p_.loopback_bw;
    use(t, loopback_constraint(), 1.0);
  }
  t.forward = static_cast<uint32_t>(t.route.size());
  for (uint32_t k = 0; k < t.forward; ++k) ++link_state_[static_cast<size_t>(t.route[k])].routed;
  if (p_.cross_traffic > 0 && !t.route.empty()) add_reverse_route(t, at);
  const double bw_factor = p_.bw_factor.value(static_cast<Bytes>(t.payload));
  t.factor = 1;
  t.bound = 0;
  t.weight = 1;
  if (p_.factor_scales_rate) {
    t.factor = bw_factor;
    t.bound = t.route.empty() ? 0 : min_bw;
  } else if (bw_factor < 1) {
    t.bound = bw_factor * min_bw;
  }
  if (p_.tcp_gamma > 0 && latency_s > 0) {
    const double window = p_.tcp_gamma / (2 * latency_s);
    t.bound = t.bound > 0 ? std::min(t.bound, window) : window;
  }
  if (p_.penalty_weights && latency_s > 0) t.weight = 1 / (latency_s + penalty);
  return latency_s;
}

// Transfer t uses constraint c at `amount` times its rate. A constraint already on t's route adds
// it (shared) or keeps the larger use (fatpipe), as SimGrid's lmm::System::expand does: a route
// that crosses a link twice (a SimGrid cluster host to itself over a shared private link) uses it
// twice, and cross traffic adds its share to the links of the route that carry both directions.
void FlowNetwork::use(Transfer& t, ConstraintId c, double amount) {
  auto it = std::find(t.route.begin(), t.route.end(), c);
  if (it == t.route.end()) {
    t.route.push_back(c);
    if (t.usage.empty() && amount == 1.0) return;  // all 1 so far: no list needed
    t.usage.resize(t.route.size() - 1, 1.0);
    t.usage.push_back(amount);
    return;
  }
  if (system_.kind(c) == ConstraintKind::kFatpipe) return;  // max(1, amount) with amount <= 1 or a repeat
  t.usage.resize(t.route.size(), 1.0);
  t.usage[static_cast<size_t>(it - t.route.begin())] += amount;
}

// Cross traffic: the links of the route from dst back to src carry p_.cross_traffic of the rate
// (around links that are off when the platform routes around them; else over them: cross traffic
// is a share of the rate, not a message that could fail).
void FlowNetwork::add_reverse_route(Transfer& t, SimTime at) {
  if (!platform_.route_into(t.dst, t.src, route_scratch_, RouteRequest{routed_++, this}))
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "no route back from host '" + platform_.host(t.dst).name +
                                                              "' to host '" + platform_.host(t.src).name +
                                                              "' (cross traffic needs one)");
  if (state_profiles_) try_route_around(t.dst, t.src, at);
  for (LinkId l : route_scratch_) use(t, constraint_of(l), p_.cross_traffic);
}

void FlowNetwork::control(const NetMessage& m) {
  find_route(m.src, m.dst);  // the data will need it: report a missing one at the send
  schedule(m.departs, Phase::kArrive, enqueue(m.stream, m.token, true));
}

void FlowNetwork::handle(SimTime now, uint64_t index) {
  const uint32_t id = static_cast<uint32_t>(index);
  switch (static_cast<Phase>((index >> 32) & 7)) {
    case Phase::kStart: start_sharing(now, id); return;
    case Phase::kWake: wake(now); return;
    case Phase::kArrive: arrive(now, id); return;
    case Phase::kSolve: solve(now); return;
    case Phase::kProfile: profile_change(now, static_cast<ConstraintId>(id)); return;
    case Phase::kLinkOff: link_off(now, static_cast<ConstraintId>(id)); return;
  }
}

void FlowNetwork::start_sharing(SimTime now, uint32_t id) {
  Transfer& t = transfers_[id];
  if (t.remaining <= 0 || t.route.empty()) {  // empty message, or a host to itself without loopback
    for (uint32_t k = 0; k < t.forward; ++k) --link_state_[static_cast<size_t>(t.route[k])].routed;
    arrive(now, id);
    return;
  }
  t.since = t.started = now;
  t.stage = Stage::kSharing;
  if (bandwidth_profiles_)
    for (ConstraintId c : t.route) refresh_capacity(now, c);
  t.flow = system_.add_flow(t.weight, t.bound, t.route, t.usage);
  const size_t f = static_cast<size_t>(t.flow);
  if (flow_owner_.size() <= f) flow_owner_.resize(f + 1, kNone);
  flow_owner_[f] = id;
  for (uint32_t k = 0; k < t.forward; ++k) {
    LinkState& s = link_state_[static_cast<size_t>(t.route[k])];
    if (s.active++ == 0) s.since = now;
    s.peak = std::max(s.peak, s.active);
    ++s.flows;
    s.bytes += t.remaining;
  }
  if (!t.rerouted) ++flows_;  // a rerouted message is the same flow on its new route
  t.rerouted = false;
  peak_flows_ = std::max(peak_flows_, static_cast<uint32_t>(system_.num_flows()));
  request_solve(now);
}

// The current wake-up: completes every transfer due by now. A superseded one does nothing.
void FlowNetwork::wake(SimTime now) {
  if (now != wakeup_) return;
  wakeup_ = SimTime::never();
  while (!completions_.empty() && completions_.top_time() <= now) {
    const uint32_t id = completions_.top_id();
    completions_.erase(id);
    complete(now, id);
  }
  ensure_wakeup();
}

void FlowNetwork::ensure_wakeup() {
  if (completions_.empty() || completions_.top_time() >= wakeup_) return;
  wakeup_ = completions_.top_time();
  schedule(wakeup_, Phase::kWake, 0);
}

void FlowNetwork::complete(SimTime now, uint32_t id) {
  Transfer& t = transfers_[id];
  record_segment(t, t.remaining, now);
  system_.remove_flow(t.flow);
  flow_owner_[static_cast<size_t>(t.flow)] = kNone;
  for (uint32_t k = 0; k < t.forward; ++k) {
    LinkState& s = link_state_[static_cast<size_t>(t.route[k])];
    --s.routed;
    if (--s.active == 0) s.busy = s.busy + (now - s.since);
  }
  flow_seconds_ += (now - t.started).seconds();
  request_solve(now);
  arrive(now, id);
}

// Transfer `id` has all its bytes at the receiver: deliver it, unless an earlier transfer of its
// pair is still on its way; then deliver the run of arrived transfers that it was holding back.
void FlowNetwork::arrive(SimTime now, uint32_t id) {
  if (!transfers_[id].ordered) {
    engine_.schedule(now, kinds_.delivery, transfers_[id].token);
    transfers_[id].stage = Stage::kFree;
    transfers_.release(id);
    return;
  }
  transfers_[id].arrived = true;
  transfers_[id].stage = Stage::kArrived;
  auto it = pairs_.find(transfers_[id].stream);
  SIMFAB_CHECK(it != pairs_.end(), "a transfer is missing from its pair queue");
  PairQueue& q = it->second;
  while (q.head != kNone && transfers_[q.head].arrived) {
    const uint32_t head = q.head;
    engine_.schedule(now, kinds_.delivery, transfers_[head].token);
    q.head = transfers_[head].next_in_pair;
    transfers_[head].stage = Stage::kFree;
    transfers_.release(head);
  }
  if (q.head == kNone) pairs_.erase(it);
}

void FlowNetwork::request_solve(SimTime now) {
  if (solve_pending_) return;
  solve_pending_ = true;
  schedule(now, Phase::kSolve, 0, kSolvePriority);
}

// Re-solves what changed since the last solve and reschedules the transfers whose rate changed.
void FlowNetwork::solve(SimTime now) {
  solve_pending_ = false;
  const MaxMinSystem::SolveStats st = system_.solve();
  ++solves_;
  recomputed_ += st.flows;
  for (FlowId f : system_.recomputed()) {
    const uint32_t id = flow_owner_[static_cast<size_t>(f)];
    Transfer& t = transfers_[id];
    const double rate = system_.rate(f) * t.factor;
    if (rate == t.rate) continue;
    const double remaining = std::max(0.0, t.remaining - t.rate * (now - t.since).seconds());
    record_segment(t, t.remaining - remaining, now);
    t.remaining = remaining;
    t.since = now;
    t.rate = rate;
    schedule_completion(now, id);
  }
  ensure_wakeup();
}

void FlowNetwork::schedule_completion(SimTime now, uint32_t id) {
  const Transfer& t = transfers_[id];
  SIMFAB_CHECK(t.rate > 0, "a flow in the sharing phase has no bandwidth");
  const SimTime when = saturating_add(now, seconds(t.remaining / t.rate));
  if (when == SimTime::never())
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds: a message takes too long");
  completions_.set(id, when);
}

void FlowNetwork::record_segment(const Transfer& t, double bytes, SimTime now) {
  for (uint32_t k = 0; k < t.forward; ++k) {
    const LinkId l = link_state_[static_cast<size_t>(t.route[k])].link;
    if (l >= 0) carried_.add(static_cast<size_t>(l), bytes, t.since, now);  // -1: the model's loopback
  }
}

NetworkStats FlowNetwork::statistics() const {
  NetworkStats st;
  st.present = true;
  st.flows = flows_;
  st.reroutes = reroutes_;
  st.peak_flows = peak_flows_;
  st.solves = solves_;
  st.recomputed = recomputed_;
  st.flow_seconds = flow_seconds_;
  std::vector<const LinkState*> used;
  for (const LinkState& s : link_state_)
    if (s.link >= 0) used.push_back(&s);  // the model's own loopback is not a platform link
  std::sort(used.begin(), used.end(), [](const LinkState* a, const LinkState* b) { return a->link < b->link; });
  for (const LinkState* s : used) {
    const Link& l = platform_.link(s->link);
    LinkUsage u;
    u.name = l.name;
    u.bandwidth_Bps = l.bandwidth_Bps;
    u.bytes = s->bytes;
    u.busy = s->busy;
    u.peak_flows = s->peak;
    u.flows = s->flows;
    st.links.push_back(std::move(u));
  }
  st.carried = carried_.series([&](size_t l, CarriedSeries& s) {
    const Link& link = platform_.link(static_cast<LinkId>(l));
    s.name = link.name;
    s.bandwidth_Bps = link.bandwidth_Bps;
    s.fatpipe = link.sharing == LinkSharing::kFatpipe;
  });
  return st;
}

}  // namespace simfab::flow
