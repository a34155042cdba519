// simfab's native platform format: YAML, version 1.
//
//   # simfab platform, version 1
//   version: 1              # optional; if present it must be 1
//   config:                 # configuration settings carried by the platform (optional)
//     flow/async-threshold: 65536
//     flow/os: "0:1e-6:0;1420:2e-6:1e-9"
//   hosts:                  # standalone hosts (optional)
//     - name: login0        # required, unique among all hosts
//       speed: 2Gf          # required, flop/s of one core, > 0; or a list, one per pstate:
//                           #   [2.3Gf, 2.2Gf, ...] (see "Pstates and power" below)
//       pstate: 0           # optional: the initial pstate, an index into `speed` (default 0)
//       power: [[93.75, 110, 179.25], [93.75, 108, 172.12]]   # optional: per pstate, watts
//       power_off: 10       # optional: watts when off; needs `power`
//       cores: 4            # optional, default 1
//       noise_class: io     # optional: the host's OS-noise class (noise/classes; letters, digits, _-.)
//       loopback:           # optional: the link "<name>_loopback" for messages to itself
//         bandwidth: 10GBps   # required
//         latency: 0          # required
//   links:                  # named links (optional)
//     - name: l0            # required, unique among all links
//       bandwidth: 10Gbps   # required, > 0
//       latency: 1us        # required, >= 0
//       sharing: shared     # optional: shared (default), fatpipe or splitduplex
//       power: [10, 20]     # optional: [idle, busy] watts, or "10:20" (both directions of a
//                           # split-duplex link)
//   topology:               # generated interconnects (optional): fat-tree, k-ary-n-tree, xgft,
//     name: ft              # torus, mesh, dragonfly, graph; see platform/yaml_topology.cpp
//     kind: fat-tree
//     ...
//   routes:                 # explicit routes between named hosts (optional)
//     - {src: login0, dst: node0, links: [l0, l1], symmetric: true}
//   clusters:               # cluster generators (optional)
//     - name: c0            # required, unique among clusters
//       prefix: node        # required; host names are prefix + index + suffix
//       suffix: ""          # optional, default ""
//       count: 16           # indices 0..count-1, or
//       # radical: "0-3,8-11"  # SimGrid-style index list; give exactly one of count and radical
//       speed: 1Gf          # required, flop/s of one core, > 0, or a list of pstates
//       pstate: 0           # optional; and power, power_off as for hosts: every host of the
//       power: "93.75:110:179.25"   # cluster gets them (one shared profile)
//       cores: 1            # optional, default 1
//       noise_class: compute  # optional: every host's OS-noise class, as for hosts
//       bandwidth: 10Gbps   # required: each host's private link to the backbone
//       latency: 1us        # required
//       sharing: shared     # optional, of the private links: shared (default), fatpipe, splitduplex
//       limiter_factor: 1.5 # optional, a number in (0, 2]: each host's limiter link
//       loopback:           # optional: each host's loopback link
//         bandwidth: 10GBps   # required
//         latency: 0          # required
//       backbone:           # optional; without it the hosts meet in a non-blocking crossbar
//         bandwidth: 100Gbps  # required
//         latency: 500ns      # required
//         sharing: shared     # optional: shared (default) or fatpipe
//       cabinets:           # optional: a hierarchical cluster
//         count: 4            # split the hosts evenly into 4 cabinets, or
//         # sizes: [5, 4, 4, 3]  # explicit sizes; give exactly one of count and sizes
//         bandwidth: 10Gbps   # required: each cabinet's uplink and downlink
//         latency: 1us        # required
//         limiter: 13Gbps     # optional: each cabinet's limiter
//       link_power: [10, 20]  # optional: [idle, busy] watts (or "10:20") of the cables it
//                             # generates: private links, backbone, cabinet up/downlinks (not
//                             # limiters and loopbacks, which model contention inside a node)
//
// Every section is optional, but the platform needs at least one host. The sections may appear in
// any order; unknown keys are errors at every level.
//
// Quantities (parsed by core/units, suffixes are case-sensitive):
//   speed      f kf Mf Gf Tf Pf, flops kflops Mflops Gflops Tflops Pflops; bare number = flop/s
//   bandwidth  Bps kBps MBps GBps TBps KiBps MiBps GiBps (bytes/s), bps kbps Mbps Gbps Tbps
//              (bits/s: 10Gbps = 1.25e9 bytes/s); bare number = bytes/s
//   latency    ps ns us ms s (also m, h); bare number = ps; stored rounded to whole picoseconds
//   cores      an integer from 1 to 2147483647
//   count      an integer from 1 to 16777216
//   radical    comma-separated indices or inclusive ranges, e.g. "0-15" or "0-3,8-11" (see
//              platform/radical.hpp); an index may appear only once
// Speeds and bandwidths must be > 0; latencies >= 0.
//
// Sharing (platform/platform.hpp): a `shared` link divides its bandwidth among the flows crossing
// it; a `fatpipe` link gives each flow its full bandwidth. A `splitduplex` link named X is two
// shared links, "X_UP" and "X_DOWN" (SimGrid's names), each with the full bandwidth and latency,
// one per direction; there is no link "X".
//
// Config. `config` maps configuration keys (as given to --cfg, e.g. flow/os) to scalar values,
// kept as written; a key may appear once. The run applies them to its configuration (a key also
// given with --cfg keeps the command line's value) and reports a bad key or value at its place in
// this file; the loader checks neither.
//
// Pstates and power (seed 001; platform/cpu_profile.hpp has the model, yaml_power.hpp the
// reader). `speed` as a list gives the host its pstates, pstate 0 first; the host starts in
// `pstate` (default 0) and Host::speed_flops is that pstate's speed. `power` is one
// [Idle, OneCore, AllCores] triple per pstate, in watts (Idle: no computation; OneCore: one core
// busy; AllCores: every core busy), or the same as SimGrid's wattage_per_state string
// "Idle:OneCore:AllCores, ..." (which also takes SimGrid's older "Idle:AllCores" pairs).
// `power_off` is the power of a switched-off host. A host with several speeds, or with `power`,
// gets a CpuProfile (Host::cpu_profile); one speed and no power gives none (-1). The hosts of a
// cluster share one profile; topologies take the same four keys. Checked: every watt value finite
// and >= 0, AllCores >= OneCore, one triple per speed, the pstate in range, power_off only with
// power. A link's `power` [idle, busy] (P = idle + (busy - idle) * utilisation) needs
// 0 <= idle <= busy.
//
// Loopback. A host with a `loopback` link (kFatpipe) sends messages to itself over it; without one,
// such messages cross no link.
//
// Clusters. Cluster c with indices i produces, in this order:
//   - the link "<c>_backbone" (when it has a backbone; sharing as given, default shared);
//   - for every cabinet k = 0, 1, ... (when it has cabinets): the links "<c>_cabinet_<k>_UP" and
//     "<c>_cabinet_<k>_DOWN" (shared; bandwidth and latency of `cabinets`), then
//     "<c>_cabinet_<k>_limiter" (when `limiter` is given; latency 0, shared by both directions);
//   - for every index i, in count order (0..count-1) or in the order the radical is written:
//     the private link "<c>_link_<i>" (bandwidth, latency and sharing of the cluster; with
//     `sharing: splitduplex` the two links "<c>_link_<i>_UP" and "<c>_link_<i>_DOWN" instead),
//     "<c>_limiter_<i>" (with `limiter_factor` x: bandwidth x * the cluster's bandwidth, latency 0,
//     shared), "<c>_loopback_<i>" (with `loopback`), then the host "<prefix><i><suffix>".
// Cabinets take the hosts in that order: `count: k` gives the first (n mod k) of them
// floor(n / k) + 1 hosts and the others floor(n / k) (platform/cabinet_split.hpp); `sizes` must
// list k >= 1 sizes, each >= 1, summing to the cluster's host count n.
// The limiter factor models seed 003's full-duplex contention: on graphene a node sending and
// receiving at once gets B_send + B_recv ~ 1.5 B (factor 1.5; 1 is single-port, 2 multi-port).
// Routes between two hosts of one cluster (platform/platform.hpp), absent links skipped:
//   no cabinets:         up(a), limiter(a), backbone, limiter(b), down(b)
//   same cabinet:        up(a), limiter(a), limiter(b), down(b)
//   cabinets A != B:     up(a), limiter(a), cabinet_UP(A), cabinet_limiter(A), backbone,
//                        cabinet_limiter(B), cabinet_DOWN(B), limiter(b), down(b)
// where up and down are "<c>_link_<i>_UP" and "_DOWN", or both "<c>_link_<i>".
//
// Routes. `src` and `dst` name hosts (standalone or generated by a cluster), `links` is a non-empty
// list of link names (declared under `links`, or generated by a cluster or a host loopback), in
// order from src to dst, each at most once. A split-duplex link must be named by its direction,
// "X_UP" or "X_DOWN".
// `symmetric` (default true) also declares dst -> src over the same links in reverse order, each
// split-duplex direction swapped for the other (X_UP <-> X_DOWN), as SimGrid does. A route may not
// go from a host to itself, and each directed pair may be declared only once. An explicit route
// between two hosts of one cluster overrides the cluster's. Hosts with no route between them
// (e.g. two standalone hosts without an explicit route) cannot communicate.
//
// Host order, which is the rank order: ranks map to hosts round-robin, rank r on host r mod H.
// The hosts of the `hosts` section come first, in document order, then the hosts of each cluster,
// clusters in document order, each in index order as above, then the hosts each topology
// generates, in its index order. This holds wherever the sections
// appear in the file. At most 16777216 hosts in total.
//
// Errors. Every mistake is an InputError at file:line:column of the offending node with its line
// echoed, saying what was expected: YAML syntax errors, an empty file ("empty platform file"), more
// than one YAML document, unknown or repeated keys (with the valid keys and the nearest one), a
// value of the wrong type, a bad number or unit (quoting the value and the accepted units), values
// out of range (a limiter factor outside (0, 2], cabinet sizes not summing to the host count),
// duplicate host, link or cluster names (naming the first declaration), unknown hosts or links in
// routes, a split-duplex link named without its direction, duplicate routes, repeated or
// non-scalar `config` entries, and bad pstates or power (check_cpu_profile's and
// check_link_power's texts, at the offending value: the triple of the offending pstate).
#include "platform/yaml_platform.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

#include "core/mapped_file.hpp"
#include "core/spelling.hpp"
#include "platform/cabinet_split.hpp"
#include "platform/radical.hpp"
#include "platform/yaml_input.hpp"
#include "platform/yaml_power.hpp"
#include "platform/yaml_quantity.hpp"
#include "platform/yaml_topology.hpp"

namespace simfab {

namespace {

constexpr int64_t kMaxCores = 2'147'483'647;
// Unknown host or link names get a spelling suggestion only among this many candidates.
constexpr size_t kMaxSuggestionCandidates = 4096;

std::string where(const SourceLoc& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

// What a `sharing` key asks for: a split-duplex declaration becomes two kShared links.
enum class Sharing { kShared, kFatpipe, kSplitDuplex };

LinkSharing link_sharing(Sharing s) {
  return s == Sharing::kFatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared;
}

// The two directions of a declared link; the same link twice unless it is split-duplex.
struct Duplex {
  LinkId up;
  LinkId down;
};

// A cluster's `cabinets`, read and checked before anything is generated.
struct CabinetSpec {
  std::vector<int64_t> sizes;     // hosts per cabinet, in host order; sums to the cluster's hosts
  Link link;                      // each cabinet's uplink and downlink (name unset)
  std::optional<double> limiter;  // bandwidth of each cabinet's limiter
};

// Builds a Platform from a parsed document, section by section, remembering where every host,
// link, cluster and route was declared so duplicates can name both places.
class PlatformBuilder {
 public:
  PlatformBuilder(const YamlInput& in, int64_t element_limit) : in_(in) { platform_.set_element_limit(element_limit); }

  Platform build() {
    if (!in_.root().IsDefined() || in_.root().IsNull())
      throw in_.error(YAML::Mark(), "empty platform file; expected a mapping with 'hosts' and/or 'clusters'");
    YamlMap top(in_, in_.root(), "the platform file",
                {"version", "hosts", "links", "routes", "clusters", "topology", "config"});
    if (const YamlField* v = top.find("version")) {
      const std::string& s = top.scalar(*v, "1");
      if (s != "1")
        throw top.error(*v, "unsupported platform version '" + s + "'; this simfab reads version 1");
    }
    if (const YamlField* f = top.find("config")) read_config(top, *f);
    if (const YamlField* f = top.find("hosts"))
      for (const YAML::Node& h : top.list(*f, "hosts")) read_host(h);
    if (const YamlField* f = top.find("links"))
      for (const YAML::Node& l : top.list(*f, "links")) read_link(l);
    if (const YamlField* f = top.find("clusters"))
      for (const YAML::Node& c : top.list(*f, "clusters")) read_cluster(c);
    if (const YamlField* f = top.find("topology")) {
      const std::string origin = "generated by the topology at " + where(in_.loc(f->value));
      host_spans_.push_back(Span{platform_.host_count(), origin});
      open_link_span(origin);
      if (f->value.IsSequence())
        for (const YAML::Node& t : top.list(*f, "topologies")) read_topology(in_, t, platform_, cluster_locs_);
      else
        read_topology(in_, f->value, platform_, cluster_locs_);
    }
    if (platform_.host_count() == 0)
      throw in_.error(top.node(), "the platform has no host; declare some under 'hosts', 'clusters' or 'topology'");
    if (const YamlField* f = top.find("routes"))
      for (const YAML::Node& r : top.list(*f, "routes")) read_route(r);
    platform_.set_source(in_.name());
    return std::move(platform_);
  }

 private:
  // Where the hosts (or links) with ids from `first` up to the next span's first come from.
  struct Span {
    int32_t first;
    std::string origin;  // "declared at f:l:c", "generated by cluster 'c' at f:l:c" (or host 'h')
  };

  static const std::string& origin(const std::vector<Span>& spans, int32_t id) {
    auto it = std::upper_bound(spans.begin(), spans.end(), id,
                               [](int32_t i, const Span& s) { return i < s.first; });
    return std::prev(it)->origin;
  }

  std::string generated_by(const YamlMap& m, const YamlField& name_f) const {
    return "generated by " + m.what() + " at " + where(in_.loc(name_f.value));
  }

  int cores(const YamlMap& m) const {
    const YamlField* f = m.find("cores");
    return f ? static_cast<int>(m.integer(*f, 1, kMaxCores)) : 1;
  }

  // Adds a host declared (or, when `generated`, generated by the cluster `m`) at `at`.
  // REQUIRES: the caller has opened the host Span this host belongs to.
  void add_host(Host h, const YamlMap& m, const YamlField& at, bool generated) {
    if (auto existing = platform_.find_host(h.name)) {
      std::string what =
          generated ? m.what() + " generates host '" + h.name + "'" : "duplicate host name '" + h.name + "'";
      throw m.error(at, what + ", already " + origin(host_spans_, *existing));
    }
    platform_.add_host(std::move(h));
  }


  // Throws unless `name` is free: neither a link nor a split-duplex link's name.
  void check_link_name(const std::string& name, const YamlMap& m, const YamlField& at, bool generated) const {
    std::optional<LinkId> existing = platform_.find_link(name);
    if (!existing) existing = platform_.find_split_duplex(name);
    if (!existing) return;
    std::string what =
        generated ? m.what() + " generates link '" + name + "'" : "duplicate link name '" + name + "'";
    throw m.error(at, what + ", already " + origin(link_spans_, *existing));
  }

  // Adds a link declared in (or generated by) `m` at `at`.
  // REQUIRES: the caller has opened the link Span this link belongs to.
  LinkId add_link(Link l, const YamlMap& m, const YamlField& at, bool generated) {
    check_link_name(l.name, m, at, generated);
    return platform_.add_link(std::move(l));
  }

  // Adds `l` as one link, or as its two directions "<name>_UP" and "<name>_DOWN" when `split`.
  Duplex add_duplex(Link l, bool split, const YamlMap& m, const YamlField& at, bool generated) {
    if (!split) {
      LinkId id = add_link(std::move(l), m, at, generated);
      return Duplex{id, id};
    }
    const std::string name = std::move(l.name);
    check_link_name(name, m, at, generated);
    l.name = name + "_UP";
    LinkId up = add_link(l, m, at, generated);
    l.name = name + "_DOWN";
    LinkId down = add_link(std::move(l), m, at, generated);
    platform_.set_twins(up, down);
    return Duplex{up, down};
  }

  void open_link_span(std::string origin) {
    link_spans_.push_back(Span{static_cast<int32_t>(platform_.links().size()), std::move(origin)});
  }

  Sharing read_sharing(const YamlMap& m, bool split_allowed) const {
    const YamlField* f = m.find("sharing");
    if (!f) return Sharing::kShared;
    const std::string expected = split_allowed ? "shared, fatpipe or splitduplex" : "shared or fatpipe";
    const std::string& s = m.scalar(*f, expected);
    if (s == "shared") return Sharing::kShared;
    if (s == "fatpipe") return Sharing::kFatpipe;
    if (s == "splitduplex" && split_allowed) return Sharing::kSplitDuplex;
    throw m.error(*f, "'sharing' in " + m.what() + " must be " + expected + ", got '" + s + "'");
  }

  void read_config(const YamlMap& top, const YamlField& f) {
    if (!f.value.IsDefined() || f.value.IsNull()) return;
    if (!f.value.IsMap())
      throw top.error(f,
                      "'config' in the platform file must be a mapping of configuration keys to values "
                      "(e.g. flow/os: \"0:1e-6:0\"), got " +
                          describe_node(f.value));
    std::map<std::string, YAML::Node, std::less<>> seen;
    for (const auto& kv : f.value) {
      YAML::Node key = kv.first;
      YAML::Node value = kv.second;
      if (!key.IsScalar() || key.Scalar().empty())
        throw in_.error(key, "expected a configuration key in 'config', got " + describe_node(key));
      const std::string& k = key.Scalar();
      if (auto it = seen.find(k); it != seen.end())
        throw in_.error(key, "duplicate configuration key '" + k + "' in 'config'; first given at " +
                                 in_.where(it->second));
      seen.emplace(k, key);
      if (!value.IsScalar())
        throw in_.error(value.IsDefined() && !value.IsNull() ? value : key,
                        "configuration key '" + k +
                            "' in 'config' needs a single value (a number or a text), got " +
                            describe_node(value));
      platform_.add_setting(PlatformSetting{k, value.Scalar(), in_.loc(value)});
    }
  }

  // `noise_class:` of a host or cluster (Host::noise_class), or -1 without one.
  int noise_class(const YamlMap& m) {
    const YamlField* f = m.find("noise_class");
    if (!f) return -1;
    const std::string& name = m.name(*f);
    if (std::string why = Platform::noise_class_name_error(name); !why.empty()) throw m.error(*f, why);
    return platform_.intern_noise_class(name);
  }

  void read_host(const YAML::Node& node) {
    YamlMap m(in_, node, "host", {"name", "speed", "cores", "loopback", "pstate", "power", "power_off", "boot_time", "boot_energy", "shutdown_time",
               "shutdown_energy", "cstates", "noise_class"});
    const YamlField& name_f = m.require("name", "a unique host name");
    Host h;
    h.name = m.name(name_f);
    CpuProfile cpu = read_yaml_cpu(m, "flop/s of one core, e.g. 2Gf, or one per pstate: [2.3Gf, 2.2Gf]");
    h.speed_flops = cpu.speeds[static_cast<size_t>(cpu.initial_pstate)];
    h.cores = cores(m);
    std::optional<Link> loopback;
    if (const YamlField* f = m.find("loopback")) loopback = read_loopback(m, *f);
    if (platform_.host_count() >= kMaxPlatformHosts)
      throw m.error(name_f, "too many hosts; a platform has at most " + std::to_string(kMaxPlatformHosts));
    const std::string declared = "declared at " + where(in_.loc(name_f.value));
    host_spans_.push_back(Span{platform_.host_count(), declared});
    if (loopback) {
      open_link_span(generated_by(m, name_f));
      loopback->name = h.name + "_loopback";
      h.loopback = add_link(std::move(*loopback), m, name_f, true);
      const NodeId self = host_node(platform_.host_count());
      platform_.join(h.loopback, self, self);
    }
    h.cpu_profile = add_cpu_profile_if_needed(platform_, std::move(cpu));
    h.noise_class = noise_class(m);
    add_host(std::move(h), m, name_f, false);
  }

  void read_link(const YAML::Node& node) {
    YamlMap m(in_, node, "link", {"name", "bandwidth", "latency", "sharing", "power"});
    const YamlField& name_f = m.require("name", "a unique link name");
    Link l;
    l.name = m.name(name_f);
    l.bandwidth_Bps = read_bandwidth(m, m.require("bandwidth", "e.g. 10Gbps"));
    l.latency = read_latency(m, m.require("latency", "e.g. 1us"));
    const Sharing sharing = read_sharing(m, true);
    l.sharing = link_sharing(sharing);
    if (const YamlField* f = m.find("power")) std::tie(l.idle_w, l.busy_w) = read_yaml_link_power(m, *f);
    open_link_span("declared at " + where(in_.loc(name_f.value)));
    add_duplex(std::move(l), sharing == Sharing::kSplitDuplex, m, name_f, false);
  }

  void read_cluster(const YAML::Node& node) {
    YamlMap m(in_, node, "cluster",
              {"name", "prefix", "suffix", "count", "radical", "speed", "cores", "bandwidth", "latency",
               "backbone", "sharing", "limiter_factor", "loopback", "cabinets", "pstate", "power", "power_off", "boot_time", "boot_energy", "shutdown_time",
               "shutdown_energy", "cstates",
               "link_power", "noise_class"});
    const YamlField& name_f = m.require("name", "a unique cluster name");
    Cluster c;
    c.name = m.name(name_f);
    if (auto it = cluster_locs_.find(c.name); it != cluster_locs_.end())
      throw m.error(name_f, "duplicate cluster name '" + c.name + "'; first declared at " + it->second);
    std::string prefix =
        m.scalar(m.require("prefix", "host names are prefix + index + suffix"), "a name prefix");
    const YamlField* suffix_f = m.find("suffix");
    std::string suffix = suffix_f ? m.scalar(*suffix_f, "a name suffix") : "";

    Radical indices = read_indices(m);
    Host proto;
    CpuProfile cpu = read_yaml_cpu(m, "flop/s of one core, e.g. 10Gf, or one per pstate: [2.3Gf, 2.2Gf]");
    proto.speed_flops = cpu.speeds[static_cast<size_t>(cpu.initial_pstate)];
    proto.cores = cores(m);
    proto.noise_class = noise_class(m);
    Link priv;
    priv.bandwidth_Bps =
        read_bandwidth(m, m.require("bandwidth", "of each host's private link, e.g. 10Gbps"));
    priv.latency = read_latency(m, m.require("latency", "of each host's private link, e.g. 1us"));
    // link_power: the cables the cluster generates (private links, backbone, cabinet links); not
    // its limiters and loopbacks, which model contention inside a node.
    std::optional<std::pair<double, double>> link_power;
    if (const YamlField* f = m.find("link_power")) link_power = read_yaml_link_power(m, *f);
    if (link_power) std::tie(priv.idle_w, priv.busy_w) = *link_power;
    const Sharing priv_sharing = read_sharing(m, true);
    priv.sharing = link_sharing(priv_sharing);
    std::optional<Link> limiter;
    if (const YamlField* f = m.find("limiter_factor")) {
      double factor = m.number(*f, "a number in (0, 2] (the host's B_send + B_recv over its link bandwidth)",
                               [](double x) { return x > 0 && x <= 2; });
      limiter = Link{"", factor * priv.bandwidth_Bps, SimTime::zero()};
    }
    std::optional<Link> loopback;
    if (const YamlField* f = m.find("loopback")) loopback = read_loopback(m, *f);
    std::optional<Link> backbone;
    if (const YamlField* f = m.find("backbone")) backbone = read_backbone(m, *f);
    std::optional<CabinetSpec> cabinets;
    if (const YamlField* f = m.find("cabinets")) cabinets = read_cabinets(m, *f, indices.count);
    if (link_power && backbone) std::tie(backbone->idle_w, backbone->busy_w) = *link_power;
    if (link_power && cabinets) std::tie(cabinets->link.idle_w, cabinets->link.busy_w) = *link_power;

    cluster_locs_.emplace(c.name, where(in_.loc(name_f.value)));
    open_link_span(generated_by(m, name_f));
    const NodeId core = switch_node(add_switch(c.name + "_switch", m, name_f));
    if (backbone) {
      backbone->name = c.name + "_backbone";
      c.backbone = add_link(std::move(*backbone), m, name_f, true);
      platform_.join(c.backbone, core, core);
    }
    std::vector<NodeId> cabinet_switch;
    if (cabinets) cabinet_switch = add_cabinets(c, core, *cabinets, m, name_f);
    proto.cluster = platform_.add_cluster(std::move(c));
    proto.cpu_profile = add_cpu_profile_if_needed(platform_, std::move(cpu));  // shared by its hosts
    const std::string& cname = platform_.clusters().back().name;
    host_spans_.push_back(Span{platform_.host_count(), generated_by(m, name_f)});
    // With cabinets, `left_in_cabinet` more hosts go into proto.cabinet.
    int64_t left_in_cabinet = 0;
    if (cabinets) {
      proto.cabinet = 0;
      left_in_cabinet = cabinets->sizes[0];
    }
    for (const IndexRange& r : indices.ranges) {
      for (int64_t i = r.first; i <= r.last; ++i) {
        std::string index = std::to_string(i);
        priv.name = cname + "_link_" + index;
        Duplex d = add_duplex(priv, priv_sharing == Sharing::kSplitDuplex, m, name_f, true);
        proto.up = d.up;
        proto.down = d.down;
        const NodeId self = host_node(platform_.host_count());
        if (limiter) {
          limiter->name = cname + "_limiter_" + index;
          proto.limiter = add_link(*limiter, m, name_f, true);
          platform_.join(proto.limiter, self, self);
        }
        if (loopback) {
          loopback->name = cname + "_loopback_" + index;
          proto.loopback = add_link(*loopback, m, name_f, true);
          platform_.join(proto.loopback, self, self);
        }
        if (cabinets) {
          if (left_in_cabinet == 0) left_in_cabinet = cabinets->sizes[static_cast<size_t>(++proto.cabinet)];
          --left_in_cabinet;
        }
        const NodeId attach = cabinets ? cabinet_switch[static_cast<size_t>(proto.cabinet)] : core;
        platform_.join(d.up, self, attach);
        if (d.down != d.up) platform_.join(d.down, attach, self);
        proto.name = prefix + index + suffix;
        add_host(proto, m, name_f, true);
      }
    }
  }

  // The cluster's indices from `count` or `radical`, checked against the host limit.
  Radical read_indices(const YamlMap& m) const {
    const YamlField* count_f = m.find("count");
    const YamlField* radical_f = m.find("radical");
    if (count_f && radical_f)
      throw m.error(*radical_f, m.what() + " has both 'count' and 'radical'; give exactly one");
    if (!count_f && !radical_f)
      throw in_.error(m.node(),
                      m.what() + " needs 'count' (number of hosts) or 'radical' (indices, e.g. \"0-15\")");
    Radical r;
    if (count_f) {
      r.count = m.integer(*count_f, 1, kMaxPlatformHosts);
      r.ranges.push_back(IndexRange{0, r.count - 1});
    } else {
      auto parsed = parse_radical(m.scalar(*radical_f, "indices like \"0-15\" or \"0-3,8-11\""), kMaxPlatformHosts);
      if (auto* why = std::get_if<std::string>(&parsed)) throw m.error(*radical_f, *why);
      r = std::get<Radical>(std::move(parsed));
    }
    if (platform_.host_count() + r.count > kMaxPlatformHosts)
      throw m.error(count_f ? *count_f : *radical_f,
                    m.what() + " brings the platform to " + std::to_string(platform_.host_count() + r.count) +
                        " hosts; at most " + std::to_string(kMaxPlatformHosts) + " are allowed");
    return r;
  }

  // The mapping under `f` of `parent`, named `what` in messages; `valid` are its keys.
  YamlMap sub_map(const YamlMap& parent, const YamlField& f, const std::string& what,
                  std::initializer_list<std::string_view> valid, std::string_view needs) const {
    if (!f.value.IsDefined() || f.value.IsNull())
      throw parent.error(f, "'" + f.key + "' in " + parent.what() +
                                " has no value; expected a mapping with " + std::string(needs));
    return YamlMap(in_, f.value, what + " of " + parent.what(), valid);
  }

  // A bandwidth and a latency (both required) from a link's mapping (name unset).
  Link link_values(const YamlMap& m, std::string_view bandwidth_hint, std::string_view latency_hint) const {
    Link l;
    l.bandwidth_Bps = read_bandwidth(m, m.require("bandwidth", bandwidth_hint));
    l.latency = read_latency(m, m.require("latency", latency_hint));
    return l;
  }

  Link read_backbone(const YamlMap& cluster, const YamlField& f) const {
    YamlMap m =
        sub_map(cluster, f, "the backbone", {"bandwidth", "latency", "sharing"}, "bandwidth and latency");
    Link l = link_values(m, "e.g. 100Gbps", "e.g. 500ns");
    l.sharing = link_sharing(read_sharing(m, false));
    return l;
  }

  Link read_loopback(const YamlMap& owner, const YamlField& f) const {
    YamlMap m = sub_map(owner, f, "the loopback", {"bandwidth", "latency"}, "bandwidth and latency");
    Link l = link_values(m, "e.g. 10GBps", "e.g. 0");
    l.sharing = LinkSharing::kFatpipe;
    return l;
  }

  CabinetSpec read_cabinets(const YamlMap& cluster, const YamlField& f, int64_t hosts) const {
    YamlMap m =
        sub_map(cluster, f, "the cabinet layout", {"count", "sizes", "bandwidth", "latency", "limiter"},
                "count or sizes, bandwidth and latency");
    CabinetSpec spec;
    const YamlField* count_f = m.find("count");
    const YamlField* sizes_f = m.find("sizes");
    if (count_f && sizes_f)
      throw m.error(*sizes_f, m.what() + " has both 'count' and 'sizes'; give exactly one");
    if (!count_f && !sizes_f)
      throw in_.error(m.node(), m.what() +
                                    " needs 'count' (number of cabinets, filled evenly in host order) or "
                                    "'sizes' (hosts per cabinet, e.g. [39, 35, 30, 40])");
    if (count_f) {
      spec.sizes = even_cabinet_sizes(hosts, m.integer(*count_f, 1, hosts));
    } else {
      int64_t sum = 0;
      for (const YAML::Node& item : m.list(*sizes_f, "cabinet sizes")) {
        spec.sizes.push_back(m.integer(YamlField{"sizes", sizes_f->key_node, item}, 1, hosts));
        sum += spec.sizes.back();
      }
      if (spec.sizes.empty()) throw m.error(*sizes_f, "'sizes' in " + m.what() + " lists no cabinet");
      if (sum != hosts)
        throw m.error(*sizes_f, "'sizes' in " + m.what() + " sum to " + std::to_string(sum) +
                                    " hosts, but the cluster has " + std::to_string(hosts) +
                                    "; they must sum to its host count");
    }
    spec.link = link_values(m, "of each cabinet's uplink and downlink, e.g. 10Gbps", "e.g. 1us");
    if (const YamlField* lim = m.find("limiter")) spec.limiter = read_bandwidth(m, *lim);
    return spec;
  }

  // Generates the links of every cabinet of `c` (see the format comment for names and order).
  // Adds the cabinets' switches and links; returns each cabinet's switch node.
  std::vector<NodeId> add_cabinets(Cluster& c, NodeId core, const CabinetSpec& spec, const YamlMap& m,
                                   const YamlField& name_f) {
    std::vector<NodeId> switches;
    for (size_t k = 0; k < spec.sizes.size(); ++k) {
      const std::string base = c.name + "_cabinet_" + std::to_string(k);
      const NodeId sw = switch_node(add_switch(base + "_switch", m, name_f));
      switches.push_back(sw);
      Link l = spec.link;
      l.name = base;
      Duplex d = add_duplex(std::move(l), true, m, name_f, true);
      platform_.join(d.up, sw, core);
      platform_.join(d.down, core, sw);
      Cabinet cab{d.up, d.down, -1};
      if (spec.limiter) {
        cab.limiter = add_link(Link{base + "_limiter", *spec.limiter, SimTime::zero()}, m, name_f, true);
        platform_.join(cab.limiter, sw, sw);
      }
      c.cabinets.push_back(cab);
    }
    return switches;
  }

  // Adds a switch generated by `m`; its name must be new among switches.
  SwitchId add_switch(std::string name, const YamlMap& m, const YamlField& at) {
    if (platform_.find_switch(name))
      throw m.error(at, m.what() + " generates switch '" + name + "', which another cluster or topology already has");
    return platform_.add_switch(std::move(name));
  }

  HostId route_host(const YamlMap& m, const YamlField& f) const {
    const std::string& name = m.name(f);
    if (auto h = platform_.find_host(name)) return *h;
    std::string msg = "unknown host '" + name + "' as " + f.key + " of a route";
    if (platform_.hosts().size() <= kMaxSuggestionCandidates) {
      std::vector<std::string_view> names;
      for (const Host& h : platform_.hosts()) names.push_back(h.name);
      std::string near = nearest_name(name, names);
      if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    }
    throw m.error(f, msg + "; hosts are declared under 'hosts' or generated by 'clusters'");
  }

  LinkId route_link(const YamlMap& m, const YAML::Node& item) const {
    if (!item.IsScalar() || item.Scalar().empty())
      throw in_.error(item,
                      "expected a link name in the 'links' of " + m.what() + ", got " + describe_node(item));
    const std::string& name = item.Scalar();
    if (auto l = platform_.find_link(name)) return *l;
    if (platform_.find_split_duplex(name))
      throw in_.error(item, "link '" + name + "' is split-duplex: name a direction, '" + name + "_UP' or '" +
                                name + "_DOWN'");
    std::string msg = "unknown link '" + name + "' in " + m.what();
    if (platform_.links().size() <= kMaxSuggestionCandidates) {
      std::vector<std::string_view> names;
      for (const Link& l : platform_.links()) names.push_back(l.name);
      std::string near = nearest_name(name, names);
      if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    }
    throw in_.error(item, msg +
                              "; links are declared under 'links' or generated by clusters "
                              "(<cluster>_link_<i>, <cluster>_backbone, ...) and host loopbacks");
  }

  void read_route(const YAML::Node& node) {
    YamlMap m(in_, node, "route", {"src", "dst", "links", "symmetric"});
    const YamlField& src_f = m.require("src", "the name of the source host");
    const YamlField& dst_f = m.require("dst", "the name of the destination host");
    HostId src = route_host(m, src_f);
    HostId dst = route_host(m, dst_f);
    m.rename("route " + platform_.host(src).name + " -> " + platform_.host(dst).name);
    if (src == dst)
      throw m.error(dst_f,
                    "a route from host '" + platform_.host(src).name +
                        "' to itself; a host reaches itself over its 'loopback' link, or over no link");
    const YamlField& links_f = m.require("links", "the link names from src to dst, e.g. [l0, l1]");
    std::vector<LinkId> links;
    for (const YAML::Node& item : m.list(links_f, "link names")) {
      links.push_back(route_link(m, item));
      if (std::find(links.begin(), links.end() - 1, links.back()) != links.end() - 1)
        throw in_.error(item, "link '" + item.Scalar() + "' appears twice in " + m.what() +
                                  "; a route crosses each link at most once");
    }
    if (links.empty()) throw m.error(links_f, m.what() + " has no link; list the links from src to dst");
    const YamlField* sym_f = m.find("symmetric");
    bool symmetric = sym_f ? m.boolean(*sym_f) : true;

    std::string here = where(in_.loc(node));
    claim_route(m, src, dst, here);
    if (symmetric) claim_route(m, dst, src, here);
    platform_.add_route(src, dst, std::move(links), !symmetric);
  }

  void claim_route(const YamlMap& m, HostId a, HostId b, const std::string& here) {
    auto [it, fresh] = route_locs_.emplace(std::make_pair(a, b), here);
    if (!fresh)
      throw in_.error(m.node(), "route " + platform_.host(a).name + " -> " + platform_.host(b).name +
                                    " is already declared at " + it->second);
  }

  const YamlInput& in_;
  Platform platform_;
  std::vector<Span> host_spans_;                                  // ascending first ids
  std::vector<Span> link_spans_;                                  // ascending first ids
  std::map<std::string, std::string, std::less<>> cluster_locs_;  // name -> "f:l:c"
  std::map<std::pair<HostId, HostId>, std::string> route_locs_;   // directed pair -> "f:l:c"
};

}  // namespace

Platform parse_platform_yaml(std::string_view text, const std::string& name, int64_t element_limit) {
  YamlInput in(text, name);
  return PlatformBuilder(in, element_limit).build();
}

Platform load_platform_yaml(const std::string& path) {
  MappedFile file(path);
  return parse_platform_yaml(file.text(), path);
}

}  // namespace simfab
