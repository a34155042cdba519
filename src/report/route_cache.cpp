#include "report/route_cache.hpp"

#include "topo/hash.hpp"

namespace simfab {

const std::vector<LinkId>& RouteCache::route(const Platform& p, HostId a, HostId b) {
  if (slots_.empty()) slots_.resize(kSlots);
  const uint64_t key = uint64_t{static_cast<uint32_t>(a)} << 32 | static_cast<uint32_t>(b);
  Slot& s = slots_[static_cast<size_t>(mix64(key) % kSlots)];
  if (s.key != key) {
    ++misses_;
    s.key = key;
    if (!p.route_into(a, b, s.links)) s.links.clear();
  }
  return s.links;
}

}  // namespace simfab
