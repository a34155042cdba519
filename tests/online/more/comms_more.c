/* comms_more: MPI-3's communicator and matching calls that programs written after 2012 use.
 *   - MPI_Comm_create_group: only the even ranks call it (the odd ones exchange messages among
 *     themselves meanwhile); the new communicator holds the even ranks in order; two calls with
 *     the same group and tag make two communicators (congruent, not identical); a singleton group;
 *   - MPI_Comm_idup: the rank starts other communication (a ring shift on the parent) before it
 *     waits for the new communicator, which then works and is congruent with the parent;
 *   - MPI_Mprobe / MPI_Mrecv: each rank gets three messages from its left neighbour with tags
 *     1, 2, 3; it matches tag 3 first (MPI_ANY_SOURCE), then posts a receive for any tag, which
 *     must get tag 1 (the matched message is no longer there to take), then receives the matched
 *     message into a vector of ints; MPI_Improbe with nothing pending says so; MPI_PROC_NULL gives
 *     MPI_MESSAGE_NO_PROC;
 *   - MPI_Imrecv: a matched message received into a strided datatype by a request that a test
 *     loop completes, with another receive between; MPI_MESSAGE_NO_PROC gives an MPI_PROC_NULL
 *     status.
 * Run on any MPI at any rank count >= 1; rank 0 prints one "what: OK" line per feature, then
 * "comms_more: all OK". */
#include <mpi.h>
#include <stdio.h>

#include "report.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* --- MPI_Comm_create_group --- */
  MPI_Group world, evens, alone;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  int ok = 1;
  if (rank % 2 == 0) {
    MPI_Comm a, b;
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &a);
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &b);
    int ra, sa, sum = 0, cmp;
    MPI_Comm_rank(a, &ra);
    MPI_Comm_size(a, &sa);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, b);
    MPI_Comm_compare(a, b, &cmp);
    const int evens_n = (size + 1) / 2;
    ok = ra == rank / 2 && sa == evens_n && sum == evens_n * (evens_n - 1) && cmp == MPI_CONGRUENT;
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
  } else if (size > 1) {
    /* The odd ranks pass a token around among themselves while the even ones create. */
    const int odds = size / 2, me = rank / 2;
    int token = rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, 2 * ((me + 1) % odds) + 1, 9, &got, 1, MPI_INT, 2 * ((me + odds - 1) % odds) + 1,
                 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok = got == 2 * ((me + odds - 1) % odds) + 1;
  }
  MPI_Comm_group(MPI_COMM_SELF, &alone);
  MPI_Comm self_copy;
  MPI_Comm_create_group(MPI_COMM_WORLD, alone, 0, &self_copy);
  int self_size = 0;
  MPI_Comm_size(self_copy, &self_size);
  ok = ok && self_size == 1;
  MPI_Comm_free(&self_copy);
  report(rank, "MPI_Comm_create_group: the members only, two calls two communicators", ok);
  MPI_Group_free(&alone);
  MPI_Group_free(&evens);
  MPI_Group_free(&world);

  /* --- MPI_Comm_idup --- */
  MPI_Comm dup;
  MPI_Request req;
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
  int right = (rank + 1) % size, left = (rank + size - 1) % size, from_left = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 3, &from_left, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  int total = 0, cmp = MPI_UNEQUAL;
  MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, dup);
  MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
  report(rank, "MPI_Comm_idup: other traffic before the wait, then a working congruent copy",
         from_left == left && total == size * (size - 1) / 2 && cmp == MPI_CONGRUENT);
  MPI_Comm_free(&dup);

  /* --- MPI_Mprobe / MPI_Mrecv / MPI_Improbe --- */
  int out[3][4];
  MPI_Request sends[3];
  for (int t = 0; t < 3; ++t) {
    for (int i = 0; i < 4; ++i) out[t][i] = 100 * rank + 10 * (t + 1) + i;
    MPI_Isend(out[t], 2 + t, MPI_INT, right, t + 1, MPI_COMM_WORLD, &sends[t]);
  }
  MPI_Message msg;
  MPI_Status st, st_any, st_m;
  MPI_Mprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &msg, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  int first[4] = {0}, matched[4] = {0}, second[4] = {0};
  MPI_Recv(first, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st_any);
  MPI_Mrecv(matched, 4, MPI_INT, &msg, &st_m);
  MPI_Recv(second, 4, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(3, sends, MPI_STATUSES_IGNORE);
  int mcount = -1;
  MPI_Get_count(&st_m, MPI_INT, &mcount);
  ok = st.MPI_SOURCE == left && st.MPI_TAG == 3 && count == 4 && msg == MPI_MESSAGE_NULL &&
       st_any.MPI_TAG == 1 && first[0] == 100 * left + 10 && first[1] == 100 * left + 11 &&
       st_m.MPI_SOURCE == left && st_m.MPI_TAG == 3 && mcount == 4 && matched[3] == 100 * left + 33 &&
       second[2] == 100 * left + 22;
  report(rank, "MPI_Mprobe/MPI_Mrecv: the matched message is taken by no other receive", ok);

  int flag = 1;
  MPI_Message none = MPI_MESSAGE_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Improbe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &none, MPI_STATUS_IGNORE);
  MPI_Message noproc;
  MPI_Status st_null;
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &noproc, &st_null);
  const int is_noproc = noproc == MPI_MESSAGE_NO_PROC && st_null.MPI_SOURCE == MPI_PROC_NULL;
  MPI_Mrecv(NULL, 0, MPI_INT, &noproc, MPI_STATUS_IGNORE);
  /* Improbe that finds a message: send one to ourselves. */
  int v = 42 + rank, w = 0, found = 0;
  MPI_Request self_send;
  MPI_Isend(&v, 1, MPI_INT, rank, 8, MPI_COMM_WORLD, &self_send);
  MPI_Message mine;
  while (!found) MPI_Improbe(rank, 8, MPI_COMM_WORLD, &found, &mine, MPI_STATUS_IGNORE);
  MPI_Mrecv(&w, 1, MPI_INT, &mine, MPI_STATUS_IGNORE);
  MPI_Wait(&self_send, MPI_STATUS_IGNORE);
  report(rank, "MPI_Improbe: nothing pending, then a message; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC",
         flag == 0 && is_noproc && noproc == MPI_MESSAGE_NULL && w == 42 + rank);

  /* --- MPI_Imrecv --- */
  int pair[3] = {7 * rank + 1, 7 * rank + 2, 7 * rank + 3}, tail = 1000 + rank;
  MPI_Request isends[2];
  MPI_Isend(pair, 3, MPI_INT, right, 21, MPI_COMM_WORLD, &isends[0]);
  MPI_Isend(&tail, 1, MPI_INT, right, 22, MPI_COMM_WORLD, &isends[1]);
  MPI_Datatype every_other;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int strided[6] = {-1, -1, -1, -1, -1, -1}, got_tail = 0, done = 0, icount = -1;
  MPI_Message im;
  MPI_Status ist;
  MPI_Mprobe(left, 21, MPI_COMM_WORLD, &im, MPI_STATUS_IGNORE);
  MPI_Request ireq;
  MPI_Imrecv(strided, 1, every_other, &im, &ireq);
  const int consumed = im == MPI_MESSAGE_NULL && ireq != MPI_REQUEST_NULL;
  MPI_Recv(&got_tail, 1, MPI_INT, left, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  while (!done) MPI_Test(&ireq, &done, &ist);
  MPI_Get_count(&ist, MPI_INT, &icount);
  MPI_Waitall(2, isends, MPI_STATUSES_IGNORE);
  MPI_Type_free(&every_other);
  MPI_Message inull;
  MPI_Request rnull;
  MPI_Status snull;
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &inull, MPI_STATUS_IGNORE);
  MPI_Imrecv(NULL, 0, MPI_INT, &inull, &rnull);
  MPI_Wait(&rnull, &snull);
  report(rank, "MPI_Imrecv: a matched message into a strided type, completed by MPI_Test",
         consumed && done && ireq == MPI_REQUEST_NULL && ist.MPI_SOURCE == left && ist.MPI_TAG == 21 && icount == 3 &&
             strided[0] == 7 * left + 1 && strided[1] == -1 && strided[2] == 7 * left + 2 && strided[4] == 7 * left + 3 &&
             strided[5] == -1 && got_tail == 1000 + left && inull == MPI_MESSAGE_NULL && snull.MPI_SOURCE == MPI_PROC_NULL);

  if (rank == 0 && failures == 0) printf("comms_more: all OK\n");
  MPI_Finalize();
  return failures != 0;
}
