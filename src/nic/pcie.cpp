#include "nic/pcie.hpp"

#include <string>

#include "net/flow/flow_network.hpp"

namespace simfab::nic {

Pcie::Pcie(Engine& engine, int nodes, const NicParams& p) {
  buses_.reserve(2 * nodes, 0, 2 * nodes);
  for (int n = 0; n < nodes; ++n) {
    Host cpu, nic;
    cpu.name = "cpu" + std::to_string(n);
    nic.name = "nic" + std::to_string(n);
    const HostId a = buses_.add_host(cpu);
    const HostId b = buses_.add_host(nic);
    Link cap, bus;
    cap.name = "pcie-transfer" + std::to_string(n);
    cap.bandwidth_Bps = p.pcie_transfer_bw;
    cap.sharing = LinkSharing::kFatpipe;
    bus.name = "pcie" + std::to_string(n);
    bus.bandwidth_Bps = p.pcie_bw;
    const LinkId lc = buses_.add_link(cap);
    const LinkId lb = buses_.add_link(bus);
    buses_.add_route(a, b, {lc, lb}, false);  // both directions over the same two links
  }
  flows_ = std::make_unique<flow::FlowNetwork>(engine, buses_, flow::FlowParams{},
                                               EventKinds{EventKind::kPcie, EventKind::kPcieDelivery});
}

Pcie::~Pcie() = default;

void Pcie::transfer(HostId node, bool to_nic, Bytes bytes, SimTime start, uint64_t token) {
  NetMessage m;
  m.issued = m.departs = start;
  m.src = 2 * node + (to_nic ? 0 : 1);
  m.dst = 2 * node + (to_nic ? 1 : 0);
  m.size = bytes;
  m.stream = stream_++;
  m.token = token;
  flows_->transfer(m);
}

}  // namespace simfab::nic
