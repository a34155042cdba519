/* capture_probe: an MPI program whose every recorded call is known in advance, for
 * tests/capture/run_capture.py, which runs it under libsimfab-capture.so and checks each rank's
 * trace against the sequence below, argument by argument.
 *
 * Needs an even number of ranks, at least 4 (the script uses 4). Ring neighbours: left = rank-1,
 * right = rank+1 (mod size). Steps, in order (request ids are those the trace must show):
 *   1  Send/Recv: odd ranks send 10 MPI_INT (tag 7) to rank-1, even ranks MPI_Recv them from
 *      MPI_ANY_SOURCE with a status (source must be rank+1)
 *   2  Irecv (id 1, 4 MPI_DOUBLE from left, tag 11), Isend (id 2, to right), Waitall with
 *      MPI_STATUSES_IGNORE
 *   3  Irecv (id 3, 3 MPI_INT from right, tag 12), Isend (id 4, to left), Wait(3, status),
 *      Wait(4, MPI_STATUS_IGNORE)
 *   4  Irecv (id 5, 5 MPI_CHAR from left, tag 13), Isend (id 6, to right), Waitany twice
 *   5  Isend (id 7, 6 MPI_INT to left, tag 14), Irecv (id 8, from right), MPI_Test until it
 *      completes 8, Wait(7)
 *   6  Sendrecv: 2 MPI_INT to right (tag 15), 2 MPI_INT from left (tag 15)
 *   7  Ssend: even ranks send 1 MPI_DOUBLE (tag 16) to rank+1, odd ranks MPI_Recv it
 *      (MPI_STATUS_IGNORE)
 *   8  computation: a busy loop of at least 2 ms (measured here with CLOCK_MONOTONIC)
 *   9  Barrier, Bcast (5 MPI_INT, root 0), Reduce (3 MPI_DOUBLE, MPI_SUM, root 1), Allreduce
 *      (MPI_IN_PLACE, 2 MPI_LONG_LONG, MPI_MAX), Allgather (1 MPI_INT), Alltoall (2 MPI_INT),
 *      Gatherv (rank+1 MPI_INT, root 0), Alltoallv ((rank+j)%3+1 MPI_INT to and from rank j)
 *  10  Comm_split (color rank%2, key -rank), Allreduce (1 MPI_INT, MPI_SUM) on it, Comm_free
 *  11  Comm_dup of MPI_COMM_WORLD, Barrier on it, Comm_free
 *  12  the rest of the table, between the pairs (e, o) = (even rank, the next odd one):
 *      Bsend (tag 20); Rsend (tag 21, o pre-posts Irecv 9, completes it with Waitsome); Issend (9,
 *      tag 22) and Ibsend (10, tag 23) completed by a Testall loop while o Probes and Recvs 22
 *      and Iprobes until 23 arrives; Sendrecv_replace (tag 25); Irsend (11, tag 26, Testsome loop)
 *      into o's Irecv (10, Testany loop); Isend (12, tag 27) released by MPI_Request_free; a
 *      contiguous type of 2 MPI_INT sent and freed, then one of 3 MPI_INT (new datatype ids 5
 *      and 6); Scan, Exscan, Reduce_scatter_block, Reduce_scatter (counts 1,2,1,2..), Gather
 *      (root 2), Scatter (root 3), Scatterv (root 1, rank+1 each), Allgatherv (rank+1 each), an
 *      Allreduce with a user op (op id 3, freed), Comm_create of the even ranks (comm 5 there,
 *      freed; MPI_COMM_NULL on odd ranks)
 *  13  Cart_create (2 x size/2, not periodic, no reorder), Cart_sub keeping dimension 1 (the rows),
 *      both freed: written in MPI_Comm_split's form (color = parent rank of the new rank 0)
 * Checks the data it receives and prints "capture_probe: rank R OK" (exit 1 otherwise).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rank_;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "capture_probe: rank %d: %s\n", rank_, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void user_sum_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  int i;
  (void)type;
  for (i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
  int size, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check(size % 2 == 0 && size >= 4, "needs an even number of ranks, at least 4");
  const int rank = rank_;
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;
  MPI_Status st;
  MPI_Request reqs[2];
  int ibuf[64], ibuf2[64];
  double dsend[8], drecv[8];
  char csend[8] = "hello", crecv[8];
  for (i = 0; i < 64; ++i) ibuf[i] = rank * 100 + i;
  for (i = 0; i < 8; ++i) dsend[i] = rank + 0.5 * i;

  /* 1 */
  if (rank % 2) {
    MPI_Send(ibuf, 10, MPI_INT, rank - 1, 7, MPI_COMM_WORLD);
  } else {
    MPI_Recv(ibuf2, 10, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    check(st.MPI_SOURCE == rank + 1 && ibuf2[9] == (rank + 1) * 100 + 9, "step 1 data");
  }
  /* 2 */
  MPI_Irecv(drecv, 4, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(dsend, 4, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  check(drecv[3] == left + 1.5, "step 2 data");
  /* 3 */
  MPI_Irecv(ibuf2, 3, MPI_INT, right, 12, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(ibuf + 8, 3, MPI_INT, left, 12, MPI_COMM_WORLD, &reqs[1]);
  MPI_Wait(&reqs[0], &st);
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  check(st.MPI_SOURCE == right && st.MPI_TAG == 12 && ibuf2[2] == right * 100 + 10, "step 3 data");
  /* 4 */
  MPI_Irecv(crecv, 5, MPI_CHAR, left, 13, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(csend, 5, MPI_CHAR, right, 13, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitany(2, reqs, &i, &st);
  MPI_Waitany(2, reqs, &i, MPI_STATUS_IGNORE);
  check(crecv[4] == 'o' && reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "step 4");
  /* 5 */
  MPI_Isend(ibuf + 16, 6, MPI_INT, left, 14, MPI_COMM_WORLD, &reqs[1]);
  MPI_Irecv(ibuf2, 6, MPI_INT, right, 14, MPI_COMM_WORLD, &reqs[0]);
  {
    int flag = 0;
    while (!flag) MPI_Test(&reqs[0], &flag, &st);
  }
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  check(ibuf2[5] == right * 100 + 21, "step 5 data");
  /* 6 */
  MPI_Sendrecv(ibuf, 2, MPI_INT, right, 15, ibuf2, 2, MPI_INT, left, 15, MPI_COMM_WORLD, &st);
  check(st.MPI_SOURCE == left && ibuf2[1] == left * 100 + 1, "step 6 data");
  /* 7 */
  if (rank % 2 == 0) {
    MPI_Ssend(dsend, 1, MPI_DOUBLE, rank + 1, 16, MPI_COMM_WORLD);
  } else {
    MPI_Recv(drecv, 1, MPI_DOUBLE, rank - 1, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(drecv[0] == rank - 1, "step 7 data");
  }
  /* 8 */
  {
    const double start = now_s();
    volatile double x = 0;
    while (now_s() - start < 0.002) x += 1.0;
  }
  /* 9 */
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < 5; ++i) ibuf2[i] = rank == 0 ? 42 + i : -1;
  MPI_Bcast(ibuf2, 5, MPI_INT, 0, MPI_COMM_WORLD);
  check(ibuf2[4] == 46, "Bcast data");
  MPI_Reduce(dsend, drecv, 3, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
  if (rank == 1) check(drecv[2] == size * (size - 1) / 2.0 + size, "Reduce data");
  {
    long long v[2] = {rank, -rank};
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    check(v[0] == size - 1 && v[1] == 0, "Allreduce data");
  }
  MPI_Allgather(&rank, 1, MPI_INT, ibuf2, 1, MPI_INT, MPI_COMM_WORLD);
  check(ibuf2[size - 1] == size - 1, "Allgather data");
  MPI_Alltoall(ibuf, 2, MPI_INT, ibuf2, 2, MPI_INT, MPI_COMM_WORLD);
  check(ibuf2[2 * left + 1] == left * 100 + 2 * rank + 1, "Alltoall data");
  {
    int counts[64], displs[64], scounts[64], sdispls[64], total = 0, stotal = 0;
    for (i = 0; i < size; ++i) {
      counts[i] = i + 1;
      displs[i] = total;
      total += counts[i];
    }
    MPI_Gatherv(ibuf, rank + 1, MPI_INT, ibuf2, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) check(ibuf2[displs[size - 1]] == (size - 1) * 100, "Gatherv data");
    total = 0;
    for (i = 0; i < size; ++i) {
      scounts[i] = (rank + i) % 3 + 1;
      sdispls[i] = stotal;
      stotal += scounts[i];
      counts[i] = (i + rank) % 3 + 1;
      displs[i] = total;
      total += counts[i];
    }
    MPI_Alltoallv(ibuf, scounts, sdispls, MPI_INT, ibuf2, counts, displs, MPI_INT, MPI_COMM_WORLD);
  }
  /* 10 */
  {
    MPI_Comm half;
    int one = 1, sum = 0;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
    check(sum == size / 2, "split Allreduce data");
    MPI_Comm_free(&half);
  }
  /* 11 */
  {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);
  }
  /* 12 */
  {
    static char bsend_buffer[4096];
    const int partner = rank ^ 1;
    int flag = 0, outcount = 0, index = 0, indices[1], counts[64], displs[64], total = 0;
    MPI_Status sts[2];
    MPI_Datatype pair, triple;
    MPI_Op user_sum;
    MPI_Group world_group, even_group;
    MPI_Comm evens;
    int buffer_size = 0;
    void* buffer = NULL;
    MPI_Buffer_attach(bsend_buffer, sizeof bsend_buffer);
    if (rank % 2 == 0) {
      MPI_Bsend(ibuf, 2, MPI_INT, partner, 20, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Rsend(ibuf, 1, MPI_INT, partner, 21, MPI_COMM_WORLD);
      MPI_Issend(ibuf, 1, MPI_INT, partner, 22, MPI_COMM_WORLD, &reqs[0]);
      MPI_Ibsend(ibuf + 1, 1, MPI_INT, partner, 23, MPI_COMM_WORLD, &reqs[1]);
      while (!flag) MPI_Testall(2, reqs, &flag, MPI_STATUSES_IGNORE);
    } else {
      MPI_Recv(ibuf2, 2, MPI_INT, partner, 20, MPI_COMM_WORLD, &st);
      MPI_Irecv(ibuf2, 1, MPI_INT, partner, 21, MPI_COMM_WORLD, &reqs[0]);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Waitsome(1, reqs, &outcount, indices, sts);
      check(outcount == 1 && ibuf2[0] == partner * 100, "Rsend data");
      MPI_Probe(partner, 22, MPI_COMM_WORLD, &st);
      MPI_Recv(ibuf2, 1, MPI_INT, partner, 22, MPI_COMM_WORLD, &st);
      while (!flag) MPI_Iprobe(partner, 23, MPI_COMM_WORLD, &flag, &st);
      MPI_Recv(ibuf2, 1, MPI_INT, partner, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      check(ibuf2[0] == partner * 100 + 1, "Ibsend data");
    }
    for (i = 0; i < 3; ++i) ibuf2[i] = rank;
    MPI_Sendrecv_replace(ibuf2, 3, MPI_INT, partner, 25, partner, 25, MPI_COMM_WORLD, &st);
    check(ibuf2[2] == partner, "Sendrecv_replace data");
    flag = 0;
    if (rank % 2 == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Irsend(ibuf, 1, MPI_INT, partner, 26, MPI_COMM_WORLD, &reqs[0]);
      outcount = 0;
      while (outcount == 0) MPI_Testsome(1, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
      MPI_Isend(ibuf, 1, MPI_INT, partner, 27, MPI_COMM_WORLD, &reqs[0]);
      MPI_Request_free(&reqs[0]);
    } else {
      MPI_Irecv(ibuf2, 1, MPI_INT, partner, 26, MPI_COMM_WORLD, &reqs[0]);
      MPI_Barrier(MPI_COMM_WORLD);
      while (!flag) MPI_Testany(1, reqs, &index, &flag, &st);
      MPI_Recv(ibuf2, 1, MPI_INT, partner, 27, MPI_COMM_WORLD, &st);
    }
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank % 2 == 0) {
      MPI_Send(ibuf, 3, pair, partner, 28, MPI_COMM_WORLD);
    } else {
      MPI_Recv(ibuf2, 3, pair, partner, 28, MPI_COMM_WORLD, &st);
    }
    MPI_Type_free(&pair);
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    if (rank % 2 == 0) {
      MPI_Send(ibuf, 1, triple, partner, 29, MPI_COMM_WORLD);
    } else {
      MPI_Recv(ibuf2, 1, triple, partner, 29, MPI_COMM_WORLD, &st);
    }
    MPI_Type_free(&triple);
    MPI_Buffer_detach(&buffer, &buffer_size);

    MPI_Scan(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < size; ++i) counts[i] = i % 2 + 1;
    MPI_Reduce_scatter(ibuf, ibuf2, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(&rank, 1, MPI_INT, ibuf2, 1, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Scatter(ibuf, 1, MPI_INT, ibuf2, 1, MPI_INT, 3, MPI_COMM_WORLD);
    for (i = 0; i < size; ++i) {
      counts[i] = i + 1;
      displs[i] = total;
      total += counts[i];
    }
    MPI_Scatterv(ibuf, counts, displs, MPI_INT, ibuf2, rank + 1, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Allgatherv(ibuf, rank + 1, MPI_INT, ibuf2, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Op_create(user_sum_fn, 1, &user_sum);
    {
      int one = 1, sum = 0;
      MPI_Allreduce(&one, &sum, 1, MPI_INT, user_sum, MPI_COMM_WORLD);
      check(sum == size, "user op Allreduce data");
    }
    MPI_Op_free(&user_sum);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (i = 0; i < size / 2; ++i) counts[i] = 2 * i;
    MPI_Group_incl(world_group, size / 2, counts, &even_group);
    MPI_Comm_create(MPI_COMM_WORLD, even_group, &evens);
    check((evens == MPI_COMM_NULL) == (rank % 2 == 1), "Comm_create membership");
    if (evens != MPI_COMM_NULL) MPI_Comm_free(&evens);
    MPI_Group_free(&even_group);
    MPI_Group_free(&world_group);
  }
  {
    int dims[2] = {2, size / 2}, periods[2] = {0, 0}, keep[2] = {0, 1}, row_rank = -1;
    MPI_Comm cart, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_sub(cart, keep, &row);
    MPI_Comm_rank(row, &row_rank);
    check(row_rank == rank % (size / 2), "Cart_sub rank");
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
  }
  printf("capture_probe: rank %d OK\n", rank);
  MPI_Finalize();
  return 0;
}
