#include "report/nic_report.hpp"

#include "report/plural.hpp"

namespace simfab {

namespace {

nic::NicCounters totals(const NicResult& n) {
  nic::NicCounters t;
  for (const nic::NicCounters& k : n.counters) {
    t.commands += k.commands;
    t.inline_puts += k.inline_puts;
    t.pio_puts += k.pio_puts;
    t.dma_puts += k.dma_puts;
    t.gets += k.gets;
    t.responses += k.responses;
    t.wire_messages += k.wire_messages;
    t.ptl_acks += k.ptl_acks;
    t.bxi_acks += k.bxi_acks;
    t.quick_acks += k.quick_acks;
    t.retransmissions += k.retransmissions;
    t.given_up += k.given_up;
    t.dropped += k.dropped;
    t.inflight_stalls += k.inflight_stalls;
    t.pcie_bytes += k.pcie_bytes;
    t.pcie_busy = t.pcie_busy + k.pcie_busy;
    t.tx_busy = t.tx_busy + k.tx_busy;
    t.rx_busy = t.rx_busy + k.rx_busy;
  }
  return t;
}

nlohmann::ordered_json counters_json(const nic::NicCounters& k) {
  return {{"commands", k.commands},
          {"paths", {{"inline", k.inline_puts}, {"pio", k.pio_puts}, {"dma", k.dma_puts}}},
          {"gets", k.gets},
          {"responses", k.responses},
          {"wire_messages", k.wire_messages},
          {"ptl_acks", k.ptl_acks},
          {"bxi_acks", k.bxi_acks},
          {"quick_acks", k.quick_acks},
          {"retransmissions", k.retransmissions},
          {"given_up", k.given_up},
          {"dropped", k.dropped},
          {"inflight_stalls", k.inflight_stalls},
          {"pcie_bytes", k.pcie_bytes},
          {"pcie_busy_ps", k.pcie_busy.ps()},
          {"tx_busy_ps", k.tx_busy.ps()},
          {"rx_busy_ps", k.rx_busy.ps()}};
}

}  // namespace

bool nic_active(const NicResult& n, size_t host) {
  const nic::NicCounters& k = n.counters[host];
  return k.commands + k.wire_messages + k.pcie_bytes > 0;
}

nlohmann::ordered_json nic_row_json(const NicResult& n, size_t host) {
  nlohmann::ordered_json j = {{"host", n.hosts[host]}};
  j.update(counters_json(n.counters[host]));
  if (!n.energy_j.empty()) j["energy_j"] = n.energy_j[host];
  return j;
}

nlohmann::ordered_json nic_json(const NicResult& n) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t h = 0; h < n.counters.size(); ++h)
    if (nic_active(n, h)) rows.push_back(nic_row_json(n, h));
  return {{"model", "portals"}, {"wire", n.wire}, {"totals", counters_json(totals(n))}, {"nics", std::move(rows)}};
}

void print_nic(std::ostream& os, const NicResult& n) {
  const nic::NicCounters t = totals(n);
  os << "nic: portals over " << n.wire << ": " << counted(t.commands, "command") << " (inline " << t.inline_puts << ", PIO "
     << t.pio_puts << ", DMA " << t.dma_puts << ", gets " << t.gets << "), wire messages " << t.wire_messages
     << " (Portals ACKs " << t.ptl_acks << ", BXI ACKs " << t.bxi_acks << ", responses " << t.responses << ")";
  if (t.quick_acks) os << ", quick ACKs " << t.quick_acks;
  os << "\n";
  os << "  PCIe payload bytes: " << t.pcie_bytes;
  if (t.retransmissions + t.given_up + t.dropped)
    os << "; E2E: " << t.dropped << " dropped, " << t.retransmissions << " retransmitted, " << t.given_up
       << " given up";
  if (t.inflight_stalls) os << "; in-flight stalls: " << t.inflight_stalls;
  os << "\n";
}

}  // namespace simfab
