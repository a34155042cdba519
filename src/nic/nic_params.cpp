#include "nic/nic_params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/error.hpp"

namespace simfab::nic {

SimTime NicParams::pci_small(Bytes bytes) const {
  return pci_latency + SimTime::from_seconds(static_cast<double>(bytes) / pcie_bw);
}

SimTime NicParams::packet_delay(Bytes size) const { return pci_small(std::min(size, pci_packet)); }

void register_nic_keys(Config& cfg) {
  cfg.declare({"nic/model", CfgType::kChoice, "none",
               "NIC model under the MPI layer: none = the network model talks to MPI directly; portals = "
               "seed 000's Portals 4 / BXI NIC (command queues, payload paths, PCIe, ACKs, E2E) over the "
               "wire model nic/wire, and the Portals 4 API for simfab exec programs",
               {"none", "portals"}});
  cfg.declare({"nic/wire", CfgType::kChoice, "flow",
               "network model under the NIC with nic/model=portals (S4BXI runs on SimGrid's flow model) "
               "[seed 000 §5.4]",
               {"flow", "packet", "loggops", "smpi"}});
  auto key = [&](const char* name, CfgType t, const char* def, const char* doc) {
    cfg.declare({name, t, def, doc, {}});
  };
  key("nic/inline-size", CfgType::kBytes, "8",
      "largest payload written inside the command on a matching NI [seed 000 §4.3.3]");
  key("nic/pio-size", CfgType::kBytes, "408",
      "largest payload the CPU writes into NIC memory (PIO) on a matching NI; DMA above [seed 000 §4.3.3]");
  key("nic/match-bits-size", CfgType::kBytes, "8",
      "room of the match bits: a non-matching NI's inline and PIO limits are larger by it (16 B, 416 B) "
      "[seed 000 §4.3.3]");
  key("nic/pcie-bw", CfgType::kPerByte, "15.75GBps",
      "PCIe bandwidth shared by a node's payload transfers, both directions (gen3 x16) [seed 000 §4.1]");
  key("nic/pcie-transfer-bw", CfgType::kPerByte, "12.5GBps",
      "cap of one PCIe payload transfer (the BXI cable's rate; S4BXI's fatpipe PCI link) [seed 000 §4.1]");
  key("nic/pci-latency", CfgType::kTime, "200ns", "latency of one PCI transaction [seed 000 App. R PCI_LATENCY]");
  key("nic/pci-packet", CfgType::kBytes, "512",
      "PCI packet: the DMA first/last-packet delay covers min(size, this) [seed 000 §4.3.3, §5.4]");
  key("nic/command-size", CfgType::kBytes, "64", "command written by the CPU to the NIC [seed 000 App. R]");
  key("nic/dma-request-size", CfgType::kBytes, "64", "the NIC's DMA read request [seed 000 §5.3]");
  key("nic/event-size", CfgType::kBytes, "96", "event written by the NIC into host memory [seed 000 App. R]");
  key("nic/ack-size", CfgType::kBytes, "32", "ACK message on the wire (Portals and BXI) [seed 000 App. R]");
  key("nic/get-request-size", CfgType::kBytes, "64", "Get request on the wire [seed 000 App. R]");
  key("nic/send-delay", CfgType::kTime, "2ns", "NIC time before every wire send [seed 000 App. R reliable_comm_init]");
  key("nic/pio-tx-delay", CfgType::kTime, "200ns", "TX busy after an inline or PIO Put [seed 000 App. R]");
  key("nic/get-tx-delay", CfgType::kTime, "250ns", "TX busy per Get request [seed 000 App. R]");
  key("nic/ack-tx-delay", CfgType::kTime, "200ns", "TX busy after sending a Portals ACK [seed 000 App. R]");
  key("nic/empty-response-delay", CfgType::kTime, "300ns", "TX busy for a zero-size response [seed 000 App. R]");
  key("nic/pio-cpu-delay", CfgType::kTime, "200ns",
      "CPU time of a PIO payload write and its fence, before the command [seed 000 App. R]");
  key("nic/early-send", CfgType::kBytes, "64",
      "payloads up to this size raise SEND as soon as the NIC has them (kept for E2E); larger ones with the "
      "acknowledgement [seed 000 §4.3.2]");
  key("nic/cq-depth", CfgType::kInt, "89",
      "commands a node's NIC queues per virtual network (89: S4BXI's empirical depth; 16: the real CQ) "
      "[seed 000 §4.3.2]");
  key("nic/e2e", CfgType::kBool, "true",
      "end-to-end reliability: BXI ACKs, retransmission after nic/retry-timeout [seed 000 §4.2.1, §5.5]");
  key("nic/retry-timeout", CfgType::kTime, "10s", "E2E retransmission timeout [seed 000 App. R S4BXI_RETRY_TIMEOUT]");
  key("nic/max-retries", CfgType::kInt, "5", "E2E retransmissions before giving up [seed 000 App. R]");
  key("nic/quick-acks", CfgType::kBool, "false",
      "acknowledge without ACK messages on the wire: the initiator's events are raised when the target decides "
      "[seed 000 §4.3.4, §5.6]");
  key("nic/drop", CfgType::kText, "none",
      "transmissions the wire loses, to study retransmission: none, all, or a list of 1-based transmission "
      "numbers in transmission order (\"1,3\")");
  key("nic/max-inflight-to-target", CfgType::kInt, "0",
      "NIC flow control: requests in flight per VN and target node (0: no limit) [seed 000 §7.1, §5.10]");
  key("nic/max-inflight-to-process", CfgType::kInt, "0",
      "NIC flow control: requests in flight per VN and process pair (0: no limit) [seed 000 §7.1, §5.10]");
  key("nic/polling-delay", CfgType::kTime, "10ns",
      "PtlEQGet/PtlCTGet polling delay d: the n-th empty poll in a row costs d + max(0, n - 5) d "
      "[seed 000 §5.7, App. R]");
  key("nic/eager-limit", CfgType::kBytes, "2048",
      "MPI over Portals: larger messages are a header Put then a Get of the payload (Open MPI's portals4 "
      "MTL eager limit)");
  key("nic/mpi-overhead", CfgType::kTime, "0",
      "MPI over Portals: the MPI library's CPU time per send and per receive, on top of the NIC's costs");
  key("nic/max-memcpy", CfgType::kInt, "-1",
      "Portals programs: Put and Get payloads larger than this (B) are timed but not copied, so the target "
      "memory keeps its old content (-1: every payload is copied) [seed 000 App. R S4BXI_MAX_MEMCPY]");
  key("nic/power-idle", CfgType::kText, "0", "power of an idle NIC (W)");
  key("nic/power-busy", CfgType::kText, "0", "power of a NIC whose TX or RX engine works (W)");
}

namespace {

[[noreturn]] void bad(const std::string& key, const std::string& what) {
  throw InputError(SourceLoc{"--cfg", 0, 0}, key + ": " + what);
}

double bandwidth(const Config& cfg, const char* key) {
  const double ps_per_byte = cfg.per_byte(key);
  if (!(ps_per_byte > 0)) bad(key, "expected a bandwidth above 0 (e.g. 12.5GBps)");
  return 1e12 / ps_per_byte;
}

double watts(const Config& cfg, const char* key) {
  const std::string& t = cfg.text(key);
  double w = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), w);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !(w >= 0) || !std::isfinite(w))
    bad(key, "expected a power in W, 0 or more, got '" + t + "'");
  return w;
}

void parse_drop(const std::string& t, NicParams& p) {
  if (t == "none") return;
  if (t == "all") {
    p.drop_all = true;
    return;
  }
  size_t i = 0;
  while (i <= t.size()) {
    const size_t j = std::min(t.find(',', i), t.size());
    uint64_t n = 0;
    const auto r = std::from_chars(t.data() + i, t.data() + j, n);
    if (r.ec != std::errc() || r.ptr != t.data() + j || n == 0)
      bad("nic/drop", "expected none, all or a list of transmission numbers from 1 (\"1,3\"), got '" + t + "'");
    p.drop.push_back(n);
    i = j + 1;
  }
  std::sort(p.drop.begin(), p.drop.end());
  p.drop.erase(std::unique(p.drop.begin(), p.drop.end()), p.drop.end());
}

}  // namespace

NicParams nic_params(const Config& cfg) {
  NicParams p;
  p.enabled = cfg.choice("nic/model") == "portals";
  p.wire = cfg.choice("nic/wire");
  p.inline_size = cfg.bytes("nic/inline-size");
  p.pio_size = cfg.bytes("nic/pio-size");
  p.match_bits_size = cfg.bytes("nic/match-bits-size");
  if (p.pio_size < p.inline_size) bad("nic/pio-size", "must be at least nic/inline-size");
  p.pcie_bw = bandwidth(cfg, "nic/pcie-bw");
  p.pcie_transfer_bw = bandwidth(cfg, "nic/pcie-transfer-bw");
  p.pci_latency = cfg.time("nic/pci-latency");
  p.pci_packet = cfg.bytes("nic/pci-packet");
  if (p.pci_packet == 0) bad("nic/pci-packet", "expected a size above 0");
  p.command_size = cfg.bytes("nic/command-size");
  p.dma_request_size = cfg.bytes("nic/dma-request-size");
  p.event_size = cfg.bytes("nic/event-size");
  p.ack_size = cfg.bytes("nic/ack-size");
  p.get_request_size = cfg.bytes("nic/get-request-size");
  p.send_delay = cfg.time("nic/send-delay");
  p.pio_tx_delay = cfg.time("nic/pio-tx-delay");
  p.get_tx_delay = cfg.time("nic/get-tx-delay");
  p.ack_tx_delay = cfg.time("nic/ack-tx-delay");
  p.empty_response_delay = cfg.time("nic/empty-response-delay");
  p.pio_cpu_delay = cfg.time("nic/pio-cpu-delay");
  p.early_send = cfg.bytes("nic/early-send");
  p.cq_depth = cfg.integer("nic/cq-depth");
  if (p.cq_depth < 1) bad("nic/cq-depth", "expected at least 1 command");
  p.e2e = cfg.boolean("nic/e2e");
  p.retry_timeout = cfg.time("nic/retry-timeout");
  if (p.retry_timeout <= SimTime::zero()) bad("nic/retry-timeout", "expected a time above 0");
  p.max_retries = cfg.integer("nic/max-retries");
  if (p.max_retries < 0) bad("nic/max-retries", "expected 0 or more");
  p.quick_acks = cfg.boolean("nic/quick-acks");
  parse_drop(cfg.text("nic/drop"), p);
  p.max_inflight_to_target = cfg.integer("nic/max-inflight-to-target");
  if (p.max_inflight_to_target < 0) bad("nic/max-inflight-to-target", "expected 0 (no limit) or more");
  p.max_inflight_to_process = cfg.integer("nic/max-inflight-to-process");
  if (p.max_inflight_to_process < 0) bad("nic/max-inflight-to-process", "expected 0 (no limit) or more");
  p.polling_delay = cfg.time("nic/polling-delay");
  p.eager_limit = cfg.bytes("nic/eager-limit");
  p.mpi_overhead = cfg.time("nic/mpi-overhead");
  p.max_memcpy = cfg.integer("nic/max-memcpy");
  if (p.max_memcpy < -1) bad("nic/max-memcpy", "expected -1 (copy every payload) or a size in bytes");
  p.power_idle_w = watts(cfg, "nic/power-idle");
  p.power_busy_w = watts(cfg, "nic/power-busy");
  if (p.power_busy_w < p.power_idle_w) bad("nic/power-busy", "must be at least nic/power-idle");
  if ((p.drop_all || !p.drop.empty()) && !p.e2e)
    bad("nic/drop", "losing messages needs nic/e2e=yes (nothing would ever resend them)");
  return p;
}

}  // namespace simfab::nic
