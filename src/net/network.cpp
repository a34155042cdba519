#include "net/network.hpp"

#include "core/error.hpp"

namespace simfab {

void Network::control(const NetMessage&) {
  SIMFAB_CHECK(false, std::string("network model '") + name() +
                          "' answered a detached or synchronous protocol but carries no envelopes");
}

}  // namespace simfab
