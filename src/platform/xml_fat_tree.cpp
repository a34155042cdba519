// SimGrid 3.32's FAT_TREE cluster: generation and routing (xml_fat_tree.hpp).
#include "platform/xml_fat_tree.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "platform/xml_host_limiters.hpp"

namespace simfab {
namespace {

// Level l (1-based) of the tree: its switches and the cables between it and level l - 1.
struct TreeLevel : XgftLevelShape {  // topo/fat_tree.hpp: m, w, p, M, W, count
  int64_t first_ordinal = 0;    // nodes before it in level order (its limiters' offset)
  LinkId first_link = -1;       // the cables to the level below, SimGrid's order
};

class SimgridFatTree final : public Topology {
 public:
  // Limiters: the hosts' (HostLimiters); the switches' are one block in level order from
  // `switches`. None when hosts.present() is false.
  struct Limiters {
    HostLimiters hosts;
    LinkId switches = -1;
  };
  SimgridFatTree(std::vector<TreeLevel> levels, int width, int64_t first_position, Limiters limiters)
      : levels_(std::move(levels)), width_(width), first_position_(first_position), limiters_(limiters) {}

  std::string_view kind() const override { return "fat-tree (SimGrid)"; }
  std::string_view routing() const override { return "SimGrid 3.32"; }

  // The rule is in the header; a == b is a host to itself (up and back down).
  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    (void)request;
    const int64_t x = a, y = b;
    const int64_t px = first_position_ + x, py = first_position_ + y;
    Node cur{0, x};
    while (!above(cur, y)) {  // up
      const TreeLevel& up = lv(cur.level + 1);
      const int64_t d = (py / lv(cur.level).W) % (up.w * up.p);
      limiter(cur, sink);
      const int64_t b_digit = d % up.w;
      sink(cable(cur.level + 1, cur.pos, b_digit, d / up.w, false));
      cur = Node{cur.level + 1, parent(cur, b_digit)};
    }
    while (cur.level > 0) {  // down: one scan of ports, carried over to the children it reaches
      const TreeLevel& at = lv(cur.level);
      for (int64_t i = (px % at.p) * at.m; cur.level > 0 && i < lv(cur.level).m * lv(cur.level).p; ++i) {
        const TreeLevel& here = lv(cur.level);
        if (i % here.m != digit(y, cur.level)) continue;
        const Node child{cur.level - 1, child_toward(cur, y)};
        sink(cable(cur.level, child.pos, (cur.pos % here.W) / lv(cur.level - 1).W, i / here.m, true));
        limiter(cur, sink);
        cur = child;
      }
    }
    limiter(cur, sink);
  }

 private:
  struct Node {
    int level;
    int64_t pos;  // B + W_l A
  };

  const TreeLevel& lv(int l) const { return levels_[static_cast<size_t>(l)]; }
  // Host y's digit at level l (1-based): which child of its level-l ancestor leads to it.
  int64_t digit(int64_t y, int l) const { return (y / lv(l - 1).M) % lv(l).m; }
  // True when host y lies below node n (a node is not above itself).
  bool above(const Node& n, int64_t y) const { return n.level > 0 && n.pos / lv(n.level).W == y / lv(n.level).M; }
  int64_t parent(const Node& n, int64_t b_digit) const {
    const TreeLevel& below = lv(n.level);
    const TreeLevel& up = lv(n.level + 1);
    return n.pos % below.W + below.W * b_digit + up.W * (n.pos / below.W / up.m);
  }
  // The child of n on the way down to host y (n above y).
  int64_t child_toward(const Node& n, int64_t y) const {
    const TreeLevel& below = lv(n.level - 1);
    return (n.pos % lv(n.level).W) % below.W + below.W * (y / below.M);
  }
  // Cable j between level-(l-1) node `child` and its parent of digit b, up or down.
  LinkId cable(int l, int64_t child, int64_t b_digit, int64_t j, bool down) const {
    const TreeLevel& c = lv(l);
    const int64_t e = (child * c.w + b_digit) * c.p + j;
    return static_cast<LinkId>(c.first_link + e * width_ + (down ? width_ - 1 : 0));
  }
  void limiter(const Node& n, LinkSink sink) const {
    if (!limiters_.hosts.present()) return;
    sink(n.level == 0 ? limiters_.hosts.of(n.pos)
                      : static_cast<LinkId>(limiters_.switches + lv(n.level).first_ordinal - lv(0).count + n.pos));
  }

  std::vector<TreeLevel> levels_;  // [0]: the hosts
  int width_;                      // links per cable
  int64_t first_position_;
  Limiters limiters_;
};

}  // namespace

int add_simgrid_fat_tree(Platform& p, const TopoCommon& common, const XgftParams& params,
                         SimgridFatTreeCounters& counters) {
  const XgftCounts counts = xgft_counts(params);  // validates the parameters
  const int h = params.levels();
  const int width = common.full_duplex ? 2 : 1;
  const std::optional<LinkSpec>& limiter = common.hosts.limiter;
  const int per_host = (common.hosts.loopback ? 1 : 0) + (limiter ? 1 : 0);
  reserve_elements(p, counts.hosts, counts.total_switches(),
                   counts.total_cables() * width + counts.hosts * per_host + (limiter ? counts.total_switches() : 0),
                   "topo_parameters");
  std::vector<TreeLevel> levels;
  int64_t ordinal = 0;  // nodes of the levels below (level 0's are the hosts: ordinals 0..N-1)
  for (const XgftLevelShape& shape : xgft_level_shapes(params, counts)) {
    levels.emplace_back();
    static_cast<XgftLevelShape&>(levels.back()) = shape;
    levels.back().first_ordinal = ordinal;
    ordinal += shape.count;
  }
  // SimGrid's node ids: hosts 0..N-1, switches from 2N - 1 downwards in level order.
  auto node_id = [&](int l, int64_t pos) {
    const int64_t ordinal = levels[static_cast<size_t>(l)].first_ordinal + pos;
    return l == 0 ? pos : 2 * counts.hosts - 1 - (ordinal - counts.hosts);
  };

  SimgridFatTree::Limiters limiters;
  std::vector<HostId> host_ids = add_topo_hosts(p, common.hosts, counts.hosts, limiters.hosts);
  const SwitchId first_switch = p.switch_count();
  for (int l = 1; l <= h; ++l)
    for (int64_t n = 0; n < levels[static_cast<size_t>(l)].count; ++n)
      add_topo_switch(p, common.name + "_switch_" + std::to_string(node_id(l, n)));
  auto node = [&](int l, int64_t pos) {
    if (l == 0) return host_node(host_ids[static_cast<size_t>(pos)]);
    return switch_node(static_cast<SwitchId>(first_switch + levels[static_cast<size_t>(l)].first_ordinal -
                                             counts.hosts + pos));
  };

  if (limiter) {
    limiters.switches = static_cast<LinkId>(p.links().size());
    for (int l = 1; l <= h; ++l)
      for (int64_t n = 0; n < levels[static_cast<size_t>(l)].count; ++n)
        add_cable(p, common.hosts.link_prefix + std::to_string(node_id(l, n)) + "_limiter", node(l, n), node(l, n),
                  *limiter, false);
  }

  for (int l = 1; l <= h; ++l) {
    TreeLevel& v = levels[static_cast<size_t>(l)];
    const TreeLevel& below = levels[static_cast<size_t>(l - 1)];
    v.first_link = static_cast<LinkId>(p.links().size());
    for (int64_t child = 0; child < below.count; ++child) {
      for (int64_t b = 0; b < v.w; ++b) {
        const int64_t parent = child % below.W + below.W * b + v.W * (child / below.W / v.m);
        const std::string name = "link_from_" + std::to_string(node_id(l - 1, child)) + "_" +
                                 std::to_string(node_id(l, parent)) + "_";
        for (int64_t j = 0; j < v.p; ++j)
          add_cable(p, name + std::to_string(counters.links++), node(l - 1, child), node(l, parent), common.link,
                    common.full_duplex);
      }
    }
  }
  const int64_t first_position = counters.positions;
  counters.positions += counts.hosts;
  return p.add_topology(std::make_unique<SimgridFatTree>(std::move(levels), width, first_position, limiters),
                        std::move(host_ids));
}

}  // namespace simfab
