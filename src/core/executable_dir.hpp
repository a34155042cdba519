// The directory of the running executable (/proc/self/exe's), where simfab finds its sibling
// programs: simfab-hybrid-sim, simfab-sweep-mpi, the simfab a sweep's points run. "." when
// /proc/self/exe cannot be read. Linux only.
#pragma once

#include <string>

namespace simfab {

std::string executable_dir();

}  // namespace simfab
