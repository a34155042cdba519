/* rma_more: one-sided communication beyond windows of fixed memory, one line per feature ("name:
 * OK"), printed by rank 0: dynamic windows (memory attached after creation, addressed by
 * MPI_Get_address), request-based operations (MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate completed by MPI_Wait), shared-memory windows (MPI_Win_allocate_shared,
 * MPI_Win_shared_query, then plain loads), and windows on a split communicator and on
 * MPI_COMM_SELF. Runs on any number of ranks >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* dynamic window */
  MPI_Win dyn;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
  int* mem = calloc(8, sizeof(int));
  MPI_Win_attach(dyn, mem, 8 * sizeof(int));
  MPI_Aint mine, *addrs = malloc(sizeof(MPI_Aint) * (size_t)size);
  MPI_Get_address(mem, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
  int value = 100 + rank;
  MPI_Win_lock_all(0, dyn);
  MPI_Put(&value, 1, MPI_INT, right, addrs[right] + 3 * (MPI_Aint)sizeof(int), 1, MPI_INT, dyn);
  MPI_Win_unlock_all(dyn);
  MPI_Barrier(MPI_COMM_WORLD);
  report(rank, "dynamic window: a put at an attached address", mem[3] == 100 + left);
  MPI_Win_detach(dyn, mem);
  MPI_Win_free(&dyn);
  free(mem);

  /* request-based operations */
  int buf[4] = {rank, rank, rank, rank}, got[4] = {-1, -1, -1, -1}, old = -1;
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Request reqs[3];
  MPI_Win_lock_all(0, win);
  MPI_Rget(got, 2, MPI_INT, right, 0, 2, MPI_INT, win, &reqs[0]);
  MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  const int one = 1;
  MPI_Win_lock_all(0, win);
  MPI_Rput(&value, 1, MPI_INT, right, 2, 1, MPI_INT, win, &reqs[0]);
  MPI_Raccumulate(&one, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win, &reqs[1]);
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win, &reqs[2]);
  MPI_Wait(&reqs[2], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  report(rank, "MPI_Rget, MPI_Rput, MPI_Raccumulate, MPI_Rget_accumulate",
         got[0] == right && got[1] == right && buf[2] == 100 + left && buf[3] == rank + 1 && old == right &&
             buf[0] == rank + 1);
  MPI_Win_free(&win);

  /* shared-memory window */
  double* base = NULL;
  MPI_Win shm;
  MPI_Win_allocate_shared(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &shm);
  for (int i = 0; i < 4; ++i) base[i] = rank + i / 10.0;
  MPI_Win_fence(0, shm);
  MPI_Aint qsize = 0;
  int qunit = 0;
  double* theirs = NULL;
  MPI_Win_shared_query(shm, right, &qsize, &qunit, &theirs);
  report(rank, "MPI_Win_allocate_shared + MPI_Win_shared_query: the neighbour's memory",
         qsize == 4 * (MPI_Aint)sizeof(double) && qunit == (int)sizeof(double) && theirs[2] == right + 0.2);
  MPI_Win_fence(0, shm);
  MPI_Win_free(&shm);

  /* windows on a split communicator and on MPI_COMM_SELF */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hrank, hsize, hbuf = 10 * rank, hgot = -1;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  MPI_Win hw, sw;
  MPI_Win_create(&hbuf, sizeof hbuf, sizeof(int), MPI_INFO_NULL, half, &hw);
  int sbuf = rank, sgot = -1;
  MPI_Win_create(&sbuf, sizeof sbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &sw);
  MPI_Win_fence(0, hw);
  MPI_Get(&hgot, 1, MPI_INT, (hrank + 1) % hsize, 0, 1, MPI_INT, hw);
  MPI_Win_fence(0, hw);
  MPI_Win_fence(0, sw);
  MPI_Get(&sgot, 1, MPI_INT, 0, 0, 1, MPI_INT, sw);
  MPI_Win_fence(0, sw);
  int partner_world = 2 * ((hrank + 1) % hsize) + rank % 2;
  report(rank, "windows on a split communicator and on MPI_COMM_SELF", hgot == 10 * partner_world && sgot == rank);
  MPI_Win_free(&hw);
  MPI_Win_free(&sw);
  MPI_Comm_free(&half);
  free(addrs);
  if (rank == 0) printf("rma_more: %s\n", failures ? "FAILED" : "all OK");
  MPI_Finalize();
  return 0;
}
