// Memory mappings: a process may hold at most vm.max_map_count of them (65,530 by default), and
// online mode's per-rank objects (program copies, fiber stacks) are the ones that grow with the
// ranks. plan_mappings() decides, from what the process holds now, how they are laid out:
//   - up to what fits in half the free mappings, each fiber stack is its own mapping with a
//     PROT_NONE guard region below it (2 mappings; an overflow faults at once) and each program
//     copy its own mapping (K = 1);
//   - beyond that, every stack lives in one pooled mapping (an overflow is caught by a zero canary
//     at the bottom of each stack, checked at every switch back from the fiber: fiber.hpp), and
//     program copies are grouped K to a mapping (copy_linker.hpp) with K the smallest that keeps
//     them within half the free mappings.
// The other half stays free for the program's own large allocations (malloc maps blocks of
// 128 KiB and more), the libraries it loads and the simulator.
#pragma once

#include <cstddef>

namespace simfab::online {

struct MappingPlan {
  bool pooled_stacks = false;
  size_t copies_per_mapping = 1;
};

// vm.max_map_count (65530 when it cannot be read), and the mappings the process holds now.
size_t max_mappings();
size_t mappings_in_use();

// The layout for `ranks` ranks given `free_mappings` still available.
MappingPlan plan_mappings(size_t ranks, size_t free_mappings);

}  // namespace simfab::online
