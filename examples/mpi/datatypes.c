/* datatypes: derived datatypes sent between ranks and checked element by element. Rank 0 sends
 * to rank 1 (any extra ranks only take part in the final check):
 *   - a matrix column (MPI_Type_vector), received as contiguous doubles; MPI_Get_count and
 *     MPI_Get_elements on the received vector;
 *   - an array of structs {int id; double x; char tag[3]} (MPI_Type_create_struct, resized to
 *     sizeof(struct) with MPI_Type_create_resized);
 *   - an irregular selection (MPI_Type_indexed) received into the same pattern;
 *   - a 3x4 block of a 6x8 matrix (MPI_Type_create_subarray) received into a different position
 *     of another matrix (a second subarray type);
 *   - every other column of a row via a resized vector (MPI_Type_create_resized, count > 1);
 *   - a heterogeneous buffer built with MPI_Pack and read with MPI_Unpack.
 * Build and run:
 *   simfab-cc -O2 -o datatypes datatypes.c
 *   simfab exec -np 2 --cfg online/compute=declared ./datatypes
 * Prints "datatypes: ... OK" and exits 0 when every element arrived where it belongs. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define N 8
#define ROWS 6
#define COLS 8

struct particle {
  int id;
  double x;
  char tag[3];
};

static int errors = 0;
static void check(int cond, const char* what) {
  if (!cond) {
    ++errors;
    fprintf(stderr, "datatypes: check failed: %s\n", what);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "datatypes: needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }

  /* 1. a column of an N x N matrix of doubles */
  MPI_Datatype column;
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int tsize;
  MPI_Aint lb, extent;
  MPI_Type_size(column, &tsize);
  MPI_Type_get_extent(column, &lb, &extent);
  check(tsize == N * (int)sizeof(double), "size of the column type");
  check(lb == 0 && extent == (MPI_Aint)(((N - 1) * N + 1) * sizeof(double)), "extent of the column type");
  double m[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) m[i][j] = 100.0 * i + j;
  if (rank == 0) {
    MPI_Send(&m[0][3], 1, column, 1, 1, MPI_COMM_WORLD);
    MPI_Send(&m[0][5], 1, column, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    double col[N];
    MPI_Status st;
    MPI_Recv(col, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    check(count == N, "MPI_Get_count(MPI_DOUBLE) of a received column");
    for (int i = 0; i < N; ++i) check(col[i] == 100.0 * i + 3, "column element (contiguous receive)");
    /* the second column received with the vector type itself, into column 6 of a zeroed matrix */
    double r[N][N];
    memset(r, 0, sizeof r);
    MPI_Recv(&r[0][6], 1, column, 0, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, column, &count);
    check(count == 1, "MPI_Get_count(column) of a received column");
    int elements = -1;
    MPI_Get_elements(&st, column, &elements);
    check(elements == N, "MPI_Get_elements(column)");
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) check(r[i][j] == (j == 6 ? 100.0 * i + 5 : 0.0), "column element (vector receive)");
  }

  /* 2. an array of structs */
  MPI_Datatype ptype_raw, ptype;
  {
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct particle, id), offsetof(struct particle, x), offsetof(struct particle, tag)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, bl, disp, types, &ptype_raw);
    MPI_Type_create_resized(ptype_raw, 0, sizeof(struct particle), &ptype);
    MPI_Type_commit(&ptype);
    MPI_Type_size(ptype, &tsize);
    check(tsize == (int)(sizeof(int) + sizeof(double) + 3), "size of the struct type");
    MPI_Type_get_extent(ptype, &lb, &extent);
    check(lb == 0 && extent == (MPI_Aint)sizeof(struct particle), "extent of the resized struct type");
  }
  struct particle ps[5];
  if (rank == 0) {
    for (int i = 0; i < 5; ++i) {
      ps[i].id = 10 + i;
      ps[i].x = 0.5 * i - 1;
      ps[i].tag[0] = (char)('a' + i);
      ps[i].tag[1] = (char)('A' + i);
      ps[i].tag[2] = '\0';
    }
    MPI_Send(ps, 5, ptype, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(ps, 0x55, sizeof ps);
    MPI_Status st;
    MPI_Recv(ps, 5, ptype, 0, 3, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, ptype, &count);
    check(count == 5, "MPI_Get_count(struct type)");
    for (int i = 0; i < 5; ++i) {
      check(ps[i].id == 10 + i, "struct id");
      check(ps[i].x == 0.5 * i - 1, "struct x");
      check(ps[i].tag[0] == 'a' + i && ps[i].tag[1] == 'A' + i && ps[i].tag[2] == '\0', "struct tag");
    }
  }

  /* 3. indexed: blocks {2 at 0, 1 at 4, 3 at 7} of ints */
  MPI_Datatype idx;
  {
    int bl[3] = {2, 1, 3}, disp[3] = {0, 4, 7};
    MPI_Type_indexed(3, bl, disp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    MPI_Type_size(idx, &tsize);
    check(tsize == 6 * (int)sizeof(int), "size of the indexed type");
    MPI_Type_get_extent(idx, &lb, &extent);
    check(lb == 0 && extent == 10 * (MPI_Aint)sizeof(int), "extent of the indexed type");
  }
  int iv[20];
  if (rank == 0) {
    for (int i = 0; i < 20; ++i) iv[i] = 1000 + i;
    MPI_Send(iv, 2, idx, 1, 4, MPI_COMM_WORLD); /* two copies, the second at offset 10 */
  } else if (rank == 1) {
    for (int i = 0; i < 20; ++i) iv[i] = -1;
    MPI_Recv(iv, 2, idx, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    static const int sel[10] = {1, 1, 0, 0, 1, 0, 0, 1, 1, 1};
    for (int i = 0; i < 20; ++i) check(iv[i] == (sel[i % 10] ? 1000 + i : -1), "indexed element");
  }

  /* 4. subarray: the 3x4 block at (2, 1) of a 6x8 matrix -> the 3x4 block at (0, 4) of another */
  MPI_Datatype sub_from, sub_to;
  {
    int sizes[2] = {ROWS, COLS}, subsizes[2] = {3, 4}, from[2] = {2, 1}, to[2] = {0, 4};
    MPI_Type_create_subarray(2, sizes, subsizes, from, MPI_ORDER_C, MPI_INT, &sub_from);
    MPI_Type_create_subarray(2, sizes, subsizes, to, MPI_ORDER_C, MPI_INT, &sub_to);
    MPI_Type_commit(&sub_from);
    MPI_Type_commit(&sub_to);
    MPI_Type_size(sub_from, &tsize);
    check(tsize == 12 * (int)sizeof(int), "size of the subarray type");
    MPI_Type_get_extent(sub_from, &lb, &extent);
    check(lb == 0 && extent == ROWS * COLS * (MPI_Aint)sizeof(int), "extent of the subarray type");
  }
  int a[ROWS][COLS];
  if (rank == 0) {
    for (int i = 0; i < ROWS; ++i)
      for (int j = 0; j < COLS; ++j) a[i][j] = 10 * i + j;
    MPI_Send(a, 1, sub_from, 1, 5, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(a, 0, sizeof a);
    MPI_Recv(a, 1, sub_to, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < ROWS; ++i)
      for (int j = 0; j < COLS; ++j) {
        const int in = i < 3 && j >= 4;
        check(a[i][j] == (in ? 10 * (i + 2) + (j - 4 + 1) : 0), "subarray element");
      }
  }

  /* 5. a resized vector: one double every 2, extent 2 doubles, so count 4 takes elements 0,2,4,6 */
  MPI_Datatype one, every_other;
  MPI_Type_contiguous(1, MPI_DOUBLE, &one);
  MPI_Type_create_resized(one, 0, 2 * sizeof(double), &every_other);
  MPI_Type_commit(&every_other);
  double row[8];
  if (rank == 0) {
    for (int i = 0; i < 8; ++i) row[i] = i + 0.25;
    MPI_Send(row, 4, every_other, 1, 6, MPI_COMM_WORLD);
  } else if (rank == 1) {
    double got[4] = {0, 0, 0, 0};
    MPI_Recv(got, 4, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; ++i) check(got[i] == 2 * i + 0.25, "resized element");
  }

  /* 6. MPI_Pack / MPI_Unpack: an int count, then that many doubles, then a column */
  {
    int psize = 0, s1, s2, s3;
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(3, MPI_DOUBLE, MPI_COMM_WORLD, &s2);
    MPI_Pack_size(1, column, MPI_COMM_WORLD, &s3);
    psize = s1 + s2 + s3;
    char packed[1024];
    check(psize <= (int)sizeof packed, "MPI_Pack_size fits");
    if (rank == 0) {
      int pos = 0, three = 3;
      double d[3] = {1.5, -2.5, 3.25};
      MPI_Pack(&three, 1, MPI_INT, packed, psize, &pos, MPI_COMM_WORLD);
      MPI_Pack(d, 3, MPI_DOUBLE, packed, psize, &pos, MPI_COMM_WORLD);
      MPI_Pack(&m[0][2], 1, column, packed, psize, &pos, MPI_COMM_WORLD);
      MPI_Send(packed, pos, MPI_PACKED, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Status st;
      MPI_Recv(packed, (int)sizeof packed, MPI_PACKED, 0, 7, MPI_COMM_WORLD, &st);
      int got = 0, pos = 0, n = 0;
      MPI_Get_count(&st, MPI_PACKED, &got);
      double d[3] = {0, 0, 0};
      double r[N][N];
      memset(r, 0, sizeof r);
      MPI_Unpack(packed, got, &pos, &n, 1, MPI_INT, MPI_COMM_WORLD);
      check(n == 3, "unpacked count");
      MPI_Unpack(packed, got, &pos, d, 3, MPI_DOUBLE, MPI_COMM_WORLD);
      check(d[0] == 1.5 && d[1] == -2.5 && d[2] == 3.25, "unpacked doubles");
      MPI_Unpack(packed, got, &pos, &r[0][7], 1, column, MPI_COMM_WORLD);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) check(r[i][j] == (j == 7 ? 100.0 * i + 2 : 0.0), "unpacked column element");
      check(pos == got, "unpacked everything");
    }
  }

  MPI_Type_free(&column);
  MPI_Type_free(&ptype_raw);
  MPI_Type_free(&ptype);
  MPI_Type_free(&idx);
  MPI_Type_free(&sub_from);
  MPI_Type_free(&sub_to);
  MPI_Type_free(&one);
  MPI_Type_free(&every_other);
  check(column == MPI_DATATYPE_NULL, "MPI_Type_free sets MPI_DATATYPE_NULL");

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("datatypes: vector, struct, indexed, subarray, resized, pack/unpack on %d ranks: %s (%d errors)\n", size, all ? "WRONG" : "OK", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
