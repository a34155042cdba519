// Hostfiles: which host each rank runs on, as smpirun (SimGrid) and mpirun take them.
//
// Format: one entry per line, `name` or `name:count` (count >= 1 ranks on that host, smpirun's
// unrolled form); blank lines and lines starting with '#' are skipped; spaces around the name
// and the count are ignored. The entries, unrolled, list hosts in rank order: rank r runs on
// entry r mod E, so a hostfile shorter than the rank count wraps around, as smpirun does.
// Several ranks may share a host: messages between them use the host's loopback link when the
// platform gives one (platform/platform.hpp).
// Errors (InputError, exit 2): a name that is no host of the platform (with the nearest host
// name), a count that is not an integer from 1 to 2^24, a file without entries. O(lines) plus
// O(log H) per name.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.hpp"

namespace simfab {

// The host of each of `num_ranks` ranks.
std::vector<HostId> read_hostfile(const std::string& path, const Platform& platform, int num_ranks);

}  // namespace simfab
