! Two kernels per iteration, each ended by an MPI call at its own line (tests/energy/run_energy.py,
! group h): rank 0's first kernel has 0.15 s of slack (rank 1 computes 0.25 s), its second none.
program two_kernels
  use mpi
  implicit none
  integer :: ierr, rank, peer, it, x, y
  integer :: st(MPI_STATUS_SIZE)
  double precision :: first
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  x = rank
  do it = 1, 10
    first = 1d7
    if (rank == 1) first = 2.5d7
    call simfab_compute(first)
    call MPI_Sendrecv(x, 1, MPI_INTEGER, peer, 0, y, 1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, st, ierr)
    call simfab_compute(1d7)
    call MPI_Sendrecv(x, 1, MPI_INTEGER, peer, 1, y, 1, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, st, ierr)
  end do
  call MPI_Finalize(ierr)
end program two_kernels
