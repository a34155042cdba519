/* cart: MPI_Cart_create on a 2x3 grid (one dimension periodic), MPI_Cart_sub into rows and
 * columns, an allreduce along each row checked against its closed form. Run with -np 6. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) { MPI_Init(&argc, &argv); int size, rank; MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {2, 3}, per[2] = {0, 1}; MPI_Comm cart, row, col; MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
  MPI_Comm_rank(cart, &rank); int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  MPI_Cart_sub(cart, keep_row, &row); MPI_Cart_sub(cart, keep_col, &col);
  int rs, rr, cs, cr, sum; MPI_Comm_size(row, &rs); MPI_Comm_rank(row, &rr); MPI_Comm_size(col, &cs); MPI_Comm_rank(col, &cr);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
  int ok = rs == 3 && cs == 2 && rr == rank % 3 && cr == rank / 3 && sum == (rank / 3) * 9 + 3;
  int all; MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf("cart: %s\n", all ? "OK" : "WRONG");
  MPI_Finalize(); return !all; }
