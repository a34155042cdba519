/* The calls libsimfab-capture.so records beyond plain point-to-point and blocking collectives, on 2
   ranks, in an order whose replay has a closed form (tests/capture/run_coverage.py):
     0. MPI_Comm_idup of MPI_COMM_WORLD + MPI_Wait (freed with MPI_Comm_free before MPI_Finalize);
     1. MPI_Ibarrier on that duplicate + MPI_Wait, then MPI_Iallreduce of one int + MPI_Wait (both
        ranks: symmetric);
     2. persistent requests: rank 0 MPI_Send_init (1000 B, tag 1) started twice with MPI_Start,
        rank 1 MPI_Recv_init started twice with MPI_Startall (the same handles: a new request
        number each start), each start completed by MPI_Wait, then MPI_Request_free;
     3. a matched probe: rank 1 MPI_Send 500 B with tag 2; rank 0 MPI_Mprobe from MPI_ANY_SOURCE
        and MPI_Mrecv of the message it took; then rank 0 MPI_Improbe finds nothing (tag 9) and the
        ranks exchange 8 B with MPI_Imrecv after an MPI_Mprobe: rank 0 sends (tag 3), rank 1
        MPI_Mprobe + MPI_Imrecv + MPI_Wait.
   Exits 1 with a message if MPI says something unexpected. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "coverage_calls: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  expect(size == 2, "needs exactly 2 ranks");
  MPI_Request req;

  /* 0. a nonblocking duplicate */
  MPI_Comm dup;
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  /* 1. nonblocking collectives */
  MPI_Ibarrier(dup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  int one = 1, sum = 0;
  MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  expect(sum == 2, "Iallreduce: wrong sum");

  /* 2. persistent requests */
  static char big[1000];
  MPI_Request persistent;
  if (rank == 0) {
    MPI_Send_init(big, 1000, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &persistent);
    for (int k = 0; k < 2; ++k) {
      MPI_Start(&persistent);
      MPI_Wait(&persistent, MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Recv_init(big, 1000, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &persistent);
    for (int k = 0; k < 2; ++k) {
      MPI_Status st;
      MPI_Startall(1, &persistent);
      MPI_Wait(&persistent, &st);
      int n = 0;
      MPI_Get_count(&st, MPI_BYTE, &n);
      expect(n == 1000, "persistent receive: wrong size");
    }
  }
  expect(persistent != MPI_REQUEST_NULL, "a completed persistent request stays allocated");
  MPI_Request_free(&persistent);

  /* 3. matched probes */
  static char mid[500];
  double eight = 0;
  if (rank == 1) {
    MPI_Send(mid, 500, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(0, 3, MPI_COMM_WORLD, &msg, &st);
    MPI_Imrecv(&eight, 1, MPI_DOUBLE, &msg, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect(eight == 8.0, "Imrecv: wrong value");
  } else {
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &msg, &st);
    expect(st.MPI_SOURCE == 1, "Mprobe: wrong source");
    MPI_Mrecv(mid, 500, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    int flag = 1;
    MPI_Improbe(1, 9, MPI_COMM_WORLD, &flag, &msg, &st);
    expect(flag == 0, "Improbe: found a message no one sent");
    eight = 8.0;
    MPI_Send(&eight, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
