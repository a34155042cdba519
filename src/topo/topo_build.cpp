#include "topo/topo_build.hpp"

namespace simfab {

namespace {
void check_limit(const Platform& p) {
  if (p.over_element_limit())
    throw TopologyError("", "the topology exceeds this tool's limit on hosts, switches and links");
}

LinkId add_named_link(Platform& p, std::string name, const LinkSpec& spec, NodeId from, NodeId to) {
  check_limit(p);
  if (p.find_link(name)) throw TopologyError("name", "the topology generates link '" + name + "', a name already taken");
  Link l;
  l.name = std::move(name);
  l.bandwidth_Bps = spec.bandwidth_Bps;
  l.latency = spec.latency;
  l.sharing = spec.sharing;
  const LinkId id = p.add_link(std::move(l));
  p.join(id, from, to);
  return id;
}
}  // namespace

void reserve_elements(Platform& p, int64_t hosts, int64_t switches, int64_t links, const std::string& param) {
  const int64_t room = p.element_limit() - p.element_count();
  const int64_t want = hosts + switches + links;  // callers' counts are each below 2^40
  if (want > room)
    throw TopologyError(param, "the topology would add " + std::to_string(hosts) + " hosts, " + std::to_string(switches) +
                                   " switches and " + std::to_string(links) + " links; a platform holds at most " +
                                   std::to_string(p.element_limit()) + " hosts, switches and links in all");
  p.reserve(hosts, switches, links);
}

HostId add_topo_host(Platform& p, const HostSpec& spec, int64_t index) {
  check_limit(p);
  Host h;
  h.name = spec.prefix + std::to_string(index) + spec.suffix;
  if (p.find_host(h.name) || p.find_switch(h.name))
    throw TopologyError("prefix", "the topology generates host '" + h.name + "', a name already taken");
  h.speed_flops = spec.speed_flops;
  h.cores = spec.cores;
  h.cpu_profile = spec.cpu_profile;
  const HostId id = p.host_count();
  const std::string link_name = spec.link_prefix.empty() ? h.name : spec.link_prefix + std::to_string(index);
  if (spec.loopback) h.loopback = add_named_link(p, link_name + "_loopback", *spec.loopback, id, id);
  if (spec.limiter) h.limiter = add_named_link(p, link_name + "_limiter", *spec.limiter, id, id);
  return p.add_host(std::move(h));
}

SwitchId add_topo_switch(Platform& p, std::string name) {
  check_limit(p);
  if (p.find_switch(name) || p.find_host(name))
    throw TopologyError("name", "the topology generates switch '" + name + "', a name already taken");
  return p.add_switch(std::move(name));
}

Cable add_cable(Platform& p, const std::string& name, NodeId from, NodeId to, const LinkSpec& spec,
                bool full_duplex) {
  if (!full_duplex) {
    LinkSpec shared = spec;
    const LinkId l = add_named_link(p, name, shared, from, to);
    return Cable{l, l};
  }
  const LinkId up = add_named_link(p, name + "_UP", spec, from, to);
  const LinkId down = add_named_link(p, name + "_DOWN", spec, to, from);
  p.set_twins(up, down);
  return Cable{up, down};
}

}  // namespace simfab
