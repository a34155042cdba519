#include "net/packet/packet_network.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace simfab::packet {

namespace {
// Time to move `bytes` at `ps_per_byte`, rounded up to whole picoseconds (the 1e-9 keeps an exact
// product such as 64 x 500 from rounding up through floating-point noise).
SimTime time_for(double ps_per_byte, uint32_t bytes) {
  return SimTime::ps(static_cast<int64_t>(std::ceil(ps_per_byte * bytes - 1e-9)));
}

LogGOPSParams host_params(const PacketParams& p) {
  LogGOPSParams h = p.host;
  h.L = SimTime::zero();
  h.g = SimTime::zero();
  h.G = 0;
  return h;
}
}  // namespace

PacketNetwork::PacketNetwork(Engine& engine, const Platform& platform, PacketParams params, EventKinds kinds)
    : Network(kinds),
      engine_(engine),
      platform_(platform),
      p_(std::move(params)),
      host_(engine, platform, host_params(p_)),
      arbiter_(p_.arb_high, p_.arb_low, p_.high_limit),
      cc_(p_),
      nvl_(static_cast<uint32_t>(p_.vls)),
      cap_blocks_(p_.vl_buffer / p_.flit),
      cc_threshold_blocks_(static_cast<uint32_t>(std::ceil(p_.cc_threshold * (p_.vl_buffer / p_.flit)))) {
  engine_.set_handler(kinds_.own, this);
  const size_t links = 2 * platform.links().size();  // channels: both directions of every link
  chans_.resize(links);
  for (size_t l = 0; l < links; ++l) {
    const Link& k = platform.link(static_cast<LinkId>(l / 2));
    chans_[l].ps_per_byte = p_.link_ps_per_byte > 0 ? p_.link_ps_per_byte : 1e12 / k.bandwidth_Bps;
    chans_[l].latency = k.latency;
    if (l % 2 == 0 && (k.bandwidth_profile >= 0 || k.latency_profile >= 0)) profiled_.push_back(static_cast<LinkId>(l / 2));
  }
  const size_t lanes = links * nvl_;
  fifo_head_.assign(2 * lanes, kNone);
  fifo_tail_.assign(2 * lanes, kNone);
  enlisted_.assign(2 * lanes, 0);
  wants_.assign(2 * lanes, -1);
  in_busy_.assign(2 * links, 0);
  credits_.assign(lanes, static_cast<int32_t>(cap_blocks_));
  held_.assign(lanes, 0);
  draining_.assign(lanes, 0);
  returning_.assign(lanes, 0);
  queued_for_.assign(lanes, 0);
  wake_at_.assign(links, SimTime::never());
  pending_.assign(links, 0);
  sinks_.resize(static_cast<size_t>(platform.host_count()));
  // Every VL a message can use must be served by some arbitration table entry with weight.
  std::vector<int> used_sls = {p_.sl};
  if (p_.sl_threshold > 0) used_sls.push_back(p_.sl_large);  // sl-large is used only above a threshold
  for (int s : used_sls) {
    const int vl = p_.sl2vl[static_cast<size_t>(s)];
    bool served = false;
    for (const auto* t : {&p_.arb_high, &p_.arb_low})
      for (const VlArbEntry& e : *t) served = served || (e.vl == vl && e.weight > 0);
    if (!served)
      throw InputError(SourceLoc{"--cfg", 0, 0},
                       "packet/vlarb-high and packet/vlarb-low give VL " + std::to_string(vl) + " (SL " +
                           std::to_string(s) + ") no weight: its packets could never be sent");
  }
}

SimTime PacketNetwork::ser(const Chan& c, uint32_t bytes) const {
  return time_for(c.ps_per_byte, bytes);
}

uint32_t PacketNetwork::new_msg(const NetMessage& m, bool cnp) {
  const uint32_t id = msgs_.acquire();
  Msg& g = msgs_[id];
  g.m = m;
  g.cnp = cnp;
  g.left = cnp ? 0 : m.size;
  const Bytes pay = p_.payload();
  g.packets = cnp || m.size == 0 ? 1 : static_cast<uint32_t>((m.size + pay - 1) / pay);
  g.consumed = 0;
  g.vl = cnp ? p_.sl2vl[static_cast<size_t>(p_.sl)] : p_.vl_of(m.size);
  g.route.clear();
  ++live_msgs_;
  if (m.src == m.dst) return id;
  if (!platform_.route_into(m.src, m.dst, route_buf_, RouteRequest{++salt_, this}))
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "no route between host '" + platform_.host(m.src).name +
                                                              "' and host '" + platform_.host(m.dst).name +
                                                              "' (a message needs one)");
  // Each hop's direction: a link is crossed from its `from` node (channel 2l) or, a half-duplex
  // link on the way back, from its `to` node (channel 2l+1). A link without endpoints (declared
  // under `links:` for explicit routes) is one channel shared by both directions, as SimGrid's
  // SHARED link is one resource: declare it split-duplex for a buffer at each end.
  NodeId at = host_node(m.src);
  for (LinkId l : route_buf_) {
    if (!platform_.is_hop(l)) continue;
    const Link& k = platform_.link(l);
    LinkId dir = 0;
    if (k.from == kNoNode) {
      dir = 0;
    } else if (k.from == at || k.to != at) {
      at = k.to;
    } else {
      dir = 1;
      at = k.from;
    }
    g.route.push_back(2 * l + dir);
  }
  if (g.route.size() > 60000)
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "a route of more than 60,000 hops");
  // What adaptive routing sees (load()): blocks routed over each channel that have not crossed it.
  const Bytes full = g.packets - 1;
  const uint64_t blocks = full * p_.blocks(p_.mtu) + p_.blocks(static_cast<uint32_t>(p_.header + (g.left - full * pay)));
  for (LinkId c : g.route) pending_[static_cast<size_t>(c)] += blocks;
  return id;
}

void PacketNetwork::apply_profiles(SimTime now) {
  for (LinkId l : profiled_) {
    const double ps_per_byte = p_.link_ps_per_byte > 0 ? p_.link_ps_per_byte : 1e12 / platform_.bandwidth_at(l, now);
    const SimTime latency = platform_.latency_at(l, now);
    for (size_t c : {2 * static_cast<size_t>(l), 2 * static_cast<size_t>(l) + 1}) {
      chans_[c].ps_per_byte = ps_per_byte;
      chans_[c].latency = latency;
    }
  }
}

void PacketNetwork::arm_profiles(SimTime now) {
  SimTime next = SimTime::never();
  for (LinkId l : profiled_)
    for (int a : {platform_.link(l).bandwidth_profile, platform_.link(l).latency_profile})
      if (a >= 0) next = std::min(next, platform_.availability(a).next_change(now));
  profile_armed_ = next != SimTime::never();
  if (profile_armed_) engine_.schedule(next, kinds_.own, kProfile << kEvShift);
}

void PacketNetwork::transfer(const NetMessage& m) {
  if (!profiled_.empty() && !profile_armed_) {  // idle since the last step: catch up, then follow
    apply_profiles(engine_.now());
    arm_profiles(engine_.now());
  }
  if (m.size > (Bytes{1} << 40))
    throw InputError(SourceLoc{}, "a message of " + std::to_string(m.size) + " B is beyond the packet model's 1 TiB");
  const uint32_t id = new_msg(m, false);
  msgs_[id].seq = streams_[m.stream].issued++;
  engine_.schedule(max(m.departs, engine_.now()), kinds_.own, kStart << kEvShift | id);
}

void PacketNetwork::handle(SimTime now, uint64_t index) {
  const uint64_t id = index & ((uint64_t{1} << kEvShift) - 1);
  switch (index >> kEvShift) {
    case kStart: start(static_cast<uint32_t>(id), now); break;
    case kHead: head_ready(static_cast<uint32_t>(id), static_cast<uint16_t>(id >> 32), now); break;
    case kOutFree: output_free(static_cast<LinkId>(id), now); break;
    case kCredit: credit_update(static_cast<LinkId>(id), now); break;
    case kSink: sink_done(static_cast<HostId>(id), now); break;
    case kWake:
      wake_at_[id] = SimTime::never();
      arbitrate(static_cast<LinkId>(id), now);
      break;
    case kProfile:
      profile_armed_ = false;
      apply_profiles(now);
      if (live_msgs_ > 0) arm_profiles(now);  // idle: the next transfer catches up
      break;
    default: SIMFAB_CHECK(false, "unknown packet-model event");
  }
  if (p_.check_credits) check_credits();
}

void PacketNetwork::start(uint32_t id, SimTime now) {
  Msg& g = msgs_[id];
  if (g.route.empty()) {  // to itself (or over internal links only): a memory copy, free here
    complete(id, now);
    return;
  }
  const LinkId first = g.route[0];
  const uint32_t lane = (inputs() + static_cast<uint32_t>(first)) * nvl_ + g.vl;
  (g.cnp ? cnps_ : inject_)[lane].push(id);
  if (!enlisted_[lane]) enlist(lane, first);
  arbitrate(first, now);
}

void PacketNetwork::enlist(uint32_t lane, LinkId out) {
  chans_[static_cast<size_t>(out)].requests.push_back(lane);
  enlisted_[lane] = 1;
  wants_[lane] = out;
}

void PacketNetwork::delist(uint32_t lane, LinkId out) {
  Chan& c = chans_[static_cast<size_t>(out)];
  auto it = std::find(c.requests.begin(), c.requests.end(), lane);
  SIMFAB_CHECK(it != c.requests.end(), "delisting a lane that is not enlisted");
  const auto pos = static_cast<uint32_t>(it - c.requests.begin());
  c.requests.erase(it);
  if (pos < c.rr) --c.rr;
  if (c.rr >= c.requests.size()) c.rr = 0;
  enlisted_[lane] = 0;
  wants_[lane] = -1;
}

uint32_t PacketNetwork::injectable(uint32_t lane, SimTime now, SimTime* wake) {
  if (auto it = cnps_.find(lane); it != cnps_.end() && !it->second.empty()) return 0;
  Fifo<uint32_t>& q = inject_[lane];
  if (!p_.cc) return q.empty() ? kNone : 0;
  for (size_t i = 0; i < q.size(); ++i) {
    const Msg& g = msgs_[q.at(i)];
    const CcFlow& f = cc_.flow(g.m.src, g.m.dst);
    if (f.next_allowed <= now) return static_cast<uint32_t>(i);
    if (f.next_allowed < *wake) *wake = f.next_allowed;
  }
  return kNone;
}

void PacketNetwork::arbitrate(LinkId o, SimTime now) {
  Chan& c = chans_[static_cast<size_t>(o)];
  if (c.out_busy || c.requests.empty()) return;
  const size_t n = c.requests.size();
  uint32_t mask = 0;
  size_t first[kMaxVls];
  bool credit_blocked = false;
  SimTime wake = SimTime::never();
  for (size_t k = 0; k < n; ++k) {
    const size_t idx = (c.rr + k) % n;
    const uint32_t lane = c.requests[idx];
    const uint32_t input = lane / nvl_;
    const uint32_t vl = lane % nvl_;
    if (in_busy_[input]) continue;
    uint32_t blocks = 0;
    bool priority = false;
    if (!is_injector(input)) {
      const Packet& p = packets_[fifo_head_[lane]];
      blocks = p.blocks;
      priority = msgs_[p.msg].cnp;
    } else {
      const uint32_t at = injectable(lane, now, &wake);
      if (at == kNone) continue;
      auto it = cnps_.find(lane);
      priority = it != cnps_.end() && !it->second.empty();
      const Msg& g = msgs_[priority ? it->second.front() : inject_[lane].at(at)];
      blocks = p_.blocks(static_cast<uint32_t>(p_.header + std::min<Bytes>(g.left, p_.payload())));
    }
    if (credits_[static_cast<size_t>(o) * nvl_ + vl] < static_cast<int32_t>(blocks)) {
      credit_blocked = true;
      continue;
    }
    if (priority) {
      send(o, idx, -1, now);
      return;
    }
    if (!(mask >> vl & 1u)) {
      mask |= 1u << vl;
      first[vl] = idx;
    }
    if (nvl_ == 1 && !p_.cc) break;  // with CC on, a later lane may hold a CNP, which goes first
  }
  if (mask == 0) {
    if (credit_blocked && !c.stalled) {
      c.stalled = true;
      c.stall_since = now;
    }
    if (wake != SimTime::never() && wake < wake_at_[static_cast<size_t>(o)]) {
      wake_at_[static_cast<size_t>(o)] = wake;
      engine_.schedule(wake, kinds_.own, kWake << kEvShift | static_cast<uint64_t>(o));
    }
    return;
  }
  if (nvl_ == 1) {
    send(o, first[0], -1, now);
    return;
  }
  const ArbChoice ch = arbiter_.choose(c.arb, mask);
  SIMFAB_CHECK(ch.vl >= 0, "VL arbitration found nothing among eligible VLs");
  send(o, first[ch.vl], ch.high ? 1 : 0, now);
}

uint32_t PacketNetwork::make_packet(uint32_t msg_id) {
  Msg& g = msgs_[msg_id];
  const uint32_t pay = static_cast<uint32_t>(std::min<Bytes>(g.left, p_.payload()));
  g.left -= pay;
  const uint32_t id = packets_.acquire();
  Packet& p = packets_[id];
  p.msg = msg_id;
  p.next = kNone;
  p.hop = 0;
  p.bytes = static_cast<uint16_t>(p_.header + pay);
  p.blocks = static_cast<uint16_t>(p_.blocks(p.bytes));
  p.vl = g.vl;
  p.fecn = false;
  p.tail_at = SimTime::zero();
  ++npackets_;
  return id;
}

void PacketNetwork::send(LinkId o, size_t request, int high, SimTime now) {
  Chan& c = chans_[static_cast<size_t>(o)];
  const uint32_t lane = c.requests[request];
  const uint32_t input = lane / nvl_;
  const uint32_t vl = lane % nvl_;
  const size_t olane = static_cast<size_t>(o) * nvl_ + vl;
  uint32_t pid = kNone;
  bool from_switch = false;
  if (!is_injector(input)) {
    pid = fifo_head_[lane];
    Packet& p = packets_[pid];
    fifo_head_[lane] = p.next;
    if (p.next == kNone) fifo_tail_[lane] = kNone;
    queued_for_[olane] -= p.blocks;
    draining_[lane] = p.blocks;
    ++p.hop;
    delist(lane, o);
    from_switch = true;
  } else {
    auto cit = cnps_.find(lane);
    const bool cnp = cit != cnps_.end() && !cit->second.empty();
    Fifo<uint32_t>& q = cnp ? cit->second : inject_[lane];
    SimTime unused = SimTime::never();
    const uint32_t at = cnp ? 0 : injectable(lane, now, &unused);
    const uint32_t mid = q.at(at);
    pid = make_packet(mid);
    q.erase(at);
    if (msgs_[mid].left > 0) q.push(mid);  // round robin over the HCA's messages
    if (p_.cc && !cnp) {
      CcFlow& f = cc_.flow(msgs_[mid].m.src, msgs_[mid].m.dst);
      f.next_allowed = now + ser(c, packets_[pid].bytes) + cc_.delay(f, now);
    }
    if (q.empty() && (cnp ? inject_[lane].empty() : (cit == cnps_.end() || cit->second.empty()))) delist(lane, o);
  }
  if (c.stalled) {
    c.stall = c.stall + (now - c.stall_since);
    c.stalled = false;
  }
  if (!c.requests.empty()) c.rr = static_cast<uint32_t>((request + (enlisted_[lane] ? 1 : 0)) % c.requests.size());
  Packet& p = packets_[pid];
  const Msg& g = msgs_[p.msg];
  const uint32_t last_flit = p.bytes - (p.blocks - 1u) * p_.flit;
  const bool last = p.hop + 1u == g.route.size();
  SimTime e;
  if (p_.flit_exact) {
    e = flit_hop(c, pid, now, from_switch);
    p.head_ready = flit_at_[pid].front() + (last ? SimTime::zero() : p_.switch_latency);
    p.tail_at = flit_at_[pid].back();
  } else {
    e = now + ser(c, p.bytes);
    if (from_switch) e = max(e, p.tail_at + p_.switch_latency + ser(c, last_flit));
    p.head_ready = now + c.latency + ser(c, std::min(p.bytes, static_cast<uint16_t>(p_.flit))) +
                   (last ? SimTime::zero() : p_.switch_latency);
    p.tail_at = e + c.latency;
  }
  if (high >= 0) arbiter_.charge(c.arb, ArbChoice{static_cast<int>(vl), high == 1}, p.bytes);
  if (p_.cc && from_switch && !g.cnp && !p.fecn && queued_for_[olane] + p.blocks > cc_threshold_blocks_ &&
      cc_.mark(c.mark_counter)) {
    p.fecn = true;
    ++c.fecn;
  }
  c.out_busy = true;
  c.sending_input = input;
  c.sending_packet = pid;
  in_busy_[input] = 1;
  credits_[olane] -= p.blocks;
  held_[olane] += p.blocks;
  occupancy(o, p.bytes, now);
  if (!last) queued_for_[static_cast<size_t>(g.route[p.hop + 1u]) * nvl_ + vl] += p.blocks;
  // Into the downstream buffer lane (input o, this VL), behind what it already holds.
  const size_t dlane = olane;
  p.next = kNone;
  if (fifo_tail_[dlane] == kNone) fifo_head_[dlane] = pid;
  else packets_[fifo_tail_[dlane]].next = pid;
  fifo_tail_[dlane] = pid;
  ++c.packets;
  c.bytes += p.bytes;
  pending_[static_cast<size_t>(o)] -= p.blocks;
  c.busy += e - now;
  carried_.add(static_cast<size_t>(o), p.bytes, now, e);
  ++packet_hops_;
  engine_.schedule(p.head_ready, kinds_.own, kHead << kEvShift | uint64_t{p.hop} << 32 | pid);
  engine_.schedule(e, kinds_.own, kOutFree << kEvShift | static_cast<uint64_t>(o));
}

// The flit-exact hop (packet/flit-exact): flit k of the packet leaves at
//   d_k = max(d_{k-1} + ser(flit_{k-1}), a_k + t_sw)      (a_k: its arrival; no a_k at the HCA)
// and arrives downstream at d_k + ser(flit_k) + lat (times of back-to-back flits rounded once per
// stretch, so fractional ps/B rates round as the packet-level form does). The packet-level hop in send() is the same
// when the a_k are evenly spaced (then the bound is met by the first or the last flit); this mode
// checks it, at O(flits) per hop. Returns when the last flit has left (the output is free).
SimTime PacketNetwork::flit_hop(const Chan& c, uint32_t pid, SimTime start, bool from_switch) {
  const Packet& p = packets_[pid];
  if (flit_at_.size() <= pid) flit_at_.resize(pid + 1);
  std::vector<SimTime>& a = flit_at_[pid];
  a.resize(p.blocks);
  // Flits leave back to back from the latest restart: the start, or a flit that had to wait for its
  // own arrival. Each flit's end is ser(bytes since that restart) after it, one rounding per
  // stretch (as the packet-level form rounds once per packet), not one per flit.
  SimTime base = start;
  uint32_t since = 0;  // bytes sent since `base`
  SimTime end = start;
  for (uint32_t k = 0; k < p.blocks; ++k) {
    const uint32_t fb = k + 1u < p.blocks ? p_.flit : p.bytes - k * p_.flit;
    if (from_switch && a[k] + p_.switch_latency > base + ser(c, since)) {
      base = a[k] + p_.switch_latency;
      since = 0;
    }
    since += fb;
    end = base + ser(c, since);
    a[k] = end + c.latency;
  }
  return end;
}

SimTime PacketNetwork::sink_time(uint32_t bytes) const {
  return time_for(p_.sink_ps_per_byte, bytes);
}

void PacketNetwork::occupancy(LinkId l, int64_t delta, SimTime now) {
  Chan& c = chans_[static_cast<size_t>(l)];
  c.occ_integral += static_cast<double>(c.occ_bytes) * static_cast<double>((now - c.occ_changed).ps());
  c.timeline.add(c.occ_changed, now, static_cast<double>(c.occ_bytes));
  c.occ_changed = now;
  c.occ_bytes = static_cast<uint64_t>(static_cast<int64_t>(c.occ_bytes) + delta);
  c.peak_occ = std::max(c.peak_occ, c.occ_bytes);
}

// A head-ready event is stale when its packet was already forwarded (it became its buffer's head
// and won arbitration at the same instant, through output_free's register_head).
void PacketNetwork::head_ready(uint32_t pid, uint16_t hop, SimTime now) {
  const Packet& p = packets_[pid];
  if (p.hop != hop) return;
  const Msg& g = msgs_[p.msg];
  if (p.hop + 1u == g.route.size()) {
    sink_push(g.m.dst, pid, now);
    return;
  }
  const uint32_t lane = static_cast<uint32_t>(g.route[p.hop]) * nvl_ + p.vl;
  if (fifo_head_[lane] == pid) register_head(lane, now);
}

// A buffer lane's head packet, once ready, asks for the next channel of its route.
void PacketNetwork::register_head(uint32_t lane, SimTime now) {
  if (enlisted_[lane] || fifo_head_[lane] == kNone) return;
  const Packet& p = packets_[fifo_head_[lane]];
  const Msg& g = msgs_[p.msg];
  if (p.head_ready > now || p.hop + 1u >= g.route.size()) return;
  const LinkId next = g.route[p.hop + 1u];
  enlist(lane, next);
  arbitrate(next, now);
}

void PacketNetwork::output_free(LinkId o, SimTime now) {
  Chan& c = chans_[static_cast<size_t>(o)];
  c.out_busy = false;
  const uint32_t input = c.sending_input;
  in_busy_[input] = 0;
  if (!is_injector(input)) {
    const Packet& p = packets_[c.sending_packet];
    draining_[input * nvl_ + p.vl] = 0;
    free_buffer(static_cast<LinkId>(input), input * nvl_ + p.vl, p.blocks, p.bytes, now);
    for (uint32_t v = 0; v < nvl_; ++v) register_head(input * nvl_ + v, now);
  }
  for (uint32_t v = 0; v < nvl_; ++v) {
    const uint32_t lane = input * nvl_ + v;
    if (enlisted_[lane] && wants_[lane] != o) arbitrate(wants_[lane], now);
  }
  arbitrate(o, now);
}

// The tail of a packet left channel c's downstream buffer: its credits go back to c's sender.
void PacketNetwork::free_buffer(LinkId c, uint32_t lane, uint32_t blocks, uint32_t bytes, SimTime now) {
  held_[lane] -= blocks;
  returning_[lane] += blocks;
  occupancy(c, -static_cast<int64_t>(bytes), now);
  Chan& ch = chans_[static_cast<size_t>(c)];
  SimTime at = now;
  if (const int64_t period = p_.credit_period.ps(); period > 0) at = SimTime::ps((now.ps() + period - 1) / period * period);
  at += ch.latency;
  ch.returns.push({at, lane, blocks});
  if (!ch.credit_event) {
    ch.credit_event = true;
    engine_.schedule(at, kinds_.own, kCredit << kEvShift | static_cast<uint64_t>(c));
  }
}

void PacketNetwork::credit_update(LinkId c, SimTime now) {
  Chan& ch = chans_[static_cast<size_t>(c)];
  ch.credit_event = false;
  while (!ch.returns.empty() && ch.returns.front().at <= now) {
    const CreditReturn r = ch.returns.front();
    ch.returns.pop();
    credits_[r.lane] += static_cast<int32_t>(r.blocks);
    returning_[r.lane] -= r.blocks;
  }
  if (!ch.returns.empty()) {
    ch.credit_event = true;
    engine_.schedule(ch.returns.front().at, kinds_.own, kCredit << kEvShift | static_cast<uint64_t>(c));
  }
  arbitrate(c, now);
}

void PacketNetwork::sink_push(HostId h, uint32_t pid, SimTime now) {
  Sink& s = sinks_[static_cast<size_t>(h)];
  s.queue.push(pid);
  if (!s.busy) sink_start(h, now);
}

void PacketNetwork::sink_start(HostId h, SimTime now) {
  Sink& s = sinks_[static_cast<size_t>(h)];
  const Packet& p = packets_[s.queue.front()];
  const uint32_t last_flit = p.bytes - (p.blocks - 1u) * p_.flit;
  SimTime done = max(now + sink_time(p.bytes), p.tail_at + sink_time(last_flit));
  if (p_.flit_exact) {  // flit by flit: each is drained once it has arrived and the previous one is
    const std::vector<SimTime>& at = flit_at_[s.queue.front()];
    SimTime base = now;
    uint32_t since = 0;
    for (size_t k = 0; k < at.size(); ++k) {
      if (at[k] > base + sink_time(since)) {
        base = at[k];
        since = 0;
      }
      since += k + 1 < at.size() ? p_.flit : last_flit;
      done = base + sink_time(since);
    }
  }
  done += p_.sink_packet_overhead;
  s.busy = true;
  engine_.schedule(done, kinds_.own, kSink << kEvShift | static_cast<uint64_t>(h));
}

void PacketNetwork::sink_done(HostId h, SimTime now) {
  Sink& s = sinks_[static_cast<size_t>(h)];
  const uint32_t pid = s.queue.front();
  s.queue.pop();
  const Packet p = packets_[pid];
  const uint32_t msg = p.msg;
  Msg& g = msgs_[msg];
  const LinkId last = g.route[p.hop];
  const uint32_t lane = static_cast<uint32_t>(last) * nvl_ + p.vl;
  SIMFAB_CHECK(fifo_head_[lane] == pid, "the sink consumed a packet that is not its buffer's oldest");
  fifo_head_[lane] = p.next;
  if (p.next == kNone) fifo_tail_[lane] = kNone;
  free_buffer(last, lane, p.blocks, p.bytes, now);
  packets_.release(pid);
  if (p_.cc && p.fecn) send_cnp(g, now);
  if (++msgs_[msg].consumed == msgs_[msg].packets && msgs_[msg].left == 0) complete(msg, now);
  if (!s.queue.empty()) sink_start(h, now);
  else s.busy = false;
}

void PacketNetwork::send_cnp(const Msg& data, SimTime now) {
  NetMessage m;
  m.issued = m.departs = now;
  m.src = data.m.dst;
  m.dst = data.m.src;
  const uint32_t id = new_msg(m, true);
  start(id, now);
}

void PacketNetwork::complete(uint32_t id, SimTime now) {
  Msg& g = msgs_[id];
  if (g.cnp) {
    cc_.becn(cc_.flow(g.m.dst, g.m.src), now);
  } else {
    auto it = streams_.find(g.m.stream);
    Stream& st = it->second;
    if (g.seq != st.delivered) {
      st.done.emplace_back(g.seq, g.m.token);
    } else {
      engine_.schedule(now, kinds_.delivery, g.m.token);
      ++st.delivered;
      for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < st.done.size(); ++i)
          if (st.done[i].first == st.delivered) {
            engine_.schedule(now, kinds_.delivery, st.done[i].second);
            ++st.delivered;
            st.done.erase(st.done.begin() + static_cast<ptrdiff_t>(i));
            more = true;
            break;
          }
      }
      if (st.delivered == st.issued) streams_.erase(it);
    }
  }
  --live_msgs_;
  msgs_.release(id);
}

double PacketNetwork::load(LinkId l) const {
  return static_cast<double>(pending_[2 * static_cast<size_t>(l)] + pending_[2 * static_cast<size_t>(l) + 1]);
}

void PacketNetwork::check_credits() const {
  for (size_t l = 0; l < chans_.size(); ++l)
    for (uint32_t v = 0; v < nvl_; ++v) {
      const size_t lane = l * nvl_ + v;
      uint64_t in_fifo = draining_[lane];
      for (uint32_t q = fifo_head_[lane]; q != kNone; q = packets_[q].next) in_fifo += packets_[q].blocks;
      const int64_t total = int64_t{credits_[lane]} + held_[lane] + returning_[lane];
      if (credits_[lane] < 0 || total != cap_blocks_ || in_fifo != held_[lane])
        check_failed("credits conserved", __FILE__, __LINE__,
                     "link '" + link_name(static_cast<LinkId>(l)) + "' VL " + std::to_string(v) + ": " +
                         std::to_string(credits_[lane]) + " credits + " + std::to_string(held_[lane]) + " held + " +
                         std::to_string(returning_[lane]) + " returning != " + std::to_string(cap_blocks_) +
                         " (buffer holds " + std::to_string(in_fifo) + ")");
    }
}

std::string PacketNetwork::stuck() const {
  if (live_msgs_ == 0) return {};
  // Each buffer lane whose head packet waits for credits on its next channel points at that
  // channel's lane; a deadlock is a cycle of such waits.
  const size_t lanes = chans_.size() * nvl_;
  std::vector<int64_t> next(lanes, -1);
  for (size_t lane = 0; lane < lanes; ++lane) {
    if (fifo_head_[lane] == kNone) continue;
    const Packet& p = packets_[fifo_head_[lane]];
    const Msg& g = msgs_[p.msg];
    if (p.hop + 1u >= g.route.size()) continue;
    const size_t want = static_cast<size_t>(g.route[p.hop + 1u]) * nvl_ + p.vl;
    if (credits_[want] < p.blocks) next[lane] = static_cast<int64_t>(want);
  }
  std::vector<uint8_t> color(lanes, 0);  // 0 unseen, 1 on the current walk, 2 done
  for (size_t s = 0; s < lanes; ++s) {
    if (next[s] < 0 || color[s]) continue;
    size_t at = s;
    while (next[at] >= 0 && color[at] == 0) {
      color[at] = 1;
      at = static_cast<size_t>(next[at]);
    }
    if (color[at] == 1) {  // a cycle through `at`
      std::string out = "credit cycle (each buffer is full and its oldest packet waits for credits on the next): ";
      size_t x = at;
      int shown = 0;
      do {
        if (shown++ == 12) { out += " -> ..."; break; }
        out += (shown > 1 ? " -> " : "") + link_name(static_cast<LinkId>(x / nvl_)) + " (VL " +
               std::to_string(x % nvl_) + ")";
        x = static_cast<size_t>(next[x]);
      } while (x != at);
      if (shown <= 12) out += " -> " + link_name(static_cast<LinkId>(at / nvl_));
      return out + "; the routing has a cyclic channel dependency: use deadlock-free routing or more VLs";
    }
    for (size_t y = s; color[y] == 1; y = static_cast<size_t>(next[y])) {
      color[y] = 2;
      if (next[y] < 0) break;
    }
  }
  return std::to_string(live_msgs_) + " messages never left the network and no credit cycle holds them (a simfab bug)";
}

// The 16 ports with the highest mean occupancy, on one bin width, up to `end`.
void PacketNetwork::queue_series(NetworkStats& st, SimTime end) const {
  std::vector<size_t> used;
  for (size_t l = 0; l < chans_.size(); ++l)
    if (chans_[l].occ_integral > 0 || chans_[l].occ_bytes > 0) used.push_back(l);
  auto mean = [&](size_t l) {
    const Chan& c = chans_[l];
    return c.occ_integral + static_cast<double>(c.occ_bytes) * static_cast<double>((end - c.occ_changed).ps());
  };
  std::stable_sort(used.begin(), used.end(), [&](size_t a, size_t b) { return mean(a) > mean(b); });
  if (used.size() > 16) used.resize(16);
  std::vector<QueueTimeline> t;
  int64_t width = QueueTimeline::kFirstBin;
  for (size_t l : used) {
    t.push_back(chans_[l].timeline);
    t.back().add(chans_[l].occ_changed, end, static_cast<double>(chans_[l].occ_bytes));
    width = std::max(width, t.back().width());
  }
  while (end.ps() > width * static_cast<int64_t>(QueueTimeline::kBins)) width *= 2;
  st.queue_bin = SimTime::ps(width);
  const size_t bins = static_cast<size_t>((end.ps() + width - 1) / width);
  for (size_t i = 0; i < used.size(); ++i) {
    t[i].coarsen_to(width);
    NetworkStats::QueueSeries q;
    q.name = link_name(static_cast<LinkId>(used[i]));
    for (size_t b = 0; b < bins; ++b) q.mean_bytes.push_back(t[i].mean(b));
    st.queues.push_back(std::move(q));
  }
}

NetworkStats PacketNetwork::statistics() const {
  NetworkStats st;
  st.present = true;
  st.packet = true;
  st.packets = npackets_;
  st.packet_hops = packet_hops_;
  st.fecn = cc_.fecns();
  st.becn = cc_.becns();
  const SimTime end = engine_.now();
  for (size_t l = 0; l < chans_.size(); ++l) {
    const Chan& c = chans_[l];
    if (c.packets == 0) continue;
    LinkUsage u;
    u.name = link_name(static_cast<LinkId>(l));
    u.bandwidth_Bps = nominal_bandwidth(l);
    u.bytes = static_cast<double>(c.bytes);
    u.busy = c.busy;
    u.flows = c.packets;
    u.packets = c.packets;
    u.credit_stall = c.stall;
    u.fecn = c.fecn;
    u.peak_queue_bytes = c.peak_occ;
    const double integral = c.occ_integral + static_cast<double>(c.occ_bytes) * static_cast<double>((end - c.occ_changed).ps());
    u.mean_queue_bytes = end.ps() > 0 ? integral / static_cast<double>(end.ps()) : 0;
    st.links.push_back(std::move(u));
  }
  queue_series(st, end);
  st.carried = carried_.series([&](size_t l, CarriedSeries& s) {
    s.name = link_name(static_cast<LinkId>(l));
    s.bandwidth_Bps = nominal_bandwidth(l);
  });
  return st;
}

double PacketNetwork::nominal_bandwidth(size_t port) const {
  return p_.link_ps_per_byte > 0 ? 1e12 / p_.link_ps_per_byte : platform_.link(static_cast<LinkId>(port / 2)).bandwidth_Bps;
}

}  // namespace simfab::packet
