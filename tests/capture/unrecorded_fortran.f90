! A Fortran program (mpif.h): libsimfab-capture.so wraps only the C bindings, so its MPI_INIT
! wrapper refuses it (exit 2, naming mpi_bcast_ & co.), or with SIMFAB_CAPTURE_ALLOW_UNRECORDED=1
! lets it run uncaptured with a warning. Used by tests/capture/run_coverage.py.
program unrecorded_fortran
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, x
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  x = rank
  call MPI_BCAST(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'unrecorded_fortran: done'
  call MPI_FINALIZE(ierr)
end program unrecorded_fortran
