#include "sweep/mpi_launch.hpp"

#include <cstdlib>
#include <initializer_list>

namespace simfab {
namespace {

int positive(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n > 0 && n < (1L << 30) ? static_cast<int>(n) : 0;
}

}  // namespace

int launcher_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const int n = positive(name)) return n;
  if (std::getenv("PMIX_RANK") != nullptr)
    if (const int n = positive("SLURM_STEP_NUM_TASKS")) return n;
  return 1;
}

}  // namespace simfab
