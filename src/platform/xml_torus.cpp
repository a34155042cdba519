// SimGrid 3.32's TORUS cluster: generation and routing (xml_torus.hpp).
#include "platform/xml_torus.hpp"

#include <charconv>
#include <memory>
#include <utility>

#include "platform/xml_host_limiters.hpp"
#include "platform/xml_units.hpp"

namespace simfab {
namespace {

class SimgridTorus final : public Topology {
 public:
  SimgridTorus(std::vector<int64_t> dims, LinkId first_link, int width, HostLimiters limiters)
      : dims_(std::move(dims)), first_link_(first_link), width_(width), limiters_(limiters) {}

  std::string_view kind() const override { return "torus (SimGrid)"; }
  std::string_view routing() const override { return "SimGrid 3.32 dimension order"; }

  // The rule is in the header; a == b gives t's limiter alone (or nothing).
  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override {
    (void)request;
    const int64_t s = a, t = b;
    int64_t u = s;
    while (u != t) {
      int64_t stride = 1;  // D_j
      for (size_t j = 0; j < dims_.size(); ++j) {
        const int64_t d = dims_[j];
        const int64_t cu = (u / stride) % d, ct = (t / stride) % d, cs = (s / stride) % d;
        if (cu != ct) {
          const bool forwards = (ct > cs && ct <= cs + d / 2) || (cs > d / 2 && (cs + d / 2) % d >= ct);
          limiter(u, sink);
          if (forwards) {
            sink(link(u, j, false));
            u = cu == d - 1 ? u - (d - 1) * stride : u + stride;
          } else {
            const int64_t v = cu == 0 ? u + (d - 1) * stride : u - stride;
            sink(link(v, j, true));
            u = v;
          }
          break;
        }
        stride *= d;
      }
    }
    limiter(t, sink);
  }

 private:
  LinkId link(int64_t r, size_t j, bool down) const {
    return static_cast<LinkId>(first_link_ + (r * static_cast<int64_t>(dims_.size()) + static_cast<int64_t>(j)) * width_ +
                               (down ? width_ - 1 : 0));
  }
  void limiter(int64_t r, LinkSink sink) const {
    if (limiters_.present()) sink(limiters_.of(r));
  }

  std::vector<int64_t> dims_;
  LinkId first_link_;
  int width_;
  HostLimiters limiters_;
};

}  // namespace

std::variant<std::vector<int>, std::string> parse_simgrid_torus(std::string_view text) {
  std::vector<int> dims;
  int64_t n = 1;
  for (const std::string& f : split_fields(text, ',')) {
    int v = 0;
    auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (f.empty() || ec != std::errc() || end != f.data() + f.size() || v < 1 || v > kMaxPlatformHosts)
      return "expected comma-separated dimension sizes >= 1, e.g. \"4,4,4\"; got '" + f + "'";
    dims.push_back(v);
    n *= v;
    if (n > kMaxPlatformHosts) return "they give more than " + std::to_string(kMaxPlatformHosts) + " hosts";
  }
  return dims;
}

int add_simgrid_torus(Platform& p, const TopoCommon& common, const std::vector<int>& dims) {
  int64_t n = 1;
  for (int d : dims) n *= d;
  const int width = common.full_duplex ? 2 : 1;
  const int per_host = (common.hosts.loopback ? 1 : 0) + (common.hosts.limiter ? 1 : 0);
  reserve_elements(p, n, 0, n * static_cast<int64_t>(dims.size()) * width + n * per_host, "topo_parameters");
  HostLimiters limiters;
  std::vector<HostId> hosts = add_topo_hosts(p, common.hosts, n, limiters);
  const LinkId first_link = static_cast<LinkId>(p.links().size());
  for (int64_t r = 0; r < n; ++r) {
    int64_t stride = 1;
    for (int d : dims) {
      const int64_t q = (r / stride) % d == d - 1 ? r - (d - 1) * stride : r + stride;
      add_cable(p, common.name + "_link_from_" + std::to_string(r) + "_to_" + std::to_string(q),
                host_node(hosts[static_cast<size_t>(r)]), host_node(hosts[static_cast<size_t>(q)]), common.link,
                common.full_duplex);
      stride *= d;
    }
  }
  std::vector<int64_t> dims64(dims.begin(), dims.end());
  return p.add_topology(std::make_unique<SimgridTorus>(std::move(dims64), first_link, width, limiters),
                        std::move(hosts));
}

}  // namespace simfab
