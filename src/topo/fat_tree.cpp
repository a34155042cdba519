// XGFT generation and D-mod-K / S-mod-K routing; the addressing and the equations are in the header.
#include "topo/fat_tree.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <memory>
#include <utility>

#include "core/error.hpp"

namespace simfab {

namespace {

constexpr int kMaxLevels = 32;
constexpr int64_t kMaxId = std::numeric_limits<int32_t>::max();
// Counts saturate here, far above every limit, so a product of up to 32 factors never overflows.
constexpr int64_t kSaturated = int64_t{1} << 62;

int64_t sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturated / b ? kSaturated : std::min(a * b, kSaturated);
}
int64_t sat_add(int64_t a, int64_t b) { return a > kSaturated - b ? kSaturated : a + b; }

std::string list_text(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

std::string count_text(int64_t n) { return n >= kSaturated ? "more than 2^62" : std::to_string(n); }

// The level data a route needs; level 0 is the hosts.
struct Level : XgftLevelShape {
  SwitchId first_switch = -1;  // its switches are first_switch .. first_switch + count - 1
  LinkId first_link = -1;      // the block of cables between this level and the one below
};

class FatTreeTopology final : public Topology {
 public:
  FatTreeTopology(std::vector<Level> levels, FatTreeRouting routing, int links_per_cable)
      : levels_(std::move(levels)),
        h_(static_cast<int>(levels_.size()) - 1),
        routing_(routing),
        links_per_cable_(links_per_cable) {
    diameter_ = 0;
    for (int l = 1; l <= h_; ++l)
      if (levels_[static_cast<size_t>(l)].m > 1) diameter_ = 2 * l;
  }

  std::string_view kind() const override { return "fat-tree"; }
  std::string_view routing() const override { return fat_tree_routing_name(routing_); }
  std::optional<int> diameter() const override { return diameter_; }

  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    (void)request;
    const int64_t n = levels_[0].count;
    SIMFAB_CHECK(a != b && a >= 0 && b >= 0 && a < n && b < n, "fat-tree route between bad hosts");
    const int64_t x = a;
    const int64_t y = b;
    const int64_t z = routing_ == FatTreeRouting::kDModK ? y : x;
    int top = 1;
    while (x / lv(top).M != y / lv(top).M) ++top;  // ends by h: M_h = N
    for (int j = 0; j < top; ++j) {
      const int64_t node = (x / lv(j).M) * lv(j).W + z % lv(j).W;
      sink(cable_link(j + 1, node, z, false));
    }
    for (int i = top; i >= 1; --i) {
      const int64_t child = (y / lv(i - 1).M) * lv(i - 1).W + z % lv(i - 1).W;
      sink(cable_link(i, child, z, true));
    }
  }

  std::optional<LinkId> forward(SwitchId at, int dst) const override {
    if (routing_ != FatTreeRouting::kDModK || dst < 0 || dst >= levels_[0].count) return std::nullopt;
    for (int l = 1; l <= h_; ++l) {
      const Level& s = lv(l);
      if (at < s.first_switch || at - s.first_switch >= s.count) continue;
      const int64_t n = at - s.first_switch;
      const int64_t y = dst;
      if (y / s.M == n / s.W) {  // y is below: down to the child above y, by y's parallel cable
        const int64_t b = (n % s.W) / lv(l - 1).W;
        const int64_t child = (y / lv(l - 1).M) * lv(l - 1).W + (n % s.W) % lv(l - 1).W;
        return link_of(l, child, b, (y / s.W) % s.p, true);
      }
      SIMFAB_CHECK(l < h_, "a fat-tree top switch has every host below it");
      return cable_link(l + 1, n, y, false);
    }
    return std::nullopt;
  }

 private:
  const Level& lv(int l) const { return levels_[static_cast<size_t>(l)]; }

  LinkId link_of(int l, int64_t child, int64_t b, int64_t k, bool down) const {
    const Level& c = lv(l);
    const int64_t e = (child * c.w + b) * c.p + k;
    return static_cast<LinkId>(c.first_link + e * links_per_cable_ + (down ? links_per_cable_ - 1 : 0));
  }
  // The cable between `child` (level l-1) and its parent b_l(z), parallel cable k_l(z).
  LinkId cable_link(int l, int64_t child, int64_t z, bool down) const {
    const Level& c = lv(l);
    return link_of(l, child, (z / lv(l - 1).W) % c.w, (z / c.W) % c.p, down);
  }

  std::vector<Level> levels_;
  int h_;
  FatTreeRouting routing_;
  int links_per_cable_;
  int diameter_;
};

void check_sizes(const XgftParams& x) {
  const size_t h = x.down.size();
  if (h < 1)
    throw TopologyError("levels", "a fat-tree needs at least 1 level, got 0 (down is empty); give one "
                                  "value per level in down, up and parallel");
  if (h > static_cast<size_t>(kMaxLevels))
    throw TopologyError("levels", "a fat-tree has at most " + std::to_string(kMaxLevels) + " levels, got " +
                                      std::to_string(h));
  auto same = [&](const std::vector<int>& v, const char* name, const char* what) {
    if (v.size() != h)
      throw TopologyError(name, std::string(name) + " has " + std::to_string(v.size()) + " value(s) (" +
                                    list_text(v) + ") but down has " + std::to_string(h) + " (" +
                                    list_text(x.down) + "): give " + std::to_string(h) + " " + what +
                                    ", one per level from the hosts up");
  };
  same(x.up, "up", "parent counts");
  same(x.parallel, "parallel", "parallel cable counts");
  auto positive = [&](const std::vector<int>& v, const char* name, const char* what) {
    for (size_t i = 0; i < h; ++i)
      if (v[i] < 1)
        throw TopologyError(name, std::string(name) + " value " + std::to_string(i + 1) + " (level " +
                                      std::to_string(i + 1) + ") is " + std::to_string(v[i]) + " in " +
                                      list_text(v) + ": " + what + "; use 1 or more");
  };
  positive(x.down, "down", "every switch needs at least 1 child");
  positive(x.up, "up", "every node below the top needs at least 1 parent");
  positive(x.parallel, "parallel", "every child-parent pair needs at least 1 cable");
}

XgftCounts counts_of(const XgftParams& x) {
  XgftCounts c;
  const int h = x.levels();
  int64_t hosts = 1;
  for (int v : x.down) hosts = sat_mul(hosts, v);
  c.hosts = hosts;
  int64_t below = hosts;  // S_{l-1}
  int64_t m_prefix = 1;
  int64_t w_prefix = 1;
  for (int l = 1; l <= h; ++l) {
    const size_t i = static_cast<size_t>(l - 1);
    m_prefix = sat_mul(m_prefix, x.down[i]);
    w_prefix = sat_mul(w_prefix, x.up[i]);
    c.cables.push_back(sat_mul(sat_mul(below, x.up[i]), x.parallel[i]));
    below = sat_mul(w_prefix, hosts / m_prefix);  // exact: M_l divides N
    c.switches.push_back(below);
  }
  return c;
}

}  // namespace

int64_t XgftCounts::total_switches() const {
  int64_t t = 0;
  for (int64_t s : switches) t = sat_add(t, s);
  return t;
}

int64_t XgftCounts::total_cables() const {
  int64_t t = 0;
  for (int64_t s : cables) t = sat_add(t, s);
  return t;
}

std::vector<XgftLevelShape> xgft_level_shapes(const XgftParams& params, const XgftCounts& counts) {
  const int h = params.levels();
  std::vector<XgftLevelShape> levels(static_cast<size_t>(h) + 1);
  levels[0].count = counts.hosts;
  for (int l = 1; l <= h; ++l) {
    XgftLevelShape& v = levels[static_cast<size_t>(l)];
    const XgftLevelShape& below = levels[static_cast<size_t>(l - 1)];
    v.m = params.down[static_cast<size_t>(l - 1)];
    v.w = params.up[static_cast<size_t>(l - 1)];
    v.p = params.parallel[static_cast<size_t>(l - 1)];
    v.M = below.M * v.m;
    v.W = below.W * v.w;
    v.count = counts.switches[static_cast<size_t>(l - 1)];
  }
  return levels;
}

XgftCounts xgft_counts(const XgftParams& params) {
  check_sizes(params);
  XgftCounts c = counts_of(params);
  if (c.hosts > kMaxPlatformHosts)
    throw TopologyError("down", "down = " + list_text(params.down) + " gives " + count_text(c.hosts) +
                                    " hosts (their product), over the limit of " + std::to_string(kMaxPlatformHosts) +
                                    "; use fewer levels or fewer children per switch");
  if (c.total_switches() > kMaxId - 1)
    throw TopologyError("up", "up = " + list_text(params.up) + " gives " + count_text(c.total_switches()) +
                                  " switches, over the limit of " + std::to_string(kMaxId - 1) +
                                  "; use fewer parents per node");
  if (c.total_cables() > kMaxId) {
    XgftParams single = params;
    std::fill(single.parallel.begin(), single.parallel.end(), 1);
    const bool parallel_fault = counts_of(single).total_cables() <= kMaxId;
    throw TopologyError(parallel_fault ? "parallel" : "up",
                        "up = " + list_text(params.up) + " and parallel = " + list_text(params.parallel) +
                            " give " + count_text(c.total_cables()) + " cables, over the limit of " +
                            std::to_string(kMaxId) + "; use fewer " +
                            (parallel_fault ? "parallel cables" : "parents per node"));
  }
  return c;
}

XgftParams k_ary_n_tree(int k, int n) {
  if (k < 1) throw TopologyError("k", "a k-ary n-tree needs k >= 1 (children and parents per switch), got " + std::to_string(k));
  if (n < 1 || n > kMaxLevels)
    throw TopologyError("levels", "a k-ary n-tree needs 1 to " + std::to_string(kMaxLevels) + " levels, got " +
                                      std::to_string(n));
  int64_t hosts = 1;
  int max_n = 0;
  for (int i = 1; i <= n; ++i) {
    hosts = sat_mul(hosts, k);
    if (hosts <= kMaxPlatformHosts) max_n = i;
  }
  if (hosts > kMaxPlatformHosts)
    throw TopologyError("levels", "a " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree has " + std::to_string(k) +
                                      "^" + std::to_string(n) + " hosts, over the limit of " +
                                      std::to_string(kMaxPlatformHosts) + "; with k = " + std::to_string(k) +
                                      " use at most " + std::to_string(max_n) + " levels");
  XgftParams x;
  x.down.assign(static_cast<size_t>(n), k);
  x.up.assign(static_cast<size_t>(n), k);
  x.up[0] = 1;
  x.parallel.assign(static_cast<size_t>(n), 1);
  return x;
}

XgftParams k_port_fat_tree(int k, int levels) {
  if (k < 2 || k % 2 != 0)
    throw TopologyError("k", "a k-port fat-tree needs an even k >= 2 (half the ports of a switch go down, half "
                             "up), got " + std::to_string(k) +
                                 (k >= 2 ? "; try " + std::to_string(k - 1) + " or " + std::to_string(k + 1) : std::string()));
  if (levels < 1 || levels > kMaxLevels)
    throw TopologyError("levels", "a k-port fat-tree needs 1 to " + std::to_string(kMaxLevels) +
                                      " levels, got " + std::to_string(levels));
  int64_t hosts = k;
  int max_levels = 1;
  for (int i = 2; i <= levels; ++i) {
    hosts = sat_mul(hosts, k / 2);
    if (hosts <= kMaxPlatformHosts) max_levels = i;
  }
  if (hosts > kMaxPlatformHosts)
    throw TopologyError("levels", "a " + std::to_string(levels) + "-level fat-tree of " + std::to_string(k) +
                                      "-port switches has " + count_text(hosts) + " hosts, over the limit of " +
                                      std::to_string(kMaxPlatformHosts) + "; with k = " + std::to_string(k) +
                                      " use at most " + std::to_string(max_levels) + " levels");
  XgftParams x;
  x.down.assign(static_cast<size_t>(levels), k / 2);
  x.down.back() = k;
  x.up.assign(static_cast<size_t>(levels), k / 2);
  x.up[0] = 1;
  x.parallel.assign(static_cast<size_t>(levels), 1);
  return x;
}

std::variant<XgftParams, std::string> parse_simgrid_fat_tree(std::string_view text) {
  auto split = [](std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (;;) {
      const size_t end = s.find(sep, start);
      parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
      if (end == std::string_view::npos) return parts;
      start = end + 1;
    }
  };
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  auto positive = [&](std::string_view s) -> std::optional<int> {
    s = trim(s);
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 1) return std::nullopt;
    return v;
  };
  const std::string quoted = "\"" + std::string(text) + "\"";
  const auto parts = split(text, ';');
  if (parts.size() != 4)
    return "a FAT_TREE topology is 4 parts separated by ';', \"levels;down;up;link-count\" (e.g. "
           "\"2;4,4;1,2;1,2\"), but " + quoted + " has " + std::to_string(parts.size());
  const auto levels = positive(parts[0]);
  if (!levels)
    return "part 1 (levels) of " + quoted + " is \"" + std::string(trim(parts[0])) +
           "\", not a positive whole number of levels";
  if (*levels > kMaxLevels)
    return "part 1 (levels) of " + quoted + " is " + std::to_string(*levels) + "; a fat-tree has at most " +
           std::to_string(kMaxLevels) + " levels";
  static constexpr const char* kPart[] = {"down: children per switch", "up: parents per node",
                                          "link-count: cables per child-parent pair"};
  XgftParams x;
  std::vector<int>* out[] = {&x.down, &x.up, &x.parallel};
  for (int i = 0; i < 3; ++i) {
    const auto values = split(parts[static_cast<size_t>(i + 1)], ',');
    const std::string where = "part " + std::to_string(i + 2) + " (" + kPart[i] + ") of " + quoted;
    if (values.size() != static_cast<size_t>(*levels))
      return where + " has " + std::to_string(values.size()) + " value(s), \"" +
             std::string(parts[static_cast<size_t>(i + 1)]) + "\", but levels is " + std::to_string(*levels) +
             ": give one comma-separated value per level, from the hosts up";
    for (size_t j = 0; j < values.size(); ++j) {
      const auto v = positive(values[j]);
      if (!v)
        return where + ": value " + std::to_string(j + 1) + " (level " + std::to_string(j + 1) + ") is \"" +
               std::string(trim(values[j])) + "\", not a positive whole number";
      out[i]->push_back(*v);
    }
  }
  return x;
}

std::string_view fat_tree_routing_name(FatTreeRouting r) {
  return r == FatTreeRouting::kDModK ? "d-mod-k" : "s-mod-k";
}

std::optional<FatTreeRouting> fat_tree_routing_from_name(std::string_view name) {
  if (name == "d-mod-k") return FatTreeRouting::kDModK;
  if (name == "s-mod-k") return FatTreeRouting::kSModK;
  return std::nullopt;
}

int add_fat_tree(Platform& p, const TopoCommon& common, const XgftParams& params, FatTreeRouting routing) {
  const XgftCounts counts = xgft_counts(params);
  const int h = params.levels();
  const int links_per_cable = common.full_duplex ? 2 : 1;
  const int64_t new_links =
      sat_add(sat_mul(counts.total_cables(), links_per_cable), common.hosts.loopback ? counts.hosts : 0);
  if (sat_add(static_cast<int64_t>(p.links().size()), new_links) > kMaxId)
    throw TopologyError("up", "the fat-tree adds " + count_text(new_links) + " links to " +
                                  std::to_string(p.links().size()) + ", over the limit of " + std::to_string(kMaxId) +
                                  "; use fewer parents per node or parallel cables");
  if (sat_add(p.switch_count(), counts.total_switches()) > kMaxId - 1)
    throw TopologyError("up", "the fat-tree adds " + count_text(counts.total_switches()) + " switches to " +
                                  std::to_string(p.switch_count()) + ", over the limit of " + std::to_string(kMaxId - 1));
  reserve_elements(p, counts.hosts, counts.total_switches(), new_links, "up");

  std::vector<Level> levels;
  for (const XgftLevelShape& shape : xgft_level_shapes(params, counts)) {
    levels.emplace_back();
    static_cast<XgftLevelShape&>(levels.back()) = shape;
  }

  std::vector<HostId> hosts;
  hosts.reserve(static_cast<size_t>(counts.hosts));
  for (int64_t x = 0; x < counts.hosts; ++x) hosts.push_back(add_topo_host(p, common.hosts, x));

  const std::string level_prefix = common.name + "_L";
  for (int l = 1; l <= h; ++l) {
    Level& v = levels[static_cast<size_t>(l)];
    v.first_switch = p.switch_count();
    const std::string prefix = level_prefix + std::to_string(l) + "_";
    for (int64_t n = 0; n < v.count; ++n) {
      const SwitchId s = add_topo_switch(p, prefix + std::to_string(n));
      SIMFAB_CHECK(s == v.first_switch + n, "fat-tree switches must get consecutive ids");
    }
  }

  for (int l = 1; l <= h; ++l) {
    Level& v = levels[static_cast<size_t>(l)];
    const Level& below = levels[static_cast<size_t>(l - 1)];
    const LinkSpec& spec = l == 1 ? common.host_link : common.link;
    v.first_link = static_cast<LinkId>(p.links().size());
    const std::string prefix = level_prefix + std::to_string(l) + "_";
    LinkId expected = v.first_link;
    std::string name;
    for (int64_t child = 0; child < below.count; ++child) {
      const NodeId from = l == 1 ? host_node(hosts[static_cast<size_t>(child)])
                                 : switch_node(static_cast<SwitchId>(below.first_switch + child));
      const int64_t a = child / below.W;
      const int64_t bb = child % below.W;
      for (int64_t b = 0; b < v.w; ++b) {
        const int64_t parent = bb + below.W * b + v.W * (a / v.m);
        const NodeId to = switch_node(static_cast<SwitchId>(v.first_switch + parent));
        for (int64_t k = 0; k < v.p; ++k) {
          name = prefix;
          name += std::to_string(child);
          name += '_';
          name += std::to_string(parent);
          if (k > 0) {
            name += '_';
            name += std::to_string(k);
          }
          const Cable c = add_cable(p, name, from, to, spec, common.full_duplex);
          SIMFAB_CHECK(c.up == expected && c.down == expected + links_per_cable - 1,
                       "fat-tree cables must get consecutive link ids");
          expected += links_per_cable;
        }
      }
    }
  }

  return p.add_topology(std::make_unique<FatTreeTopology>(std::move(levels), routing, links_per_cable),
                        std::move(hosts));
}

}  // namespace simfab
