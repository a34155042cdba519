// chrono: C++'s clocks in simfab exec. Each rank charges 1e9 flops (1 s on a 1 Gf/s host) and
// prints what std::chrono::steady_clock and system_clock measured, next to MPI_Wtime.
#include <mpi.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double w0 = MPI_Wtime();
  const auto s0 = std::chrono::steady_clock::now();
  const auto y0 = std::chrono::system_clock::now();
  const auto h0 = std::chrono::high_resolution_clock::now();
#ifdef SIMFAB_MPI
  simfab_compute(1e9);
#endif
  const double w1 = MPI_Wtime();
  const std::chrono::duration<double> s = std::chrono::steady_clock::now() - s0;
  const std::chrono::duration<double> y = std::chrono::system_clock::now() - y0;
  const std::chrono::duration<double> h = std::chrono::high_resolution_clock::now() - h0;
  if (rank == 0)
    std::printf("chrono: MPI_Wtime %.6f s, steady_clock %.6f s, system_clock %.6f s, high_resolution_clock %.6f s\n",
                w1 - w0, s.count(), y.count(), h.count());
  MPI_Finalize();
  return 0;
}
