// Pcie: the PCIe buses of the NIC model (seed 000 §4.1, §5.4): S4BXI's two-link trick. Each node's
// bus is a fatpipe link of nic/pcie-transfer-bw (12.5 GB/s: it caps each transfer alone) in series
// with a shared link of nic/pcie-bw (15.75 GB/s: PCIe gen3 x16, shared by every concurrent
// transfer of the node, reads and writes alike). So one DMA transfer runs at 12.5 GB/s and two
// concurrent ones at 7.875 GB/s each:
//   rate(transfer) = min(pcie-transfer-bw, maxmin share of pcie-bw among the node's transfers)
// The buses are a flow model (net/flow) of their own over a small platform (per node a "cpu" and
// a "nic" end joined by the two links, no latency: the PCI latency is in the NIC's delays), on the
// engine's kPcie/kPcieDelivery kinds, so a transfer's rate changes whenever another starts or ends
// on its node, exactly as on the wire. Only payloads go through it; commands, DMA requests and
// event writes are small unshared transactions (NicParams::pci_small).
// Cost: one flow per payload transfer (O(1) events, a max-min solve per instant that changes).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/sim_time.hpp"
#include "nic/nic_params.hpp"
#include "platform/platform.hpp"

namespace simfab::flow {
class FlowNetwork;
}

namespace simfab::nic {

class Pcie {
 public:
  Pcie(Engine& engine, int nodes, const NicParams& p);
  ~Pcie();
  // Moves `bytes` between node's memory and its NIC from `start` on (to_nic: a DMA read, else a
  // write); EventKind::kPcieDelivery with `token` fires when it ends.
  void transfer(HostId node, bool to_nic, Bytes bytes, SimTime start, uint64_t token);

 private:
  Platform buses_;
  std::unique_ptr<flow::FlowNetwork> flows_;
  uint64_t stream_ = 0;  // one stream per transfer: PCIe transfers do not wait for each other
};

}  // namespace simfab::nic
