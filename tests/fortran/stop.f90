! stop: Fortran's ways of ending a rank. `stop [code]` on rank (argument 1) with STOP code
! (argument 2; 0: a plain STOP), `error stop` when argument 3 is "error"; the other ranks finish.
program stop_test
  use mpi
  implicit none
  integer :: ierr, rank, who, code
  character(len=8) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, arg)
  read (arg, *) who
  call get_command_argument(2, arg)
  read (arg, *) code
  call get_command_argument(3, arg)
  if (rank == who) then
    if (arg == 'error') error stop code
    if (code == 0) stop
    if (code == 3) stop 3
    stop 'bye'
  end if
  call MPI_Finalize(ierr)
end program stop_test
