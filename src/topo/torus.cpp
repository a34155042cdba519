#include "topo/torus.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace simfab {
namespace {


// Cables of one line of n routers along a dimension (torus.hpp).
int cables_per_line(int n, bool wrap) {
  if (n <= 1) return 0;
  if (n == 2) return 1;
  return wrap ? n : n - 1;
}

struct Dim {
  int n = 1;          // routers along it
  bool wrap = false;
  int cables = 0;     // c_d: cables per line
  int64_t stride = 1; // S_d
  LinkId base = 0;    // first link of its block
};

class TorusTopology final : public Topology {
 public:
  TorusTopology(std::vector<Dim> dims, int hosts_per_router, int links_per_cable, LinkId host_base,
                SwitchId first_router, int64_t routers)
      : dims_(std::move(dims)),
        p_(hosts_per_router),
        w_(links_per_cable),
        host_base_(host_base),
        first_router_(first_router),
        routers_(routers) {
    for (const Dim& d : dims_) wraps_ = wraps_ || d.wrap;
  }

  std::string_view kind() const override { return wraps_ ? "torus" : "mesh"; }
  std::string_view routing() const override { return "dimension-order"; }

  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    (void)request;
    const int64_t rb = b / p_;
    int64_t r = a / p_;
    sink(host_up(a));
    for (size_t d = 0; d < dims_.size(); ++d) {
      const Dim& dim = dims_[d];
      if (dim.n == 1) continue;
      const int64_t target = (rb / dim.stride) % dim.n;
      int64_t x = (r / dim.stride) % dim.n;
      if (x == target) continue;
      const bool plus = positive(dim, x, target);
      const int64_t lo = r % dim.stride;
      const int64_t hi = r / (dim.stride * dim.n);
      while (x != target) {
        sink(step(dim, lo, hi, x, plus));
        x = plus ? (x + 1) % dim.n : (x + dim.n - 1) % dim.n;
      }
      r = lo + x * dim.stride + hi * dim.stride * dim.n;
    }
    SIMFAB_CHECK(r == rb, "torus route did not reach the destination router");
    sink(host_down(b));
  }

  std::optional<int> diameter() const override {
    if (host_count() <= 1) return 0;
    int64_t hops = 2;
    for (const Dim& d : dims_) hops += d.wrap ? d.n / 2 : d.n - 1;
    return static_cast<int>(hops);
  }

  std::optional<LinkId> forward(SwitchId at, int dst) const override {
    const int64_t r = static_cast<int64_t>(at) - first_router_;
    if (r < 0 || r >= routers_ || dst < 0 || dst >= host_count()) return std::nullopt;
    const int64_t rb = dst / p_;
    if (r == rb) return host_down(dst);
    for (const Dim& dim : dims_) {
      const int64_t x = (r / dim.stride) % dim.n;
      const int64_t target = (rb / dim.stride) % dim.n;
      if (x == target) continue;
      return step(dim, r % dim.stride, r / (dim.stride * dim.n), x, positive(dim, x, target));
    }
    return std::nullopt;  // unreachable: r != rb differ in some dimension
  }

 private:
  // Whether dimension-order routing goes + from x to target (x != target).
  static bool positive(const Dim& dim, int64_t x, int64_t target) {
    if (!dim.wrap) return target > x;
    const int64_t f = (target - x + dim.n) % dim.n;
    return f <= dim.n - f;
  }

  LinkId cable(const Dim& dim, int64_t lo, int64_t hi, int64_t x) const {
    const int64_t index = lo + x * dim.stride + hi * dim.stride * dim.cables;
    return static_cast<LinkId>(dim.base + index * w_);
  }
  LinkId up(LinkId first) const { return first; }
  LinkId down(LinkId first) const { return first + (w_ - 1); }

  // The link of one step from coordinate x along `dim`, + or -, in the line (lo, hi).
  LinkId step(const Dim& dim, int64_t lo, int64_t hi, int64_t x, bool plus) const {
    if (dim.n == 2) return x == 0 ? up(cable(dim, lo, hi, 0)) : down(cable(dim, lo, hi, 0));
    if (plus) return up(cable(dim, lo, hi, x));
    return down(cable(dim, lo, hi, (x + dim.n - 1) % dim.n));
  }

  LinkId host_up(int i) const { return static_cast<LinkId>(host_base_ + int64_t{i} * w_); }
  LinkId host_down(int i) const { return host_up(i) + (w_ - 1); }

  std::vector<Dim> dims_;
  int p_;
  int w_;  // links per cable: 2 full duplex, 1 half duplex
  LinkId host_base_;
  SwitchId first_router_;
  int64_t routers_;
  bool wraps_ = false;
};

void validate(const TorusParams& t) {
  if (t.dims.empty()) throw TopologyError("dims", "a torus or mesh needs at least one dimension, e.g. dims: [4, 4]");
  for (size_t d = 0; d < t.dims.size(); ++d)
    if (t.dims[d] < 1)
      throw TopologyError("dims", "dimension " + std::to_string(d) + " has size " + std::to_string(t.dims[d]) +
                                      "; every dimension needs >= 1 router");
  if (t.wrap.size() != t.dims.size())
    throw TopologyError("wrap", "wrap gives " + std::to_string(t.wrap.size()) + " values for " +
                                    std::to_string(t.dims.size()) + " dimensions; give one per dimension");
  if (t.hosts_per_router < 1)
    throw TopologyError("hosts_per_router", "hosts_per_router is " + std::to_string(t.hosts_per_router) +
                                                "; every router needs >= 1 host");
  int64_t hosts = t.hosts_per_router;
  std::string product;
  for (int n : t.dims) {
    hosts = std::min<int64_t>(hosts * n, kMaxPlatformHosts + 1);
    product += (product.empty() ? "" : " x ") + std::to_string(n);
  }
  if (hosts > kMaxPlatformHosts)
    throw TopologyError("dims", product + " routers x " + std::to_string(t.hosts_per_router) +
                                    " hosts per router is more than " + std::to_string(kMaxPlatformHosts) +
                                    " hosts; use fewer or smaller dimensions");
}

}  // namespace

int add_torus(Platform& p, const TopoCommon& common, const TorusParams& params) {
  validate(params);
  const int per_router = params.hosts_per_router;
  std::vector<Dim> dims(params.dims.size());
  int64_t routers = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    dims[d].n = params.dims[d];
    dims[d].wrap = params.wrap[d];
    dims[d].cables = cables_per_line(dims[d].n, dims[d].wrap);
    dims[d].stride = routers;
    routers *= dims[d].n;
  }
  const int64_t host_total = routers * per_router;
  const int w = common.full_duplex ? 2 : 1;
  const std::string& t = common.name;
  int64_t cables = host_total;
  for (const Dim& d : dims) cables += d.cables * (routers / d.n);
  reserve_elements(p, host_total, routers, w * cables + (common.hosts.loopback ? host_total : 0), "dims");

  std::vector<HostId> hosts;
  hosts.reserve(static_cast<size_t>(host_total));
  for (int64_t i = 0; i < host_total; ++i) hosts.push_back(add_topo_host(p, common.hosts, i));

  const SwitchId first_router = p.switch_count();
  for (int64_t r = 0; r < routers; ++r) add_topo_switch(p, t + "_r" + std::to_string(r));
  auto router_node = [&](int64_t r) { return switch_node(static_cast<SwitchId>(first_router + r)); };

  // Cables in block order; each must land on the link id the routing computes.
  LinkId next = static_cast<LinkId>(p.links().size());
  auto cable = [&](const std::string& name, NodeId from, NodeId to, const LinkSpec& spec) {
    const Cable c = add_cable(p, name, from, to, spec, common.full_duplex);
    SIMFAB_CHECK(c.up == next && c.down == next + (w - 1), "torus cable " + name + " is not where routing expects it");
    next += w;
  };

  const LinkId host_base = next;
  for (int64_t i = 0; i < host_total; ++i) {
    const int64_t r = i / per_router;
    cable(t + "_h" + std::to_string(i) + "_r" + std::to_string(r), host_node(hosts[static_cast<size_t>(i)]),
          router_node(r), common.host_link);
  }
  for (Dim& dim : dims) {
    dim.base = next;
    if (dim.cables == 0) continue;
    const int64_t lines = routers / dim.n;  // (lo, hi) pairs, lo fastest
    for (int64_t hi = 0; hi < lines / dim.stride; ++hi)
      for (int64_t x = 0; x < dim.cables; ++x)
        for (int64_t lo = 0; lo < dim.stride; ++lo) {
          const int64_t r = lo + x * dim.stride + hi * dim.stride * dim.n;
          const int64_t q = lo + ((x + 1) % dim.n) * dim.stride + hi * dim.stride * dim.n;
          cable(t + "_r" + std::to_string(r) + "_r" + std::to_string(q), router_node(r), router_node(q), common.link);
        }
  }

  auto topo = std::make_unique<TorusTopology>(std::move(dims), per_router, w, host_base, first_router, routers);
  return p.add_topology(std::move(topo), std::move(hosts));
}

}  // namespace simfab
