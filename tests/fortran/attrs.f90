! attrs: attribute caching from Fortran (MPI-3.1 §6.7): keyvals with Fortran copy and delete
! callbacks, the predefined MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN / MPI_COMM_NULL_DELETE_FN,
! attributes on a datatype, and MPI-1's MPI_KEYVAL_CREATE / MPI_ATTR_PUT / MPI_ATTR_GET.
! Every rank checks; rank 0 prints one line per feature ("... T" when all ranks agree).
module attr_counts
  implicit none
  integer :: copies = 0, deletes = 0
end module attr_counts

subroutine double_it(oldcomm, keyval, extra, valin, valout, flag, ierr)
  use mpi
  use attr_counts
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
  logical :: flag
  copies = copies + 1
  valout = 2 * valin + extra
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine double_it

subroutine count_delete(comm, keyval, val, extra, ierr)
  use mpi
  use attr_counts
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  deletes = deletes + 1
  ierr = MPI_SUCCESS
end subroutine count_delete

program attrs
  use mpi
  use attr_counts
  implicit none
  external :: double_it, count_delete
  integer :: ierr, rank, key, key_dup, key_null, key1, dup1, dup2, dtype, tkey, ival
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag, ok
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

  ! A keyval with Fortran callbacks: the copy doubles the value and adds the extra state (1).
  extra = 1
  call MPI_Comm_create_keyval(double_it, count_delete, key, extra, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key_dup, extra, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key_null, extra, ierr)
  val = 20 + rank
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key_dup, val, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key_null, val, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup1, ierr)
  call MPI_Comm_get_attr(dup1, key, val, flag, ierr)
  ok = flag .and. val == 2 * (20 + rank) + 1 .and. copies == 1
  call MPI_Comm_get_attr(dup1, key_dup, val, flag, ierr)
  ok = ok .and. flag .and. val == 20 + rank
  call MPI_Comm_get_attr(dup1, key_null, val, flag, ierr)
  ok = ok .and. .not. flag
  call report('copy callbacks: doubled, duplicated, not copied', ok)

  ! A dup of the dup doubles again; freeing both runs the delete callback twice.
  call MPI_Comm_dup(dup1, dup2, ierr)
  call MPI_Comm_get_attr(dup2, key, val, flag, ierr)
  ok = flag .and. val == 2 * (2 * (20 + rank) + 1) + 1
  call MPI_Comm_free(dup2, ierr)
  call MPI_Comm_free(dup1, ierr)
  ok = ok .and. deletes == 2
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  ok = ok .and. deletes == 3
  call report('delete callback at free and at delete_attr', ok)
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Comm_free_keyval(key_dup, ierr)
  call MPI_Comm_free_keyval(key_null, ierr)

  ! An attribute on a datatype.
  call MPI_Type_contiguous(3, MPI_INTEGER, dtype, ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkey, extra, ierr)
  val = 7000 + rank
  call MPI_Type_set_attr(dtype, tkey, val, ierr)
  val = 0
  call MPI_Type_get_attr(dtype, tkey, val, flag, ierr)
  call report('datatype attribute', flag .and. val == 7000 + rank)
  call MPI_Type_free(dtype, ierr)
  call MPI_Type_free_keyval(tkey, ierr)

  ! MPI-1's integer forms.
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, key1, 0, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, key1, 300 + rank, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup1, ierr)
  ival = 0
  call MPI_Attr_get(dup1, key1, ival, flag, ierr)
  call report('MPI-1 keyval, put, get through a dup', flag .and. ival == 300 + rank)
  call MPI_Comm_free(dup1, ierr)
  call MPI_Attr_delete(MPI_COMM_WORLD, key1, ierr)
  call MPI_Keyval_free(key1, ierr)

  if (rank == 0) print '(a)', 'attrs: done'
  call MPI_Finalize(ierr)
contains
  subroutine report(what, mine)
    character(len=*), intent(in) :: what
    logical, intent(in) :: mine
    logical :: all
    call MPI_Allreduce(mine, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a, a, l1)', what, ': ', all
  end subroutine report
end program attrs
