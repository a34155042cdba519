#include "report/energy_report.hpp"

#include <algorithm>
#include <cstdio>

namespace simfab {

void print_energy(std::ostream& os, const RunResult& r, const Config& cfg) {
  const energy::EnergyReport& e = r.energy;
  if (!e.present) return;
  char buf[256];
  std::snprintf(buf, sizeof buf, "energy: %.6g J (hosts %.6g J, links %.6g J", e.total_j, e.hosts_j, e.links_j);
  os << buf;
  if (!r.nic.energy_j.empty()) {
    std::snprintf(buf, sizeof buf, ", NICs %.6g J", e.nics_j);
    os << buf;
  }
  std::snprintf(buf, sizeof buf, "), mean power %.6g W\n",
                r.exec.makespan.ps() > 0 ? e.total_j / r.exec.makespan.seconds() : 0.0);
  os << buf;
  os << "  waiting ranks draw: " << (cfg.choice("energy/polling") == "busy" ? "busy (polling)" : "idle")
     << "; governor: " << cfg.choice("energy/governor");
  if (r.governor_changes) os << " (" << r.governor_changes << " pstate changes)";
  if (r.tasks > 1) os << "; " << r.tasks << " tasks (computations between two MPI call sites)";
  if (r.migrations) os << "; " << r.migrations << " rank migrations";
  os << "\n";
  const size_t n = e.hosts.size();
  const size_t shown = n <= 16 ? n : 0;
  for (size_t i = 0; i < shown; ++i) {
    std::snprintf(buf, sizeof buf, "  host %s: %.6g J, idle %.6g s", e.hosts[i].name.c_str(), e.hosts[i].energy_j,
                  e.hosts[i].idle_s);
    os << buf;
    if (e.hosts[i].offs > 0) {
      std::snprintf(buf, sizeof buf, " (of which off %.6g s: switched off %d time%s)", e.hosts[i].off_s,
                    e.hosts[i].offs, e.hosts[i].offs == 1 ? "" : "s");
      os << buf;
    }
    os << "\n";
  }
  if (n > 16) {
    auto [lo, hi] = std::minmax_element(e.hosts.begin(), e.hosts.end(),
                                        [](const auto& a, const auto& b) { return a.energy_j < b.energy_j; });
    std::snprintf(buf, sizeof buf, "  %zu hosts: least %s %.6g J, most %s %.6g J\n", n, lo->name.c_str(), lo->energy_j,
                  hi->name.c_str(), hi->energy_j);
    os << buf;
  }
  for (const energy::LinkClassEnergy& c : e.link_classes) {
    std::snprintf(buf, sizeof buf, "  links %s (%d): %.6g J\n", c.name.c_str(), c.links, c.energy_j);
    os << buf;
  }
  if (!e.links_busy_modelled)
    os << "  note: network model " << r.model << " keeps no link statistics: links count at idle power only\n";
}

void add_energy_json(nlohmann::ordered_json& j, const RunResult& r, const Config& cfg) {
  const energy::EnergyReport& e = r.energy;
  if (!e.present) return;
  j["energy_j"] = e.total_j;
  nlohmann::ordered_json hosts = nlohmann::ordered_json::array();
  for (const energy::HostEnergy& h : e.hosts)
    hosts.push_back({{"name", h.name}, {"energy_j", h.energy_j}, {"idle_s", h.idle_s}, {"off_s", h.off_s},
                     {"offs", h.offs}});
  j["hosts"] = std::move(hosts);
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const energy::LinkClassEnergy& c : e.link_classes)
    links.push_back({{"class", c.name}, {"links", c.links}, {"energy_j", c.energy_j}});
  j["energy"] = {{"hosts_j", e.hosts_j},
                 {"links_j", e.links_j},
                 {"links", std::move(links)},
                 {"links_busy_modelled", e.links_busy_modelled},
                 {"polling", cfg.choice("energy/polling")},
                 {"middle_value", cfg.choice("energy/middle-value")},
                 {"governor", cfg.choice("energy/governor")},
                 {"governor_changes", r.governor_changes},
                 {"tasks", r.tasks},
                 {"migrations", r.migrations}};
  if (!r.nic.energy_j.empty()) j["energy"]["nics_j"] = e.nics_j;
}

}  // namespace simfab
