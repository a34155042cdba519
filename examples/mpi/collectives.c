/* collectives: every blocking collective and the main non-blocking ones on MPI_COMM_WORLD, each
 * result checked against a closed form: barrier, bcast, reduce (MPI_SUM, MPI_MAX and a user-defined
 * non-commutative operation, the product of 2x2 integer matrices, checked against the serial
 * product in rank order), allreduce, gather(v), scatter(v), allgather(v), alltoall(v),
 * reduce_scatter, reduce_scatter_block, scan, exscan, the MPI_IN_PLACE variants, and MPI_Ibarrier,
 * MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce, MPI_Igather(v), MPI_Iscatter, MPI_Iallgather,
 * MPI_Ialltoall, MPI_Ialltoallv, MPI_Ireduce_scatter_block, MPI_Iscan, MPI_Iexscan (completed with
 * MPI_Wait / MPI_Waitall). Ranks enter the collectives at different times (simfab_compute of
 * rank-dependent amounts when built for simfab). Works on any number of ranks.
 * Build and run:
 *   simfab-cc -O2 -o collectives collectives.c
 *   simfab exec -np 7 --cfg online/compute=declared ./collectives
 * Prints "collectives: ... OK" and exits 0 when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors = 0;
static int rank = 0, size = 1;
static void check(int cond, const char* what) {
  if (!cond) {
    ++errors;
    fprintf(stderr, "collectives: rank %d: check failed: %s\n", rank, what);
  }
}

/* the value rank r contributes at index i */
static int val(int r, int i) { return 100 * r + i; }
static long sum_val(int i) { return 100L * size * (size - 1) / 2 + (long)size * i; }

/* 2x2 integer matrices {a, b, c, d} = [[a b] [c d]]; rank r contributes, at index k, a
 * non-commuting sequence of unimodular matrices. */
typedef struct {
  long long m[4];
} mat;
static mat mat_of(int r, int k) {
  mat x;
  switch ((r + k) % 3) {
    case 0: x.m[0] = 1; x.m[1] = 1; x.m[2] = 0; x.m[3] = 1; break;
    case 1: x.m[0] = 1; x.m[1] = 0; x.m[2] = 1; x.m[3] = 1; break;
    default: x.m[0] = 0; x.m[1] = -1; x.m[2] = 1; x.m[3] = 0; break;
  }
  return x;
}
static mat mat_mul(mat a, mat b) {
  mat c;
  c.m[0] = a.m[0] * b.m[0] + a.m[1] * b.m[2];
  c.m[1] = a.m[0] * b.m[1] + a.m[1] * b.m[3];
  c.m[2] = a.m[2] * b.m[0] + a.m[3] * b.m[2];
  c.m[3] = a.m[2] * b.m[1] + a.m[3] * b.m[3];
  return c;
}
static int mat_eq(mat a, mat b) { return memcmp(a.m, b.m, sizeof a.m) == 0; }
/* the product over ranks lo .. hi-1 in rank order (identity when empty) */
static mat mat_prod(int lo, int hi, int k) {
  mat p = {{1, 0, 0, 1}};
  for (int r = lo; r < hi; ++r) p = mat_mul(p, mat_of(r, k));
  return p;
}
static MPI_Datatype mat_type;
static int user_calls = 0;
/* MPI semantics: inout = in op inout, where `in` holds the lower ranks' contribution */
static void mat_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  ++user_calls;
  if (*type != mat_type) {
    ++errors;
    fprintf(stderr, "collectives: user op called with datatype %d\n", *type);
  }
  mat* a = in;
  mat* b = inout;
  for (int i = 0; i < *len; ++i) b[i] = mat_mul(a[i], b[i]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Comm w = MPI_COMM_WORLD;
  enum { K = 5 };
  const int n = size;
  int *a = malloc(sizeof(int) * K * (size_t)n * (size_t)n + 64), *b = malloc(sizeof(int) * K * (size_t)n * (size_t)n + 64);
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
  int *rcounts = malloc(sizeof(int) * (size_t)n), *rdispls = malloc(sizeof(int) * (size_t)n);
  int mine[K];
  for (int i = 0; i < K; ++i) mine[i] = val(rank, i);

  MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Op matprod;
  MPI_Op_create(mat_op, 0, &matprod);
  {
    int commute = 1;
    MPI_Op_commutative(matprod, &commute);
    check(commute == 0, "MPI_Op_commutative of a non-commutative op");
  }
  mat mm[K], mr[K];
  for (int k = 0; k < K; ++k) mm[k] = mat_of(rank, k);

  /* ranks arrive at collectives at different times, as in real runs: rank r computes for a
   * while first (declared compute, so the run stays deterministic) */
#ifdef SIMFAB_MPI
  simfab_compute(1e4 * ((rank * 3) % n));
#endif

  /* ---- barrier, bcast ---- */
  MPI_Barrier(w);
#ifdef SIMFAB_MPI
  simfab_compute(1e4 * ((rank * 5) % n));
#endif
  {
    int x[K];
    const int root = n - 1;
    for (int i = 0; i < K; ++i) x[i] = rank == root ? val(root, i) : -1;
    MPI_Bcast(x, K, MPI_INT, root, w);
    for (int i = 0; i < K; ++i) check(x[i] == val(root, i), "MPI_Bcast");
  }

  /* ---- reduce ---- */
  {
    long lm[K], ls[K];
    for (int i = 0; i < K; ++i) lm[i] = mine[i];
    MPI_Reduce(lm, ls, K, MPI_LONG, MPI_SUM, 0, w);
    if (rank == 0)
      for (int i = 0; i < K; ++i) check(ls[i] == sum_val(i), "MPI_Reduce MPI_SUM");
    int mx[K];
    const int root = n / 2;
    int contrib[K];
    for (int i = 0; i < K; ++i) contrib[i] = (rank * 7 + i * 3) % 11;
    MPI_Reduce(contrib, mx, K, MPI_INT, MPI_MAX, root, w);
    if (rank == root)
      for (int i = 0; i < K; ++i) {
        int e = -1;
        for (int r = 0; r < n; ++r) e = (r * 7 + i * 3) % 11 > e ? (r * 7 + i * 3) % 11 : e;
        check(mx[i] == e, "MPI_Reduce MPI_MAX");
      }
    /* in place at the root */
    for (int i = 0; i < K; ++i) ls[i] = mine[i];
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : ls, ls, K, MPI_LONG, MPI_SUM, 0, w);
    if (rank == 0)
      for (int i = 0; i < K; ++i) check(ls[i] == sum_val(i), "MPI_Reduce MPI_IN_PLACE");
    /* the non-commutative user op, at a root that is not 0 */
    const int uroot = n - 1;
    MPI_Reduce(mm, mr, K, mat_type, matprod, uroot, w);
    if (rank == uroot)
      for (int k = 0; k < K; ++k) check(mat_eq(mr[k], mat_prod(0, n, k)), "MPI_Reduce user op (matrix product in rank order)");
  }

  /* ---- allreduce ---- */
  {
    long lm[K], ls[K];
    for (int i = 0; i < K; ++i) lm[i] = mine[i];
    MPI_Allreduce(lm, ls, K, MPI_LONG, MPI_SUM, w);
    for (int i = 0; i < K; ++i) check(ls[i] == sum_val(i), "MPI_Allreduce MPI_SUM");
    double d = rank + 0.5, dmin;
    MPI_Allreduce(&d, &dmin, 1, MPI_DOUBLE, MPI_MIN, w);
    check(dmin == 0.5, "MPI_Allreduce MPI_MIN");
    for (int i = 0; i < K; ++i) ls[i] = mine[i];
    MPI_Allreduce(MPI_IN_PLACE, ls, K, MPI_LONG, MPI_SUM, w);
    for (int i = 0; i < K; ++i) check(ls[i] == sum_val(i), "MPI_Allreduce MPI_IN_PLACE");
    MPI_Allreduce(mm, mr, K, mat_type, matprod, w);
    for (int k = 0; k < K; ++k) check(mat_eq(mr[k], mat_prod(0, n, k)), "MPI_Allreduce user op");
    struct { double v; int i; } in = {(double)((rank * 5) % n), rank}, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, w);
    {
      double best = -1;
      int where = -1;
      for (int r = 0; r < n; ++r)
        if ((double)((r * 5) % n) > best) best = (double)((r * 5) % n), where = r;
      check(out.v == best && out.i == where, "MPI_Allreduce MPI_MAXLOC");
    }
  }

  /* ---- gather, gatherv ---- */
  {
    const int root = n > 1 ? 1 : 0;
    MPI_Gather(mine, K, MPI_INT, a, K, MPI_INT, root, w);
    if (rank == root)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < K; ++i) check(a[r * K + i] == val(r, i), "MPI_Gather");
    /* rank r sends r % K + 1 ints; the root stores them with a gap of 2 between ranks */
    int off = 0;
    for (int r = 0; r < n; ++r) {
      counts[r] = r % K + 1;
      displs[r] = off;
      off += counts[r] + 2;
    }
    for (int i = 0; i < off; ++i) a[i] = -7;
    MPI_Gatherv(mine, rank % K + 1, MPI_INT, a, counts, displs, MPI_INT, 0, w);
    if (rank == 0)
      for (int r = 0; r < n; ++r) {
        for (int i = 0; i < counts[r]; ++i) check(a[displs[r] + i] == val(r, i), "MPI_Gatherv");
        check(a[displs[r] + counts[r]] == -7 && a[displs[r] + counts[r] + 1] == -7, "MPI_Gatherv gaps untouched");
      }
    /* in place at the root */
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < K; ++i) a[r * K + i] = r == rank ? val(r, i) : -1;
    MPI_Gather(rank == 0 ? MPI_IN_PLACE : mine, K, MPI_INT, a, K, MPI_INT, 0, w);
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < K; ++i) check(a[r * K + i] == val(r, i), "MPI_Gather MPI_IN_PLACE");
  }

  /* ---- scatter, scatterv ---- */
  {
    const int root = n - 1;
    int got[K];
    if (rank == root)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < K; ++i) a[r * K + i] = val(r, i) + 7;
    MPI_Scatter(a, K, MPI_INT, got, K, MPI_INT, root, w);
    for (int i = 0; i < K; ++i) check(got[i] == val(rank, i) + 7, "MPI_Scatter");
    int off = 0;
    for (int r = 0; r < n; ++r) {
      counts[r] = (r + 2) % K + 1;
      displs[r] = off;
      off += counts[r] + 1;
    }
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < counts[r]; ++i) a[displs[r] + i] = val(r, i) - 3;
    for (int i = 0; i < K; ++i) got[i] = -5;
    MPI_Scatterv(a, counts, displs, MPI_INT, got, counts[rank], MPI_INT, 0, w);
    for (int i = 0; i < K; ++i) check(got[i] == (i < counts[rank] ? val(rank, i) - 3 : -5), "MPI_Scatterv");
  }

  /* ---- allgather, allgatherv ---- */
  {
    MPI_Allgather(mine, K, MPI_INT, a, K, MPI_INT, w);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < K; ++i) check(a[r * K + i] == val(r, i), "MPI_Allgather");
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < K; ++i) b[r * K + i] = r == rank ? val(r, i) * 2 : 0;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, K, MPI_INT, w);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < K; ++i) check(b[r * K + i] == val(r, i) * 2, "MPI_Allgather MPI_IN_PLACE");
    int off = 0;
    for (int r = 0; r < n; ++r) {
      counts[r] = (n - r) % K + 1;
      displs[r] = off;
      off += counts[r];
    }
    MPI_Allgatherv(mine, counts[rank], MPI_INT, a, counts, displs, MPI_INT, w);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < counts[r]; ++i) check(a[displs[r] + i] == val(r, i), "MPI_Allgatherv");
  }

  /* ---- alltoall, alltoallv ---- */
  {
    /* block j of rank r holds 1000 * r + 10 * j + i */
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i) a[j * 2 + i] = 1000 * rank + 10 * j + i;
    MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, w);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i) check(b[j * 2 + i] == 1000 * j + 10 * rank + i, "MPI_Alltoall");
    /* alltoallv: rank r sends (r + j) % 3 + 1 ints to rank j */
    int soff = 0, roff = 0;
    for (int j = 0; j < n; ++j) {
      counts[j] = (rank + j) % 3 + 1;
      displs[j] = soff;
      soff += counts[j];
      rcounts[j] = (j + rank) % 3 + 1;
      rdispls[j] = roff;
      roff += rcounts[j] + 1;
      for (int i = 0; i < counts[j]; ++i) a[displs[j] + i] = 1000 * rank + 10 * j + i;
    }
    for (int i = 0; i < roff; ++i) b[i] = -9;
    MPI_Alltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, w);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < rcounts[j]; ++i) check(b[rdispls[j] + i] == 1000 * j + 10 * rank + i, "MPI_Alltoallv");
      check(b[rdispls[j] + rcounts[j]] == -9, "MPI_Alltoallv gaps untouched");
    }
  }

  /* ---- reduce_scatter, reduce_scatter_block ---- */
  {
    /* element e of rank r: 100 * r + e; rank j gets j % 3 + 1 elements */
    int total = 0;
    for (int j = 0; j < n; ++j) {
      counts[j] = j % 3 + 1;
      displs[j] = total;
      total += counts[j];
    }
    for (int e = 0; e < total; ++e) a[e] = val(rank, e);
    int got[3] = {0, 0, 0};
    MPI_Reduce_scatter(a, got, counts, MPI_INT, MPI_SUM, w);
    for (int i = 0; i < counts[rank]; ++i) check(got[i] == (int)sum_val(displs[rank] + i), "MPI_Reduce_scatter");
    for (int e = 0; e < 2 * n; ++e) a[e] = val(rank, e);
    MPI_Reduce_scatter_block(a, got, 2, MPI_INT, MPI_SUM, w);
    for (int i = 0; i < 2; ++i) check(got[i] == (int)sum_val(2 * rank + i), "MPI_Reduce_scatter_block");
    for (int e = 0; e < 2 * n; ++e) a[e] = val(rank, e);
    MPI_Reduce_scatter_block(MPI_IN_PLACE, a, 2, MPI_INT, MPI_SUM, w);
    for (int i = 0; i < 2; ++i) check(a[i] == (int)sum_val(2 * rank + i), "MPI_Reduce_scatter_block MPI_IN_PLACE");
  }

  /* ---- scan, exscan ---- */
  {
    long x = rank + 1, s = -1;
    MPI_Scan(&x, &s, 1, MPI_LONG, MPI_SUM, w);
    check(s == (long)(rank + 1) * (rank + 2) / 2, "MPI_Scan");
    s = rank + 1;
    MPI_Scan(MPI_IN_PLACE, &s, 1, MPI_LONG, MPI_SUM, w);
    check(s == (long)(rank + 1) * (rank + 2) / 2, "MPI_Scan MPI_IN_PLACE");
    s = -1;
    MPI_Exscan(&x, &s, 1, MPI_LONG, MPI_SUM, w);
    if (rank > 0) check(s == (long)rank * (rank + 1) / 2, "MPI_Exscan");
    MPI_Scan(mm, mr, K, mat_type, matprod, w);
    for (int k = 0; k < K; ++k) check(mat_eq(mr[k], mat_prod(0, rank + 1, k)), "MPI_Scan user op");
    MPI_Exscan(mm, mr, K, mat_type, matprod, w);
    if (rank > 0)
      for (int k = 0; k < K; ++k) check(mat_eq(mr[k], mat_prod(0, rank, k)), "MPI_Exscan user op");
  }

  /* ---- non-blocking collectives, several in flight at once ---- */
#ifdef SIMFAB_MPI
  simfab_compute(1e4 * ((rank * 3) % n));
#endif
  {
    MPI_Request req[12];
    int nreq = 0;
    int bc[K], gath[K * 64 + K], scat[K], ag[2 * 64 + 2], a2a_in[64], a2a_out[64], rsb_in[64], rsb_out = -1;
    long sum[K], red[K], lm[K], sc = -1, ex = -1, one;
    double d = rank, dsum = -1;
    if (n > 64) {
      fprintf(stderr, "collectives: the non-blocking part supports up to 64 ranks\n");
      MPI_Abort(w, 1);
    }
    for (int i = 0; i < K; ++i) {
      bc[i] = rank == 0 ? val(0, i) + 1 : 0;
      lm[i] = mine[i];
    }
    MPI_Ibarrier(w, &req[nreq++]);
    MPI_Ibcast(bc, K, MPI_INT, 0, w, &req[nreq++]);
    MPI_Iallreduce(lm, sum, K, MPI_LONG, MPI_SUM, w, &req[nreq++]);
    MPI_Ireduce(lm, red, K, MPI_LONG, MPI_SUM, n - 1, w, &req[nreq++]);
    MPI_Iallreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, w, &req[nreq++]);
    MPI_Igather(mine, K, MPI_INT, gath, K, MPI_INT, 0, w, &req[nreq++]);
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < K; ++i) a[r * K + i] = val(r, i) * 3;
    MPI_Iscatter(a, K, MPI_INT, scat, K, MPI_INT, 0, w, &req[nreq++]);
    int pair[2] = {rank, -rank};
    MPI_Iallgather(pair, 2, MPI_INT, ag, 2, MPI_INT, w, &req[nreq++]);
    for (int j = 0; j < n; ++j) a2a_in[j] = 1000 * rank + j;
    MPI_Ialltoall(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, w, &req[nreq++]);
    for (int j = 0; j < n; ++j) rsb_in[j] = val(rank, j);
    MPI_Ireduce_scatter_block(rsb_in, &rsb_out, 1, MPI_INT, MPI_SUM, w, &req[nreq++]);
    one = rank + 1;
    MPI_Iscan(&one, &sc, 1, MPI_LONG, MPI_SUM, w, &req[nreq++]);
    MPI_Iexscan(&one, &ex, 1, MPI_LONG, MPI_SUM, w, &req[nreq++]);
    /* the scatter's send buffer must stay untouched until completion: wait for it alone first */
    MPI_Wait(&req[6], MPI_STATUS_IGNORE);
    check(req[6] == MPI_REQUEST_NULL, "MPI_Wait sets MPI_REQUEST_NULL");
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < nreq; ++i) check(req[i] == MPI_REQUEST_NULL, "MPI_Waitall sets MPI_REQUEST_NULL");
    for (int i = 0; i < K; ++i) {
      check(bc[i] == val(0, i) + 1, "MPI_Ibcast");
      check(sum[i] == sum_val(i), "MPI_Iallreduce");
      if (rank == n - 1) check(red[i] == sum_val(i), "MPI_Ireduce");
      check(scat[i] == val(rank, i) * 3, "MPI_Iscatter");
    }
    check(dsum == (double)n * (n - 1) / 2, "MPI_Iallreduce (double)");
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < K; ++i) check(gath[r * K + i] == val(r, i), "MPI_Igather");
    for (int r = 0; r < n; ++r) check(ag[2 * r] == r && ag[2 * r + 1] == -r, "MPI_Iallgather");
    for (int j = 0; j < n; ++j) check(a2a_out[j] == 1000 * j + rank, "MPI_Ialltoall");
    check(rsb_out == (int)sum_val(rank), "MPI_Ireduce_scatter_block");
    check(sc == (long)(rank + 1) * (rank + 2) / 2, "MPI_Iscan");
    if (rank > 0) check(ex == (long)rank * (rank + 1) / 2, "MPI_Iexscan");

    /* ialltoallv and igatherv, waited one by one with MPI_Wait */
    int soff = 0, roff = 0;
    for (int j = 0; j < n; ++j) {
      counts[j] = (rank * 2 + j) % 2 + 1;
      displs[j] = soff;
      soff += counts[j];
      rcounts[j] = (j * 2 + rank) % 2 + 1;
      rdispls[j] = roff;
      roff += rcounts[j];
      for (int i = 0; i < counts[j]; ++i) a[displs[j] + i] = 1000 * rank + 10 * j + i;
    }
    MPI_Ialltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, w, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < rcounts[j]; ++i) check(b[rdispls[j] + i] == 1000 * j + 10 * rank + i, "MPI_Ialltoallv");
    int goff = 0;
    for (int r = 0; r < n; ++r) {
      counts[r] = r % 2 + 1;
      displs[r] = goff;
      goff += counts[r];
    }
    MPI_Igatherv(mine, counts[rank], MPI_INT, gath, counts, displs, MPI_INT, 0, w, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < counts[r]; ++i) check(gath[displs[r] + i] == val(r, i), "MPI_Igatherv");
  }

  MPI_Op_free(&matprod);
  check(matprod == MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");
  MPI_Type_free(&mat_type);
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, w);
  if (rank == 0) printf("collectives: blocking and non-blocking collectives on %d ranks: %s (%d errors)\n", n, all ? "WRONG" : "OK", all);
  free(a); free(b); free(counts); free(displs); free(rcounts); free(rdispls);
  MPI_Finalize();
  return all ? 1 : 0;
}
