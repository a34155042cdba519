// NicParams: the constants of the Portals 4 / BXI NIC model (seed 000), one configuration key
// each (nic/*), with the seed's values as defaults. `simfab config --list` documents every key
// with the seed section it comes from; this header groups them by what they shape.
//
//   paths      inline <= nic/inline-size (8 B; + nic/match-bits-size = 16 B on a non-matching NI),
//              PIO <= nic/pio-size (408 B; 416 B non-matching), DMA above; Get responses always
//              DMA (§4.3.3, §5.3)
//   PCIe       a per-transfer cap nic/pcie-transfer-bw (12.5 GB/s, the BXI cable's rate) in series
//              with a per-node shared cap nic/pcie-bw (15.75 GB/s, PCIe gen3 x16) (§4.1, §5.4);
//              nic/pci-latency (200 ns) per PCI transaction; nic/pci-packet (512 B): the DMA
//              first/last-packet delay is pci-latency + min(size, pci-packet) / pcie-bw
//              (Appendix R: ONE_PCI_PACKET_TRANSFER = 200 ns + 32.508 ns)
//   sizes      command 64 B, DMA request 64 B, event 96 B, ACK 32 B, Get request 64 B (App. R)
//   delays     the NIC's processing sleeps of Appendix R: 2 ns before every wire send, 200 ns of
//              TX after an inline/PIO Put, 250 ns per Get request, 200 ns after a PTL_ACK,
//              300 ns for a zero-size response, 200 ns of CPU after a PIO payload write
//   SEND       early SEND event for payloads <= nic/early-send (64 B) (§4.3.2)
//   queues     nic/cq-depth (89: the thesis's empirical TX queue depth; 16 is the real CQ) (§4.3.2)
//   E2E        nic/e2e, nic/retry-timeout (10 s), nic/max-retries (5), nic/quick-acks (§4.2.1,
//              §4.3.4, §5.5, §5.6); nic/drop (deterministic loss, to study retransmission)
//   flow ctl   nic/max-inflight-to-target, nic/max-inflight-to-process (0 = off) (§7.1, §5.10)
//   polling    nic/polling-delay (10 ns): PtlEQGet/PtlCTGet's growing delay (§5.7)
//   MPI        nic/eager-limit (2048 B, Open MPI's portals4 MTL default): above it a message is a
//              Put of its header then a Get of its payload; nic/mpi-overhead: the MPI library's
//              software cost per send and per receive (0: the NIC's costs only)
//   wire       nic/wire: the network model under the NIC (flow by default, or packet, loggops, smpi)
//   power      nic/power-idle, nic/power-busy: W per NIC, busy while its TX or RX engines work
//   memory     nic/max-memcpy: Portals programs' Put/Get payloads above it are timed but not copied
//              (S4BXI_MAX_MEMCPY), so large-message sweeps cost no memory bandwidth
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/sim_time.hpp"

namespace simfab::nic {

struct NicParams {
  bool enabled = false;  // nic/model=portals
  std::string wire = "flow";
  Bytes inline_size = 8, pio_size = 408, match_bits_size = 8;
  double pcie_bw = 15.75e9;          // bytes/s, shared per node
  double pcie_transfer_bw = 12.5e9;  // bytes/s, per transfer
  SimTime pci_latency = SimTime::ps(200'000);
  Bytes pci_packet = 512;
  Bytes command_size = 64, dma_request_size = 64, event_size = 96, ack_size = 32, get_request_size = 64;
  SimTime send_delay = SimTime::ps(2'000);
  SimTime pio_tx_delay = SimTime::ps(200'000);
  SimTime get_tx_delay = SimTime::ps(250'000);
  SimTime ack_tx_delay = SimTime::ps(200'000);
  SimTime empty_response_delay = SimTime::ps(300'000);
  SimTime pio_cpu_delay = SimTime::ps(200'000);
  Bytes early_send = 64;
  int64_t cq_depth = 89;
  bool e2e = true;
  SimTime retry_timeout = SimTime::ps(10'000'000'000'000);  // 10 s
  int64_t max_retries = 5;
  bool quick_acks = false;
  std::vector<uint64_t> drop;  // transmissions to lose (1-based, in transmission order), sorted
  bool drop_all = false;
  int64_t max_inflight_to_target = 0, max_inflight_to_process = 0;
  SimTime polling_delay = SimTime::ps(10'000);
  Bytes eager_limit = 2048;
  SimTime mpi_overhead;
  double power_idle_w = 0, power_busy_w = 0;
  int64_t max_memcpy = -1;  // Portals programs: Put/Get payloads above it are not copied (-1: all are)

  // The payload thresholds of an NI: inline and PIO sizes are larger by the match bits' room
  // on a non-matching NI.
  Bytes inline_max(bool matching) const { return matching ? inline_size : inline_size + match_bits_size; }
  Bytes pio_max(bool matching) const { return matching ? pio_size : pio_size + match_bits_size; }
  // A PCI transaction of `bytes` that is not shared (commands, DMA requests, event writes).
  SimTime pci_small(Bytes bytes) const;
  // The DMA pipeline's fill (TX) and drain (RX) delay: one PCI packet, or the whole payload below it.
  SimTime packet_delay(Bytes size) const;
  // How long after the NIC writes an event the host sees it.
  SimTime event_latency() const { return pci_small(event_size); }
};

void register_nic_keys(Config& cfg);
// Throws InputError naming the key whose value is out of range.
NicParams nic_params(const Config& cfg);

}  // namespace simfab::nic
