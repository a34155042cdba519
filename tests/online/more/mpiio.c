/* mpiio: MPI-IO's common calls as applications use them, each checked by reading back what was
 * written, one line per feature ("name: OK"), printed by rank 0: explicit offsets with the
 * collective _at_all forms, a strided view (every rank owns every P-th int), the individual and
 * shared file pointers, the _ordered forms, sizes, seeks, amode, error codes of a missing file and
 * of MPI_MODE_EXCL on an existing one (files return errors by default), delete. With argument
 * "time", rank 0 also prints how long one 1 MB MPI_File_write_at took by MPI_Wtime.
 * Usage: mpiio DIR [time]   (the files are DIR/mpiio-*.dat) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* dir = argc > 1 ? argv[1] : ".";
  char path[4096], path2[4096], missing[4096];
  snprintf(path, sizeof path, "%s/mpiio-blocks.dat", dir);
  snprintf(path2, sizeof path2, "%s/mpiio-ordered.dat", dir);
  snprintf(missing, sizeof missing, "%s/mpiio-missing.dat", dir);
  enum { N = 64 };
  int block[N], back[N];
  for (int i = 0; i < N; ++i) block[i] = rank * 1000 + i;

  /* explicit offsets, collective */
  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  report(rank, "MPI_File_open (create)", rc == MPI_SUCCESS);
  MPI_Status st;
  MPI_File_write_at_all(fh, (MPI_Offset)rank * N * sizeof(int), block, N, MPI_INT, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  const int next = (rank + 1) % size;
  MPI_File_read_at_all(fh, (MPI_Offset)next * N * sizeof(int), back, N, MPI_INT, MPI_STATUS_IGNORE);
  int ok = count == N;
  for (int i = 0; i < N; ++i) ok &= back[i] == next * 1000 + i;
  report(rank, "write_at_all / read_at_all of the neighbour's block", ok);
  MPI_Offset fsize = 0;
  MPI_File_get_size(fh, &fsize);
  report(rank, "MPI_File_get_size", fsize == (MPI_Offset)size * N * (MPI_Offset)sizeof(int));

  /* a strided view: rank r owns ints r, r + P, r + 2P, ... */
  MPI_Datatype strided, resized;
  MPI_Type_vector(1, 1, size, MPI_INT, &strided);
  MPI_Type_create_resized(strided, 0, (MPI_Aint)(size * sizeof(int)), &resized);
  MPI_Type_commit(&resized);
  MPI_File_set_view(fh, (MPI_Offset)(rank * sizeof(int)), MPI_INT, resized, "native", MPI_INFO_NULL);
  int mine[N];
  for (int i = 0; i < N; ++i) mine[i] = -(rank + 1) * 100000 - i;
  MPI_File_write_all(fh, mine, N, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Offset pos = -1;
  MPI_File_get_position(fh, &pos);
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int* all = malloc(sizeof(int) * N * (size_t)size);
  MPI_File_read_at(fh, 0, all, N * size, MPI_INT, MPI_STATUS_IGNORE);
  ok = pos == N;
  for (int i = 0; i < N * size; ++i) ok &= all[i] == -(i % size + 1) * 100000 - i / size;
  report(rank, "a strided view (vector filetype): write_all interleaves the ranks", ok);
  free(all);
  MPI_Type_free(&strided);
  MPI_Type_free(&resized);

  /* individual pointer, seek */
  MPI_File_seek(fh, (MPI_Offset)rank * N, MPI_SEEK_SET);
  MPI_File_read(fh, back, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_get_position(fh, &pos);
  report(rank, "seek, read, get_position", pos == (MPI_Offset)rank * N + 4 && back[0] == -(rank * N % size + 1) * 100000 - rank * N / size);
  int amode = 0;
  MPI_File_get_amode(fh, &amode);
  report(rank, "MPI_File_get_amode", amode == (MPI_MODE_CREATE | MPI_MODE_RDWR));
  MPI_File_set_size(fh, 100);
  MPI_File_get_size(fh, &fsize);
  report(rank, "MPI_File_set_size", fsize == 100);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
  report(rank, "MPI_File_close", fh == MPI_FILE_NULL);

  /* ordered and shared pointers */
  MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
  char text[64];
  for (int i = 0; i <= rank; ++i) text[i] = (char)('a' + rank % 26);
  MPI_File_write_ordered(fh, text, rank + 1, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_Offset shared = -1;
  MPI_File_get_position_shared(fh, &shared);
  report(rank, "write_ordered moves the shared pointer past everyone", shared == (MPI_Offset)size * (size + 1) / 2);
  MPI_File_write_shared(fh, "!", 1, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_get_position_shared(fh, &shared);
  report(rank, "write_shared: one byte each", shared == (MPI_Offset)size * (size + 1) / 2 + size);
  MPI_File check;
  MPI_File_open(MPI_COMM_SELF, path2, MPI_MODE_RDONLY, MPI_INFO_NULL, &check);
  char got[512] = {0};
  MPI_File_read_at(check, 0, got, size * (size + 1) / 2, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&check);
  ok = 1;
  for (int r = 0, at = 0; r < size; ++r)
    for (int i = 0; i <= r; ++i) ok &= got[at++] == (char)('a' + r % 26);
  report(rank, "write_ordered: the ranks' pieces in rank order", ok);
  MPI_File_close(&fh);  /* the last close deletes it */

  /* errors are returned */
  MPI_File none;
  rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &none);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  report(rank, "a missing file: MPI_ERR_NO_SUCH_FILE, returned", rc != MPI_SUCCESS && cls == MPI_ERR_NO_SUCH_FILE);
  rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &none);
  MPI_Error_class(rc, &cls);
  report(rank, "MPI_MODE_EXCL on an existing file: MPI_ERR_FILE_EXISTS", rc != MPI_SUCCESS && cls == MPI_ERR_FILE_EXISTS);
  rc = MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_RDONLY, MPI_INFO_NULL, &none);
  report(rank, "MPI_MODE_DELETE_ON_CLOSE deleted the file", rc != MPI_SUCCESS);

  if (argc > 2 && strcmp(argv[2], "time") == 0) {
    char* mb = calloc(1000000, 1);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    const double t0 = MPI_Wtime();
    if (rank == 0) MPI_File_write_at(fh, 0, mb, 1000000, MPI_BYTE, MPI_STATUS_IGNORE);
    const double t1 = MPI_Wtime();
    MPI_File_close(&fh);
    if (rank == 0) printf("mpiio: one 1 MB write took %.3f us\n", (t1 - t0) * 1e6);
    free(mb);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &none);
  report(rank, "MPI_File_delete", rc != MPI_SUCCESS);
  if (rank == 0) printf("mpiio: %s\n", failures ? "FAILED" : "all OK");
  MPI_Finalize();
  return 0;
}
