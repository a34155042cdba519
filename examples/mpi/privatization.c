/* privatization: every rank has its own copy of the program's globals under simfab exec (as it
 * would in a real MPI run, where ranks are processes). Each rank increments the global `counter`
 * 10 times (with MPI calls in between, so other ranks run meanwhile) and checks it reads 10; it
 * fills a `static` array with its own rank and checks it still holds only its rank after everyone
 * wrote theirs; a static local in a function counts calls per rank.
 * Build and run:
 *   simfab-cc -O2 -o privatization privatization.c
 *   simfab exec -np 8 --cfg online/compute=declared ./privatization
 * Prints "privatization: ... OK" and exits 0 when every rank saw only its own globals. */
#include <mpi.h>
#include <stdio.h>

int counter = 0;
static int mine[256];
const char* volatile greeting = "hello"; /* initialized data, too */

static int calls(void) {
  static int n = 0;
  return ++n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = 0;
  for (int i = 0; i < 256; ++i) mine[i] = rank;
  for (int k = 0; k < 10; ++k) {
    ++counter;
    calls();
    MPI_Barrier(MPI_COMM_WORLD); /* every other rank increments its counter here too */
  }
  if (counter != 10) {
    fprintf(stderr, "privatization: rank %d: counter reads %d, expected 10\n", rank, counter);
    ++errors;
  }
  for (int i = 0; i < 256; ++i)
    if (mine[i] != rank) {
      fprintf(stderr, "privatization: rank %d: static array holds %d at %d\n", rank, mine[i], i);
      ++errors;
      break;
    }
  if (calls() != 11) {
    fprintf(stderr, "privatization: rank %d: static local counted calls of other ranks\n", rank);
    ++errors;
  }
  if (rank == 0) greeting = "changed by rank 0";
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0 && greeting[0] != 'h') {
    fprintf(stderr, "privatization: rank %d: saw rank 0's write to an initialized global\n", rank);
    ++errors;
  }
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("privatization: %d ranks, counter %d on each: %s\n", size, counter, all ? "WRONG" : "OK");
  MPI_Finalize();
  return all ? 1 : 0;
}
