#include "online/type_queries.hpp"

#include <climits>
#include <string>

#include "online/arg_check.hpp"
#include "online/datatype.hpp"

namespace simfab::online {

namespace {

// Checks that `need` bytes fit from *position in a buffer of `size` bytes.
void check_room(const char* call, const char* buffer, int size, int position, int64_t need) {
  if (position < 0 || position > size) {
    mpi_fatal(call, "position " + std::to_string(position) + " outside the " + buffer + " of " +
                        std::to_string(size) + " bytes");
  }
  if (position + need > size) {
    mpi_fatal(call, "message truncated: " + std::to_string(need) + " bytes from position " +
                        std::to_string(position) + " do not fit in the " + buffer + " of " +
                        std::to_string(size) + " bytes");
  }
}

}  // namespace

int64_t count_of_bytes(int64_t bytes, MPI_Datatype t, const char* call) {
  const int64_t size = type_layout(t, call).size;
  if (size == 0) return 0;
  return bytes % size == 0 ? bytes / size : MPI_UNDEFINED;
}

int64_t elements_of_bytes(int64_t bytes, MPI_Datatype t, const char* call) {
  const int64_t n = typemap_elements(type_layout(t, call), bytes);
  return n < 0 ? MPI_UNDEFINED : n;
}

int64_t bytes_of_elements(int64_t elements, MPI_Datatype t, const char* call) {
  check_count(call, "count", elements);
  return typemap_bytes_of_elements(type_layout(t, call), elements);
}

int to_int_or_undefined(int64_t n) { return n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n); }

void pack_at(const void* inbuf, int incount, MPI_Datatype t, void* outbuf, int outsize,
             int* position, const char* call) {
  check_count(call, "incount", incount);
  check_count(call, "outsize", outsize);
  check_pointer(call, "position", position);
  const int64_t need = incount * type_size(t, call);
  check_room(call, "output buffer", outsize, *position, need);
  if (need == 0) return;
  check_pointer(call, "outbuf", outbuf);
  pack(inbuf, incount, t, static_cast<std::byte*>(outbuf) + *position);
  *position += static_cast<int>(need);
}

void unpack_at(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype t, const char* call) {
  check_count(call, "outcount", outcount);
  check_count(call, "insize", insize);
  check_pointer(call, "position", position);
  const int64_t need = outcount * type_size(t, call);
  check_room(call, "input buffer", insize, *position, need);
  if (need == 0) return;
  check_pointer(call, "inbuf", inbuf);
  unpack(static_cast<const std::byte*>(inbuf) + *position, outcount, t, outbuf);
  *position += static_cast<int>(need);
}

int pack_size(int incount, MPI_Datatype t, const char* call) {
  check_count(call, "incount", incount);
  const int64_t bytes = incount * type_layout(t, call).size;
  if (bytes > INT_MAX) {
    mpi_fatal(call, std::to_string(bytes) + " bytes do not fit in an int (use fewer elements)");
  }
  return static_cast<int>(bytes);
}

}  // namespace simfab::online
