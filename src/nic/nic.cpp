#include "nic/nic.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "nic/nic_log.hpp"
#include "nic/pcie.hpp"

namespace simfab::nic {

const char* op_name(OpType t) {
  switch (t) {
    case OpType::kPut: return "Put";
    case OpType::kGet: return "Get";
    case OpType::kAtomic: return "Atomic";
    case OpType::kFetchAtomic: return "FetchAtomic";
    case OpType::kSwap: return "Swap";
  }
  return "?";
}

const char* log_type_name(LogType t) {
  static constexpr const char* kNames[] = {
      "E2E_ACK",         "PTL_ACK",         "PTL_GET_RESPONSE", "PTL_PUT",           "PTL_GET",
      "PTL_ATOMIC",      "PTL_FETCH_ATOMIC", "PTL_FETCH_ATOMIC_RESPONSE", "PCI_PIO_PAYLOAD", "PCI_DMA_PAYLOAD",
      "PCI_DMA_REQUEST", "PCI_PAYLOAD_WRITE", "PCI_EVENT",       "PCI_COMMAND",       "COMPUTE"};
  return kNames[static_cast<int>(t)];
}

namespace {

enum EventType : int { kArrive = 0, kTxFree = 1, kRx = 2, kTimer = 3 };
constexpr int kTypeShift = 48;
constexpr uint64_t kPcieWrite = uint64_t{1} << 47;  // PCIe token: a background write (node in the low bits)

bool carries_payload(OpType t) { return t != OpType::kGet; }
bool has_reply(OpType t) { return t == OpType::kGet || t == OpType::kFetchAtomic || t == OpType::kSwap; }
bool has_send(OpType t) { return t != OpType::kGet; }

LogType request_log(OpType t) {
  switch (t) {
    case OpType::kPut: return LogType::kPtlPut;
    case OpType::kGet: return LogType::kPtlGet;
    case OpType::kAtomic: return LogType::kPtlAtomic;
    default: return LogType::kPtlFetchAtomic;
  }
}

}  // namespace

void Nic::Busy::add(SimTime s, SimTime e) {
  if (e <= end) return;
  total = total + (e - std::max(s, end));
  end = e;
}

Nic::Nic(Engine& engine, const Platform& platform, NicParams params, std::unique_ptr<Network> wire)
    : engine_(engine), p_(std::move(params)), wire_(std::move(wire)) {
  SIMFAB_CHECK(wire_->kinds().own == EventKind::kWire && wire_->kinds().delivery == EventKind::kWireDelivery,
               "the NIC's wire model must use the kWire kinds");
  const int n = platform.host_count();
  counters_.resize(static_cast<size_t>(n));
  nodes_.resize(static_cast<size_t>(n));
  pcie_ = std::make_unique<Pcie>(engine, n, p_);
  event_latency_ = p_.event_latency();
  wire_adaptor_.nic = pcie_adaptor_.nic = this;
  pcie_adaptor_.pcie = true;
  engine_.set_handler(EventKind::kNic, this);
  engine_.set_handler(EventKind::kWireDelivery, &wire_adaptor_);
  engine_.set_handler(EventKind::kPcieDelivery, &pcie_adaptor_);
}

Nic::~Nic() = default;

void Nic::Adaptor::handle(SimTime now, uint64_t index) {
  if (pcie)
    nic->pcie_done(index, now);
  else
    nic->wire_arrived(static_cast<uint32_t>(index), now);
}

void Nic::schedule(SimTime t, int type, uint64_t index) {
  engine_.schedule(t, EventKind::kNic, (uint64_t{static_cast<uint32_t>(type)} << kTypeShift) | index);
}

void Nic::handle(SimTime now, uint64_t index) {
  const uint64_t arg = index & ((uint64_t{1} << kTypeShift) - 1);
  switch (static_cast<int>(index >> kTypeShift)) {
    case kArrive: queue_msg(static_cast<uint32_t>(arg), now); break;
    case kTxFree: {
      const HostId node = static_cast<HostId>(arg >> 2);
      const uint8_t vn = static_cast<uint8_t>(arg & 3);
      nodes_[static_cast<size_t>(node)].vn[vn].wake_pending = false;
      try_tx(node, vn, now);
      break;
    }
    case kRx: process(static_cast<uint32_t>(arg), now); break;
    case kTimer: e2e_timer(static_cast<HostId>(arg), now); break;
    default: SIMFAB_CHECK(false, "unknown NIC event");
  }
}

// ---- posting -------------------------------------------------------------------------------

SimTime Nic::post_cost(const Command& c) const {
  if (!carries_payload(c.op) || c.length <= p_.inline_max(c.matching) || c.length > p_.pio_max(c.matching))
    return SimTime::zero();
  return p_.pio_cpu_delay;
}

bool Nic::queue_full(HostId node, bool service) const {
  return nodes_[static_cast<size_t>(node)].vn[service ? 2 : 0].commands >= p_.cq_depth;
}

void Nic::post(const Command& c, SimTime t) {
  const uint32_t id = ops_.acquire();
  Op& op = ops_[id];
  const uint32_t gen = op.gen;
  op = Op{};
  op.gen = gen;
  op.c = c;
  NicCounters& k = counters_[static_cast<size_t>(c.initiator)];
  ++k.commands;
  Bytes written = p_.command_size;
  if (!carries_payload(c.op)) {
    op.path = Path::kInline;
    ++k.gets;
  } else if (c.length <= p_.inline_max(c.matching)) {
    op.path = Path::kInline;
    ++k.inline_puts;
  } else if (c.length <= p_.pio_max(c.matching)) {
    op.path = Path::kPio;
    ++k.pio_puts;
    written += c.length - p_.inline_max(c.matching);  // the payload beyond the command's inline room
  } else {
    op.path = Path::kDma;
    ++k.dma_puts;
  }
  const uint32_t m = make_msg(id, Kind::kRequest);
  msgs_[m].command = true;
  Vn& vn = nodes_[static_cast<size_t>(c.initiator)].vn[msgs_[m].vn];
  ++vn.commands;
  if (vn.commands >= p_.cq_depth) vn.cq_was_full = true;
  const SimTime arrive = t + p_.pci_small(written);
  if (log_) {
    if (op.path == Path::kPio) log_->row(LogType::kPciPioPayload, c.initiator, c.initiator, t - p_.pio_cpu_delay, t);
    log_->row(LogType::kPciCommand, c.initiator, c.initiator, t, arrive);
  }
  schedule(arrive, kArrive, m);
}

uint32_t Nic::new_msg(uint32_t op, Kind kind, HostId from, HostId to, uint8_t vn) {
  const uint32_t id = msgs_.acquire();
  Msg& m = msgs_[id];
  m = Msg{};
  m.op = op;
  m.kind = kind;
  m.from = from;
  m.to = to;
  m.vn = vn;
  ++ops_[op].refs;
  return id;
}

uint32_t Nic::make_msg(uint32_t op_id, Kind kind) {
  const Op& op = ops_[op_id];
  const Command& c = op.c;
  uint32_t m;
  if (kind == Kind::kRequest) {
    m = new_msg(op_id, kind, c.initiator, c.target, request_vn(c));
    Msg& r = msgs_[m];
    r.payload = carries_payload(c.op) ? c.length : 0;
    r.wire_bytes = carries_payload(c.op) ? c.length : p_.get_request_size;
  } else {
    m = new_msg(op_id, kind, c.target, c.initiator, response_vn(c));
    Msg& r = msgs_[m];
    r.payload = kind == Kind::kResponse ? op.outcome.reply_bytes : 0;
    r.wire_bytes = kind == Kind::kResponse ? r.payload : p_.ack_size;
  }
  return m;
}

// ---- TX ------------------------------------------------------------------------------------

void Nic::queue_msg(uint32_t m, SimTime now) {
  const Msg& r = msgs_[m];
  nodes_[static_cast<size_t>(r.from)].vn[r.vn].queue.push_back(m);
  try_tx(r.from, r.vn, now);
}

bool Nic::admit(uint32_t m) {
  const Msg& r = msgs_[m];
  Op& op = ops_[r.op];
  if (r.kind != Kind::kRequest || op.inflight) return true;
  if (p_.max_inflight_to_target == 0 && p_.max_inflight_to_process == 0) return true;
  Node& n = nodes_[static_cast<size_t>(r.from)];
  const uint64_t tk = (uint64_t{r.vn} << 32) | static_cast<uint32_t>(r.to);
  const uint64_t pk = (uint64_t{r.vn} << 62) | (uint64_t{static_cast<uint32_t>(op.c.initiator_pid)} << 31) |
                      static_cast<uint32_t>(op.c.target_pid);
  if (p_.max_inflight_to_target > 0 && n.to_target[tk] >= p_.max_inflight_to_target) return false;
  if (p_.max_inflight_to_process > 0 && n.to_process[pk] >= p_.max_inflight_to_process) return false;
  if (p_.max_inflight_to_target > 0) ++n.to_target[tk];
  if (p_.max_inflight_to_process > 0) ++n.to_process[pk];
  op.inflight = true;
  return true;
}

void Nic::release_inflight(Op& op, SimTime now) {
  if (!op.inflight) return;
  op.inflight = false;
  const Command& c = op.c;
  Node& n = nodes_[static_cast<size_t>(c.initiator)];
  const uint8_t vn = request_vn(c);
  const uint64_t tk = (uint64_t{vn} << 32) | static_cast<uint32_t>(c.target);
  const uint64_t pk = (uint64_t{vn} << 62) | (uint64_t{static_cast<uint32_t>(c.initiator_pid)} << 31) |
                      static_cast<uint32_t>(c.target_pid);
  if (p_.max_inflight_to_target > 0) --n.to_target[tk];
  if (p_.max_inflight_to_process > 0) --n.to_process[pk];
  Vn& v = n.vn[vn];
  if (v.parked.empty()) return;
  // Parked requests go back ahead of the queue, in their order; those still over a limit park again.
  v.queue.insert(v.queue.begin(), v.parked.begin(), v.parked.end());
  v.parked.clear();
  try_tx(c.initiator, vn, now);
}

void Nic::try_tx(HostId node, uint8_t vn_index, SimTime now) {
  Vn& vn = nodes_[static_cast<size_t>(node)].vn[vn_index];
  while (!vn.queue.empty()) {
    // TX still serves a message: come back when it is free (a DMA read's end wakes it itself).
    if (vn.reading || now < vn.tx_free_at) {
      if (!vn.reading && !vn.wake_pending) {
        vn.wake_pending = true;
        schedule(vn.tx_free_at, kTxFree, (static_cast<uint64_t>(node) << 2) | vn_index);
      }
      return;
    }
    const uint32_t m = vn.queue.front();
    vn.queue.pop_front();
    Msg& r = msgs_[m];
    if (r.command) {
      r.command = false;
      --vn.commands;
      if (vn.cq_was_full && vn.commands < p_.cq_depth) {
        vn.cq_was_full = false;
        if (NicClient* cl = ops_[r.op].c.client) cl->on_queue_space(node, now);
      }
    }
    if (!admit(m)) {
      ++counters_[static_cast<size_t>(node)].inflight_stalls;
      vn.parked.push_back(m);
      continue;
    }
    serve(m, now);
  }
}

void Nic::serve(uint32_t m, SimTime now) {
  Msg& r = msgs_[m];
  Op& op = ops_[r.op];
  Vn& vn = nodes_[static_cast<size_t>(r.from)].vn[r.vn];
  r.tx_start = now;
  SimTime tx_end = now;
  bool dma = false;
  switch (r.kind) {
    case Kind::kRequest:
      if (!carries_payload(op.c.op)) {
        r.wire_start = now + p_.send_delay;
        tx_end = r.wire_start + p_.get_tx_delay;
      } else if (op.path == Path::kDma || (r.retry && r.payload > p_.inline_max(op.c.matching))) {
        dma = true;  // retransmissions re-read the host's buffer
      } else {
        r.wire_start = now + p_.send_delay;
        tx_end = r.wire_start + p_.pio_tx_delay;
      }
      break;
    case Kind::kPtlAck:
      r.wire_start = now + p_.send_delay;
      tx_end = r.wire_start + p_.ack_tx_delay;
      break;
    case Kind::kBxiAck:
      r.wire_start = tx_end = now + p_.send_delay;
      break;
    case Kind::kResponse:
      if (r.payload > 0) {
        dma = true;
      } else {
        r.wire_start = now + p_.send_delay;
        tx_end = r.wire_start + p_.empty_response_delay;
      }
      break;
  }
  if (dma) {
    // Fig. 4.10: the NIC asks for the payload, reads it over PCIe while the wire already carries
    // the first packets (after one PCI packet's delay), and is free when the read ends.
    const SimTime read = now + p_.pci_small(p_.dma_request_size);
    r.wire_start = read + p_.packet_delay(r.payload) + p_.send_delay;
    counters_[static_cast<size_t>(r.from)].pcie_bytes += r.payload;
    if (log_) log_->row(LogType::kPciDmaRequest, r.from, r.from, now, read);
    if (r.payload <= p_.pci_packet) {  // one PCI packet: a transaction too short to share (no flow)
      const SimTime end = read + SimTime::from_seconds(static_cast<double>(r.payload) / p_.pcie_transfer_bw);
      if (log_) log_->row(LogType::kPciDmaPayload, r.from, r.from, read, end);
      tx_done(m, std::max(end, r.wire_start));
    } else {
      r.read_pending = vn.reading = true;  // TX waits for the read (pcie_done)
      Node& n = nodes_[static_cast<size_t>(r.from)];
      if (n.pcie_active++ == 0) n.pcie_since = read;
      pcie_->transfer(r.from, true, r.payload, read, m);
    }
  } else {
    tx_done(m, tx_end);
  }
  transmit(m, r.wire_start);
}

// TX is done with message m at `end` (its payload read, or its fixed delay over).
void Nic::tx_done(uint32_t m, SimTime end) {
  Msg& r = msgs_[m];
  Op& op = ops_[r.op];
  NicCounters& k = counters_[static_cast<size_t>(r.from)];
  k.tx_busy = k.tx_busy + (end - r.tx_start);
  nodes_[static_cast<size_t>(r.from)].busy.add(r.tx_start, end);
  if (r.kind == Kind::kRequest && !r.retry && has_send(op.c.op)) {
    // The early SEND of §4.3.2; without E2E nor ACK nothing will ever need the buffer again.
    const bool no_ack = !p_.e2e && !(op.c.ack_req && op.c.op != OpType::kGet);
    if (op.c.length <= p_.early_send || (no_ack && !has_reply(op.c.op))) raise_send(op, Fail::kOk, end);
  }
  Vn& vn = nodes_[static_cast<size_t>(r.from)].vn[r.vn];
  vn.tx_free_at = end;
  if (vn.reading) {  // the DMA read that held TX ended (now): serve what waits, from `end` on
    vn.reading = false;
    try_tx(r.from, r.vn, engine_.now());
  }
}

bool Nic::lost(uint64_t transmission) const {
  return p_.drop_all || std::binary_search(p_.drop.begin(), p_.drop.end(), transmission);
}

void Nic::transmit(uint32_t m, SimTime start) {
  Msg& r = msgs_[m];
  Op& op = ops_[r.op];
  NicCounters& k = counters_[static_cast<size_t>(r.from)];
  ++k.wire_messages;
  if (r.kind == Kind::kPtlAck) ++k.ptl_acks;
  if (r.kind == Kind::kBxiAck) ++k.bxi_acks;
  if (r.kind == Kind::kResponse) ++k.responses;
  if (r.kind != Kind::kBxiAck) {
    const int kind = static_cast<int>(r.kind);
    op.last_tx[kind] = ++transmissions_;
    ++op.tries[kind];
    r.dropped = lost(transmissions_);
    if (p_.e2e) {
      if (!op.sent[kind]) ++op.refs;  // held until acknowledged or given up
      op.sent[kind] = true;
      e2e_push(r.from, r.op, r.kind, start);
    }
  }
  NetMessage w;
  w.issued = w.departs = start;
  w.src = r.from;
  w.dst = r.to;
  w.size = r.wire_bytes;
  w.stream = (static_cast<uint64_t>(r.from) * nodes_.size() + static_cast<uint64_t>(r.to)) * 4 + r.vn;
  w.token = m;
  wire_->transfer(w);
}

// ---- arrivals -------------------------------------------------------------------------------

void Nic::wire_arrived(uint32_t m, SimTime now) {
  Msg& r = msgs_[m];
  r.arrived = true;
  if (log_) {
    static constexpr LogType kAckLog[] = {LogType::kPtlPut, LogType::kPtlAck, LogType::kPtlGetResponse,
                                          LogType::kE2eAck};
    LogType t = kAckLog[static_cast<int>(r.kind)];
    const OpType o = ops_[r.op].c.op;
    if (r.kind == Kind::kRequest) t = request_log(o);
    if (r.kind == Kind::kResponse && o != OpType::kGet) t = LogType::kPtlFetchAtomicResponse;
    log_->row(t, r.from, r.to, r.wire_start, now);
  }
  if (!r.read_pending) rx_enqueue(m, now);  // data cannot reach the target before it was read
}

void Nic::pcie_done(uint64_t token, SimTime now) {
  const bool write = (token & kPcieWrite) != 0;
  const uint32_t w = static_cast<uint32_t>(token & ~kPcieWrite);
  const HostId node = write ? writes_[w].node : msgs_[static_cast<uint32_t>(token)].from;
  Node& n = nodes_[static_cast<size_t>(node)];
  if (--n.pcie_active == 0) {
    NicCounters& k = counters_[static_cast<size_t>(node)];
    k.pcie_busy = k.pcie_busy + (now - n.pcie_since);
  }
  if (write) {
    if (log_) log_->row(LogType::kPciPayloadWrite, node, node, writes_[w].start, now);
    writes_.release(w);
    return;
  }
  const uint32_t m = static_cast<uint32_t>(token);
  Msg& r = msgs_[m];
  r.read_pending = false;
  if (log_) log_->row(LogType::kPciDmaPayload, r.from, r.from, r.wire_start - p_.send_delay - p_.packet_delay(r.payload), now);
  tx_done(m, std::max(now, r.wire_start));  // every read holds its TX
  if (r.arrived) rx_enqueue(m, now);
}

void Nic::pcie_write(HostId node, Bytes bytes, SimTime now) {
  if (bytes == 0) return;
  counters_[static_cast<size_t>(node)].pcie_bytes += bytes;
  if (bytes <= p_.pci_packet) {  // one PCI packet: too short to share (no flow)
    if (log_) log_->row(LogType::kPciPayloadWrite, node, node, now, now + p_.pci_small(bytes));
    return;
  }
  Node& n = nodes_[static_cast<size_t>(node)];
  if (n.pcie_active++ == 0) n.pcie_since = now;
  const uint32_t w = writes_.acquire();
  writes_[w] = Write{node, now};
  pcie_->transfer(node, false, bytes, now, kPcieWrite | w);
}

// RX: one message at a time per VN; data-carrying messages first take the last-packet delay.
void Nic::rx_enqueue(uint32_t m, SimTime now) {
  Msg& r = msgs_[m];
  NicCounters& k = counters_[static_cast<size_t>(r.to)];
  if (r.dropped) {
    ++k.dropped;
    const uint32_t op = r.op;
    msgs_.release(m);
    unref(op);
    return;
  }
  Vn& vn = nodes_[static_cast<size_t>(r.to)].vn[r.vn];
  const SimTime start = std::max(now, vn.rx_free);
  const SimTime d = r.payload > 0 ? p_.packet_delay(r.payload) : SimTime::zero();
  vn.rx_free = start + d;
  k.rx_busy = k.rx_busy + d;
  if (vn.rx_free == now)
    process(m, now);
  else
    schedule(vn.rx_free, kRx, m);
}

void Nic::process(uint32_t m, SimTime now) {
  const Msg r = msgs_[m];
  msgs_.release(m);
  Op& op = ops_[r.op];
  ++op.refs;  // keep the operation alive while this message is handled
  switch (r.kind) {
    case Kind::kRequest:
      if (!op.target_done) {
        op.target_done = true;
        op.outcome = op.c.client->on_target(op.c, at(now));
        if (log_) log_->row(LogType::kPciEvent, r.to, r.to, now, now + event_latency_);
        pcie_write(r.to, r.payload, now);  // in the background: the events do not wait for it
      }
      acknowledge(r.op, now);  // a duplicate is acknowledged again
      break;
    case Kind::kPtlAck:
    case Kind::kResponse: {
      const bool first = !op.acked[static_cast<int>(Kind::kRequest)];
      if (first) {
        if (r.kind == Kind::kResponse) pcie_write(r.to, r.payload, now);
        mark_acked(r.op, Kind::kRequest, now);
        raise_final(op, r.kind == Kind::kResponse ? InitiatorEvent::kReply : InitiatorEvent::kAck, op.outcome.fail,
                    now);
      }
      if (p_.quick_acks) {
        mark_acked(r.op, r.kind, now);
      } else if (p_.e2e) {
        const uint32_t a = new_msg(r.op, Kind::kBxiAck, r.to, r.from, r.vn);
        msgs_[a].acks = r.kind;
        msgs_[a].wire_bytes = p_.ack_size;
        queue_msg(a, now);
      }
      break;
    }
    case Kind::kBxiAck:
      mark_acked(r.op, r.acks, now);
      break;
  }
  unref(r.op);  // the message
  unref(r.op);  // the guard above
}

// The target has processed the request of op: the acknowledgement it owes the initiator.
void Nic::acknowledge(uint32_t op_id, SimTime now) {
  Op& op = ops_[op_id];
  const Command& c = op.c;
  if (has_reply(c.op)) {
    queue_msg(make_msg(op_id, Kind::kResponse), now);
    return;
  }
  const bool ptl_ack = c.ack_req && op.outcome.ack;
  if (p_.quick_acks) {
    if (!op.acked[static_cast<int>(Kind::kRequest)]) {
      ++counters_[static_cast<size_t>(c.target)].quick_acks;
      mark_acked(op_id, Kind::kRequest, now);
      if (ptl_ack) raise_final(op, InitiatorEvent::kAck, op.outcome.fail, now);
    }
  } else if (ptl_ack) {
    queue_msg(make_msg(op_id, Kind::kPtlAck), now);
  } else if (p_.e2e) {
    const uint32_t a = new_msg(op_id, Kind::kBxiAck, c.target, c.initiator, response_vn(c));
    msgs_[a].acks = Kind::kRequest;
    msgs_[a].wire_bytes = p_.ack_size;
    queue_msg(a, now);
  } else if (!op.acked[static_cast<int>(Kind::kRequest)]) {
    op.acked[static_cast<int>(Kind::kRequest)] = true;
    release_inflight(op, now);  // nothing will come back: the slot frees at delivery
    raise_send(op, Fail::kOk, now);
  }
}

void Nic::mark_acked(uint32_t op_id, Kind kind, SimTime now) {
  Op& op = ops_[op_id];
  const int k = static_cast<int>(kind);
  if (op.acked[k]) return;
  op.acked[k] = true;
  if (kind == Kind::kRequest) {
    release_inflight(op, now);
    raise_send(op, Fail::kOk, now);
  }
  if (op.sent[k] && p_.e2e) unref(op_id);
}

void Nic::raise_send(Op& op, Fail fail, SimTime t) {
  if (op.send_raised || !has_send(op.c.op)) return;
  op.send_raised = true;
  if (log_) log_->row(LogType::kPciEvent, op.c.initiator, op.c.initiator, t, t + event_latency_);
  op.c.client->on_initiator(op.c, InitiatorEvent::kSend, fail, at(t));
}

void Nic::raise_final(Op& op, InitiatorEvent e, Fail fail, SimTime t) {
  if (op.final_raised) return;
  op.final_raised = true;
  if (log_) log_->row(LogType::kPciEvent, op.c.initiator, op.c.initiator, t, t + event_latency_);
  op.c.client->on_initiator(op.c, e, fail, at(t));
}

void Nic::unref(uint32_t op_id) {
  Op& op = ops_[op_id];
  SIMFAB_CHECK(op.refs > 0, "NIC operation released twice");
  if (--op.refs > 0) return;
  ++op.gen;
  ops_.release(op_id);
}

// ---- E2E -----------------------------------------------------------------------------------

void Nic::e2e_push(HostId node, uint32_t op_id, Kind kind, SimTime start) {
  Node& n = nodes_[static_cast<size_t>(node)];
  // Entries acknowledged (or of recycled operations) leave from the front as new ones come, so
  // the FIFO holds about the messages in flight, not every message of the timeout period.
  while (!n.e2e.empty()) {
    const E2eEntry& f = n.e2e.front();
    const Op& o = ops_[f.op];
    if (o.gen == f.gen && !o.acked[f.kind] && o.last_tx[f.kind] == f.tx) break;
    n.e2e.pop_front();
  }
  const Op& op = ops_[op_id];
  const int k = static_cast<int>(kind);
  n.e2e.push_back(E2eEntry{start + p_.retry_timeout, op_id, op.gen, static_cast<uint8_t>(k), op.last_tx[k]});
  if (!n.timer) {
    n.timer = true;
    schedule(n.e2e.front().deadline, kTimer, static_cast<uint64_t>(node));
  }
}

void Nic::e2e_timer(HostId node, SimTime now) {
  Node& n = nodes_[static_cast<size_t>(node)];
  n.timer = false;
  while (!n.e2e.empty()) {
    const E2eEntry e = n.e2e.front();
    Op& op = ops_[e.op];
    const bool live = op.gen == e.gen && !op.acked[e.kind] && op.last_tx[e.kind] == e.tx;
    if (live && e.deadline > now) break;
    n.e2e.pop_front();
    if (!live) continue;
    const Kind kind = static_cast<Kind>(e.kind);
    if (op.tries[e.kind] <= p_.max_retries) {
      ++counters_[static_cast<size_t>(node)].retransmissions;
      const uint32_t m = make_msg(e.op, kind);
      msgs_[m].retry = true;
      queue_msg(m, now);
      continue;
    }
    // Given up: the initiator learns it from its own request's failure.
    ++counters_[static_cast<size_t>(node)].given_up;
    ++given_up_;
    ++op.refs;
    if (kind == Kind::kRequest) {  // the failure events first: mark_acked would raise a successful SEND
      raise_send(op, Fail::kUndeliverable, now);
      if (has_reply(op.c.op) || op.c.ack_req)
        raise_final(op, has_reply(op.c.op) ? InitiatorEvent::kReply : InitiatorEvent::kAck, Fail::kUndeliverable, now);
    }
    mark_acked(e.op, kind, now);
    unref(e.op);
  }
  if (!n.e2e.empty()) {
    n.timer = true;
    schedule(std::max(now, n.e2e.front().deadline), kTimer, static_cast<uint64_t>(node));
  }
}

// ---- results --------------------------------------------------------------------------------

double Nic::energy_j(HostId h, SimTime end) const {
  const double busy = std::min(nodes_[static_cast<size_t>(h)].busy.total, end).seconds();
  return p_.power_idle_w * end.seconds() + (p_.power_busy_w - p_.power_idle_w) * busy;
}

std::string Nic::stuck() const {
  std::string s;
  if (ops_.live() > 0) s = std::to_string(ops_.live()) + " NIC operation(s) never completed";
  if (given_up_ > 0)
    s += (s.empty() ? "" : "; ") + std::to_string(given_up_) + " message(s) given up by the NIC after nic/max-retries=" +
         std::to_string(p_.max_retries) + " retransmissions";
  if (s.empty()) return {};
  const std::string w = wire_->stuck();
  return w.empty() ? s : s + "; " + w;
}

}  // namespace simfab::nic
