// The network the MPI layer talks to: network/model's model, or, with nic/model=portals, the NIC
// model (PortalsNetwork) over the model nic/wire names. What sim/ builds for every front-end.
// Under the NIC, the packet model's receiving sink drains at nic/pcie-transfer-bw with no
// per-packet cost (the NIC owns the host's PCIe), unless packet/sink-* are set explicitly.
#pragma once

#include <memory>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab::nic {

// `kinds`: the model's own event kind and its deliveries' (another model of a run that switches
// models gets its own, sim/model_switch.hpp); the NIC model keeps its fixed kinds below its
// PortalsNetwork, so a run holds at most one NIC configuration.
std::unique_ptr<Network> make_mpi_network(Engine& engine, const Platform& platform, const Config& cfg,
                                          EventKinds kinds = {});

}  // namespace simfab::nic
