#include "online/type_constructors.hpp"

#include <string>
#include <vector>

#include "online/arg_check.hpp"
#include "online/datatype.hpp"

namespace simfab::online {

namespace {

std::string at(const char* array, int i) {
  return std::string(array) + "[" + std::to_string(i) + "]";
}

// n pieces of the old type: blocklength_of(i) copies at disp_of(i) bytes.
template <class BlockLength, class Disp>
MPI_Datatype replicate(const char* call, int n, MPI_Datatype old, BlockLength blocklength_of,
                       Disp disp_of) {
  check_count(call, "count", n);
  const Typemap& t = type_layout(old, call);
  std::vector<TypePiece> pieces;
  pieces.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) pieces.push_back({&t, blocklength_of(i), disp_of(i)});
  return type_register(typemap_combine(pieces, false));
}

// Block lengths read from an array, each checked.
auto lengths_from(const char* call, const int* blocklengths, int n) {
  check_array(call, "array_of_blocklengths", blocklengths, n);
  return [call, blocklengths](int i) -> int64_t {
    check_count(call, at("array_of_blocklengths", i).c_str(), blocklengths[i]);
    return blocklengths[i];
  };
}

auto same_length(const char* call, int blocklength) {
  check_count(call, "blocklength", blocklength);
  return [blocklength](int) -> int64_t { return blocklength; };
}

template <class D>
auto displs_from(const char* call, const D* displs, int n, int64_t unit) {
  check_array(call, "array_of_displacements", displs, n);
  return [displs, unit](int i) -> int64_t { return static_cast<int64_t>(displs[i]) * unit; };
}

int64_t extent_of(MPI_Datatype old, const char* call) { return type_layout(old, call).extent(); }

}  // namespace

MPI_Datatype type_contiguous(int count, MPI_Datatype old, const char* call) {
  check_count(call, "count", count);
  return replicate(
      call, 1, old, [count](int) -> int64_t { return count; }, [](int) -> int64_t { return 0; });
}

MPI_Datatype type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                         const char* call) {
  return type_hvector(count, blocklength, stride * extent_of(old, call), old, call);
}

MPI_Datatype type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                          const char* call) {
  return replicate(call, count, old, same_length(call, blocklength),
                   [stride](int i) -> int64_t { return i * static_cast<int64_t>(stride); });
}

MPI_Datatype type_indexed(int count, const int* blocklengths, const int* displs, MPI_Datatype old,
                          const char* call) {
  check_count(call, "count", count);
  return replicate(call, count, old, lengths_from(call, blocklengths, count),
                   displs_from(call, displs, count, extent_of(old, call)));
}

MPI_Datatype type_hindexed(int count, const int* blocklengths, const MPI_Aint* displs,
                           MPI_Datatype old, const char* call) {
  check_count(call, "count", count);
  return replicate(call, count, old, lengths_from(call, blocklengths, count),
                   displs_from(call, displs, count, 1));
}

MPI_Datatype type_indexed_block(int count, int blocklength, const int* displs, MPI_Datatype old,
                                const char* call) {
  check_count(call, "count", count);
  return replicate(call, count, old, same_length(call, blocklength),
                   displs_from(call, displs, count, extent_of(old, call)));
}

MPI_Datatype type_hindexed_block(int count, int blocklength, const MPI_Aint* displs,
                                 MPI_Datatype old, const char* call) {
  check_count(call, "count", count);
  return replicate(call, count, old, same_length(call, blocklength),
                   displs_from(call, displs, count, 1));
}

MPI_Datatype type_struct(int count, const int* blocklengths, const MPI_Aint* displs,
                         const MPI_Datatype* types, const char* call) {
  check_count(call, "count", count);
  const auto length_of = lengths_from(call, blocklengths, count);
  const auto disp_of = displs_from(call, displs, count, 1);
  check_array(call, "array_of_types", types, count);
  std::vector<TypePiece> pieces;
  pieces.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    pieces.push_back({&type_layout(types[i], call), length_of(i), disp_of(i)});
  }
  return type_register(typemap_combine(pieces, true));
}

MPI_Datatype type_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, const char* call) {
  return type_register(typemap_resized(type_layout(old, call), lb, extent));
}

MPI_Datatype type_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts,
                           int order, MPI_Datatype old, const char* call) {
  if (ndims < 1) mpi_fatal(call, "ndims " + std::to_string(ndims) + " < 1");
  check_array(call, "array_of_sizes", sizes, ndims);
  check_array(call, "array_of_subsizes", subsizes, ndims);
  check_array(call, "array_of_starts", starts, ndims);
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
    mpi_fatal(call,
              "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
  }
  for (int d = 0; d < ndims; ++d) {
    if (sizes[d] < 1)
      mpi_fatal(call, at("array_of_sizes", d) + " " + std::to_string(sizes[d]) + " < 1");
    check_count(call, at("array_of_subsizes", d).c_str(), subsizes[d]);
    check_count(call, at("array_of_starts", d).c_str(), starts[d]);
    if (static_cast<int64_t>(starts[d]) + subsizes[d] > sizes[d]) {
      mpi_fatal(call, "dimension " + std::to_string(d) + ": start " + std::to_string(starts[d]) +
                          " + subsize " + std::to_string(subsizes[d]) + " > size " +
                          std::to_string(sizes[d]));
    }
  }
  Typemap shape = type_layout(old, call);  // one row of the sub-array, then planes, ...
  int64_t stride = shape.extent();         // bytes between consecutive indices of dimension d
  int64_t offset = 0;                      // of the sub-array's first element
  for (int k = 0; k < ndims; ++k) {
    const int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
    std::vector<TypePiece> pieces;
    if (k == 0) {
      pieces.push_back({&shape, subsizes[d], 0});
    } else {
      for (int i = 0; i < subsizes[d]; ++i) pieces.push_back({&shape, 1, i * stride});
    }
    Typemap next = typemap_combine(pieces, false);
    shape = std::move(next);
    offset += starts[d] * stride;
    stride *= sizes[d];
  }
  const TypePiece shifted{&shape, 1, offset};
  return type_register(typemap_resized(typemap_combine({&shifted, 1}, false), 0, stride));
}

MPI_Datatype type_dup(MPI_Datatype old, const char* call) {
  return type_register(type_layout(old, call), type_is_committed(old, call));
}

}  // namespace simfab::online
