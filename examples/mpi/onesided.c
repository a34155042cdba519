/* onesided: one-sided communication. (1) Fence epochs: every rank MPI_Puts its rank into slot
 * `rank` of its right neighbour's window and MPI_Gets slot 0 of its left neighbour's; (2) passive
 * target: every rank adds rank+1 to a counter on rank 0 with MPI_Accumulate under an exclusive
 * lock, then MPI_Fetch_and_op and MPI_Compare_and_swap on rank 0; (3) PSCW between even and odd
 * ranks. Checks every value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long* slots;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)((size + 1) * sizeof(long)), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &slots, &win);
  for (int i = 0; i <= size; ++i) slots[i] = -1;
  slots[0] = 100 + rank;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  long mine = rank, got = 0;
  MPI_Win_fence(0, win);
  MPI_Put(&mine, 1, MPI_LONG, right, rank + 1, 1, MPI_LONG, win);
  MPI_Get(&got, 1, MPI_LONG, left, 0, 1, MPI_LONG, win);
  MPI_Win_fence(0, win);
  if (got != 100 + left) ++bad;
  if (slots[left + 1] != left) ++bad;

  /* passive target: a counter in slot 0 of rank 0 */
  if (rank == 0) slots[0] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  long add = rank + 1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Accumulate(&add, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  long total = 0, one = 1;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Fetch_and_op(&one, &total, MPI_LONG, 0, 0, MPI_NO_OP, win);
  MPI_Win_unlock(0, win);
  if (total != (long)size * (size + 1) / 2) ++bad;
  MPI_Barrier(MPI_COMM_WORLD);
  /* compare-and-swap: only one rank wins the slot */
  long expect = total, desired = 1000 + rank, old = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Compare_and_swap(&desired, &expect, &old, MPI_LONG, 0, 0, win);
  MPI_Win_unlock(0, win);
  int won = old == total, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (winners != 1) ++bad;

  /* PSCW: odd ranks put into their even partner's slot 1 (after a fence-free epoch change) */
  if (size % 2 == 0) {
    MPI_Group world, peer;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int partner = rank ^ 1;
    MPI_Group_incl(world, 1, &partner, &peer);
    if (rank % 2 == 0) {
      MPI_Win_post(peer, 0, win);
      MPI_Win_wait(win);
      if (slots[1] != 7000 + partner) ++bad;
    } else {
      long v = 7000 + rank;
      MPI_Win_start(peer, 0, win);
      MPI_Put(&v, 1, MPI_LONG, partner, 1, 1, MPI_LONG, win);
      MPI_Win_complete(win);
    }
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
  }
  MPI_Win_free(&win);
  int all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("onesided: %d ranks: %s\n", size, all_bad ? "WRONG" : "OK");
  MPI_Finalize();
  return all_bad ? 1 : 0;
}
