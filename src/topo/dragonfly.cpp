#include "topo/dragonfly.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "topo/hash.hpp"

namespace simfab {
namespace {

constexpr int64_t kMaxLinks = int64_t{1} << 30;

int64_t floor_div(int64_t n, int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
int64_t ceil_div(int64_t n, int64_t d) { return -floor_div(-n, d); }

// j(G, T): the offset, within each copy of group G's global ports, of the port towards T != G.
int64_t offset_to(GlobalArrangement arrangement, int64_t g, int64_t from, int64_t to) {
  const int64_t d = ((to - from) % g + g) % g;
  switch (arrangement) {
    case GlobalArrangement::kAbsolute:
      return to < from ? to : to - 1;
    case GlobalArrangement::kRelative:
      return d - 1;
    case GlobalArrangement::kCirculant:
      if (d < g - d) return 2 * (d - 1);
      if (d > g - d) return 2 * (g - d) - 1;
      return g - 2;
  }
  return 0;
}

// The group that offset j of group G leads to: the inverse of offset_to(G, .).
int64_t group_at(GlobalArrangement arrangement, int64_t g, int64_t from, int64_t j) {
  switch (arrangement) {
    case GlobalArrangement::kAbsolute:
      return j < from ? j : j + 1;
    case GlobalArrangement::kRelative:
      return (from + 1 + j) % g;
    case GlobalArrangement::kCirculant: {
      int64_t d = 0;
      if (j == g - 2 && g % 2 == 0) d = g / 2;
      else if (j % 2 == 0) d = j / 2 + 1;
      else d = g - (j + 1) / 2;
      return (from + d) % g;
    }
  }
  return 0;
}

// An interval of copies [lo, hi] (empty when lo > hi).
struct Span {
  int64_t lo = 0;
  int64_t hi = -1;
  bool empty() const { return lo > hi; }
  int64_t size() const { return hi - lo + 1; }
};

// Up to 5 router-to-router links (l g l g l).
struct Path {
  LinkId links[5] = {};
  int n = 0;
  void push(LinkId l) {
    SIMFAB_CHECK(n < 5, "dragonfly path longer than 5 router hops");
    links[n++] = l;
  }
};

class DragonflyTopology final : public Topology {
 public:
  struct Layout {
    int64_t g = 1, a = 1, p = 1, h = 0, m = 0;
    GlobalArrangement arrangement = GlobalArrangement::kAbsolute;
    int w = 2;  // links per cable
    LinkId host_base = 0, local_base = 0, global_base = 0;
  };

  DragonflyTopology(const Layout& l, DragonflyRouting routing, double ugal_threshold)
      : l_(l), routing_(routing), threshold_(ugal_threshold) {}

  std::string_view kind() const override { return "dragonfly"; }
  std::string_view routing() const override {
    switch (routing_) {
      case DragonflyRouting::kValiant: return "valiant";
      case DragonflyRouting::kUgal: return "ugal";
      case DragonflyRouting::kMinimal: break;
    }
    return "minimal";
  }

  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    sink(host_cable(a));
    const int64_t ra = a / l_.p;
    const int64_t rb = b / l_.p;
    if (ra != rb) {
      Path path;
      switch (routing_) {
        case DragonflyRouting::kMinimal:
          minimal(ra, rb, b, path);
          break;
        case DragonflyRouting::kValiant:
          if (!valiant(ra, rb, a, b, request.salt, path)) minimal(ra, rb, b, path);
          break;
        case DragonflyRouting::kUgal:
          ugal(ra, rb, a, b, request, path);
          break;
      }
      for (int i = 0; i < path.n; ++i) sink(path.links[i]);
    }
    sink(host_cable(b) + (l_.w - 1));
  }

  std::optional<int> diameter() const override {
    if (routing_ != DragonflyRouting::kMinimal) return std::nullopt;
    if (host_count() <= 1) return 0;
    int hops = 0;
    if (l_.g == 1) hops = l_.a == 1 ? 0 : 1;
    else if (l_.a == 1) hops = 1;
    else hops = l_.g - 1 <= l_.h ? 2 : 3;
    return hops + 2;
  }

 private:
  LinkId host_cable(int i) const { return static_cast<LinkId>(l_.host_base + int64_t{i} * l_.w); }

  // The link from router r1 to router r2 of group G (r1 != r2).
  LinkId local(int64_t G, int64_t r1, int64_t r2) const {
    const int64_t lo = std::min(r1, r2), hi = std::max(r1, r2);
    const int64_t index = G * (l_.a * (l_.a - 1) / 2) + lo * (2 * l_.a - lo - 1) / 2 + (hi - lo - 1);
    const LinkId first = static_cast<LinkId>(l_.local_base + index * l_.w);
    return r1 < r2 ? first : first + (l_.w - 1);
  }

  // The link of copy c from group G to group T (G != T).
  LinkId global(int64_t G, int64_t T, int64_t c) const {
    const int64_t lo = std::min(G, T), hi = std::max(G, T);
    const int64_t pair = lo * (l_.g - 1) - lo * (lo - 1) / 2 + (hi - lo - 1);
    const LinkId first = static_cast<LinkId>(l_.global_base + (pair * l_.m + c) * l_.w);
    return G < T ? first : first + (l_.w - 1);
  }

  int64_t offset(int64_t G, int64_t T) const { return offset_to(l_.arrangement, l_.g, G, T); }
  // The router of group G owning copy c of its cables to T.
  int64_t owner(int64_t G, int64_t T, int64_t c) const { return (c * (l_.g - 1) + offset(G, T)) / l_.h; }

  // Copies c whose port towards T (offset j) sits on router R.
  Span copies_on(int64_t R, int64_t j) const {
    Span s;
    s.lo = std::max<int64_t>(0, ceil_div(R * l_.h - j, l_.g - 1));
    s.hi = std::min<int64_t>(l_.m - 1, floor_div(R * l_.h + l_.h - 1 - j, l_.g - 1));
    return s;
  }

  // Appends the minimal route from router ra to router rb (ra != rb) for destination host b.
  void minimal(int64_t ra, int64_t rb, int64_t b, Path& path) const {
    const int64_t G = ra / l_.a, R = ra % l_.a, T = rb / l_.a, R2 = rb % l_.a;
    if (G == T) {
      path.push(local(G, R, R2));
      return;
    }
    const Span exit = copies_on(R, offset(G, T));
    const Span land = copies_on(R2, offset(T, G));
    const Span both{std::max(exit.lo, land.lo), std::min(exit.hi, land.hi)};
    const uint64_t spread = static_cast<uint64_t>(b);
    int64_t c = 0;
    if (!both.empty()) c = both.lo + static_cast<int64_t>(pick(spread, static_cast<uint64_t>(both.size())));
    else if (!land.empty()) c = land.lo + static_cast<int64_t>(pick(spread, static_cast<uint64_t>(land.size())));
    else if (!exit.empty()) c = exit.lo + static_cast<int64_t>(pick(spread, static_cast<uint64_t>(exit.size())));
    else c = static_cast<int64_t>(pick(spread, static_cast<uint64_t>(l_.m)));
    cross(G, R, T, c, R2, path);
  }

  // Appends [local R -> E(c)] global(G -> T, copy c) [local L(c) -> R2]; R2 < 0: stop at L(c).
  // Returns L(c).
  int64_t cross(int64_t G, int64_t R, int64_t T, int64_t c, int64_t R2, Path& path) const {
    const int64_t E = owner(G, T, c);
    const int64_t L = owner(T, G, c);
    if (R != E) path.push(local(G, R, E));
    path.push(global(G, T, c));
    if (R2 >= 0 && L != R2) path.push(local(T, L, R2));
    return L;
  }

  // Appends the Valiant route; false (nothing appended) when no intermediate group exists.
  bool valiant(int64_t ra, int64_t rb, int a, int b, uint64_t salt, Path& path) const {
    const int64_t G = ra / l_.a, R = ra % l_.a, T = rb / l_.a;
    // A pair of one group stays minimal: a detour G -> I -> G can only come back over the cable
    // it left by (m = 1), crossing a router twice, or the same link twice when half duplex.
    if (G == T) return false;
    const int64_t candidates = l_.g - 2;
    if (candidates <= 0) return false;
    const uint64_t x = mix(static_cast<uint64_t>(a), static_cast<uint64_t>(b), salt);
    int64_t I = static_cast<int64_t>(pick(x, static_cast<uint64_t>(candidates)));
    const int64_t lo = std::min(G, T), hi = std::max(G, T);
    if (I >= lo) ++I;
    if (I >= hi) ++I;
    const int64_t c1 = static_cast<int64_t>(pick(splitmix64(x), static_cast<uint64_t>(l_.m)));
    const int64_t landing = cross(G, R, I, c1, -1, path);
    const int64_t via = I * l_.a + landing;
    if (via != rb) minimal(via, rb, b, path);
    return true;
  }

  void ugal(int64_t ra, int64_t rb, int a, int b, const RouteRequest& request, Path& path) const {
    minimal(ra, rb, b, path);
    if (!request.load) return;
    Path detour;
    if (!valiant(ra, rb, a, b, request.salt, detour)) return;
    const double cost_min = request.load->load(path.links[0]) * path.n;
    const double cost_val = request.load->load(detour.links[0]) * detour.n;
    if (cost_val + threshold_ < cost_min) path = detour;
  }

  Layout l_;
  DragonflyRouting routing_;
  double threshold_;
};

// "2, 3, 5 or 9": up to 6 group counts g' = d + 1 (d | a h) nearest to the requested one.
std::string working_groups(int64_t ports, int64_t requested) {
  std::vector<int64_t> options;
  for (int64_t d = 1; d * d <= ports; ++d) {
    if (ports % d) continue;
    options.push_back(d + 1);
    if (d != ports / d) options.push_back(ports / d + 1);
  }
  std::sort(options.begin(), options.end(), [&](int64_t x, int64_t y) {
    const int64_t dx = std::llabs(x - requested), dy = std::llabs(y - requested);
    return dx != dy ? dx < dy : x < y;
  });
  if (options.size() > 6) options.resize(6);
  std::sort(options.begin(), options.end());
  std::string s;
  for (size_t i = 0; i < options.size(); ++i) {
    if (i) s += i + 1 == options.size() ? " or " : ", ";
    s += std::to_string(options[i]);
  }
  return s;
}

// Throws TopologyError for impossible parameters; returns the cable count (hosts + local + global).
int64_t validate(const DragonflyParams& d) {
  const int64_t g = d.groups, a = d.routers, p = d.hosts_per_router, h = d.global_per_router;
  if (g < 1) throw TopologyError("groups", "groups is " + std::to_string(g) + "; a dragonfly needs >= 1 group");
  if (a < 1) throw TopologyError("routers", "routers is " + std::to_string(a) + "; every group needs >= 1 router");
  if (p < 1)
    throw TopologyError("hosts_per_router",
                        "hosts_per_router is " + std::to_string(p) + "; every router needs >= 1 host");
  if (h < 0) throw TopologyError("global_links", "global_links is " + std::to_string(h) + "; it must be >= 0");
  if (g == 1 && h > 0)
    throw TopologyError("global_links", "global_links is " + std::to_string(h) +
                                            " but a single group has no other group to join; use global_links: 0 "
                                            "or more groups");
  if (g >= 2 && h == 0)
    throw TopologyError("global_links", "global_links is 0, which leaves the " + std::to_string(g) +
                                            " groups disconnected; give each router >= 1 global link");
  // Capped products: g, a, p and h are ints, their product may not fit 64 bits.
  const int64_t hosts = std::min(std::min(g * a, kMaxPlatformHosts + 1) * p, kMaxPlatformHosts + 1);
  if (hosts > kMaxPlatformHosts)
    throw TopologyError("groups", "groups x routers x hosts_per_router = " + std::to_string(g) + " x " +
                                      std::to_string(a) + " x " + std::to_string(p) + " hosts is more than " +
                                      std::to_string(kMaxPlatformHosts));
  const int64_t cables = hosts + g * a * (a - 1) / 2 + g * a * h / 2;
  if (2 * cables > kMaxLinks)
    throw TopologyError("routers", "the dragonfly would have " + std::to_string(cables) + " cables; at most " +
                                       std::to_string(kMaxLinks / 2) +
                                       " are supported: use fewer routers per group or global links");
  if (g >= 2 && (a * h) % (g - 1) != 0) {
    const int64_t step = (g - 1) / std::gcd(a, g - 1);
    throw TopologyError(
        "global_links",
        "routers x global_links = " + std::to_string(a) + " x " + std::to_string(h) + " = " + std::to_string(a * h) +
            " global ports per group is not a multiple of groups - 1 = " + std::to_string(g - 1) +
            ", so the groups cannot all be joined by the same number of global cables; with these routers and "
            "global_links, groups can be " +
            working_groups(a * h, g) + "; with " + std::to_string(g) + " groups, global_links must be a multiple of " +
            std::to_string(step));
  }
  return cables;
}

}  // namespace

DragonflyPort dragonfly_peer(const DragonflyParams& params, int group, int port) {
  const int64_t g = params.groups, ports = int64_t{params.routers} * params.global_per_router;
  SIMFAB_CHECK(g >= 2 && ports > 0 && ports % (g - 1) == 0 && group >= 0 && group < g && port >= 0 && port < ports,
               "dragonfly_peer: invalid parameters or port");
  const int64_t c = port / (g - 1), j = port % (g - 1);
  const int64_t T = group_at(params.arrangement, g, group, j);
  const int64_t back = offset_to(params.arrangement, g, T, group);
  return DragonflyPort{static_cast<int>(T), static_cast<int>(c * (g - 1) + back)};
}

int add_dragonfly(Platform& p, const TopoCommon& common, const DragonflyParams& params, DragonflyRouting routing) {
  const int64_t cables = validate(params);
  DragonflyTopology::Layout l;
  l.g = params.groups;
  l.a = params.routers;
  l.p = params.hosts_per_router;
  l.h = params.global_per_router;
  l.m = l.g >= 2 ? l.a * l.h / (l.g - 1) : 0;
  l.arrangement = params.arrangement;
  l.w = common.full_duplex ? 2 : 1;
  const std::string& t = common.name;
  const int64_t routers = l.g * l.a;
  const int64_t host_total = routers * l.p;
  reserve_elements(p, host_total, routers, l.w * cables + (common.hosts.loopback ? host_total : 0), "groups");

  std::vector<HostId> hosts;
  hosts.reserve(static_cast<size_t>(host_total));
  for (int64_t i = 0; i < host_total; ++i) hosts.push_back(add_topo_host(p, common.hosts, i));

  const SwitchId first_router = p.switch_count();
  std::vector<std::string> names;  // router names, reused for cable names
  names.reserve(static_cast<size_t>(routers));
  for (int64_t G = 0; G < l.g; ++G)
    for (int64_t R = 0; R < l.a; ++R) {
      names.push_back("g" + std::to_string(G) + "_r" + std::to_string(R));
      add_topo_switch(p, t + "_" + names.back());
    }
  auto node = [&](int64_t G, int64_t R) { return switch_node(static_cast<SwitchId>(first_router + G * l.a + R)); };
  auto name = [&](int64_t G, int64_t R) -> const std::string& { return names[static_cast<size_t>(G * l.a + R)]; };

  LinkId next = static_cast<LinkId>(p.links().size());
  auto cable = [&](const std::string& cable_name, NodeId from, NodeId to, const LinkSpec& spec) {
    const Cable c = add_cable(p, cable_name, from, to, spec, common.full_duplex);
    SIMFAB_CHECK(c.up == next && c.down == next + (l.w - 1),
                 "dragonfly cable " + cable_name + " is not where routing expects it");
    next += l.w;
  };

  l.host_base = next;
  for (int64_t i = 0; i < host_total; ++i) {
    const int64_t r = i / l.p;
    cable(t + "_h" + std::to_string(i) + "_" + names[static_cast<size_t>(r)], host_node(hosts[static_cast<size_t>(i)]),
          node(r / l.a, r % l.a), common.host_link);
  }
  l.local_base = next;
  for (int64_t G = 0; G < l.g; ++G)
    for (int64_t r1 = 0; r1 < l.a; ++r1)
      for (int64_t r2 = r1 + 1; r2 < l.a; ++r2)
        cable(t + "_" + name(G, r1) + "_r" + std::to_string(r2), node(G, r1), node(G, r2), common.link);
  l.global_base = next;
  const LinkSpec& global_spec = params.global_link ? *params.global_link : common.link;
  for (int64_t G = 0; G < l.g; ++G)
    for (int64_t T = G + 1; T < l.g; ++T) {
      const int64_t jG = offset_to(l.arrangement, l.g, G, T), jT = offset_to(l.arrangement, l.g, T, G);
      for (int64_t c = 0; c < l.m; ++c) {
        const int64_t E = (c * (l.g - 1) + jG) / l.h, L = (c * (l.g - 1) + jT) / l.h;
        std::string cable_name = t + "_" + name(G, E) + "_" + name(T, L);
        if (l.m > 1) cable_name += "_c" + std::to_string(c);
        cable(cable_name, node(G, E), node(T, L), global_spec);
      }
    }

  auto topo = std::make_unique<DragonflyTopology>(l, routing, params.ugal_threshold);
  return p.add_topology(std::move(topo), std::move(hosts));
}

}  // namespace simfab
