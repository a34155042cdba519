! A ring in Fortran 90 (use mpi): each rank passes a token around N times and times it.
program ring
  use mpi
  implicit none
  integer :: ierr, rank, nranks, token, i, next, prev, status(MPI_STATUS_SIZE)
  double precision :: t0, t1, x, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  token = 0
  t0 = MPI_Wtime()
  do i = 1, 10
    if (rank == 0) then
      call MPI_Send(token, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
      call MPI_Recv(token, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, status, ierr)
      token = token + 1
    else
      call MPI_Recv(token, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, status, ierr)
      call MPI_Send(token, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
    end if
  end do
  t1 = MPI_Wtime()
  x = rank
  call MPI_Allreduce(x, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A,I0,A,F12.6,A,F6.1)', 'ranks ', nranks, ' token ', token, &
      ' lap_us ', (t1 - t0) / 10 * 1d6, ' sum ', total
  call MPI_Finalize(ierr)
end program ring
