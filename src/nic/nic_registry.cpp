#include "nic/nic_registry.hpp"

#include "core/error.hpp"
#include "net/network_registry.hpp"
#include "net/packet/packet_network.hpp"
#include "nic/portals_network.hpp"

namespace simfab::nic {

std::unique_ptr<Network> make_mpi_network(Engine& engine, const Platform& platform, const Config& cfg,
                                          EventKinds kinds) {
  NicParams p = nic_params(cfg);
  if (!p.enabled) return make_network(engine, platform, cfg, cfg.choice("network/model"), kinds);
  if (platform.is_ideal())
    throw InputError(SourceLoc{"--cfg", 0, 0},
                     "nic/model=portals needs a platform with links (--platform): the NIC sends over its wire model, "
                     "nic/wire=" + p.wire);
  const EventKinds wire_kinds{EventKind::kWire, EventKind::kWireDelivery};
  std::unique_ptr<Network> wire;
  if (p.wire == "packet") {
    // The NIC drains packets into host memory through its own PCIe: the packet model's sink
    // (seed 004's InfiniBand HCA, 1.9 GB/s) becomes the NIC's per-transfer PCIe rate, with no
    // per-packet cost, unless the run sets the sink itself.
    packet::PacketParams pp = packet::packet_params(cfg);
    if (!cfg.is_explicit("packet/sink-rate")) pp.sink_ps_per_byte = 1e12 / p.pcie_transfer_bw;
    if (!cfg.is_explicit("packet/sink-packet-overhead")) pp.sink_packet_overhead = SimTime::zero();
    wire = std::make_unique<packet::PacketNetwork>(engine, platform, std::move(pp), wire_kinds);
  } else {
    wire = make_network(engine, platform, cfg, p.wire, wire_kinds);
  }
  return std::make_unique<PortalsNetwork>(engine, platform, std::move(p), std::move(wire));
}

}  // namespace simfab::nic
