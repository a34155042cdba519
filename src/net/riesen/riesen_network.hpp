// RiesenNetwork: seed 002's own network model (Riesen, "Supercomputer simulation design through
// simulation", §2.5 and §5.2-5.3; issue 25): a message of s bytes from host a to host b arrives
//     delta(s) = s / (alpha B) + beta L        (x gamma for the messages of a collective)
// after its send, where B is the bandwidth of the route's slowest link and L the sum of its
// latencies (Platform::route_summary), alpha = hybrid/bw-scale, beta = hybrid/lat-scale and
// gamma = hybrid/coll-scale (0: the seed's zero-cost collectives, the best an application could
// get from better collectives). No CPU overheads, gaps, protocols (every send is eager: it
// completes when issued) nor contention: the seed's model, for comparison with the others.
// A stream's messages arrive in order (network.hpp, "Order"): a message never arrives before the
// one issued before it on its stream. Cost: one route summary and one event per message.
#pragma once

#include <unordered_map>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab {

struct RiesenParams {
  double bw_scale = 1;    // alpha
  double lat_scale = 1;   // beta
  double coll_scale = 1;  // gamma
};

void register_riesen_keys(Config& cfg);
// Throws InputError for a value that is not a number, or alpha <= 0, beta or gamma < 0.
RiesenParams riesen_params(const Config& cfg);

class RiesenNetwork final : public Network {
 public:
  RiesenNetwork(Engine& engine, const Platform& platform, RiesenParams p, EventKinds kinds = {});
  const char* name() const override { return "riesen"; }
  Protocol protocol(Bytes) const override { return Protocol::kEager; }
  SimTime send_overhead(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_overhead(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime send_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  void transfer(const NetMessage& m) override;
  std::vector<std::pair<std::string, std::string>> derived_parameters() const override;
  // delta for `size` bytes from a to b (a collective's message when `collective`).
  SimTime delay(HostId a, HostId b, Bytes size, bool collective) const;

 private:
  Engine& engine_;
  const Platform& platform_;
  RiesenParams p_;
  std::unordered_map<uint64_t, SimTime> last_;  // per stream: the latest arrival (lookups only)
};

}  // namespace simfab
