#include "online/memory_maps.hpp"

#include <fstream>
#include <string>

namespace simfab::online {

size_t max_mappings() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  size_t value = 0;
  return (in >> value) && value > 0 ? value : 65530;
}

size_t mappings_in_use() {
  std::ifstream in("/proc/self/maps");
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

MappingPlan plan_mappings(size_t ranks, size_t free_mappings) {
  MappingPlan plan;
  const size_t budget = free_mappings / 2 > 0 ? free_mappings / 2 : 1;
  if (3 * ranks <= budget) return plan;  // guarded stacks (2 each) and one mapping per copy
  plan.pooled_stacks = true;
  plan.copies_per_mapping = (ranks + budget - 1) / budget;
  return plan;
}

}  // namespace simfab::online
