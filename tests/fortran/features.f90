! features: the parts of the Fortran MPI interface that differ from C, each printed as one line
! that a real MPI (Open MPI's mpif90) prints alike: 1-based Waitany/Testany/Waitsome indices,
! MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE, MPI_IN_PLACE, LOGICAL flags, CHARACTER arguments
! (names, processor name, info values), MPI_2DOUBLE_PRECISION with MPI_MAXLOC, a user-defined
! operation written in Fortran, derived types, communicator splits, attributes, SAVE'd and
! COMMON state private per rank, and a C routine called from Fortran (mixed.c).
program features
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, i, idx, outcount, sub, subrank, op, col, flag_int, n
  integer :: reqs(3), indices(3), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 3), info
  integer :: calls
  common /state/ calls
  logical :: flag, commute
  double precision :: pair(2), best(2), vals(3), got(3), m(3, 3), column(3)
  integer(kind=MPI_ADDRESS_KIND) :: tag_ub
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=40) :: value
  integer :: clen, fh
  integer(kind=MPI_OFFSET_KIND) :: offset
  integer :: block(4), back(4)
  external :: absmax
  integer, external :: c_side

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  calls = 0

  ! Waitany / Waitsome / Testany: 1-based indices; a ring of three messages per rank
  do i = 1, 3
    vals(i) = 10 * rank + i
    call MPI_Irecv(got(i), 1, MPI_DOUBLE_PRECISION, mod(rank + nprocs - 1, nprocs), i, &
                   MPI_COMM_WORLD, reqs(i), ierr)
  end do
  do i = 3, 1, -1
    call MPI_Send(vals(i), 1, MPI_DOUBLE_PRECISION, mod(rank + 1, nprocs), i, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Waitany(3, reqs, idx, st, ierr)
  call counted()
  if (rank == 0) print '(a,l1,a,l1)', 'waitany index in 1..3: ', idx >= 1 .and. idx <= 3, &
                                      '  tag = index: ', st(MPI_TAG) == idx
  call MPI_Waitsome(3, reqs, outcount, indices, sts, ierr)
  if (rank == 0) print '(a,l1)', 'waitsome indices in 1..3: ', &
                                 all(indices(1:outcount) >= 1 .and. indices(1:outcount) <= 3)
  call MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Testany(3, reqs, idx, flag, st, ierr)
  if (rank == 0) print '(a,l1,a,l1)', 'testany on null requests: flag ', flag, &
                                      ' index undefined: ', idx == MPI_UNDEFINED
  if (rank == 0) print '(a,3f6.1)', 'ring received ', got

  ! MPI_IN_PLACE and MPI_MAXLOC on MPI_2DOUBLE_PRECISION
  pair = [dble(mod(rank * 7, 5)), dble(rank)]
  call MPI_Allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, pair, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,2f5.1,a,l1)', 'maxloc ', best, ' in place agrees: ', all(pair == best)

  ! a user-defined operation in Fortran: the value of largest magnitude
  commute = .true.
  call MPI_Op_create(absmax, commute, op, ierr)
  vals(1) = dble((-1)**rank * rank)
  call MPI_Reduce(vals(1), got(1), 1, MPI_DOUBLE_PRECISION, op, 0, MPI_COMM_WORLD, ierr)
  call MPI_Op_free(op, ierr)
  if (rank == 0) print '(a,f6.1)', 'user op absmax ', got(1)

  ! a derived type: a row of a column-major 3x3 matrix
  call MPI_Type_vector(3, 1, 3, MPI_DOUBLE_PRECISION, col, ierr)
  call MPI_Type_commit(col, ierr)
  m = reshape([(dble(i), i = 1, 9)], [3, 3])
  if (rank == 0) call MPI_Send(m(2, 1), 1, col, nprocs - 1, 9, MPI_COMM_WORLD, ierr)
  if (rank == nprocs - 1) then
    call MPI_Recv(column, 3, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    print '(a,3f5.1)', 'row 2 as a vector type: ', column
  end if
  call MPI_Type_free(col, ierr)

  ! split, names (CHARACTER in and out), LOGICAL flags, attributes
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub, ierr)
  call MPI_Comm_rank(sub, subrank, ierr)
  call MPI_Comm_set_name(sub, 'half ' // achar(48 + mod(rank, 2)) // '   ', ierr)
  call MPI_Comm_get_name(sub, cname, clen, ierr)
  if (rank == 1) print '(a,i0,3a,i0,a)', 'split: rank 1 is ', subrank, ' of "', trim(cname), '" (', clen, ' chars)'
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  if (rank == 0) print '(a,l1,a,l1)', 'tag_ub present: ', flag, ' at least 32767: ', tag_ub >= 32767
  call MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, st, ierr)
  if (rank == 0) print '(a,l1)', 'iprobe with nothing pending: ', flag
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'cb_nodes  ', '4 ', ierr)
  call MPI_Info_get(info, 'cb_nodes', 40, value, flag, ierr)
  call MPI_Info_free(info, ierr)
  if (rank == 0) print '(4a,l1)', 'info value "', trim(value), '"', ' found ', flag

  ! MPI-IO: every rank writes its block at its offset, reads its neighbour's back
  call MPI_File_open(MPI_COMM_WORLD, 'features-io.dat', MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  block = [(100 * rank + i, i = 1, 4)]
  offset = rank * 16
  call MPI_File_write_at_all(fh, offset, block, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  offset = mod(rank + 1, nprocs) * 16
  call MPI_File_read_at_all(fh, offset, back, 4, MPI_INTEGER, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, n, ierr)
  call MPI_File_close(fh, ierr)
  if (rank == 0) then
    call MPI_File_delete('features-io.dat', MPI_INFO_NULL, ierr)
    print '(a,4i5,a,i0)', 'MPI-IO read back ', back, ' count ', n
  end if

  ! C called from Fortran: the C side converts the handle and reduces
  flag_int = c_side(MPI_COMM_WORLD, rank)
  if (rank == 0) print '(a,i0)', 'c_side sum of ranks: ', flag_int
  call counted()
  n = calls
  if (rank == 0) print '(a,i0)', 'private COMMON counter: ', n
  call MPI_Finalize(ierr)

contains

  subroutine counted()
    integer, save :: mine = 0
    mine = mine + 1
    calls = calls + 1
    if (mine /= calls) print '(a)', 'SAVE and COMMON disagree'
  end subroutine
end program features

subroutine absmax(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype, i
  double precision :: invec(len), inoutvec(len)
  do i = 1, len
    if (abs(invec(i)) > abs(inoutvec(i))) inoutvec(i) = invec(i)
  end do
  if (datatype < 0) print *, 'unreachable'
end subroutine
