#include "nic/nic_registry.hpp"

#include "core/error.hpp"
#include "net/network_registry.hpp"
#include "nic/portals_network.hpp"

namespace simfab::nic {

std::unique_ptr<Network> make_mpi_network(Engine& engine, const Platform& platform, const Config& cfg) {
  NicParams p = nic_params(cfg);
  if (!p.enabled) return make_network(engine, platform, cfg);
  if (platform.is_ideal())
    throw InputError(SourceLoc{"--cfg", 0, 0},
                     "nic/model=portals needs a platform with links (--platform): the NIC sends over its wire model, "
                     "nic/wire=" + p.wire);
  auto wire = make_network(engine, platform, cfg, p.wire, EventKinds{EventKind::kWire, EventKind::kWireDelivery});
  return std::make_unique<PortalsNetwork>(engine, platform, std::move(p), std::move(wire));
}

}  // namespace simfab::nic
