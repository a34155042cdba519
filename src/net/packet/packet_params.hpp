// PacketParams: every parameter of the packet-level InfiniBand model (net/packet/packet_network.hpp)
// and the `packet/*` configuration keys that set them, each default with its source.
//
// Seed 004 §2.7 fixes the packet format (MTU 2176 B including 20 B of LRH+BTH headers, 64-B flits)
// and the calibrated link (32 ns per 64-B flit = 2 GB/s, 4x DDR's 16 Gb/s data rate) and sink
// (33.6 ns per 64-B flit: seed 004 §3.8, "increasing by 1.6 ns for every subsequent flit"). What
// the seed leaves open comes from the InfiniBand Architecture Specification (IBA) vol. 1 rel. 1.2.1
// where it says something, and is simfab's documented choice where the IBA leaves it to the
// vendor or the subnet manager:
//
//   key                       default     source
//   packet/mtu                2176 B      seed 004 §2.7 "gen": 2048 B payload MTU + headers
//   packet/header             20 B        seed 004 §2.7: LRH (8) + BTH (12)
//   packet/flit               64 B        seed 004 §2.7; IBA §7.9.4: one flow-control credit = 64 B
//   packet/link-rate          0 (= each platform link's bandwidth); a rate here overrides them all
//   packet/link-width, lane-rate  0 (off), 5 Gb/s: or IB's width x lane rate x 0.8 (8b/10b),
//                                         seed 004 §2.7 obuf (2.5/5/10 Gb/s x 4x/8x/12x)
//   packet/switch-latency     27 ns       calibrated: with 5-ns cables it gives seed 004 §3.8's
//                                         101,000 ps host-switch-host delay of a 64-B flit
//                                         (2 x (5 + 32) + 27); the IBA sets no figure
//   packet/vl-buffer          8704 B      per VL per input port: 4 maximum packets (IBA §7.9.4 only
//                                         requires room for one; 4 keep a link busy over a hop
//                                         whose credit round trip is under 3 packet times)
//   packet/vls                1           data VLs; seed 004 §2.7 "with only one data VL it is
//                                         round robin over input ports, with no tables"
//   packet/sl2vl              SL mod VLs  IBA §7.6.6 SL-to-VL mapping table, 16 entries
//   packet/sl, sl-large, sl-threshold     the SL of a message: `sl`, or `sl-large` for messages
//                                         above `sl-threshold` bytes (0: none), as MPI libraries
//                                         put bulk transfers on their own SL
//   packet/vlarb-high, vlarb-low, high-limit
//                                         IBA §7.6.9 VL arbitration: "vl:weight,..." (weight in
//                                         64-B units), LimitOfHighPriority in 4-KiB units (255:
//                                         unlimited). Default: no high table, every data VL in the
//                                         low table with weight 4, limit 0 (OpenSM's shape)
//   packet/credit-period      0           flow-control packets: 0 sends one as soon as a packet's
//                                         credits are freed; P > 0 batches them at multiples of P
//                                         (IBA §7.9.4.2 requires at least one per 65,536 symbols)
//   packet/sink-rate          525 ps/B    the receiving host's PCIe drain: 33.6 ns per 64-B flit,
//                                         seed 004 §3.8
//   packet/sink-packet-overhead 32 ns     per packet at the sink (DMA descriptor/completion):
//                                         calibrated so seed 004 §6 test 12's 400,000-B transfer
//                                         takes 218.0 us and §3.4's 1000-B step 0.67 us
//   packet/cc                 off         IBA Annex A10 congestion control
//   packet/cc-threshold       0.6         a switch output (per VL) is congested when the packets
//                                         queued for it exceed this fraction of one VL buffer
//                                         (seed 004 §2.7 background: "60 % full")
//   packet/cc-marking-rate    0           A10 Marking_Rate: packets left unmarked between two FECNs
//   packet/cc-cct-step        1 us        CCT[i] = i x step: the inter-packet delay after a
//                                         packet of a throttled flow (A10 leaves the table to the
//                                         CC manager; linear, as in Gran et al., IPDPS'10)
//   packet/cc-cct-size        128         entries (seed 004 §2.7: "at least 128")
//   packet/cc-increase        1           A10 CCTI_Increase per BECN
//   packet/cc-timer           150 us      A10 CCTI_Timer: the period after which CCTI drops by one
//                              (step and timer are simfab's choice, tuned on the 28-to-1 hot spot of
//                              tests/packet: victims get 47-75 % of their unloaded rate back, from
//                              3 % without CC)
//   packet/check-credits      false       credit-conservation checking mode (slow)
//   packet/flit-exact         false       time every flit of every hop (validation; O(flits) per hop)
// Host overheads and the eager/rendezvous threshold are LogGOPS's o, O and S (loggops/o, O, S),
// as in seed 004's coupling, where LogGOPSim keeps them and the IB model moves the bytes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/config.hpp"
#include "core/sim_time.hpp"
#include "net/loggops/loggops_network.hpp"

namespace simfab::packet {

constexpr int kMaxVls = 15;  // VL0..VL14 carry data; VL15 is management (IBA §7.6.2)

struct VlArbEntry {
  uint8_t vl = 0;
  uint16_t weight = 0;  // 64-byte units, 0..255
};

struct PacketParams {
  uint32_t mtu = 2176;
  uint32_t header = 20;
  uint32_t flit = 64;
  double link_ps_per_byte = 0;  // 0: from each link's bandwidth
  SimTime switch_latency = SimTime::ps(27000);
  uint32_t vl_buffer = 8704;
  int vls = 1;
  std::array<uint8_t, 16> sl2vl{};
  int sl = 0;
  int sl_large = 0;
  Bytes sl_threshold = 0;
  std::vector<VlArbEntry> arb_high;
  std::vector<VlArbEntry> arb_low;
  int high_limit = 0;
  SimTime credit_period = SimTime::zero();
  double sink_ps_per_byte = 525;
  SimTime sink_packet_overhead = SimTime::ps(32000);
  bool cc = false;
  double cc_threshold = 0.6;
  int cc_marking_rate = 0;
  SimTime cc_cct_step = SimTime::ps(1'000'000);
  int cc_cct_size = 128;
  int cc_increase = 1;
  SimTime cc_timer = SimTime::ps(150'000'000);
  bool check_credits = false;
  bool flit_exact = false;
  LogGOPSParams host;  // o, O, S (L, g, G unused)

  uint32_t payload() const { return mtu - header; }
  uint32_t blocks(uint32_t bytes) const { return (bytes + flit - 1) / flit; }
  uint8_t vl_of(Bytes size) const {
    const int s = sl_threshold > 0 && size > sl_threshold ? sl_large : sl;
    return sl2vl[static_cast<size_t>(s)];
  }
};

void register_packet_keys(Config& cfg);
// Reads and validates packet/* (and loggops/o, O, S). Throws InputError naming the key.
PacketParams packet_params(const Config& cfg);

}  // namespace simfab::packet
