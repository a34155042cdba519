/* DVFS from an MPI program (seed 001 §2.3): each rank times the same computation before and
 * after lowering its host's pstate with simfab_set_pstate. Run it on a platform with pstates:
 *   build/simfab-cc -O2 -o dvfs examples/mpi/dvfs.c
 *   build/simfab exec -np 2 --platform examples/platforms/energy_taurus.yaml \
 *                     --cfg online/compute=declared ./dvfs
 * On taurus (pstate 0 = 2.3 Gf/s, pstate 11 = 1.2 Gf/s) 2.3 Gflop take 1 s, then 2300/1200 s;
 * a sleep is not a computation: 1 s at any pstate. Prints "dvfs: ... OK" from rank 0. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

static int close_to(double a, double b) { return fabs(a - b) < 1e-9 * b; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = simfab_pstate_count();
  double t0 = MPI_Wtime();
  simfab_compute(2.3e9);
  const double fast = MPI_Wtime() - t0;
  simfab_set_pstate(n - 1);
  ok = ok && simfab_get_pstate() == n - 1;
  t0 = MPI_Wtime();
  simfab_compute(2.3e9);
  const double slow = MPI_Wtime() - t0;
  t0 = MPI_Wtime();
  simfab_sleep(1.0);
  const double nap = MPI_Wtime() - t0;
  simfab_set_pstate(0);
  ok = ok && n == 12 && close_to(fast, 1.0) && close_to(slow, 2300.0 / 1200.0) && close_to(nap, 1.0);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("dvfs: %d pstates, 2.3 Gflop in %.6f s at pstate 0 and %.6f s at pstate %d, sleep %.6f s %s\n", n, fast,
           slow, n - 1, nap, all ? "OK" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
