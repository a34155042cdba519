// SimGrid 3.32's DRAGONFLY cluster: generation and routing (xml_dragonfly.hpp).
#include "platform/xml_dragonfly.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "platform/xml_host_limiters.hpp"
#include "platform/xml_units.hpp"

namespace simfab {
namespace {

// The index of the pair j < k among the n (n - 1) / 2 pairs of 0..n-1 in (j, k) order.
int64_t pair_index(int64_t n, int64_t j, int64_t k) { return j * (2 * n - j - 1) / 2 + (k - j - 1); }

class SimgridDragonfly final : public Topology {
 public:
  struct Bases {
    LinkId local, green, black, blue;
  };
  // Limiters (limiter_link): the hosts' (HostLimiters) and the routers', router r's being
  // routers + r; none when hosts.present() is false.
  struct Limiters {
    HostLimiters hosts;
    LinkId routers = -1;
  };
  SimgridDragonfly(const SimgridDragonflyParams& params, Bases bases, bool full_duplex, Limiters limiters)
      : p_(params), bases_(bases), width_(full_duplex ? 2 : 1), limiters_(limiters) {}

  std::string_view kind() const override { return "dragonfly (SimGrid)"; }
  std::string_view routing() const override { return "SimGrid 3.32 minimal"; }

  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    (void)request;
    const Coords s = coords(a);
    const Coords t = coords(b);
    host_limiter(a, sink);
    sink(cable(bases_.local, a, true));
    Router cur{s.group, s.chassis, s.blade};
    const Router target{t.group, t.chassis, t.blade};
    if (!(cur == target)) {
      if (t.group != cur.group) {
        if (cur.blade != t.group) {
          router_limiter(cur, sink);
          sink(green(cur, t.group));
          cur = Router{s.group, s.chassis, t.group};
        }
        if (cur.chassis != 0) {
          router_limiter(cur, sink);
          sink(black(cur, 0));
          cur = Router{s.group, 0, t.group};
        }
        sink(blue(cur));
        router_limiter(cur, sink);  // SimGrid lists it after the blue link
        cur = Router{t.group, 0, s.group};
      }
      if (t.blade != cur.blade) {
        router_limiter(cur, sink);
        sink(green(cur, t.blade));
        cur = Router{t.group, 0, t.blade};  // SimGrid's bookkeeping: chassis 0 (see the header)
      }
      if (t.chassis != cur.chassis) {
        router_limiter(cur, sink);
        sink(black(cur, t.chassis));
      }
    }
    router_limiter(target, sink);
    sink(cable(bases_.local, b, false));
    host_limiter(b, sink);
  }

 private:
  struct Coords {
    int group, chassis, blade, node;
  };
  struct Router {
    int group, chassis, blade;
    bool operator==(const Router& o) const { return group == o.group && chassis == o.chassis && blade == o.blade; }
  };

  Coords coords(int h) const {
    Coords c;
    c.node = h % p_.nodes;
    h /= p_.nodes;
    c.blade = h % p_.blades;
    h /= p_.blades;
    c.chassis = h % p_.chassis;
    c.group = h / p_.chassis;
    return c;
  }
  // Cable `index` of a block, crossed up (from -> to) or down.
  LinkId cable(LinkId base, int64_t index, bool up) const {
    return static_cast<LinkId>(base + index * width_ + (up || width_ == 1 ? 0 : 1));
  }
  // r's green link to blade k of its chassis.
  LinkId green(const Router& r, int k) const {
    const int64_t chassis = int64_t{r.group} * p_.chassis + r.chassis;
    const int j = std::min(r.blade, k);
    const int l = std::max(r.blade, k);
    return cable(bases_.green, chassis * (int64_t{p_.blades} * (p_.blades - 1) / 2) + pair_index(p_.blades, j, l),
                 r.blade < k);
  }
  // r's black link to chassis k of its group (same blade).
  LinkId black(const Router& r, int k) const {
    const int j = std::min(r.chassis, k);
    const int l = std::max(r.chassis, k);
    const int64_t pair = int64_t{r.group} * (int64_t{p_.chassis} * (p_.chassis - 1) / 2) + pair_index(p_.chassis, j, l);
    return cable(bases_.black, pair * p_.blades + r.blade, r.chassis < k);
  }
  void host_limiter(int h, LinkSink sink) const {
    if (limiters_.hosts.present()) sink(limiters_.hosts.of(h));
  }
  void router_limiter(const Router& r, LinkSink sink) const {
    if (limiters_.hosts.present())
      sink(static_cast<LinkId>(limiters_.routers + (int64_t{r.group} * p_.chassis + r.chassis) * p_.blades + r.blade));
  }
  // r's blue link: router q of group g leads to group q.
  LinkId blue(const Router& r) const {
    const int q = r.chassis * p_.blades + r.blade;
    return cable(bases_.blue, pair_index(p_.groups, std::min(r.group, q), std::max(r.group, q)), r.group < q);
  }

  SimgridDragonflyParams p_;
  Bases bases_;
  int width_;
  Limiters limiters_;
};

}  // namespace

std::variant<SimgridDragonflyParams, std::string> parse_simgrid_dragonfly(std::string_view text) {
  const std::vector<std::string> levels = split_fields(text, ';');
  if (levels.size() != 4)
    return "expected \"groups,blue;chassis,black;blades,green;nodes\" (4 ';'-separated levels), e.g. \"3,1;2,1;3,1;2\"";
  std::vector<int> v;
  for (size_t i = 0; i < 4; ++i) {
    const std::vector<std::string> fields = split_fields(levels[i], ',');
    if (fields.size() != (i < 3 ? 2u : 1u))
      return "level " + std::to_string(i + 1) + " '" + levels[i] + "' must have " + (i < 3 ? "two" : "one") +
             " comma-separated number" + (i < 3 ? "s" : "");
    for (const std::string& f : fields) {
      int x = 0;
      auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), x);
      if (f.empty() || ec != std::errc() || end != f.data() + f.size() || x < 1 || x > 65536)
        return "'" + f + "' is not an integer from 1 to 65536";
      v.push_back(x);
    }
  }
  SimgridDragonflyParams p;
  p.groups = v[0], p.blue = v[1], p.chassis = v[2], p.black = v[3], p.blades = v[4], p.green = v[5], p.nodes = v[6];
  if (p.hosts() > kMaxPlatformHosts) return "they give " + std::to_string(p.hosts()) + " hosts, too many";
  return p;
}

int add_simgrid_dragonfly(Platform& p, const TopoCommon& common, const SimgridDragonflyParams& params,
                          int64_t& unique_id) {
  const SimgridDragonflyParams& d = params;
  if (d.groups > 1 && d.groups > d.blades)
    throw TopologyError("topo_parameters",
                        std::to_string(d.groups) + " groups over " + std::to_string(d.blades) +
                            " blades per chassis: SimGrid 3.32 reaches group g through blade g of a chassis, so it "
                            "needs at most as many groups as blades (it crashes otherwise)");
  const int64_t per_group = int64_t{d.chassis} * d.blades;
  const int64_t routers = d.groups * per_group;
  const int64_t greens = d.groups * int64_t{d.chassis} * (int64_t{d.blades} * (d.blades - 1) / 2);
  const int64_t blacks = d.groups * (int64_t{d.chassis} * (d.chassis - 1) / 2) * d.blades;
  const int64_t blues = int64_t{d.groups} * (d.groups - 1) / 2;
  const int64_t width = common.full_duplex ? 2 : 1;
  const std::optional<LinkSpec>& limiter = common.hosts.limiter;
  reserve_elements(p, d.hosts(), routers,
                   (d.hosts() + greens + blacks + blues) * width + (common.hosts.loopback ? d.hosts() : 0) +
                       (limiter ? d.hosts() + routers : 0),
                   "topo_parameters");
  SimgridDragonfly::Limiters limiters;
  std::vector<HostId> hosts = add_topo_hosts(p, common.hosts, d.hosts(), limiters.hosts);
  const SwitchId first_router = p.switch_count();
  for (int64_t r = 0; r < routers; ++r) add_topo_switch(p, common.name + "_router_" + std::to_string(r));
  auto router = [&](int64_t r) { return switch_node(static_cast<SwitchId>(first_router + r)); };
  if (limiter) {  // SimGrid's DragonflyZone::generate_routers: router r is node 2 G C B N - 1 - r
    limiters.routers = static_cast<LinkId>(p.links().size());
    for (int64_t r = 0; r < routers; ++r)
      add_cable(p, common.hosts.link_prefix + std::to_string(2 * d.hosts() - 1 - r) + "_limiter", router(r), router(r),
                *limiter, false);
  }
  auto spec = [&](int count) {
    LinkSpec s = common.host_link;
    s.bandwidth_Bps *= count;
    return s;
  };
  auto add = [&](const std::string& name, NodeId from, NodeId to, const LinkSpec& s) {
    add_cable(p, name + "_" + std::to_string(unique_id++), from, to, s, common.full_duplex);
  };
  SimgridDragonfly::Bases bases{};
  bases.local = static_cast<LinkId>(p.links().size());
  for (int64_t r = 0; r < routers; ++r)
    for (int n = 0; n < d.nodes; ++n)
      add("local_link_from_router_" + std::to_string(r) + "_to_node_" + std::to_string(n),
          host_node(hosts[static_cast<size_t>(r * d.nodes + n)]), router(r), spec(1));
  bases.green = static_cast<LinkId>(p.links().size());
  for (int64_t x = 0; x < d.groups * int64_t{d.chassis}; ++x)
    for (int j = 0; j < d.blades; ++j)
      for (int k = j + 1; k < d.blades; ++k)
        add("green_link_in_chassis_" + std::to_string(x % d.chassis) + "_between_routers_" + std::to_string(j) +
                "_and_" + std::to_string(k),
            router(x * d.blades + j), router(x * d.blades + k), spec(d.green));
  bases.black = static_cast<LinkId>(p.links().size());
  for (int g = 0; g < d.groups; ++g)
    for (int j = 0; j < d.chassis; ++j)
      for (int k = j + 1; k < d.chassis; ++k)
        for (int l = 0; l < d.blades; ++l)
          add("black_link_in_group_" + std::to_string(g) + "_between_chassis_" + std::to_string(j) + "_and_" +
                  std::to_string(k) + "_blade_" + std::to_string(l),
              router(g * per_group + int64_t{j} * d.blades + l), router(g * per_group + int64_t{k} * d.blades + l),
              spec(d.black));
  bases.blue = static_cast<LinkId>(p.links().size());
  for (int i = 0; i < d.groups; ++i)
    for (int j = i + 1; j < d.groups; ++j) {
      const int64_t ri = i * per_group + j;
      const int64_t rj = j * per_group + i;
      add("blue_link_between_group_" + std::to_string(i) + "_and_" + std::to_string(j) + "_routers_" +
              std::to_string(ri) + "_and_" + std::to_string(rj),
          router(ri), router(rj), spec(d.blue));
    }
  return p.add_topology(std::make_unique<SimgridDragonfly>(d, bases, common.full_duplex, limiters), std::move(hosts));
}

}  // namespace simfab
