// The polling side of simfab's own MPI channels (simfab-hybrid-sim's, simfab-sweep-mpi's): take a
// message that has arrived on `comm`, if any, without blocking.
//
// mpi_poll: MPI_Iprobe (any source, any tag), then MPI_Recv of exactly the probed message into
// `m.data` (bytes), `m.source` and `m.tag`. Message: any type with those three members.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace simfab {

template <typename Message>
bool mpi_poll(MPI_Comm comm, Message& m) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st);
  if (!flag) return false;
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  m.data.resize(static_cast<size_t>(n));
  MPI_Recv(m.data.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
  m.source = st.MPI_SOURCE;
  m.tag = st.MPI_TAG;
  return true;
}

}  // namespace simfab
