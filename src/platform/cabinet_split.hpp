// Splitting a cluster's hosts into cabinets (the `cabinets:` key of a YAML cluster).
//
// The hosts are taken in host order (the cluster's index order), so cabinet k holds a contiguous
// run of them. `count: k` splits n hosts as evenly as possible, the first (n mod k) cabinets
// getting one more:
//   size_j = floor(n / k) + (j < n mod k ? 1 : 0),   j = 0 .. k-1,   sum_j size_j = n
// e.g. 144 hosts in 4 cabinets: 36 36 36 36; 10 hosts in 4: 3 3 2 2.
// Thread-safety: pure function.
#pragma once

#include <cstdint>
#include <vector>

namespace simfab {

// REQUIRES: 1 <= cabinets <= hosts.
std::vector<int64_t> even_cabinet_sizes(int64_t hosts, int64_t cabinets);

}  // namespace simfab
