#include "mpi_sweep_transport.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace simfab {
namespace {
MPI_Comm channel = MPI_COMM_NULL;
}

MpiSweepTransport::MpiSweepTransport(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_dup(MPI_COMM_WORLD, &channel);
  MPI_Comm_rank(channel, &rank_);
  MPI_Comm_size(channel, &size_);
}

MpiSweepTransport::~MpiSweepTransport() {
  MPI_Comm_free(&channel);
  MPI_Finalize();
}

void MpiSweepTransport::send(int to, int tag, const std::string& data) {
  MPI_Send(data.data(), static_cast<int>(data.size()), MPI_CHAR, to, tag, channel);
}

bool MpiSweepTransport::poll(SweepMessage& m) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, channel, &flag, &st);
  if (!flag) return false;
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  m.data.resize(static_cast<size_t>(n));
  MPI_Recv(m.data.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, channel, MPI_STATUS_IGNORE);
  m.source = st.MPI_SOURCE;
  m.tag = st.MPI_TAG;
  idle_us_ = 1;
  return true;
}

void MpiSweepTransport::idle() {
  ::usleep(static_cast<useconds_t>(idle_us_));
  idle_us_ = std::min(idle_us_ * 2, 1000);
}

void MpiSweepTransport::abort(int code) {
  std::fflush(nullptr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace simfab
