// span_copy: a private copy of `count` elements of `type` at `buf`, for a real send or collective
// input that must stay valid after the wrapper returns (hybrid_state.hpp, rule 2). The copy holds
// the bytes the elements span ([true lower bound, (count - 1) x extent + true extent)), so the
// copy is used with the caller's own datatype: `ptr` stands where `buf` stood.
#pragma once

#include <mpi.h>

#include <cstring>
#include <vector>

namespace simfab::hybrid {

struct SpanCopy {
  std::vector<char> data;
  const void* ptr = nullptr;
};

inline SpanCopy span_copy(const void* buf, int count, MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  SpanCopy c;
  const MPI_Aint span = count > 0 ? (count - 1) * extent + true_extent : 0;
  c.data.resize(static_cast<size_t>(span > 0 ? span : 0) + 1);
  if (span > 0) std::memcpy(c.data.data(), static_cast<const char*>(buf) + true_lb, static_cast<size_t>(span));
  c.ptr = c.data.data() - true_lb;
  return c;
}

}  // namespace simfab::hybrid
