/* nonblocking: point-to-point beyond MPI_Send/MPI_Recv, each result checked:
 *   - MPI_Isend/MPI_Irecv from every rank to rank 0, completed with MPI_Waitany and MPI_Waitsome;
 *   - an MPI_Test polling loop;
 *   - MPI_ANY_SOURCE / MPI_ANY_TAG receives, with MPI_SOURCE, MPI_TAG and MPI_Get_count checked;
 *   - MPI_Probe and MPI_Iprobe, then MPI_Recv of the probed size;
 *   - persistent requests (MPI_Send_init, MPI_Recv_init, MPI_Startall, MPI_Start) reused;
 *   - MPI_Ssend, MPI_Sendrecv and MPI_Sendrecv_replace around a ring;
 *   - MPI_Cancel of a receive nobody matches (MPI_Test_cancelled);
 *   - MPI_PROC_NULL as source and destination (empty status).
 * Works on any number of ranks (the ring parts degenerate to self-messages on 1 rank).
 * Build and run:
 *   simfab-cc -O2 -o nonblocking nonblocking.c
 *   simfab exec -np 4 --cfg online/compute=declared ./nonblocking
 * Prints "nonblocking: ... OK" and exits 0 when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errors = 0;
static int rank = 0, size = 1;
static void check(int cond, const char* what) {
  if (!cond) {
    ++errors;
    fprintf(stderr, "nonblocking: rank %d: check failed: %s\n", rank, what);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Comm w = MPI_COMM_WORLD;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Status st;
  int count;

  /* 1. everyone (rank 0 included) sends r + 1 ints with tag 10 + r to rank 0; rank 0 posts one
   *    receive per source and completes them with MPI_Waitany (first half) and MPI_Waitsome */
  {
    int out[64];
    for (int i = 0; i <= rank && i < 64; ++i) out[i] = 1000 * rank + i;
    MPI_Request sreq;
    MPI_Isend(out, rank + 1, MPI_INT, 0, 10 + rank, w, &sreq);
    if (rank == 0) {
      int** in = malloc(sizeof(int*) * (size_t)size);
      MPI_Request* rreq = malloc(sizeof(MPI_Request) * (size_t)size);
      int* seen = calloc((size_t)size, sizeof(int));
      for (int r = 0; r < size; ++r) {
        in[r] = malloc(sizeof(int) * (size_t)(r + 1));
        MPI_Irecv(in[r], r + 1, MPI_INT, r, 10 + r, w, &rreq[r]);
      }
      int done = 0;
      while (done < (size + 1) / 2) {
        int idx = -1;
        MPI_Waitany(size, rreq, &idx, &st);
        check(idx >= 0 && idx < size && !seen[idx], "MPI_Waitany index");
        if (idx < 0 || idx >= size) break;
        seen[idx] = 1;
        check(rreq[idx] == MPI_REQUEST_NULL, "MPI_Waitany frees the request");
        check(st.MPI_SOURCE == idx && st.MPI_TAG == 10 + idx, "MPI_Waitany status");
        MPI_Get_count(&st, MPI_INT, &count);
        check(count == idx + 1, "MPI_Waitany count");
        ++done;
      }
      while (done < size) {
        int outcount = 0, indices[64];
        MPI_Status sts[64];
        MPI_Waitsome(size, rreq, &outcount, indices, sts);
        check(outcount >= 1, "MPI_Waitsome completes at least one");
        if (outcount < 1) break;
        for (int k = 0; k < outcount; ++k) {
          const int idx = indices[k];
          check(!seen[idx], "MPI_Waitsome index new");
          seen[idx] = 1;
          check(sts[k].MPI_SOURCE == idx && sts[k].MPI_TAG == 10 + idx, "MPI_Waitsome status");
          MPI_Get_count(&sts[k], MPI_INT, &count);
          check(count == idx + 1, "MPI_Waitsome count");
        }
        done += outcount;
      }
      int idx = 0;
      MPI_Waitany(size, rreq, &idx, &st);
      check(idx == MPI_UNDEFINED, "MPI_Waitany with no active request gives MPI_UNDEFINED");
      for (int r = 0; r < size; ++r) {
        check(seen[r], "every receive completed");
        for (int i = 0; i <= r; ++i) check(in[r][i] == 1000 * r + i, "Isend/Irecv data");
        free(in[r]);
      }
      free(in);
      free(rreq);
      free(seen);
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    check(sreq == MPI_REQUEST_NULL, "MPI_Wait frees the request");
  }

  /* 2. MPI_Test polling loop: receive from prev while sending to next */
  {
    long in = -1, out = 7L * rank + 1;
    MPI_Request rr, sr;
    MPI_Irecv(&in, 1, MPI_LONG, prev, 20, w, &rr);
    MPI_Isend(&out, 1, MPI_LONG, next, 20, w, &sr);
    int flag = 0, polls = 0;
    const double t0 = MPI_Wtime();
    while (!flag) {
      MPI_Test(&rr, &flag, &st);
      ++polls;
    }
    const double t1 = MPI_Wtime();
    check(in == 7L * prev + 1, "MPI_Test loop data");
    check(st.MPI_SOURCE == prev && st.MPI_TAG == 20, "MPI_Test status");
    check(rr == MPI_REQUEST_NULL, "MPI_Test frees a completed request");
    check(polls >= 1 && t1 >= t0, "MPI_Test loop terminates");
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    /* MPI_Test on MPI_REQUEST_NULL: flag set, empty status */
    flag = 0;
    MPI_Test(&rr, &flag, &st);
    check(flag == 1, "MPI_Test(MPI_REQUEST_NULL) sets the flag");
  }

  /* 3. wildcards: every other rank sends to rank 0 with tag 30 + r, r + 2 doubles */
  {
    if (rank != 0) {
      double d[64];
      for (int i = 0; i < rank + 2 && i < 64; ++i) d[i] = rank + i / 10.0;
      MPI_Send(d, rank + 2, MPI_DOUBLE, 0, 30 + rank, w);
    } else {
      int* seen = calloc((size_t)size, sizeof(int));
      double d[64];
      for (int k = 1; k < size; ++k) {
        MPI_Recv(d, 64, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, w, &st);
        const int src = st.MPI_SOURCE;
        check(src >= 1 && src < size && !seen[src], "MPI_ANY_SOURCE source");
        if (src < 1 || src >= size) continue;
        seen[src] = 1;
        check(st.MPI_TAG == 30 + src, "MPI_ANY_TAG tag");
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        check(count == src + 2, "wildcard receive count");
        for (int i = 0; i < count; ++i) check(d[i] == src + i / 10.0, "wildcard receive data");
      }
      free(seen);
    }
    /* no rank may send its next (section 4) message before rank 0's wildcards are done */
    MPI_Barrier(w);
  }

  /* 4. probe: rank r sends 3 * r + 1 ints to next (tag 40); prev's size is probed first */
  {
    int* out = malloc(sizeof(int) * (size_t)(3 * rank + 1));
    for (int i = 0; i < 3 * rank + 1; ++i) out[i] = rank * 10000 + i;
    MPI_Request sr;
    MPI_Isend(out, 3 * rank + 1, MPI_INT, next, 40, w, &sr);
    MPI_Probe(MPI_ANY_SOURCE, 40, w, &st);
    check(st.MPI_SOURCE == prev && st.MPI_TAG == 40, "MPI_Probe status");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == 3 * prev + 1, "MPI_Probe count");
    int* in = malloc(sizeof(int) * (size_t)count);
    MPI_Recv(in, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, w, &st);
    for (int i = 0; i < count; ++i) check(in[i] == prev * 10000 + i, "probed receive data");
    free(in);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    /* the same with MPI_Iprobe polling (tag 41) */
    MPI_Isend(out, 3 * rank + 1, MPI_INT, next, 41, w, &sr);
    int flag = 0;
    while (!flag) MPI_Iprobe(prev, MPI_ANY_TAG, w, &flag, &st);
    check(st.MPI_SOURCE == prev && st.MPI_TAG == 41, "MPI_Iprobe status");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == 3 * prev + 1, "MPI_Iprobe count");
    in = malloc(sizeof(int) * (size_t)count);
    MPI_Recv(in, count, MPI_INT, prev, 41, w, MPI_STATUS_IGNORE);
    for (int i = 0; i < count; ++i) check(in[i] == prev * 10000 + i, "iprobed receive data");
    free(in);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    free(out);
    /* nothing left: MPI_Iprobe finds nothing on tag 42 */
    MPI_Barrier(w);
    flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, 42, w, &flag, &st);
    check(flag == 0, "MPI_Iprobe finds no message");
  }

  /* 5. persistent requests: 5 rounds of a ring shift with the same two requests */
  {
    int sbuf[4], rbuf[4];
    MPI_Request req[2];
    MPI_Send_init(sbuf, 4, MPI_INT, next, 50, w, &req[0]);
    MPI_Recv_init(rbuf, 4, MPI_INT, prev, 50, w, &req[1]);
    for (int round = 0; round < 5; ++round) {
      for (int i = 0; i < 4; ++i) {
        sbuf[i] = 100 * rank + 10 * round + i;
        rbuf[i] = -1;
      }
      if (round % 2 == 0) {
        MPI_Startall(2, req);
      } else {
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
      }
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      check(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL, "persistent requests stay allocated");
      for (int i = 0; i < 4; ++i) check(rbuf[i] == 100 * prev + 10 * round + i, "persistent request data");
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    check(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "MPI_Request_free sets MPI_REQUEST_NULL");
  }

  /* 6. MPI_Ssend (even ranks send first), MPI_Sendrecv, MPI_Sendrecv_replace around the ring */
  if (size > 1) {
    int v = 0;
    if (size % 2 == 0) {
      int out = rank * 3;
      if (rank % 2 == 0) {
        MPI_Ssend(&out, 1, MPI_INT, next, 60, w);
        MPI_Recv(&v, 1, MPI_INT, prev, 60, w, &st);
      } else {
        MPI_Recv(&v, 1, MPI_INT, prev, 60, w, &st);
        MPI_Ssend(&out, 1, MPI_INT, next, 60, w);
      }
      check(v == prev * 3, "MPI_Ssend data");
    }
    int sent = rank * rank, got = -1;
    MPI_Sendrecv(&sent, 1, MPI_INT, next, 61, &got, 1, MPI_INT, prev, 61, w, &st);
    check(got == prev * prev && st.MPI_SOURCE == prev && st.MPI_TAG == 61, "MPI_Sendrecv");
    long buf[3] = {rank, 2L * rank, 3L * rank};
    MPI_Sendrecv_replace(buf, 3, MPI_LONG, next, 62, prev, 62, w, &st);
    check(buf[0] == prev && buf[1] == 2L * prev && buf[2] == 3L * prev, "MPI_Sendrecv_replace");
    MPI_Get_count(&st, MPI_LONG, &count);
    check(count == 3, "MPI_Sendrecv_replace count");
  }

  /* 7. cancel a receive that nothing matches */
  {
    int x = 0, flag = 0;
    MPI_Request r;
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, w, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    check(flag == 1, "MPI_Test_cancelled after MPI_Cancel of an unmatched receive");
    check(r == MPI_REQUEST_NULL, "a cancelled request is freed by MPI_Wait");
    /* a completed receive is not cancelled */
    MPI_Sendrecv(&rank, 1, MPI_INT, rank, 70, &x, 1, MPI_INT, rank, 70, w, &st);
    MPI_Test_cancelled(&st, &flag);
    check(flag == 0 && x == rank, "a completed receive is not cancelled");
  }

  /* 8. MPI_PROC_NULL */
  {
    int x = 42;
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 80, w);
    MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 80, w, &st);
    check(x == 42, "a receive from MPI_PROC_NULL leaves the buffer");
    check(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "status of a receive from MPI_PROC_NULL");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == 0, "count of a receive from MPI_PROC_NULL");
    MPI_Request r[2];
    MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 81, w, &r[0]);
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 81, w, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    check(x == 42 && r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "non-blocking MPI_PROC_NULL");
  }

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, w);
  if (rank == 0) printf("nonblocking: waitany/waitsome, test, wildcards, probe, persistent, ssend, sendrecv, cancel, proc_null on %d ranks: %s (%d errors)\n", size, all ? "WRONG" : "OK", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
