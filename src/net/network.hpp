// Network: the one contract between the MPI layer and every network model (ARCHITECTURE.md,
// "One network contract, several models").
//
// The MPI layer (mpi/executor) asks a model four kinds of questions about a message of `size`
// bytes from host `src` to host `dst`:
//   protocol(size)          eager (sender done when the send is issued) or rendezvous (sender
//                           done when the receiver matches it), seed 004 §2.2.
//   send_overhead/recv_overhead
//                           CPU time the sending/receiving rank spends in the call (LogGOPS:
//                           o + (s-1)O at the sender, o + max((s-1)O, (s-1)G) at the receiver).
//   send_gap/recv_gap       time the rank's NIC is busy injecting/draining it (LogGOPS:
//                           g + (s-1)G). Models that share bandwidth in the network return 0.
//   transfer(...)           moves the bytes. The model must later call
//                           Engine::schedule(t, EventKind::kDelivery, token) exactly once, at the
//                           time the message is available to the receiver's MPI layer.
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

#include "core/sim_time.hpp"

namespace simfab {

enum class Protocol : uint8_t { kEager, kRendezvous };

class Network {
 public:
  Network() = default;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  virtual ~Network() = default;

  virtual const char* name() const = 0;
  virtual Protocol protocol(Bytes size) const = 0;
  virtual SimTime send_overhead(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime recv_overhead(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime send_gap(HostId src, HostId dst, Bytes size) const = 0;
  virtual SimTime recv_gap(HostId src, HostId dst, Bytes size) const = 0;
  // `issued` is the time the send starts (before its overhead is charged).
  virtual void transfer(SimTime issued, HostId src, HostId dst, Bytes size, uint64_t token) = 0;

  // Configuration keys whose effective value the model derived itself (e.g. from the platform's
  // routes) instead of reading it, as (key, description): recorded in the results.
  virtual std::vector<std::pair<std::string, std::string>> derived_parameters() const { return {}; }
};

}  // namespace simfab
