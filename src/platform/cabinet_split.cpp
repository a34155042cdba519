#include "platform/cabinet_split.hpp"

#include "core/error.hpp"

namespace simfab {

std::vector<int64_t> even_cabinet_sizes(int64_t hosts, int64_t cabinets) {
  SIMFAB_CHECK(cabinets >= 1 && cabinets <= hosts, "cannot split " + std::to_string(hosts) + " hosts into " +
                                                       std::to_string(cabinets) + " non-empty cabinets");
  std::vector<int64_t> sizes(static_cast<size_t>(cabinets), hosts / cabinets);
  for (int64_t j = 0; j < hosts % cabinets; ++j) ++sizes[static_cast<size_t>(j)];
  return sizes;
}

}  // namespace simfab
