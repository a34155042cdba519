#include "topo/export.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <string_view>
#include <vector>

namespace simfab {
namespace {

constexpr int64_t kMaxLftLines = 100'000'000;  // about 5 GB of text

// The edge a link stands for: false for internal links, unknown endpoints and DOWN twins.
bool is_edge(const Platform& p, LinkId l) {
  const Link& k = p.link(l);
  if (k.from == kNoNode || k.from == k.to) return false;
  return k.twin < 0 || l < k.twin;
}

// A DOT double-quoted string: `"` and `\` escaped.
std::string dot_string(std::string_view text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

std::string dot_id(const Platform& p, NodeId n) { return dot_string(p.node_name(n)); }

std::string gbps(double bytes_per_s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g Gb/s", bytes_per_s * 8 / 1e9);
  return buf;
}

// Outgoing links of each switch, in link-id order: the switch's ports 1, 2, ...
std::map<SwitchId, std::vector<LinkId>> switch_ports(const Platform& p) {
  std::map<SwitchId, std::vector<LinkId>> ports;
  for (LinkId l = 0; l < static_cast<LinkId>(p.links().size()); ++l) {
    const Link& k = p.link(l);
    if (k.from == kNoNode || k.from == k.to) continue;
    if (is_switch(k.from)) ports[switch_of(k.from)].push_back(l);
    if (k.twin < 0 && is_switch(k.to)) ports[switch_of(k.to)].push_back(l);  // half-duplex: both ways
  }
  return ports;
}

}  // namespace

nlohmann::ordered_json topologies_json(const Platform& p) {
  nlohmann::ordered_json topologies = nlohmann::ordered_json::array();
  for (int t = 0; t < p.topology_count(); ++t) {
    const Topology& topo = p.topology(t);
    topologies.push_back({{"name", topo.name()},
                          {"kind", std::string(topo.kind())},
                          {"routing", std::string(topo.routing())},
                          {"hosts", topo.host_count()}});
  }
  return topologies;
}

void write_dot(std::ostream& out, const Platform& p) {
  out << "graph platform {\n  node [fontsize=10];\n";
  std::vector<std::string> internal(static_cast<size_t>(p.host_count() + p.switch_count()));
  auto slot = [&](NodeId n) -> std::string& {
    return internal[static_cast<size_t>(is_switch(n) ? p.host_count() + switch_of(n) : n)];
  };
  for (const Link& k : p.links())
    if (k.from != kNoNode && k.from == k.to) slot(k.from) += "\n" + k.name;
  // Labels list the node's internal links one per line (DOT's "\n" escape inside the quotes).
  auto label = [&](NodeId n) {
    std::string q = dot_string(p.node_name(n) + slot(n));
    for (size_t i = q.find('\n'); i != std::string::npos; i = q.find('\n', i + 2)) q.replace(i, 1, "\\n");
    return q;
  };
  for (HostId h = 0; h < p.host_count(); ++h)
    out << "  " << dot_id(p, host_node(h)) << " [shape=box, label=" << label(host_node(h)) << "];\n";
  for (SwitchId s = 0; s < p.switch_count(); ++s)
    out << "  " << dot_id(p, switch_node(s)) << " [shape=ellipse, label=" << label(switch_node(s)) << "];\n";
  for (LinkId l = 0; l < static_cast<LinkId>(p.links().size()); ++l) {
    if (!is_edge(p, l)) continue;
    const Link& k = p.link(l);
    out << "  " << dot_id(p, k.from) << " -- " << dot_id(p, k.to) << " [label=\"" << gbps(k.bandwidth_Bps)
        << "\", tooltip=" << dot_string(k.name) << "];\n";
  }
  out << "}\n";
}

void write_graph_json(std::ostream& out, const Platform& p) {
  using nlohmann::ordered_json;
  ordered_json j;
  ordered_json hosts = ordered_json::array();
  for (const Host& h : p.hosts())
    hosts.push_back({{"name", h.name}, {"speed_flops", h.speed_flops}, {"cores", h.cores}});
  ordered_json switches = ordered_json::array();
  for (SwitchId s = 0; s < p.switch_count(); ++s) switches.push_back(p.switch_name(s));
  ordered_json links = ordered_json::array();
  for (const Link& k : p.links()) {
    ordered_json l = {{"name", k.name},
                      {"bandwidth_Bps", k.bandwidth_Bps},
                      {"latency_ps", k.latency.ps()},
                      {"sharing", k.sharing == LinkSharing::kFatpipe ? "fatpipe" : "shared"}};
    l["from"] = k.from == kNoNode ? ordered_json(nullptr) : ordered_json(p.node_name(k.from));
    l["to"] = k.to == kNoNode ? ordered_json(nullptr) : ordered_json(p.node_name(k.to));
    l["twin"] = k.twin < 0 ? ordered_json(nullptr) : ordered_json(p.link(k.twin).name);
    links.push_back(std::move(l));
  }
  j["hosts"] = std::move(hosts);
  j["switches"] = std::move(switches);
  j["links"] = std::move(links);
  j["topologies"] = topologies_json(p);
  out << j.dump(1) << "\n";
}

bool write_lft(std::ostream& out, const Platform& p) {
  int64_t lines = 0;
  for (int t = 0; t < p.topology_count(); ++t) lines += int64_t{p.switch_count()} * p.topology(t).host_count();
  if (lines > kMaxLftLines)
    throw InputError(SourceLoc{p.source(), 0, 0},
                     "the forwarding tables would have " + std::to_string(lines) + " lines (switches x hosts); " +
                         "simfab writes at most " + std::to_string(kMaxLftLines));
  const auto ports = switch_ports(p);
  bool any = false;
  for (int t = 0; t < p.topology_count(); ++t) {
    const Topology& topo = p.topology(t);
    if (topo.host_count() == 0) continue;
    bool header = false;
    for (const auto& [sw, out_links] : ports) {
      if (!topo.forward(sw, 0)) continue;
      if (!header) {
        out << "# topology " << topo.name() << " (" << topo.kind() << ", " << topo.routing()
            << "): LID = host index + 1; port = the switch's n-th outgoing link, from 1\n";
        header = any = true;
      }
      out << "Unicast lids [0x1-0x" << std::hex << topo.host_count() << std::dec << "] of switch '"
          << p.switch_name(sw) << "':\n";
      for (int d = 0; d < topo.host_count(); ++d) {
        const auto l = topo.forward(sw, d);
        size_t port = 0;
        for (size_t i = 0; i < out_links.size(); ++i)
          if (l && out_links[i] == *l) port = i + 1;
        char buf[96];
        std::snprintf(buf, sizeof buf, "0x%04x %03zu : ", d + 1, port);
        out << buf << "'" << p.host(topo.host(d)).name << "' via " << (l ? p.link(*l).name : "-") << "\n";
      }
    }
  }
  return any;
}

}  // namespace simfab
