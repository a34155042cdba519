// The network models simfab knows, by name, with a one-line description each: the registry behind
// `--cfg network/model=NAME` and `simfab config --list`. Explicit (no static constructors): a new
// model adds one entry to kNetworkModels and its keys to register_network_keys.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab {

struct NetworkModelInfo {
  const char* name;
  const char* description;
};

const std::vector<NetworkModelInfo>& network_models();

// Declares network/model and every model's keys.
void register_network_keys(Config& cfg);

// Builds the model named by network/model. REQUIRES: the name is registered (Config validated it).
std::unique_ptr<Network> make_network(Engine& engine, const Platform& platform, const Config& cfg);
// The model `name` (a registered one) on the event kinds `kinds`: a model stacked under another
// (the NIC's wire, nic/nic_registry.hpp).
std::unique_ptr<Network> make_network(Engine& engine, const Platform& platform, const Config& cfg,
                                      const std::string& name, EventKinds kinds);

}  // namespace simfab
