// The flow models under availability profiles (platform/availability.hpp): link capacities that
// follow bandwidth profiles, and links that turn off (state profiles), with the rerouting of
// messages around them where the platform has another route. The rules are in flow_network.hpp.
#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "net/flow/flow_network.hpp"

namespace simfab::flow {

void FlowNetwork::refresh_capacity(SimTime now, ConstraintId c) {
  LinkState& s = link_state_[static_cast<size_t>(c)];
  if (s.link < 0) return;
  const Link& link = platform_.link(s.link);
  if (link.bandwidth_profile < 0) return;
  const double bw = platform_.bandwidth_at(s.link, now);
  if (bw != system_.capacity(c)) {
    system_.set_capacity(c, bw);
    request_solve(now);
  }
  if (s.profile_event == SimTime::never()) {
    s.profile_event = platform_.availability(link.bandwidth_profile).next_change(now);
    if (s.profile_event != SimTime::never()) schedule(s.profile_event, Phase::kProfile, static_cast<uint32_t>(c));
  }
}

void FlowNetwork::profile_change(SimTime now, ConstraintId c) {
  LinkState& s = link_state_[static_cast<size_t>(c)];
  s.profile_event = SimTime::never();
  if (s.active > 0) refresh_capacity(now, c);  // idle: refreshed when a flow next starts on it
}

bool FlowNetwork::off_at(LinkId l, SimTime t) const {
  const Link& link = platform_.link(l);
  if (link.state_profile < 0) return false;
  const std::optional<double> v = platform_.availability(link.state_profile).value_at(t);
  return v && *v <= 0;
}

void FlowNetwork::arm_off_event(LinkId l, ConstraintId c, SimTime at) {
  const Link& link = platform_.link(l);
  if (link.state_profile < 0) return;
  LinkState& s = link_state_[static_cast<size_t>(c)];
  const SimTime off = platform_.availability(link.state_profile).first_off(std::max(at, engine_.now()));
  if (off >= s.off_event) return;  // an earlier (or the same) event is pending
  s.off_event = off;
  schedule(off, Phase::kLinkOff, static_cast<uint32_t>(c));
}

bool FlowNetwork::try_route_around(HostId src, HostId dst, SimTime at, bool* moved) {
  auto clear = [&](const std::vector<LinkId>& r) {
    return std::none_of(r.begin(), r.end(), [&](LinkId l) { return off_at(l, at); });
  };
  if (clear(route_scratch_)) return true;
  avoid_at_ = at;
  std::vector<LinkId> around;  // rare: only when a link on the route is off
  if (!platform_.route_into(src, dst, around, RouteRequest{routed_++, this, this}) || !clear(around)) return false;
  route_scratch_.swap(around);
  if (moved) *moved = true;
  return true;
}

void FlowNetwork::route_around_off_links(HostId src, HostId dst, SimTime departs) {
  bool moved = false;
  if (try_route_around(src, dst, departs, &moved)) {
    reroutes_ += moved;
    return;
  }
  const auto l = std::find_if(route_scratch_.begin(), route_scratch_.end(), [&](LinkId k) { return off_at(k, departs); });
  const Link& link = platform_.link(*l);
  throw PlatformFailure("a message from host '" + platform_.host(src).name + "' to host '" + platform_.host(dst).name +
                            "' departs at " + std::to_string(departs.seconds()) + " s over link '" + link.name +
                            "', which is off (state profile " + platform_.availability(link.state_profile).name +
                            "), and no other route avoids it; MPI aborts the job",
                        departs.ps());
}

void FlowNetwork::link_off(SimTime now, ConstraintId c) {
  LinkState& s = link_state_[static_cast<size_t>(c)];
  if (now != s.off_event) return;  // superseded by an earlier event, which re-armed what it needed
  s.off_event = SimTime::never();
  if (s.routed == 0) return;  // idle: armed again by the next transfer routed over it
  for (uint32_t id = 0; id < transfers_.slots(); ++id) {
    const Transfer& t = transfers_[id];
    if (t.stage != Stage::kLatency && t.stage != Stage::kSharing) continue;
    if (std::find(t.route.begin(), t.route.begin() + t.forward, c) != t.route.begin() + t.forward) reroute(now, id, c);
  }
}

// Transfer `id` leaves its route (which crosses c, now off) for one that avoids the links that
// are off, or the run fails. In its sharing phase, the bytes not yet through wait for the new
// route's latency, then share its links; in its latency phase it keeps its start time.
void FlowNetwork::reroute(SimTime now, uint32_t id, ConstraintId c) {
  Transfer& t = transfers_[id];
  find_route(t.src, t.dst);
  if (!try_route_around(t.src, t.dst, now)) {
    const LinkState& s = link_state_[static_cast<size_t>(c)];
    const Link& link = platform_.link(s.link);
    throw PlatformFailure("link '" + link.name + "' turned off at " + std::to_string(now.seconds()) + " s under " +
                              std::to_string(s.routed) + " message" + (s.routed == 1 ? "" : "s") +
                              " in flight (state profile " + platform_.availability(link.state_profile).name +
                              "), and no other route from host '" + platform_.host(t.src).name + "' to host '" +
                              platform_.host(t.dst).name + "' avoids it; MPI aborts the job",
                          now.ps());
  }
  ++reroutes_;
  const bool sharing = t.stage == Stage::kSharing;
  if (sharing) {
    const double remaining = std::max(0.0, t.remaining - t.rate * (now - t.since).seconds());
    record_segment(t, t.remaining - remaining, now);  // over the old route, which it leaves
    t.remaining = remaining;
    system_.remove_flow(t.flow);
    flow_owner_[static_cast<size_t>(t.flow)] = kNone;
    if (completions_.contains(id)) completions_.erase(id);
    flow_seconds_ += (now - t.started).seconds();
    request_solve(now);
  }
  for (uint32_t k = 0; k < t.forward; ++k) {
    LinkState& s = link_state_[static_cast<size_t>(t.route[k])];
    --s.routed;
    if (!sharing) continue;
    s.bytes -= t.remaining;  // counted at the start; they will cross the new route instead
    if (--s.active == 0) s.busy = s.busy + (now - s.since);
  }
  const double latency_s = take_route(t, now);
  if (!sharing) return;  // its pending start stands
  t.rate = 0;
  t.stage = Stage::kLatency;
  t.rerouted = true;
  schedule(saturating_add(now, seconds(latency_s)), Phase::kStart, id);
}

}  // namespace simfab::flow
