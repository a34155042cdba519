#include "mpi_sweep_transport.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "../mpi_common/mpi_poll.hpp"

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
  if (!mpi_poll(channel, m)) return false;
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
