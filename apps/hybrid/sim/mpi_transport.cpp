#include "mpi_transport.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "../../mpi_common/mpi_poll.hpp"

namespace simfab::hybrid {

namespace {
MPI_Comm chan = MPI_COMM_NULL;
}

MpiTransport::MpiTransport(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  ranks_ = world - 1;
  MPI_Comm none = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none);  // the ranks' application world
  MPI_Comm_dup(MPI_COMM_WORLD, &chan);
}

void MpiTransport::send_setup(int rank, const Setup& setup) {
  MPI_Send(&setup, sizeof setup, MPI_BYTE, rank, kSetup, chan);
}

bool MpiTransport::poll(HybridMessage& m) {
  if (!mpi_poll(chan, m)) return false;
  idle_us_ = 1;
  return true;
}

void MpiTransport::idle() {
  // Back off from 1 us to 1 ms: the ranks share the cores with the simulator.
  usleep(static_cast<useconds_t>(idle_us_));
  idle_us_ = std::min(idle_us_ * 2, 1000);
}

void MpiTransport::send_wtime(int rank, double seconds) { MPI_Send(&seconds, 1, MPI_DOUBLE, rank, kWtime, chan); }

void MpiTransport::abort(int code, const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void MpiTransport::finalize() { MPI_Finalize(); }

}  // namespace simfab::hybrid
