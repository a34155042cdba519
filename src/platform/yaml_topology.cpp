// The `topology:` section of simfab's YAML platform (version 1). One mapping, or a list of them:
//
//   topology:
//     name: ft              # required; unique among clusters and topologies; prefixes the names
//                           # of the switches and links it generates
//     kind: fat-tree        # required: fat-tree, k-ary-n-tree, xgft, torus, mesh, dragonfly, graph
//     routing: d-mod-k      # optional; the kind's routings below, first = default
//     link:                 # switch <-> switch cables (required, except for a graph whose links
//       bandwidth: 100Gbps  #   all give their own)
//       latency: 100ns
//       sharing: shared     #   optional: shared (default) or fatpipe, per direction
//     host_link: {...}      # optional: host <-> switch cables, default `link`
//     duplex: full          # optional: full (default; each cable is two directed links,
//                           # "<cable>_UP" and "<cable>_DOWN") or half (one shared link)
//     # generated hosts (every kind but graph): prefix + index + suffix, index 0..n-1
//     prefix: node          # required
//     suffix: ""            # optional
//     speed: 1Gf            # required, flop/s of one core, or a list of pstates [2.3Gf, 2.2Gf]
//     pstate: 0             # optional, and power, power_off: as for hosts (yaml_platform.cpp);
//                           # every generated host shares the profile
//     cores: 1              # optional
//     loopback: {bandwidth: 10GBps, latency: 0}   # optional, each host's "<host>_loopback"
//
// Kinds, their parameters and routings (src/topo/<kind>.hpp has the geometry and names):
//   fat-tree      k (even switch radix), levels (default 3): the k-port fat-tree, k^3/4 hosts and
//                 5k^2/4 switches for 3 levels.                 routing: d-mod-k, s-mod-k
//   k-ary-n-tree  k, n: k^n hosts, n k^(n-1) switches.          routing: d-mod-k, s-mod-k
//   xgft          down: [m1..mh], up: [w1..wh], parallel: [p1..ph] (default all 1), or
//                 simgrid: "levels;down;up;link-count" (SimGrid's FAT_TREE topo_parameters,
//                 e.g. "2;4,4;1,2;1,2").                         routing: d-mod-k, s-mod-k
//   torus, mesh   dims: [x, y, ...], wrap: true/false or a list per dimension (default: true for
//                 torus, false for mesh), hosts_per_router (default 1).
//                                                                routing: dimension-order
//   dragonfly     groups, routers (per group), hosts_per_router (default 1), global_links (per
//                 router), arrangement: absolute (default), relative or circulant, global_link:
//                 {bandwidth, latency} (default `link`), ugal_threshold (default 0).
//                                                                routing: minimal, valiant, ugal
//   graph         switches: [names], links: [{between: [a, b], name, bandwidth, latency,
//                 sharing}] where a and b are hosts declared under `hosts` or switches of this
//                 graph; a link's name defaults to "<T>_<a>_<b>" and its bandwidth and latency
//                 to `link`'s.                                   routing: ecmp, shortest-path
//
// Errors are InputErrors at the offending key: a key that the kind does not take, impossible
// parameters (the generator's TopologyError, placed at the parameter it names), names already
// taken, unknown nodes in graph links, and disconnected graphs.
#include "platform/yaml_topology.hpp"

#include <initializer_list>
#include <set>
#include <string_view>
#include <vector>

#include "core/spelling.hpp"
#include "platform/yaml_power.hpp"
#include "platform/yaml_quantity.hpp"
#include "topo/dragonfly.hpp"
#include "topo/fat_tree.hpp"
#include "topo/graph.hpp"
#include "topo/torus.hpp"

namespace simfab {
namespace {

constexpr int64_t kMaxCount = 1'000'000'000;

struct Kind {
  std::string_view name;
  std::vector<std::string_view> keys;      // beyond the common ones
  std::vector<std::string_view> routings;  // first = default
  bool generates_hosts = true;
};

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> k = {
      {"fat-tree", {"k", "levels"}, {"d-mod-k", "s-mod-k"}},
      {"k-ary-n-tree", {"k", "n"}, {"d-mod-k", "s-mod-k"}},
      {"xgft", {"down", "up", "parallel", "simgrid"}, {"d-mod-k", "s-mod-k"}},
      {"torus", {"dims", "wrap", "hosts_per_router"}, {"dimension-order"}},
      {"mesh", {"dims", "wrap", "hosts_per_router"}, {"dimension-order"}},
      {"dragonfly",
       {"groups", "routers", "hosts_per_router", "global_links", "arrangement", "global_link", "ugal_threshold"},
       {"minimal", "valiant", "ugal"}},
      {"graph", {"switches", "links"}, {"ecmp", "shortest-path"}, false},
  };
  return k;
}

std::string joined(const std::vector<std::string_view>& names) {
  std::string s;
  for (std::string_view n : names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

class TopologyReader {
 public:
  TopologyReader(const YamlInput& in, const YAML::Node& node, Platform& p)
      : in_(in),
        p_(p),
        m_(in, node, "topology",
           {"name", "kind", "routing", "link", "host_link", "duplex", "prefix", "suffix", "speed", "cores",
            "loopback", "pstate", "power", "power_off", "boot_time", "boot_energy", "shutdown_time",
               "shutdown_energy", "cstates", "k", "levels", "n", "down", "up", "parallel", "simgrid", "dims", "wrap",
            "hosts_per_router", "groups", "routers", "global_links", "arrangement", "global_link",
            "ugal_threshold", "switches", "links"}) {}

  void read(std::map<std::string, std::string, std::less<>>& network_names) {
    const YamlField& name_f = m_.require("name", "a unique name, the prefix of its switches and links");
    common_.name = m_.name(name_f);
    if (auto it = network_names.find(common_.name); it != network_names.end())
      throw m_.error(name_f, "a cluster or topology named '" + common_.name + "' is already declared at " +
                                 it->second + "; names must be unique");
    network_names.emplace(common_.name, in_.where(name_f.value));
    kind_ = &read_kind();
    check_keys();
    routing_ = read_routing();
    read_common();
    const int before = p_.host_count();
    try {
      p_.set_topology_name(generate(), common_.name);
    } catch (const TopologyError& e) {
      // k_ary_n_tree names its level count "levels"; the YAML key of that kind is `n`.
      const std::string key = kind_->name == "k-ary-n-tree" && e.param() == "levels" ? "n" : e.param();
      const YamlField* f = key.empty() ? nullptr : m_.find(key);
      throw m_.error(f ? *f : m_.require("kind", ""), std::string(e.what()));
    }
    if (p_.host_count() > kMaxPlatformHosts)
      throw m_.error(m_.require("kind", ""), m_.what() + " brings the platform to " +
                                                 std::to_string(p_.host_count()) + " hosts; at most " +
                                                 std::to_string(kMaxPlatformHosts) + " are allowed");
    if (kind_->generates_hosts && p_.host_count() == before)
      throw m_.error(m_.require("kind", ""), m_.what() + " generates no host");
  }

 private:
  const Kind& read_kind() {
    const YamlField& f = m_.require("kind", "fat-tree, k-ary-n-tree, xgft, torus, mesh, dragonfly or graph");
    const std::string& s = m_.name(f);
    std::vector<std::string_view> names;
    for (const Kind& k : kinds()) {
      if (k.name == s) return k;
      names.push_back(k.name);
    }
    const std::string near = nearest_name(s, names);
    throw m_.error(f, "unknown topology kind '" + s + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                          "; expected one of " + joined(names));
  }

  // Every key present must be a common key, a host key (kinds that generate hosts) or the kind's.
  void check_keys() const {
    std::vector<std::string_view> valid = {"name", "kind", "routing", "link", "host_link", "duplex"};
    if (kind_->generates_hosts)
      valid.insert(valid.end(), {"prefix", "suffix", "speed", "cores", "loopback", "pstate", "power", "power_off", "boot_time", "boot_energy", "shutdown_time",
               "shutdown_energy", "cstates"});
    valid.insert(valid.end(), kind_->keys.begin(), kind_->keys.end());
    for (const YamlField& f : m_.fields())
      if (std::find(valid.begin(), valid.end(), f.key) == valid.end())
        throw m_.error(f, "'" + f.key + "' is not a parameter of a " + std::string(kind_->name) +
                              " topology; it takes " + joined(valid));
  }

  std::string_view read_routing() const {
    const YamlField* f = m_.find("routing");
    if (!f) return kind_->routings.front();
    const std::string& s = m_.name(*f);
    for (std::string_view r : kind_->routings)
      if (r == s) return r;
    throw m_.error(*f, "unknown routing '" + s + "' for a " + std::string(kind_->name) + " topology; expected " +
                           joined(kind_->routings));
  }

  LinkSpec read_link_spec(const YamlField& f, std::string_view what) const {
    if (!f.value.IsDefined() || f.value.IsNull())
      throw m_.error(f, "'" + f.key + "' in " + m_.what() + " has no value; expected bandwidth and latency");
    YamlMap m(in_, f.value, std::string(what) + " of " + m_.what(), {"bandwidth", "latency", "sharing"});
    return link_fields(m, std::nullopt);
  }

  // bandwidth, latency and sharing of `m`; missing ones from `fallback` (required without one).
  LinkSpec link_fields(const YamlMap& m, const std::optional<LinkSpec>& fallback) const {
    LinkSpec s = fallback.value_or(LinkSpec{});
    const YamlField* bw = m.find("bandwidth");
    const YamlField* lat = m.find("latency");
    if (bw || !fallback) s.bandwidth_Bps = read_bandwidth(m, bw ? *bw : m.require("bandwidth", "e.g. 100Gbps"));
    if (lat || !fallback) s.latency = read_latency(m, lat ? *lat : m.require("latency", "e.g. 100ns"));
    if (const YamlField* sh = m.find("sharing")) {
      const std::string& v = m.scalar(*sh, "shared or fatpipe");
      if (v != "shared" && v != "fatpipe")
        throw m.error(*sh, "'sharing' in " + m.what() + " must be shared or fatpipe, got '" + v + "'");
      s.sharing = v == "fatpipe" ? LinkSharing::kFatpipe : LinkSharing::kShared;
    }
    return s;
  }

  void read_common() {
    if (const YamlField* f = m_.find("link")) link_ = read_link_spec(*f, "the link");
    else if (kind_->generates_hosts) m_.require("link", "the switch-to-switch cables: bandwidth and latency");
    if (link_) common_.link = *link_;
    const YamlField* hl = m_.find("host_link");
    if (hl) common_.host_link = read_link_spec(*hl, "the host link");
    else if (link_) common_.host_link = *link_;
    if (const YamlField* f = m_.find("duplex")) {
      const std::string& v = m_.scalar(*f, "full or half");
      if (v != "full" && v != "half")
        throw m_.error(*f, "'duplex' in " + m_.what() + " must be full or half, got '" + v + "'");
      common_.full_duplex = v == "full";
    }
    if (!kind_->generates_hosts) return;
    common_.hosts.prefix = m_.scalar(m_.require("prefix", "host names are prefix + index + suffix"), "a name prefix");
    if (const YamlField* f = m_.find("suffix")) common_.hosts.suffix = m_.scalar(*f, "a name suffix");
    CpuProfile cpu = read_yaml_cpu(m_, "flop/s of one core, e.g. 10Gf, or one per pstate: [2.3Gf, 2.2Gf]");
    common_.hosts.speed_flops = cpu.speeds[static_cast<size_t>(cpu.initial_pstate)];
    common_.hosts.cpu_profile = add_cpu_profile_if_needed(p_, std::move(cpu));  // shared by its hosts
    if (const YamlField* f = m_.find("cores")) common_.hosts.cores = static_cast<int>(m_.integer(*f, 1, 2147483647));
    if (const YamlField* f = m_.find("loopback")) {
      LinkSpec lb = read_link_spec(*f, "the loopback");
      lb.sharing = LinkSharing::kFatpipe;
      common_.hosts.loopback = lb;
    }
  }

  int integer(std::string_view key, std::string_view hint, int64_t lo = 1) const {
    return static_cast<int>(m_.integer(m_.require(key, hint), lo, kMaxCount));
  }
  int integer_or(std::string_view key, int fallback, int64_t lo = 1) const {
    const YamlField* f = m_.find(key);
    return f ? static_cast<int>(m_.integer(*f, lo, kMaxCount)) : fallback;
  }
  std::vector<int> integers(const YamlField& f, int64_t lo) const {
    std::vector<int> v;
    for (const YAML::Node& item : m_.list(f, "integers"))
      v.push_back(static_cast<int>(m_.integer(YamlField{f.key, f.key_node, item}, lo, kMaxCount)));
    if (v.empty()) throw m_.error(f, "'" + f.key + "' in " + m_.what() + " is empty; expected a list of integers");
    return v;
  }

  // Generates the topology; returns its index in the platform.
  int generate() {
    const std::string_view kind = kind_->name;
    if (kind == "fat-tree" || kind == "k-ary-n-tree" || kind == "xgft") return generate_fat_tree();
    if (kind == "torus" || kind == "mesh") return generate_torus(kind == "torus");
    if (kind == "dragonfly") return generate_dragonfly();
    return generate_graph();
  }

  int generate_fat_tree() {
    XgftParams x;
    const std::string_view kind = kind_->name;
    if (kind == "fat-tree") {
      x = k_port_fat_tree(integer("k", "the switch radix, an even number, e.g. 4"), integer_or("levels", 3));
    } else if (kind == "k-ary-n-tree") {
      x = k_ary_n_tree(integer("k", "the arity, e.g. 4"), integer("n", "the number of levels, e.g. 3"));
    } else if (const YamlField* s = m_.find("simgrid")) {
      for (const char* other : {"down", "up", "parallel"})
        if (const YamlField* f = m_.find(other))
          throw m_.error(*f, m_.what() + " has both 'simgrid' and '" + other + "'; give one form");
      auto parsed = parse_simgrid_fat_tree(m_.scalar(*s, "\"levels;down;up;link-count\", e.g. \"2;4,4;1,2;1,2\""));
      if (auto* why = std::get_if<std::string>(&parsed)) throw m_.error(*s, *why);
      x = std::get<XgftParams>(std::move(parsed));
    } else {
      x.down = integers(m_.require("down", "children per switch at each level, e.g. [4, 4]"), 1);
      x.up = integers(m_.require("up", "parents per node at each level, e.g. [1, 2]"), 1);
      if (const YamlField* f = m_.find("parallel")) x.parallel = integers(*f, 1);
      else x.parallel.assign(x.down.size(), 1);
    }
    return add_fat_tree(p_, common_, x, routing_ == "s-mod-k" ? FatTreeRouting::kSModK : FatTreeRouting::kDModK);
  }

  int generate_torus(bool torus) {
    TorusParams t;
    t.dims = integers(m_.require("dims", "routers per dimension, e.g. [4, 4, 4]"), 0);
    t.wrap.assign(t.dims.size(), torus);
    if (const YamlField* f = m_.find("wrap")) {
      if (f->value.IsSequence()) {
        t.wrap.clear();
        for (const YAML::Node& item : m_.list(*f, "booleans"))
          t.wrap.push_back(m_.boolean(YamlField{f->key, f->key_node, item}));
      } else {
        t.wrap.assign(t.dims.size(), m_.boolean(*f));
      }
    }
    t.hosts_per_router = integer_or("hosts_per_router", 1, 0);
    return add_torus(p_, common_, t);
  }

  int generate_dragonfly() {
    DragonflyParams d;
    d.groups = integer("groups", "the number of groups, e.g. 9");
    d.routers = integer("routers", "routers per group, e.g. 4");
    d.hosts_per_router = integer_or("hosts_per_router", 1, 0);
    d.global_per_router = integer("global_links", "global links per router, e.g. 2", 0);
    if (const YamlField* f = m_.find("arrangement")) {
      const std::string& v = m_.scalar(*f, "absolute, relative or circulant");
      if (v == "absolute") d.arrangement = GlobalArrangement::kAbsolute;
      else if (v == "relative") d.arrangement = GlobalArrangement::kRelative;
      else if (v == "circulant") d.arrangement = GlobalArrangement::kCirculant;
      else throw m_.error(*f, "'arrangement' must be absolute, relative or circulant, got '" + v + "'");
    }
    if (const YamlField* f = m_.find("global_link")) d.global_link = read_link_spec(*f, "the global link");
    if (const YamlField* f = m_.find("ugal_threshold"))
      d.ugal_threshold = m_.number(*f, "a number >= 0", [](double x) { return x >= 0; });
    const DragonflyRouting r = routing_ == "valiant" ? DragonflyRouting::kValiant
                               : routing_ == "ugal"  ? DragonflyRouting::kUgal
                                                     : DragonflyRouting::kMinimal;
    return add_dragonfly(p_, common_, d, r);
  }

  NodeId graph_node(const YamlMap& link, const YamlField& f, const YAML::Node& item) const {
    if (!item.IsScalar() || item.Scalar().empty())
      throw in_.error(item, "expected a host or switch name in 'between' of " + link.what() + ", got " +
                                describe_node(item));
    const std::string& name = item.Scalar();
    if (auto s = switches_.find(name); s != switches_.end()) return switch_node(s->second);
    if (auto h = p_.find_host(name)) return host_node(*h);
    (void)f;
    throw in_.error(item, "unknown node '" + name + "' in " + link.what() +
                              "; a graph link joins hosts declared under 'hosts' and the graph's 'switches'");
  }

  int generate_graph() {
    for (const YAML::Node& item : m_.list(m_.require("switches", "the switch names, e.g. [s0, s1]"), "switch names")) {
      if (!item.IsScalar() || item.Scalar().empty())
        throw in_.error(item, "expected a switch name in 'switches' of " + m_.what() + ", got " + describe_node(item));
      const std::string& name = item.Scalar();
      if (switches_.count(name) || p_.find_switch(name) || p_.find_host(name))
        throw in_.error(item, "switch name '" + name + "' is already taken by a host or switch");
      switches_.emplace(name, p_.add_switch(name));
    }
    GraphParams g;
    std::set<std::string> edge_names;
    const YamlField& links_f = m_.require("links", "the cables, e.g. [{between: [h0, s0]}]");
    for (const YAML::Node& node : m_.list(links_f, "links")) {
      YamlMap l(in_, node, "link of " + m_.what(), {"between", "name", "bandwidth", "latency", "sharing"});
      const YamlField& between = l.require("between", "the two nodes it joins, e.g. [h0, s0]");
      const auto ends = l.list(between, "two node names");
      if (ends.size() != 2)
        throw l.error(between, "'between' lists " + std::to_string(ends.size()) + " nodes; a link joins exactly two");
      GraphEdge e;
      e.a = graph_node(l, between, ends[0]);
      e.b = graph_node(l, between, ends[1]);
      if (e.a == e.b) throw l.error(between, "a link from '" + ends[0].Scalar() + "' to itself");
      const YamlField* name = l.find("name");
      e.name = name ? l.name(*name) : common_.name + "_" + ends[0].Scalar() + "_" + ends[1].Scalar();
      e.spec = link_fields(l, link_);
      if (p_.find_link(e.name) || p_.find_link(e.name + "_UP") || !edge_names.insert(e.name).second)
        throw l.error(name ? *name : between, "link name '" + e.name + "' is already taken; give this link a 'name'");
      g.edges.push_back(std::move(e));
    }
    if (g.edges.empty()) throw m_.error(links_f, m_.what() + " has no link");
    return add_graph(p_, common_, g, routing_ == "shortest-path" ? GraphRouting::kShortestPath : GraphRouting::kEcmp);
  }

  const YamlInput& in_;
  Platform& p_;
  YamlMap m_;
  const Kind* kind_ = nullptr;
  std::string_view routing_;
  TopoCommon common_;
  std::optional<LinkSpec> link_;
  std::map<std::string, SwitchId, std::less<>> switches_;
};

}  // namespace

void read_topology(const YamlInput& in, const YAML::Node& node, Platform& p,
                   std::map<std::string, std::string, std::less<>>& network_names) {
  TopologyReader(in, node, p).read(network_names);
}

}  // namespace simfab
