/* comm_split: sub-communicators and groups. MPI_Comm_split by rank parity (key = -rank, so the
 * order is reversed) and by rank / 2, MPI_Comm_dup of the parity communicator, MPI_Comm_create
 * from a group of the world ranks divisible by 3 (MPI_Comm_group, MPI_Group_incl); on each,
 * MPI_Allreduce, MPI_Bcast and MPI_Allgather results are checked against closed forms, and
 * MPI_Comm_compare, MPI_Group_translate_ranks, MPI_Comm_free (handles become MPI_COMM_NULL)
 * are checked too. Works on any number of ranks.
 * Build and run:
 *   simfab-cc -O2 -o comm_split comm_split.c
 *   simfab exec -np 7 --cfg online/compute=declared ./comm_split
 * Prints "comm_split: ... OK" and exits 0 when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errors = 0;
static int world_rank = 0;
static void check(int cond, const char* what) {
  if (!cond) {
    ++errors;
    fprintf(stderr, "comm_split: rank %d: check failed: %s\n", world_rank, what);
  }
}

/* On communicator c whose members are the world ranks members[0..n-1] (in c's rank order):
 * checks sum and max of world ranks, a broadcast from c's last rank and an allgather. */
static void exercise(MPI_Comm c, const int* members, int n, const char* name) {
  int crank, csize;
  MPI_Comm_rank(c, &crank);
  MPI_Comm_size(c, &csize);
  check(csize == n, name);
  check(members[crank] == world_rank, name);
  long sum_expect = 0;
  int max_expect = -1;
  for (int i = 0; i < n; ++i) {
    sum_expect += members[i];
    if (members[i] > max_expect) max_expect = members[i];
  }
  long mine = world_rank, sum = -1;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, c);
  check(sum == sum_expect, "allreduce sum on a sub-communicator");
  int max = -1;
  MPI_Allreduce(&world_rank, &max, 1, MPI_INT, MPI_MAX, c);
  check(max == max_expect, "allreduce max on a sub-communicator");
  int b[2] = {0, 0};
  if (crank == n - 1) {
    b[0] = 1000 + world_rank;
    b[1] = n;
  }
  MPI_Bcast(b, 2, MPI_INT, n - 1, c);
  check(b[0] == 1000 + members[n - 1] && b[1] == n, "bcast on a sub-communicator");
  int* all = malloc(sizeof(int) * 2 * (size_t)n);
  int pair[2] = {world_rank, crank};
  MPI_Allgather(pair, 2, MPI_INT, all, 2, MPI_INT, c);
  for (int i = 0; i < n; ++i) check(all[2 * i] == members[i] && all[2 * i + 1] == i, "allgather on a sub-communicator");
  free(all);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rank = world_rank;
  int* members = malloc(sizeof(int) * (size_t)size);
  int n, res;

  /* by parity, reversed order (key = -rank) */
  MPI_Comm parity;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &parity);
  n = 0;
  for (int r = size - 1; r >= 0; --r)
    if (r % 2 == rank % 2) members[n++] = r;
  exercise(parity, members, n, "parity communicator");

  /* dup of it: congruent, same results */
  MPI_Comm dup;
  MPI_Comm_dup(parity, &dup);
  MPI_Comm_compare(parity, dup, &res);
  check(res == MPI_CONGRUENT, "MPI_Comm_compare(comm, its dup) == MPI_CONGRUENT");
  MPI_Comm_compare(parity, parity, &res);
  check(res == MPI_IDENT, "MPI_Comm_compare(comm, comm) == MPI_IDENT");
  exercise(dup, members, n, "dup of the parity communicator");

  /* pairs by rank / 2, natural order */
  MPI_Comm pairs;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pairs);
  n = 0;
  for (int r = 0; r < size; ++r)
    if (r / 2 == rank / 2) members[n++] = r;
  exercise(pairs, members, n, "pair communicator");
  MPI_Comm_compare(pairs, MPI_COMM_WORLD, &res);
  /* the pair communicator has world's members only when size <= 2 */
  check(res == (size <= 2 ? MPI_CONGRUENT : MPI_UNEQUAL), "MPI_Comm_compare(pairs, world)");

  /* the same members in another order: MPI_SIMILAR (when there are at least 2) */
  MPI_Comm parity_fwd;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity_fwd);
  MPI_Comm_compare(parity, parity_fwd, &res);
  {
    int psize;
    MPI_Comm_size(parity, &psize);
    check(res == (psize > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "MPI_Comm_compare(reversed, natural) == MPI_SIMILAR");
  }

  /* MPI_Comm_create from the group of world ranks divisible by 3 */
  MPI_Group world_group, thirds_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  n = 0;
  for (int r = 0; r < size; r += 3) members[n++] = r;
  MPI_Group_incl(world_group, n, members, &thirds_group);
  int gsize, grank;
  MPI_Group_size(thirds_group, &gsize);
  MPI_Group_rank(thirds_group, &grank);
  check(gsize == n, "MPI_Group_size");
  check(grank == (rank % 3 == 0 ? rank / 3 : MPI_UNDEFINED), "MPI_Group_rank");
  MPI_Comm thirds;
  MPI_Comm_create(MPI_COMM_WORLD, thirds_group, &thirds);
  if (rank % 3 == 0) {
    check(thirds != MPI_COMM_NULL, "MPI_Comm_create gives members a communicator");
    exercise(thirds, members, n, "communicator from a group");
  } else {
    check(thirds == MPI_COMM_NULL, "MPI_Comm_create gives non-members MPI_COMM_NULL");
  }

  /* translate ranks: every world rank into the thirds group, and parity ranks into world */
  {
    int* in = malloc(sizeof(int) * (size_t)size);
    int* out = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; r < size; ++r) in[r] = r;
    MPI_Group_translate_ranks(world_group, size, in, thirds_group, out);
    for (int r = 0; r < size; ++r) check(out[r] == (r % 3 == 0 ? r / 3 : MPI_UNDEFINED), "MPI_Group_translate_ranks to a subgroup");
    MPI_Group parity_group;
    MPI_Comm_group(parity, &parity_group);
    int psize;
    MPI_Group_size(parity_group, &psize);
    MPI_Group_translate_ranks(parity_group, psize, in, world_group, out);
    /* parity rank i is the i-th largest world rank of my parity */
    int last = size - 1;
    if (last % 2 != rank % 2) --last;
    for (int i = 0; i < psize; ++i) check(out[i] == last - 2 * i, "MPI_Group_translate_ranks to world");
    MPI_Group_free(&parity_group);
    check(parity_group == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
    free(in);
    free(out);
  }

  MPI_Group_free(&thirds_group);
  MPI_Group_free(&world_group);
  if (thirds != MPI_COMM_NULL) MPI_Comm_free(&thirds);
  MPI_Comm_free(&parity_fwd);
  MPI_Comm_free(&pairs);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&parity);
  check(parity == MPI_COMM_NULL && dup == MPI_COMM_NULL && pairs == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("comm_split: split, dup, create, compare, translate_ranks on %d ranks: %s (%d errors)\n", size, all ? "WRONG" : "OK", all);
  free(members);
  MPI_Finalize();
  return all ? 1 : 0;
}
