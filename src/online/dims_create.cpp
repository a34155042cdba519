#include "online/dims_create.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "online/arg_check.hpp"

namespace simfab::online {

namespace {

// Prime factors of n, largest first.
std::vector<int> prime_factors(int n) {
  std::vector<int> f;
  for (int p = 2; static_cast<int64_t>(p) * p <= n; ++p) {
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  }
  if (n > 1) f.push_back(n);
  std::sort(f.begin(), f.end(), std::greater<>());
  return f;
}

}  // namespace

void dims_create(int nnodes, int ndims, int* dims, const char* call) {
  if (nnodes < 1) mpi_fatal(call, "nnodes " + std::to_string(nnodes) + " < 1");
  check_count(call, "ndims", ndims);
  check_array(call, "dims", dims, ndims);
  int64_t fixed = 1;
  std::vector<int> free_dims;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0)
      mpi_fatal(call, "dims[" + std::to_string(i) + "] " + std::to_string(dims[i]) + " < 0");
    if (dims[i] == 0) {
      free_dims.push_back(i);
    } else {
      fixed *= dims[i];
    }
  }
  if (nnodes % fixed != 0 || (free_dims.empty() && fixed != nnodes)) {
    mpi_fatal(call, std::to_string(nnodes) +
                        " ranks do not fill a grid whose fixed dimensions have " +
                        std::to_string(fixed) + " ranks");
  }
  std::vector<int> sizes(free_dims.size(), 1);
  for (const int p : prime_factors(static_cast<int>(nnodes / fixed))) {
    if (sizes.empty()) break;
    *std::min_element(sizes.begin(), sizes.end()) *= p;
  }
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  for (size_t k = 0; k < free_dims.size(); ++k) dims[free_dims[k]] = sizes[k];
}

}  // namespace simfab::online
