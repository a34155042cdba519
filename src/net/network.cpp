#include "net/network.hpp"

#include "core/error.hpp"

namespace simfab {

void Network::control(SimTime, HostId, HostId, Bytes, uint64_t) {
  SIMFAB_CHECK(false, std::string("network model '") + name() +
                          "' answered a detached or synchronous protocol but carries no envelopes");
}

}  // namespace simfab
