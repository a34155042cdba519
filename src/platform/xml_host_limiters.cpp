// The hosts of a SimGrid cluster topology and their limiters (xml_host_limiters.hpp).
#include "platform/xml_host_limiters.hpp"

#include "core/error.hpp"

namespace simfab {

std::vector<HostId> add_topo_hosts(Platform& p, const HostSpec& spec, int64_t n, HostLimiters& limiters) {
  limiters = HostLimiters{};
  limiters.stride = (spec.loopback ? 1 : 0) + (spec.limiter ? 1 : 0);
  std::vector<HostId> hosts;
  hosts.reserve(static_cast<size_t>(n));
  for (int64_t x = 0; x < n; ++x) {
    hosts.push_back(add_topo_host(p, spec, x));
    const LinkId l = p.host(hosts.back()).limiter;
    if (x == 0) limiters.first = l;
    SIMFAB_CHECK(l == (spec.limiter ? limiters.of(x) : -1), "host limiters must be evenly spaced");
  }
  return hosts;
}

}  // namespace simfab
