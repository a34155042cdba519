// Nic: the Portals 4 / BXI NIC model of seed 000 (S4BXI, chapter 4), one NIC per platform host,
// over any network model (its "wire": flow by default, or packet) and a PCIe model of its own.
// Clients ask for operations (Put, Get, Atomic, FetchAtomic, Swap) with post(); the NIC plays
// the operation's protocol and calls its client back at the simulated times where the target
// processes the request and the initiator's events become visible. Two clients exist: the
// Portals API of programs (online/portals/) and MPI over Portals (nic/portals_network.hpp).
//
// One Put of s bytes from node i to node t, as modelled (§4.3, §5.3-5.4, Appendix R; keys in
// nic_params.hpp; pci(b) = pci-latency + b / pcie-bw, an unshared PCI transaction):
//   CPU      path = inline (s <= 8/16 B), PIO (s <= 408/416 B) or DMA. PIO costs the CPU
//            pio-cpu-delay (200 ns) before the command leaves. The command reaches the NIC after
//            pci(command-size) (its PCI write).
//   TX       the command waits in its VN's queue (at most cq-depth commands per node and VN),
//            then TX serves it (one command at a time per VN, in order):
//              inline/PIO: send-delay (2 ns), the wire send starts; TX is busy pio-tx-delay more.
//              DMA:        pci(dma-request-size) (the NIC asks for the payload), then the payload's
//                          PCI read starts (PCIe model: capped at pcie-transfer-bw, sharing the
//                          node's pcie-bw) and, after first-packet delay d(s) = pci-latency +
//                          min(s, pci-packet) / pcie-bw plus send-delay, the wire send starts; TX
//                          is busy until the PCI read ends (the pipelined model of Fig. 4.10: the
//                          read, the wire and the target's write overlap; messages below one PCI
//                          packet are not pipelined: d(s) covers the whole payload).
//            SEND is raised when TX is done with the payload if s <= early-send (64 B), else
//            with the acknowledgement (the NIC may need the host's buffer to retransmit).
//   wire     the wire model moves s bytes (ACKs: ack-size, Get requests: get-request-size) from
//            i to t, in order per (i, t, VN).
//   RX       at t, one message at a time per VN: the last-packet delay d(s) (data-carrying
//            messages), then the client matches it (on_target). Events written by the target NIC
//            are visible pci(event-size) later. The payload's PCI write into t's memory runs in
//            the background (PCIe model), loading t's PCIe without delaying the events.
//   ACK      a Portals ACK (ack requested) is a message on the response VN (TX busy ack-tx-delay
//            after it); with E2E on, a request that asked for none is acknowledged by a BXI ACK,
//            and a Portals ACK is itself acknowledged by a BXI ACK (never retransmitted). With
//            quick ACKs, no message: the initiator's ACK (and late SEND) events are raised
//            directly when the target decides (§5.6), i.e. 2 wire messages fewer per Put.
// Get: a Get request (get-tx-delay on TX), the target matches it, its response VN sends the data
// (always DMA; a zero-size response costs empty-response-delay), REPLY at the initiator after the
// last-packet delay. FetchAtomic/Swap: the request carries the operand, the response the old value.
//
// Reliability (§4.2.1, §5.5): every message but a BXI ACK is kept by the initiating NIC's E2E
// FIFO until acknowledged (a Portals ACK, a BXI ACK or a response). retry-timeout after a
// transmission, if still unacknowledged, it is sent again (through the DMA path), at most
// max-retries times, then given up: the initiator's events carry PTL_NI_UNDELIVERABLE. One FIFO
// and at most one pending timer per NIC suffice: the timeout is a constant, so deadlines come in
// transmission order. nic/drop loses chosen transmissions (the wire carries them; the target
// discards them), which is how the tests make retransmissions happen.
//
// Flow control (chapter 7, §5.10): with max-inflight-to-target (per VN and target node) or
// max-inflight-to-process (per VN and process pair) set, TX parks a request whose counter is
// exhausted in its VN's waiting list; acknowledgements free the counters and resume the parked
// requests in order, ahead of the queue.
//
// Payloads of at most one PCI packet (512 B) are single PCI transactions: their DMA read takes
// size / pcie-transfer-bw and their write is not shared (too short to matter); larger ones are
// flows of the PCIe model (pcie.hpp), sharing the node's bus.
// Cost: O(1) engine events per message of the protocol (about 30 for an acknowledged DMA Put,
// the wire's and PCIe's flows included), independent of the size.
// Determinism: everything is ordered by (time, priority, sequence) through the engine.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/slot_pool.hpp"
#include "net/network.hpp"
#include "nic/nic_params.hpp"
#include "platform/platform.hpp"

namespace simfab::nic {

enum class OpType : uint8_t { kPut, kGet, kAtomic, kFetchAtomic, kSwap };
const char* op_name(OpType t);

// Portals' ni_fail_type values the NIC produces (portals4.h numbers them for programs).
enum class Fail : uint8_t { kOk, kUndeliverable, kPtDisabled, kDropped, kPermViolation, kOpViolation, kNoMatch,
                            kSegv, kTargetInvalid };

// What the initiator is told (portals4.h PTL_EVENT_SEND, _ACK, _REPLY).
enum class InitiatorEvent : uint8_t { kSend, kAck, kReply };

class NicClient;

// One operation a process asks of its NIC.
struct Command {
  OpType op = OpType::kPut;
  HostId initiator = 0, target = 0;           // nodes (platform hosts)
  int32_t initiator_pid = 0, target_pid = 0;  // processes (world ranks): per-pair limits, logs
  Bytes length = 0;       // Put/Atomic: payload; Get: bytes asked; FetchAtomic/Swap: operand size
  bool matching = true;   // issued on a matching NI (inline/PIO thresholds)
  bool ack_req = false;   // Put/Atomic: the initiator wants a Portals ACK
  bool service = false;   // SERVICE virtual networks instead of COMPUTE
  NicClient* client = nullptr;
  uint64_t user = 0;      // the client's id for it, passed back
};

// The target's answer to a request it processed.
struct TargetOutcome {
  Fail fail = Fail::kOk;  // not kOk: the initiator's ACK/REPLY carries it
  bool ack = true;        // a Portals ACK is still wanted (an ME may disable it: PTL_ME_ACK_DISABLE)
  Bytes reply_bytes = 0;  // Get/FetchAtomic/Swap: bytes the response carries (the matched length)
};

// Times the NIC gives its client. `at` is when the NIC acts; `visible` when the host sees the
// events it writes then (at + event latency).
struct NicTime {
  SimTime at;
  SimTime visible;
};

class NicClient {
 public:
  virtual ~NicClient() = default;
  // The target NIC processes the request of `c` (after its last-packet delay): match it, move
  // its data, raise the target's events (visible at when.visible). Called once per delivered
  // transmission that is not a duplicate.
  virtual TargetOutcome on_target(const Command& c, NicTime when) = 0;
  // An initiator event of `c`. kSend and kAck/kReply each come at most once per operation.
  virtual void on_initiator(const Command& c, InitiatorEvent e, Fail fail, NicTime when) = 0;
  // A command queue of `node` had room again (after being full) at `t`.
  virtual void on_queue_space(HostId /*node*/, SimTime /*t*/) {}
};

// Counters per NIC (--stats, JSON).
struct NicCounters {
  uint64_t commands = 0;
  uint64_t inline_puts = 0, pio_puts = 0, dma_puts = 0;  // payload paths (Puts and Atomics)
  uint64_t gets = 0, responses = 0;
  uint64_t wire_messages = 0;           // messages this NIC put on the wire (all kinds)
  uint64_t ptl_acks = 0, bxi_acks = 0;  // sent
  uint64_t quick_acks = 0;
  uint64_t retransmissions = 0, given_up = 0, dropped = 0;
  uint64_t inflight_stalls = 0;         // requests parked by an in-flight limit
  uint64_t pcie_bytes = 0;              // payload bytes through its PCIe (reads and writes)
  SimTime pcie_busy;                    // time with a payload transfer on its PCIe
  SimTime tx_busy, rx_busy;             // time its TX / RX engines worked (all VNs, union)
};

// The seed's CSV event log (§4.4, Fig. 4.12): one row per operation, rotated every 10,000 lines.
class NicLog;

class Nic final : private EventHandler {
 public:
  // `wire` moves bytes between hosts; it must use the kinds {kWire, kWireDelivery}.
  Nic(Engine& engine, const Platform& platform, NicParams params, std::unique_ptr<Network> wire);
  ~Nic() override;

  const NicParams& params() const { return p_; }
  Network& wire() { return *wire_; }
  const Network& wire() const { return *wire_; }

  // CPU time the posting process spends before the command leaves (PIO: the payload write).
  SimTime post_cost(const Command& c) const;
  // True when the node's command queue for c's VN is full (Portals callers wait; MPI does not).
  bool queue_full(HostId node, bool service) const;
  // The command leaves the CPU at `t` (after post_cost). REQUIRES: t >= the engine's now.
  void post(const Command& c, SimTime t);

  const std::vector<NicCounters>& counters() const { return counters_; }
  void set_log(NicLog* log) { log_ = log; }
  // Energy of NIC h from 0 to `end` (nic/power-*): idle * end + (busy - idle) * its busy time.
  double energy_j(HostId h, SimTime end) const;
  // Operations that never completed, and why; empty when none (then the wire's own answer).
  std::string stuck() const;
  uint64_t operations_in_flight() const { return ops_.live(); }

 private:
  enum class Kind : uint8_t { kRequest, kPtlAck, kResponse, kBxiAck };
  enum class Path : uint8_t { kInline, kPio, kDma };
  static constexpr int kReliable = 3;  // request, Portals ACK, response: kept by E2E until acknowledged
  struct Op {
    Command c;
    uint32_t gen = 0;        // bumped when the slot is freed: E2E entries of a recycled slot are stale
    uint32_t refs = 0;       // messages queued or in flight, plus unacknowledged reliable messages
    Path path = Path::kInline;
    bool send_raised = false, final_raised = false;
    bool target_done = false;  // the target processed the request (a duplicate is not processed again)
    bool inflight = false;     // holds an in-flight slot (flow control)
    TargetOutcome outcome;
    bool sent[kReliable] = {};    // transmitted at least once (holds one ref until acknowledged)
    bool acked[kReliable] = {};
    uint8_t tries[kReliable] = {};
    uint64_t last_tx[kReliable] = {};  // transmission number of the latest try
  };
  struct Msg {
    uint32_t op = 0;
    Kind kind = Kind::kRequest;
    Kind acks = Kind::kRequest;  // a BXI ACK: what it acknowledges
    uint8_t vn = 0;
    bool command = false;        // a command from the CPU (counts in the CQ depth)
    bool retry = false;
    bool dropped = false, arrived = false, read_pending = false;
    HostId from = 0, to = 0;
    Bytes payload = 0;  // data it carries (the DMA read, the target's PCI write)
    Bytes wire_bytes = 0;
    SimTime wire_start, tx_start;
  };
  struct Vn {
    std::deque<uint32_t> queue;   // messages waiting for TX, in order
    std::deque<uint32_t> parked;  // requests waiting for an in-flight slot
    int64_t commands = 0;         // CPU commands posted and not yet taken by TX
    SimTime tx_free_at;           // TX serves nothing from then on (unless `reading`)
    bool reading = false;         // TX waits for a DMA read to end
    bool wake_pending = false;    // a kTxFree event is scheduled
    bool cq_was_full = false;
    SimTime rx_free;
  };
  struct E2eEntry {
    SimTime deadline;
    uint32_t op, gen;
    uint8_t kind;
    uint64_t tx;
  };
  struct Busy {  // union of periods given in non-decreasing start order
    SimTime end, total;
    void add(SimTime s, SimTime e);
  };
  struct Node {
    Vn vn[4];
    std::deque<E2eEntry> e2e;
    bool timer = false;
    std::unordered_map<uint64_t, int64_t> to_target, to_process;  // in-flight counts (flow control)
    Busy busy;
    uint32_t pcie_active = 0;
    SimTime pcie_since;
  };
  struct Adaptor final : EventHandler {  // the wire's and the PCIe's deliveries
    Nic* nic = nullptr;
    bool pcie = false;
    void handle(SimTime now, uint64_t index) override;
  };

  void handle(SimTime now, uint64_t index) override;
  void schedule(SimTime t, int type, uint64_t index);
  uint32_t new_msg(uint32_t op, Kind kind, HostId from, HostId to, uint8_t vn);
  uint32_t make_msg(uint32_t op, Kind kind);  // a (re)transmission of a reliable message
  void queue_msg(uint32_t m, SimTime now);
  void try_tx(HostId node, uint8_t vn, SimTime now);
  bool admit(uint32_t m);  // flow control: takes an in-flight slot, or false (park it)
  void release_inflight(Op& op, SimTime now);
  void serve(uint32_t m, SimTime now);
  void tx_done(uint32_t m, SimTime end);
  void transmit(uint32_t m, SimTime start);
  void wire_arrived(uint32_t m, SimTime now);
  void pcie_done(uint64_t token, SimTime now);
  void rx_enqueue(uint32_t m, SimTime now);
  void process(uint32_t m, SimTime now);
  void acknowledge(uint32_t op_id, SimTime now);
  void mark_acked(uint32_t op_id, Kind kind, SimTime now);
  void raise_send(Op& op, Fail fail, SimTime at);
  void raise_final(Op& op, InitiatorEvent e, Fail fail, SimTime at);
  void unref(uint32_t op_id);
  void e2e_push(HostId node, uint32_t op_id, Kind kind, SimTime start);
  void e2e_timer(HostId node, SimTime now);
  void pcie_write(HostId node, Bytes bytes, SimTime now);
  bool lost(uint64_t transmission) const;
  NicTime at(SimTime t) const { return NicTime{t, t + event_latency_}; }
  uint8_t request_vn(const Command& c) const { return c.service ? 2 : 0; }
  uint8_t response_vn(const Command& c) const { return c.service ? 3 : 1; }

  Engine& engine_;
  NicParams p_;
  std::unique_ptr<Network> wire_;
  std::unique_ptr<class Pcie> pcie_;
  std::vector<NicCounters> counters_;
  std::vector<Node> nodes_;
  SlotPool<Op> ops_;
  SlotPool<Msg> msgs_;
  struct Write {  // a payload's PCI write in the background (its log row)
    HostId node = 0;
    SimTime start;
  };
  SlotPool<Write> writes_;
  Adaptor wire_adaptor_, pcie_adaptor_;
  SimTime event_latency_;
  uint64_t transmissions_ = 0;  // reliable transmissions so far (nic/drop numbers them)
  uint64_t given_up_ = 0;
  NicLog* log_ = nullptr;
};

}  // namespace simfab::nic
