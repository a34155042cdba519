/* attributes: the MPI calls programs use around their communication, each checked against what
 * the standard says, one line per feature ("name: OK" or "name: WRONG ..."), printed by rank 0:
 * keyvals and attributes on communicators (copy callbacks at MPI_Comm_dup, delete callbacks at
 * MPI_Comm_free and MPI_Comm_delete_attr) and datatypes (MPI_Type_dup), error handlers (create,
 * set, get, call), group ranges, info and names on communicators and windows, Fortran 90 types,
 * MPI_Comm_dup_with_info, MPI_Comm_disconnect, MPI_Alltoallw, generalized requests and datatype
 * envelopes and contents. With -DMPI1 (simfab; Open MPI 4 leaves them out)
 * also MPI-1's removed names: MPI_Address, MPI_Type_extent/lb/ub, MPI_Type_struct/hvector/hindexed,
 * MPI_Keyval_create, MPI_Attr_put, MPI_Errhandler_create/set/get. Runs on any number of ranks >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int copies = 0, deletes = 0, handled_code = 0;

static int copy_fn(MPI_Comm c, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)c, (void)keyval;
  ++copies;
  *(long*)out = (long)in + *(int*)extra;  /* the copy is the value plus extra_state */
  *flag = 1;
  return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int keyval, void* value, void* extra) {
  (void)c, (void)keyval, (void)value, (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

static int type_deletes = 0;
static int type_delete_fn(MPI_Datatype t, int keyval, void* value, void* extra) {
  (void)t, (void)keyval, (void)value, (void)extra;
  ++type_deletes;
  return MPI_SUCCESS;
}

static int grequest_frees = 0;
static int grequest_query(void* extra, MPI_Status* status) {
  (void)extra;
  MPI_Status_set_elements(status, MPI_BYTE, 42);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int grequest_free(void* extra) {
  ++*(int*)extra;
  return MPI_SUCCESS;
}
static int grequest_cancel(void* extra, int complete) {
  (void)extra, (void)complete;
  return MPI_SUCCESS;
}

static void handler(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  handled_code = *code;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, ok;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* attributes on communicators */
  int keyval, flag = 0, extra = 100;
  MPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, &extra);
  MPI_Comm dup, dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_attr(dup, keyval, (void*)(long)(rank + 1));
  void* got = NULL;
  MPI_Comm_get_attr(dup, keyval, &got, &flag);
  report(rank, "comm attribute set and get", flag && (long)got == rank + 1);
  MPI_Comm_dup(dup, &dup2);
  MPI_Comm_get_attr(dup2, keyval, &got, &flag);
  report(rank, "comm attribute copied by MPI_Comm_dup (copy callback)", flag && (long)got == rank + 101 && copies == 1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
  report(rank, "no attribute where none was set", !flag);
  MPI_Comm_set_attr(dup, keyval, (void*)7L);  /* replacing runs the delete callback */
  report(rank, "replacing an attribute deletes the old value", deletes == 1);
  MPI_Comm_delete_attr(dup, keyval);
  report(rank, "MPI_Comm_delete_attr runs the delete callback", deletes == 2);
  MPI_Comm_free(&dup2);
  report(rank, "MPI_Comm_free runs the delete callbacks", deletes == 3);
  MPI_Comm_free_keyval(&keyval);
  report(rank, "MPI_Comm_free_keyval resets the keyval", keyval == MPI_KEYVAL_INVALID);
  MPI_Comm_free(&dup);
  int tag_ub_flag = 0, *tag_ub = NULL;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &tag_ub_flag);
  report(rank, "MPI_TAG_UB still answers", tag_ub_flag && *tag_ub >= 32767);

  /* MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN */
  int k_dup, k_null;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k_dup, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_null, NULL);
  MPI_Comm a, b;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_set_attr(a, k_dup, (void*)42L);
  MPI_Comm_set_attr(a, k_null, (void*)43L);
  MPI_Comm_dup(a, &b);
  int f_dup = 0, f_null = 1;
  MPI_Comm_get_attr(b, k_dup, &got, &f_dup);
  long dup_value = (long)got;
  MPI_Comm_get_attr(b, k_null, &got, &f_null);
  report(rank, "MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not", f_dup && dup_value == 42 && !f_null);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free_keyval(&k_dup);
  MPI_Comm_free_keyval(&k_null);

  /* attributes on datatypes */
  int tk;
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete_fn, &tk, NULL);
  MPI_Datatype vec, vec2;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_set_attr(vec, tk, (void*)9L);
  MPI_Type_dup(vec, &vec2);
  MPI_Type_get_attr(vec2, tk, &got, &flag);
  report(rank, "datatype attribute copied by MPI_Type_dup", flag && (long)got == 9);
  MPI_Type_free(&vec);
  MPI_Type_free(&vec2);
  report(rank, "MPI_Type_free runs the delete callbacks", type_deletes == 2);
  MPI_Type_free_keyval(&tk);

  /* error handlers */
  MPI_Errhandler eh, current;
  MPI_Comm_create_errhandler(handler, &eh);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_get_errhandler(c, &current);
  report(rank, "the default error handler is MPI_ERRORS_ARE_FATAL", current == MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(c, eh);
  MPI_Comm_get_errhandler(c, &current);
  int same = current == eh;
  MPI_Comm_call_errhandler(c, MPI_ERR_OTHER);
  report(rank, "a user handler is set, returned and called", same && handled_code == MPI_ERR_OTHER);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  handled_code = 0;
  const int rc = MPI_Comm_call_errhandler(c, MPI_ERR_ARG);
  report(rank, "MPI_ERRORS_RETURN: call_errhandler returns MPI_SUCCESS, no handler runs",
         rc == MPI_SUCCESS && handled_code == 0);
  MPI_Errhandler_free(&eh);
  report(rank, "MPI_Errhandler_free resets the handle", eh == MPI_ERRHANDLER_NULL);
  MPI_Comm_free(&c);

  /* group ranges */
  MPI_Group world, evens, rest;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  MPI_Group_range_excl(world, 1, range, &rest);
  int ne = 0, nr = 0, er = MPI_UNDEFINED;
  MPI_Group_size(evens, &ne);
  MPI_Group_size(rest, &nr);
  MPI_Group_rank(evens, &er);
  report(rank, "MPI_Group_range_incl / _excl", ne == (size + 1) / 2 && nr == size / 2 &&
                                                  er == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED));
  MPI_Group_free(&evens);
  MPI_Group_free(&rest);
  MPI_Group_free(&world);

  /* info and names, dup_with_info, disconnect */
  MPI_Info info, used;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "true");
  MPI_Comm d;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d);
  MPI_Comm_set_info(d, info);
  MPI_Comm_get_info(d, &used);
  int nkeys = -1;
  MPI_Info_get_nkeys(used, &nkeys);
  report(rank, "MPI_Comm_dup_with_info, MPI_Comm_get_info gives an info", nkeys >= 0);
  MPI_Info_free(&used);
  MPI_Comm_disconnect(&d);
  report(rank, "MPI_Comm_disconnect frees", d == MPI_COMM_NULL);
  int buf[4] = {0};
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win);
  MPI_Win_set_name(win, "halo window");
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  MPI_Win_get_name(win, name, &len);
  report(rank, "window names", strcmp(name, "halo window") == 0 && len == 11);
  MPI_Win_set_info(win, info);
  MPI_Win_get_info(win, &used);
  MPI_Info_free(&used);
  MPI_Win_free(&win);
  MPI_Info_free(&info);

  /* Fortran 90 types */
  MPI_Datatype r8, i4, c8;
  MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r8);
  MPI_Type_create_f90_integer(9, &i4);
  MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &c8);
  int s_r8 = 0, s_i4 = 0, s_c8 = 0;
  MPI_Type_size(r8, &s_r8);
  MPI_Type_size(i4, &s_i4);
  MPI_Type_size(c8, &s_c8);
  report(rank, "MPI_Type_create_f90_real/integer/complex sizes 8, 4, 8", s_r8 == 8 && s_i4 == 4 && s_c8 == 8);

  /* MPI_Alltoallw: rank r sends r + j + 1 ints to rank j as MPI_INT; j receives them as one
   * contiguous type of that many ints, at byte displacements */
  int* sendb = malloc(sizeof(int) * (size_t)(size * (rank + size + 1)));
  int* recvb = malloc(sizeof(int) * (size_t)(size * (2 * size + 1)));
  int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
  int *rc_ = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype *stypes = malloc(sizeof(MPI_Datatype) * (size_t)size), *rt = malloc(sizeof(MPI_Datatype) * (size_t)size);
  int at = 0, rat = 0;
  for (int j = 0; j < size; ++j) {
    sc[j] = rank + j + 1;
    sd[j] = at * (int)sizeof(int);
    stypes[j] = MPI_INT;
    for (int i = 0; i < sc[j]; ++i) sendb[at + i] = 1000 * rank + 10 * j + i;
    at += sc[j];
    rc_[j] = 1;
    rd[j] = rat * (int)sizeof(int);
    MPI_Type_contiguous(j + rank + 1, MPI_INT, &rt[j]);
    MPI_Type_commit(&rt[j]);
    rat += j + rank + 1;
  }
  MPI_Alltoallw(sendb, sc, sd, stypes, recvb, rc_, rd, rt, MPI_COMM_WORLD);
  ok = 1;
  rat = 0;
  for (int j = 0; j < size; ++j) {
    for (int i = 0; i < j + rank + 1; ++i) ok &= recvb[rat + i] == 1000 * j + 10 * rank + i;
    rat += j + rank + 1;
    MPI_Type_free(&rt[j]);
  }
  report(rank, "MPI_Alltoallw with per-peer datatypes", ok);
  free(sendb), free(recvb), free(sc), free(sd), free(rc_), free(rd), free(stypes), free(rt);

  /* how datatypes were made: MPI_Type_get_envelope / MPI_Type_get_contents (not under Open MPI
   * 4.1.4, whose MPI_Type_get_contents crashes on a plain vector on this machine) */
#ifndef OPEN_MPI
  {
    int ni, na, nd, comb;
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    const int named = comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0;
    MPI_Datatype vec3, pairs, inner, rs;
    MPI_Type_vector(3, 2, 5, MPI_INT, &vec3);
    MPI_Type_get_envelope(vec3, &ni, &na, &nd, &comb);
    int ints[8] = {0};
    MPI_Aint addrs[4] = {0};
    MPI_Datatype types[4] = {0};
    MPI_Type_get_contents(vec3, 8, 4, 4, ints, addrs, types);
    const int vector = comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1 && ints[0] == 3 &&
                       ints[1] == 2 && ints[2] == 5 && types[0] == MPI_INT;
    int bls[2] = {1, 4};
    MPI_Aint displs[2] = {0, 64};
    MPI_Datatype members[2] = {vec3, MPI_DOUBLE};
    MPI_Type_create_struct(2, bls, displs, members, &pairs);
    MPI_Type_get_envelope(pairs, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(pairs, 8, 4, 4, ints, addrs, types);
    inner = types[0];
    int ci, ca, cd, cc;
    MPI_Type_get_envelope(inner, &ci, &ca, &cd, &cc);
    const int structure = comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2 && ints[0] == 2 &&
                          ints[2] == 4 && addrs[1] == 64 && types[1] == MPI_DOUBLE && cc == MPI_COMBINER_VECTOR;
    MPI_Type_free(&inner);  /* a derived type from get_contents is the caller's to free */
    MPI_Type_create_resized(vec3, 8, 100, &rs);
    MPI_Type_get_envelope(rs, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(rs, 8, 4, 4, ints, addrs, types);
    inner = types[0];
    const int resized = comb == MPI_COMBINER_RESIZED && na == 2 && addrs[0] == 8 && addrs[1] == 100;
    MPI_Type_free(&inner);
    report(rank, "MPI_Type_get_envelope / get_contents: named, vector, struct (nested), resized",
           named && vector && structure && resized);
    MPI_Type_free(&rs);
    MPI_Type_free(&pairs);
    MPI_Type_free(&vec3);
  }
#endif

  /* generalized requests: the query callback fills the status, free runs once */
  grequest_frees = 0;
  MPI_Request g;
  MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, &grequest_frees, &g);
  int gflag = 1;
  MPI_Test(&g, &gflag, MPI_STATUS_IGNORE);
  const int pending = !gflag && g != MPI_REQUEST_NULL;
  MPI_Grequest_complete(g);
  MPI_Status gst;
  MPI_Wait(&g, &gst);
  int gcount = -1;
  MPI_Get_count(&gst, MPI_BYTE, &gcount);
  report(rank, "generalized request: pending until completed, then the query's status", pending && gcount == 42 &&
                                                                                          g == MPI_REQUEST_NULL);
  MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, &grequest_frees, &g);
  MPI_Request alias = g;
  MPI_Request_free(&g);
  MPI_Grequest_complete(alias);  /* freed first, completed after: free_fn runs now */
  report(rank, "generalized requests: free_fn once per request", grequest_frees == 2);

#ifdef MPI1
  /* MPI-1's removed names */
  struct {
    int i;
    double d;
  } s;
  MPI_Aint base, disp[2], extent = 0, lb = -1, ub = 0;
  MPI_Address(&s, &base);
  MPI_Address(&s.d, &disp[1]);
  disp[0] = 0;
  disp[1] -= base;
  int blens[2] = {1, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, hv, hi;
  MPI_Type_struct(2, blens, disp, types, &st);
  MPI_Type_extent(st, &extent);
  MPI_Type_lb(st, &lb);
  MPI_Type_ub(st, &ub);
  report(rank, "MPI_Address, MPI_Type_struct, MPI_Type_extent/lb/ub", extent == (MPI_Aint)sizeof s && lb == 0 &&
                                                                         ub == (MPI_Aint)sizeof s);
  MPI_Type_hvector(2, 1, 16, MPI_INT, &hv);
  MPI_Aint hd[2] = {0, 12};
  MPI_Type_hindexed(2, blens, hd, MPI_INT, &hi);
  MPI_Type_extent(hv, &extent);
  MPI_Aint e2 = 0;
  MPI_Type_extent(hi, &e2);
  report(rank, "MPI_Type_hvector, MPI_Type_hindexed", extent == 20 && e2 == 16);
  MPI_Type_free(&st);
  MPI_Type_free(&hv);
  MPI_Type_free(&hi);
  int k1;
  MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k1, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, k1, (void*)5L);
  MPI_Attr_get(MPI_COMM_WORLD, k1, &got, &flag);
  int put_ok = flag && (long)got == 5;
  MPI_Attr_delete(MPI_COMM_WORLD, k1);
  MPI_Attr_get(MPI_COMM_WORLD, k1, &got, &flag);
  MPI_Keyval_free(&k1);
  report(rank, "MPI_Keyval_create, MPI_Attr_put/get/delete", put_ok && !flag);
  MPI_Errhandler e1, e2h;
  MPI_Errhandler_create(handler, &e1);
  MPI_Errhandler_set(MPI_COMM_WORLD, e1);
  MPI_Errhandler_get(MPI_COMM_WORLD, &e2h);
  report(rank, "MPI_Errhandler_create/set/get", e1 == e2h);
  MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&e1);
#endif
  if (rank == 0) printf("attributes: %s\n", failures ? "FAILED" : "all OK");
  MPI_Finalize();
  return 0;
}
