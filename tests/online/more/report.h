/* report.h: the one-line verdicts of the programs of tests/online/more. report(rank, what, ok)
 * agrees `ok` over MPI_COMM_WORLD (every rank must pass) and rank 0 prints "what: OK" or
 * "what: WRONG"; `failures` counts the WRONG ones for the program's last line. */
#ifndef SIMFAB_TESTS_REPORT_H
#define SIMFAB_TESTS_REPORT_H

#include <mpi.h>
#include <stdio.h>

static int failures = 0;

static void report(int rank, const char* what, int ok) {
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!all) ++failures;
  if (rank == 0) printf("%s: %s\n", what, all ? "OK" : "WRONG");
}

#endif
