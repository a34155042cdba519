#include "net/flow/flow_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simfab::flow {

void register_flow_keys(Config& cfg) {
  cfg.declare({"flow/os", CfgType::kText, "0:0:0",
               "flow model: sender CPU overhead per message size, sections min_size:seconds:seconds_per_byte;...", {}});
  cfg.declare({"flow/or", CfgType::kText, "0:0:0",
               "flow model: receiver CPU overhead per message size, sections min_size:seconds:seconds_per_byte;...", {}});
  cfg.declare({"flow/lat-factor", CfgType::kText, "0:1",
               "flow model: factor on the route latency per message size, sections min_size:factor;...", {}});
  cfg.declare({"flow/bw-factor", CfgType::kText, "0:1",
               "flow model: factor on the bandwidth a message can use, sections min_size:factor;...", {}});
  cfg.declare({"flow/rendezvous-threshold", CfgType::kBytes, "65536",
               "flow model: messages of more bytes use rendezvous (the sender waits for the receive)", {}});
}

namespace {

PiecewiseLinear table(const Config& cfg, const char* key, bool with_slope) {
  std::string err;
  auto t = PiecewiseLinear::parse(cfg.text(key), with_slope, err);
  if (!t) throw InputError(SourceLoc{"--cfg", 0, 0}, std::string("bad table for ") + key + ": " + err,
                           std::string(key) + "=" + cfg.text(key));
  return *t;
}

SimTime seconds(double s) {
  if (!(s < 9.2e6)) return SimTime::never();  // beyond ~106 days: the executor reports it
  return SimTime::from_seconds(s);
}

constexpr uint64_t kPhaseBit = uint64_t{1} << 32;
constexpr uint32_t kVersionMask = (1u << 23) - 1;

}  // namespace

FlowNetwork::FlowNetwork(Engine& engine, const Platform& platform, const Config& cfg)
    : engine_(engine), platform_(platform), os_(table(cfg, "flow/os", true)), or_(table(cfg, "flow/or", true)),
      lat_factor_(table(cfg, "flow/lat-factor", false)), bw_factor_(table(cfg, "flow/bw-factor", false)),
      rendezvous_threshold_(cfg.bytes("flow/rendezvous-threshold")) {
  for (const auto& s : bw_factor_.sections())
    if (s.a <= 0)
      throw InputError(SourceLoc{"--cfg", 0, 0}, "bad table for flow/bw-factor: factors must be > 0",
                       "flow/bw-factor=" + cfg.text("flow/bw-factor"));
  engine_.set_handler(EventKind::kNetwork, this);
}

SimTime FlowNetwork::send_overhead(HostId, HostId, Bytes size) const { return seconds(os_.value(size)); }
SimTime FlowNetwork::recv_overhead(HostId, HostId, Bytes size) const { return seconds(or_.value(size)); }

ConstraintId FlowNetwork::constraint_of(LinkId l) {
  auto it = link_constraint_.find(l);
  if (it != link_constraint_.end()) return it->second;
  ConstraintId c = system_.add_constraint(platform_.link(l).bandwidth_Bps);
  link_constraint_.emplace(l, c);
  return c;
}

void FlowNetwork::transfer(SimTime issued, HostId src, HostId dst, Bytes size, uint64_t token) {
  if (platform_.is_ideal())
    throw InputError(SourceLoc{}, "network/model=flow needs a platform with links (--platform)");
  auto route = platform_.route(src, dst);
  if (!route)
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "no route between host '" + platform_.host(src).name +
                                                              "' and host '" + platform_.host(dst).name +
                                                              "' (a message needs one)");
  const uint32_t id = transfers_.acquire();
  Transfer& t = transfers_[id];
  t = Transfer{};
  t.token = token;
  t.remaining = static_cast<double>(size);
  double latency_s = 0, min_bw = std::numeric_limits<double>::infinity();
  for (LinkId l : *route) {
    latency_s += platform_.link(l).latency.seconds();
    min_bw = std::min(min_bw, platform_.link(l).bandwidth_Bps);
    t.route.push_back(constraint_of(l));
  }
  const double bw_factor = bw_factor_.value(size);
  t.bound = bw_factor < 1 ? bw_factor * min_bw : 0;
  const SimTime start = saturating_add(saturating_add(issued, send_overhead(src, dst, size)),
                                       seconds(latency_s * lat_factor_.value(size)));
  if (start == SimTime::never())
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds: a message's latency is too long");
  engine_.schedule(start, EventKind::kNetwork, id);
}

void FlowNetwork::handle(SimTime now, uint64_t index) {
  const uint32_t id = static_cast<uint32_t>(index);
  if (!(index & kPhaseBit)) {
    start_sharing(now, id);
    return;
  }
  if (static_cast<uint32_t>(index >> 33) != transfers_[id].version) return;  // superseded
  complete(now, id);
}

void FlowNetwork::start_sharing(SimTime now, uint32_t id) {
  Transfer& t = transfers_[id];
  if (t.remaining <= 0 || t.route.empty()) {  // empty message, or two ranks on one host
    engine_.schedule(now, EventKind::kDelivery, t.token);
    transfers_.release(id);
    return;
  }
  t.since = now;
  t.flow = system_.add_flow(1.0, t.bound, t.route);
  t.active_pos = static_cast<uint32_t>(active_.size());
  active_.push_back(id);
  resolve(now);
}

void FlowNetwork::complete(SimTime now, uint32_t id) {
  Transfer& t = transfers_[id];
  system_.remove_flow(t.flow);
  const uint32_t last = active_.back();
  active_[t.active_pos] = last;
  transfers_[last].active_pos = t.active_pos;
  active_.pop_back();
  engine_.schedule(now, EventKind::kDelivery, t.token);
  t.route.clear();
  transfers_.release(id);
  resolve(now);
}

// Re-solves the touched component and reschedules the transfers whose rate changed.
void FlowNetwork::resolve(SimTime now) {
  system_.solve();
  for (uint32_t id : active_) {
    Transfer& t = transfers_[id];
    const double rate = system_.rate(t.flow);
    if (rate == t.rate) continue;
    t.remaining = std::max(0.0, t.remaining - t.rate * (now - t.since).seconds());
    t.since = now;
    t.rate = rate;
    t.version = (t.version + 1) & kVersionMask;
    schedule_completion(now, id);
  }
}

void FlowNetwork::schedule_completion(SimTime now, uint32_t id) {
  const Transfer& t = transfers_[id];
  SIMFAB_CHECK(t.rate > 0, "a flow in the sharing phase has no bandwidth");
  const SimTime when = saturating_add(now, seconds(t.remaining / t.rate));
  if (when == SimTime::never())
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds: a message takes too long");
  engine_.schedule(when, EventKind::kNetwork, id | kPhaseBit | (uint64_t{t.version} << 33));
}

}  // namespace simfab::flow
