! fring: the Fortran twin of ringtime: one lap of an INTEGER token round the ranks (each adds its
! rank), so rank 0 gets back the sum of all ranks.
program fring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, token
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  token = 0
  if (rank > 0) call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  token = token + rank
  call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Recv(token, 1, MPI_INTEGER, nprocs - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    print '(a,i0,a,i0)', 'fring: ', nprocs, ' ranks, token ', token
  end if
  call MPI_Finalize(ierr)
end program fring
