// Network: the one contract between the MPI layer and every network model (ARCHITECTURE.md,
// "One network contract, several models").
//
// The MPI layer (mpi/executor) asks a model four kinds of questions about a message of `size`
// bytes from host `src` to host `dst`:
//   protocol(size)          which of the four protocols below carries the message.
//   send_overhead/recv_overhead
//                           CPU time the sending/receiving rank spends in the call (LogGOPS:
//                           o + (s-1)O at the sender, o + max((s-1)O, (s-1)G) at the receiver).
//   isend_overhead          the same for a non-blocking send (SMPI's ois; default: send_overhead).
//   send_gap/recv_gap       time the rank's NIC is busy injecting/draining it (LogGOPS:
//                           g + (s-1)G). Models that share bandwidth in the network return 0.
//   transfer(...)           moves the bytes. The model must later call
//                           Engine::schedule(t, EventKind::kDelivery, token) exactly once, at the
//                           time the message is available to the receiver's MPI layer.
//   control(...)            the envelope of a detached or synchronous send (below): a message
//                           without payload that the model delivers, like transfer(), with
//                           Engine::schedule(t, EventKind::kDelivery, token) exactly once.
// Order: a model delivers the transfers and envelopes of one stream (NetMessage::stream, the
// executor's (sender rank, receiver rank) pair) in the order they were issued, as the TCP
// connection or InfiniBand queue pair between two processes does, so MPI's non-overtaking rule
// holds whatever the sizes. Messages of different streams never wait for each other. A model may
// deliver the data of kDetached and kSynchronous messages out of that order (network/model=smpi
// does, as SimGrid does): their receives were matched by the envelopes, which stay in order.
//
// Protocols (seed 004 §2.2 for LogGOPSim's two, seed 003 §IV-A for the three modes of SMPI):
//                  data leaves                     the send completes
//   kEager         at the send                     when issued (after its overhead)
//   kRendezvous    at the send                     when the receiver matches it (LogGOPSim)
//   kDetached      when the receive is matched     when issued (seed 003 "detached", S_a < k <= S_d)
//   kSynchronous   when the receive is matched     when the data has arrived (seed 003 "large")
// For kDetached and kSynchronous the executor sends the envelope with control(); the receiver
// matches it like a message, and the data transfer() starts at the later of the envelope's
// arrival and the receive's post.
//
// A model may keep its own events (EventKind::kNetwork). Transfers started by a model finish in
// that model, which is what switching models mid-run requires.
//
// Hosts are platform HostIds; the MPI layer maps ranks to hosts. Routes that do not exist are bad
// input: a model throws InputError naming the two hosts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/sim_time.hpp"
#include "net/link_bytes_timeline.hpp"

namespace simfab {

enum class Protocol : uint8_t { kEager, kRendezvous, kDetached, kSynchronous };

// One message (or envelope) handed to a model.
struct NetMessage {
  SimTime issued;   // the send call starts
  SimTime departs;  // its CPU overhead is over (issued + send_overhead or isend_overhead); for the
                    // data of a matched envelope both are the match time
  HostId src = 0;
  HostId dst = 0;
  Bytes size = 0;
  uint64_t stream = 0;  // delivery order is kept per stream (see "Order" above)
  uint64_t token = 0;   // what the model passes back with EventKind::kDelivery
  bool collective = false;  // a collective's message (its matching context is odd: mpi/comm.hpp)
};

// What a model that shares links reports about them (empty for analytic models).
struct LinkUsage {
  std::string name;
  double bandwidth_Bps = 0;
  double bytes = 0;     // bytes that crossed the link
  SimTime busy;         // time with at least one flow on it
  uint32_t peak_flows = 0;  // most flows on it at once
  uint64_t flows = 0;   // flows that crossed it
  // Packet models only (net/packet): packets, time with packets waiting for credits and none able
  // to go, FECN marks set on it, and its downstream buffer's occupancy (bytes, peak and mean).
  uint64_t packets = 0;
  SimTime credit_stall;
  uint64_t fecn = 0;
  uint64_t peak_queue_bytes = 0;
  double mean_queue_bytes = 0;
};
struct NetworkStats {
  bool present = false;      // false: the model keeps no such statistics
  uint64_t flows = 0;        // flows that went through the sharing phase
  uint32_t peak_flows = 0;   // most flows in the sharing phase at once
  uint64_t solves = 0;       // bandwidth-sharing solves
  uint64_t recomputed = 0;   // flow rates recomputed, summed over the solves
  double flow_seconds = 0;   // sum over flows of their sharing-phase duration
  uint64_t reroutes = 0;     // messages routed around links that were off (flow models)
  std::vector<LinkUsage> links;  // links that carried traffic, in platform order
  // The bytes each link (packet model: each port) carried per time bin, when the model knows it
  // (flow, smpi, packet: net/link_bytes_timeline.hpp), in platform order; empty otherwise.
  std::vector<CarriedSeries> carried;
  // Packet models only: packets injected, packet hops, FECN marks and BECNs (CNPs received), and
  // the buffer occupancy over time of the (at most 16) ports with the highest mean occupancy, most
  // occupied first: mean bytes per bin of queue_bin, up to the end of the run.
  struct QueueSeries {
    std::string name;
    std::vector<double> mean_bytes;
  };
  bool packet = false;
  SimTime queue_bin;
  std::vector<QueueSeries> queues;
  uint64_t packets = 0;
  uint64_t packet_hops = 0;
  uint64_t fecn = 0;
  uint64_t becn = 0;
};

// The event kinds a model uses: its own events, and the one it delivers with. A model stacked
// under another (the NIC model's wire and PCIe, nic/) gets kinds of its own, so the models of a
// stack share one engine without sharing a handler.
struct EventKinds {
  EventKind own = EventKind::kNetwork;
  EventKind delivery = EventKind::kDelivery;
};

class Network {
 public:
  explicit Network(EventKinds kinds = {}) : kinds_(kinds) {}
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  virtual ~Network() = default;

  virtual const char* name() const = 0;
  virtual Protocol protocol(Bytes size) const = 0;
  virtual SimTime send_overhead(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime recv_overhead(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime send_gap(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime recv_gap(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime isend_overhead(HostId src, HostId dst, Bytes size) const { return send_overhead(src, dst, size); }
  virtual void transfer(const NetMessage& m) = 0;
  // The envelope of a detached or synchronous send (m.size is the size of its data). Models
  // whose protocol() never answers kDetached or kSynchronous need not implement it.
  virtual void control(const NetMessage& m);

  virtual NetworkStats statistics() const { return {}; }

  // Called when the event queue has drained: why messages the model accepted were never
  // delivered (a packet model's credit cycle), or empty when none is pending.
  virtual std::string stuck() const { return {}; }

  // Configuration keys whose effective value the model derived itself (e.g. from the platform's
  // routes) instead of reading it, as (key, description): recorded in the results.
  virtual std::vector<std::pair<std::string, std::string>> derived_parameters() const { return {}; }

  const EventKinds& kinds() const { return kinds_; }

 protected:
  EventKinds kinds_;
};

}  // namespace simfab
