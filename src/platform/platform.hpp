// Platform: the machine a run is predicted on: hosts (cores, speed in flop/s), links (bandwidth,
// latency, sharing policy), the route between every pair of hosts, and the configuration settings
// the platform file carries.
//
// Links. Each link has a bandwidth B_l, a latency lat_l and a sharing policy:
//   kShared   the flows crossing it share B_l:         sum over flows f through l of rho_f <= B_l
//   kFatpipe  each flow alone is bounded by B_l:         rho_f <= B_l for every f through l
// A split-duplex link (SimGrid's SPLITDUPLEX) is two kShared links, "X_UP" and "X_DOWN", each with
// the full bandwidth and latency, one per direction; each is the other's `twin`. Reversing a route
// (a symmetric explicit route, see add_route) swaps every link for its twin, as SimGrid does.
//
// Routes come from two places: explicit `routes` between named hosts (symmetric unless declared
// one-way; they override everything else) and `cluster` generators. In a cluster, host h has a
// private link towards the cluster's switch, up(h), and back, down(h) (the same link unless
// split-duplex), and optionally a limiter lim(h); the cluster optionally has a backbone and
// cabinets, each cabinet k with an uplink cup(k), a downlink cdown(k) (distinct kShared links) and
// optionally a limiter clim(k). The route a -> b (a != b) of a cluster is, absent links skipped:
//   no cabinets:                  up(a), lim(a), backbone, lim(b), down(b)
//   a, b in the same cabinet:     up(a), lim(a), lim(b), down(b)             (they meet in its switch)
//   a in cabinet A, b in B != A:  up(a), lim(a), cup(A), clim(A), backbone, clim(B), cdown(B),
//                                 lim(b), down(b)
// and a -> a is [loopback(a)] when the host has a loopback link (kFatpipe, like SimGrid's cluster
// loopback), else what the route provider gives (a SimGrid XML cluster: up, backbone, down, as
// SimGrid routes it), else empty. Standalone hosts may have a loopback too.
// A route's latency is sum_l lat_l and its bottleneck min_l B_l (route_summary).
//
// Why limiters (seed 003, section IV-B): on a TCP/Gigabit-Ethernet cluster a node sending and
// receiving at once gets B_s + B_r ~ 1.5 B, neither the single-port B nor the multi-port 2 B. A
// limiter of bandwidth x * B, crossed by every flow to or from the host, reproduces it: with
// split-duplex private links and x = 1.5, two opposite 4 MiB flows between hosts a and b both
// cross lim(a) and lim(b), so each gets 1.5 B / 2 = 0.75 B (B_s + B_r = 1.5 B) while up/down (B
// each, one flow each) are not binding; one flow alone still gets B. The inter-cabinet limiter
// (13 Gb over 10 Gb links on graphene) plays the same role for a cabinet.
//
// Topologies (src/topo): generated interconnects of switches and links (fat-tree, torus,
// dragonfly, explicit graph); a route between two hosts of one topology is its routing function's
// (topo/topology.hpp has the contract). A RouteProvider (below) answers the remaining pairs:
// SimGrid's zone hierarchy (platform/xml_zone_tree.hpp). Precedence, for a != b: an explicit
// route, then the hosts' common cluster, then their common topology, then the provider;
// otherwise there is no route.
//
// Nodes and hops. Every link records the nodes it joins (from, to; kNoNode when declared without
// endpoints, as `links:` entries are). A link with from == to is internal to its node (a
// limiter, a backbone, a loopback) and is not a hop; every other link is one hop. A route's hop
// count is what LogGOPS multiplies by its per-hop latency and what `platform describe` averages.
//
// Cost: route queries are O(1) for cluster members, O(log R) for explicit routes, O(route
// length) for topologies and the provider's own cost (documented by it); route_summary and for_each_route_link never allocate (route_summary
// runs once per message under LogGOPS).
// Ranks map to hosts round-robin (rank i on host i mod H) unless a mapping is given; the replay
// refuses to start when there are fewer hosts than ranks (seed 004 has one rank per HCA).
// Thread-safety: immutable after loading, except that a graph topology's route() fills a bounded
// cache of per-destination next hops: route queries are for one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <memory>

#include "core/error.hpp"
#include "core/sim_time.hpp"
#include "platform/availability.hpp"
#include "platform/cpu_profile.hpp"
#include "platform/ids.hpp"
#include "topo/topology.hpp"

namespace simfab {

// The most hosts a platform may have: every loader and generator checks it.
constexpr int64_t kMaxPlatformHosts = 16'777'216;

enum class LinkSharing : uint8_t { kShared, kFatpipe };

struct Host {
  std::string name;
  int cores = 1;
  double speed_flops = 1e9;  // flop/s of one core
  int cluster = -1;          // index into clusters, or -1 for a standalone host
  LinkId up = -1;            // cluster host: its private link towards the switch, else -1
  LinkId down = -1;          // ... and back; == up unless the private link is split-duplex
  LinkId limiter = -1;       // crossed by every flow to or from the host (cluster host), or -1
  LinkId loopback = -1;      // the route to itself, or -1 (then that route is empty)
  int cabinet = -1;          // index into its cluster's cabinets, or -1
  int topology = -1;         // index into topologies, or -1
  int topo_index = -1;       // its local index in that topology
  // Its pstates and power (platform/cpu_profile.hpp): an index into Platform::cpu_profiles(), or
  // -1: one pstate of speed_flops and no power model. When set, speed_flops is the speed of the
  // profile's initial pstate (what front-ends turn flops into time with).
  int cpu_profile = -1;
  // Availability profiles (platform/availability.hpp), indices into Platform::availability(), or
  // -1: its speed scaled over time (SimGrid's speed_file), its on/off state (state_file).
  int speed_profile = -1;
  int state_profile = -1;
  // Its OS-noise class (noise/noise_classes.hpp): an index into Platform::noise_classes(), or -1
  // (the global noise/* settings). YAML `noise_class:`, SimGrid XML <prop id="noise_class">.
  int noise_class = -1;
};

struct Link {
  std::string name;
  double bandwidth_Bps = 0;  // bytes per second, > 0
  SimTime latency;
  LinkSharing sharing = LinkSharing::kShared;
  LinkId twin = -1;  // the other direction of a split-duplex link, or -1
  NodeId from = kNoNode;  // the nodes it joins (a directed link: from -> to); kNoNode: unknown
  NodeId to = kNoNode;    // from == to (both known): internal to one node, not a hop
  // Power (seed 001 §2.4; SimGrid's wattage_range "Idle:Busy"): P = idle + (busy - idle) * u,
  // u = the fraction of the bandwidth in use. Negative: the link has no power model.
  double idle_w = -1;
  double busy_w = -1;
  bool has_power() const { return idle_w >= 0; }
  // Availability profiles (platform/availability.hpp), indices into Platform::availability(), or
  // -1: bandwidth (bytes/s) and latency (s) over time, on/off state (SimGrid's bandwidth_file,
  // latency_file, state_file). A split-duplex link's two directions share them.
  int bandwidth_profile = -1;
  int latency_profile = -1;
  int state_profile = -1;
};

// A disk of a host (SimGrid's <disk>): read and write bandwidth in bytes/s, for MPI-IO timing.
struct Disk {
  std::string name;
  HostId host = -1;
  double read_Bps = 0;
  double write_Bps = 0;
};

// A cabinet of a hierarchical cluster: its links to the rest of the cluster.
struct Cabinet {
  LinkId up = -1;       // cabinet -> backbone
  LinkId down = -1;     // backbone -> cabinet
  LinkId limiter = -1;  // shared by both directions, or -1
};

struct Cluster {
  std::string name;
  LinkId backbone = -1;           // -1: no backbone link (a non-blocking crossbar between cabinets/hosts)
  std::vector<Cabinet> cabinets;  // empty: one flat cluster
};

// One `config:` entry of the platform file, kept as text: the configuration validates and applies
// it (unknown keys are reported at `loc`).
struct PlatformSetting {
  std::string key;
  std::string value;
  SourceLoc loc;  // of the value
};

// Routes computed by a platform loader's own rules, asked for the pairs nothing else routes
// (SimGrid's zones, routers and zoneRoutes: platform/xml_zone_tree.hpp).
class RouteProvider {
 public:
  virtual ~RouteProvider() = default;
  // Streams the links from a to b into sink, in order; false when there is no route (the sink may
  // then have received a prefix, which the caller discards). a == b is asked for a host without a
  // loopback link: SimGrid's clusters route it up through the backbone and down (measured with
  // smpirun); a zone without a declared self-route answers nothing. `p` is the platform that
  // owns the provider; `request` as for topologies.
  virtual bool route(const Platform& p, HostId a, HostId b, const RouteRequest& request, LinkSink sink) const = 0;
};

class Platform {
 public:
  // An ideal platform of n hosts with infinite speed and no links (GOAL without --platform).
  static Platform ideal(int n);

  // REQUIRES (checked): a cluster host names an existing cluster, has both up and down, and a
  // cabinet of that cluster when the cluster has cabinets; every link id it names exists.
  HostId add_host(Host h);
  LinkId add_link(Link l);
  // Makes a and b the two directions of one split-duplex link. REQUIRES: neither has a twin yet.
  void set_twins(LinkId a, LinkId b);
  int add_cluster(Cluster c);
  // A host's pstates and power, shared by the hosts that name its index (Host::cpu_profile).
  // REQUIRES: check_cpu_profile(p) is empty.
  int add_cpu_profile(CpuProfile p);
  const CpuProfile& cpu_profile(int i) const { return cpu_profiles_[static_cast<size_t>(i)]; }
  int cpu_profile_count() const { return static_cast<int>(cpu_profiles_.size()); }
  // Gives host h the profile `profile` (its speed_flops becomes the initial pstate's speed), for
  // loaders that learn a host's power after adding it (SimGrid XML: <prop> children).
  // REQUIRES: both exist.
  void set_cpu_profile(HostId h, int profile);
  // Availability profiles, shared by the hosts and links that name their index.
  int add_availability(Availability a) {
    availability_.push_back(std::move(a));
    return static_cast<int>(availability_.size()) - 1;
  }
  const Availability& availability(int i) const { return availability_[static_cast<size_t>(i)]; }
  int availability_count() const { return static_cast<int>(availability_.size()); }
  // Attaches profile `a` (an index, or -1) to a host's speed or state, or to a link's bandwidth,
  // latency or state (a split-duplex link: both directions). REQUIRES: they exist.
  enum class ProfileKind { kSpeed, kHostState, kBandwidth, kLatency, kLinkState };
  void set_profile(ProfileKind kind, int32_t element, int a);
  // Link l's bandwidth (bytes/s) and latency at time t: its profile's value in force, else the
  // nominal Link::bandwidth_Bps / latency.
  double bandwidth_at(LinkId l, SimTime t) const;
  SimTime latency_at(LinkId l, SimTime t) const;
  // True when any host or link has a profile of that kind.
  bool has_profiles(ProfileKind kind) const;
  void add_disk(Disk d) { disks_.push_back(std::move(d)); }
  // Host h joins the noise class `name` (Host::noise_class; classes are numbered in order of first
  // use). REQUIRES: h exists.
  void set_noise_class(HostId h, const std::string& name);
  // The index of class `name`, added if new (for a host about to be added).
  int intern_noise_class(const std::string& name);
  // Why `name` cannot name a noise class, or "" (letters, digits, '_', '-', '.': names appear in
  // noise/classes=NAME:...;NAME:...).
  static std::string noise_class_name_error(std::string_view name);
  const std::vector<std::string>& noise_classes() const { return noise_classes_; }
  // What a loader read in a way the file's author may not expect ("file:line: warning: ..."): the
  // commands print them to stderr when they load the platform (load_platform.hpp).
  void add_warning(std::string w) { warnings_.push_back(std::move(w)); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  const std::vector<Disk>& disks() const { return disks_; }
  // Sets the power of link l and of its twin (a split-duplex link's other direction), for loaders
  // that learn it after adding the link. REQUIRES: l exists; check_link_power(idle, busy) empty.
  void set_link_power(LinkId l, double idle_w, double busy_w);
  // Declares the route a->b and, unless one_way, b->a over the reversed list with every link
  // replaced by its twin when it has one. Replaces a previous declaration.
  void add_route(HostId a, HostId b, std::vector<LinkId> links, bool one_way);
  // The links of a symmetric route's way back: `links` reversed, each replaced by its twin when it
  // has one (the rule add_route applies).
  std::vector<LinkId> reversed_route(const std::vector<LinkId>& links) const;
  // Takes the provider asked last (see the precedence above); replaces any previous one.
  void set_route_provider(std::unique_ptr<RouteProvider> r) { provider_ = std::move(r); }
  void add_setting(PlatformSetting s) { settings_.push_back(std::move(s)); }
  // Records the nodes link l joins (Link::from/to).
  void join(LinkId l, NodeId from, NodeId to);
  // A cap on hosts + switches + links that topology generators respect (TopologyError beyond it):
  // tools that load untrusted platforms (the fuzzer) bound the work; unlimited by default.
  void set_element_limit(int64_t n) { element_limit_ = n; }
  int64_t element_limit() const { return element_limit_; }
  int64_t element_count() const { return static_cast<int64_t>(hosts_.size() + switches_.size() + links_.size()); }
  // Makes room for that many more elements (a generator about to add them: no rehashing).
  void reserve(int64_t hosts, int64_t switches, int64_t links);
  bool over_element_limit() const { return element_count() >= element_limit_; }
  // A switch (router) of a topology or cluster. REQUIRES: a new name.
  SwitchId add_switch(std::string name);
  // Takes a generated topology whose local host i is hosts[i]. REQUIRES: the hosts exist and
  // belong to no other topology.
  int add_topology(std::unique_ptr<Topology> t, std::vector<HostId> hosts);

  int host_count() const { return static_cast<int>(hosts_.size()); }
  const Host& host(HostId h) const { return hosts_[static_cast<size_t>(h)]; }
  const Link& link(LinkId l) const { return links_[static_cast<size_t>(l)]; }
  const std::vector<Host>& hosts() const { return hosts_; }
  const std::vector<Link>& links() const { return links_; }
  const std::vector<Cluster>& clusters() const { return clusters_; }
  int switch_count() const { return static_cast<int>(switches_.size()); }
  const std::string& switch_name(SwitchId s) const { return switches_[static_cast<size_t>(s)]; }
  std::optional<SwitchId> find_switch(const std::string& name) const;
  // A host's or switch's name.
  const std::string& node_name(NodeId n) const;
  int topology_count() const { return static_cast<int>(topologies_.size()); }
  const Topology& topology(int t) const { return *topologies_[static_cast<size_t>(t)]; }
  void set_topology_name(int t, std::string name) { topologies_[static_cast<size_t>(t)]->set_name(std::move(name)); }
  // True when l joins two nodes (not internal, endpoints known or unknown): one hop.
  bool is_hop(LinkId l) const {
    const Link& k = link(l);
    return k.from == kNoNode || k.from != k.to;
  }
  // The `config:` entries in document order.
  const std::vector<PlatformSetting>& settings() const { return settings_; }
  std::optional<HostId> find_host(const std::string& name) const;
  std::optional<LinkId> find_link(const std::string& name) const;
  // The up direction of the split-duplex link named `name` ("X_UP" twinned with "X_DOWN"), if any.
  std::optional<LinkId> find_split_duplex(const std::string& name) const;
  bool is_ideal() const { return ideal_; }
  const std::string& source() const { return source_; }
  void set_source(std::string s) { source_ = std::move(s); }

  // The links from a to b; nullopt when no route is known. For a == b: [loopback] or empty.
  // `request` matters only to randomised and adaptive topology routings (topo/topology.hpp).
  std::optional<std::vector<LinkId>> route(HostId a, HostId b, const RouteRequest& request = {}) const;
  // The same into `out` (cleared first): no allocation once `out` has grown, for per-message use.
  bool route_into(HostId a, HostId b, std::vector<LinkId>& out, const RouteRequest& request = {}) const;

  // What analytic models need of a route, without materialising it (no allocation: one call per
  // message): the sum of its latencies, its slowest link (infinite for an empty route) and its
  // hop count (links that are not internal to a node).
  struct RouteSummary {
    SimTime latency;
    double bandwidth_Bps;
    int hops;
  };
  // `at`: the links' bandwidth and latency at that time (availability profiles); never(): nominal.
  std::optional<RouteSummary> route_summary(HostId a, HostId b, const RouteRequest& request = {},
                                            SimTime at = SimTime::never()) const;

 private:
  // Calls fn(LinkId) for each link from a to b in order; false when no route is known.
  template <class Fn>
  bool for_each_route_link(HostId a, HostId b, const RouteRequest& request, Fn&& fn) const;
  // The same for two distinct hosts of one cluster (the rule in the header comment).
  template <class Fn>
  void for_each_cluster_link(const Host& a, const Host& b, Fn&& fn) const;

  std::vector<Host> hosts_;
  std::vector<Link> links_;
  std::vector<Cluster> clusters_;
  std::vector<CpuProfile> cpu_profiles_;
  std::vector<Availability> availability_;
  std::vector<Disk> disks_;
  std::vector<std::string> warnings_;
  std::vector<std::string> noise_classes_;
  std::vector<std::string> switches_;
  std::vector<std::unique_ptr<Topology>> topologies_;
  std::vector<PlatformSetting> settings_;
  std::map<std::pair<HostId, HostId>, std::vector<LinkId>> routes_;
  std::unique_ptr<RouteProvider> provider_;
  // Name lookups only (never iterated, so their order cannot leak into results): hash maps, as a
  // generated platform has hundreds of thousands of links.
  std::unordered_map<std::string, HostId> host_index_;
  std::unordered_map<std::string, LinkId> link_index_;
  std::unordered_map<std::string, SwitchId> switch_index_;
  bool ideal_ = false;
  int64_t element_limit_ = INT64_MAX;
  std::string source_;
};

}  // namespace simfab
