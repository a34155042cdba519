! ft: a 2-D discrete Fourier transform in the style of NAS FT, in Fortran 90 with `include 'mpif.h'`.
! The n x n complex array is split by columns; each rank transforms its columns, the array is
! transposed with MPI_Alltoall (MPI_DOUBLE_COMPLEX), and the other dimension is transformed.
! The input is the plane wave exp(2 pi i (k0 x + l0 y) / n), whose transform is n^2 at (k0, l0)
! and 0 elsewhere: the verification checks every element. Usage: ft [n] [k0] [l0] (n divisible
! by the number of ranks). The checksum is reduced with MPI_Reduce on MPI_DOUBLE_COMPLEX.
program ft
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, n, k0, l0, nc, j, x, y, b, peak_x, peak_y
  complex(kind=8), allocatable :: a(:, :), t(:, :), sendb(:), recvb(:)
  complex(kind=8) :: csum, gsum
  double precision :: errmax, gerr, t0, t1
  double precision, parameter :: pi = 3.14159265358979323846d0
  character(len=16) :: arg

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  n = 64
  k0 = 3
  l0 = 5
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(2, arg)
    read (arg, *) k0
    call get_command_argument(3, arg)
    read (arg, *) l0
  end if
  if (mod(n, nprocs) /= 0) then
    if (rank == 0) print '(a,i0,a,i0,a)', 'ft: n=', n, ' is not a multiple of ', nprocs, ' ranks'
    call MPI_FINALIZE(ierr)
    stop 2
  end if
  nc = n / nprocs
  allocate (a(0:n - 1, nc), t(0:n - 1, nc), sendb(n * nc), recvb(n * nc))
  ! a(x, j): column y = rank * nc + j - 1
  do j = 1, nc
    y = rank * nc + j - 1
    do x = 0, n - 1
      a(x, j) = exp(cmplx(0d0, 2 * pi * mod(k0 * x + l0 * y, n) / n, kind=8))
    end do
  end do
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  t0 = MPI_WTIME()
  call dft_columns(a)
  ! transpose: block b of my columns goes to rank b
  do b = 0, nprocs - 1
    do j = 1, nc
      do x = 0, nc - 1
        sendb(b * nc * nc + (j - 1) * nc + x + 1) = a(b * nc + x, j)
      end do
    end do
  end do
  call MPI_ALLTOALL(sendb, nc * nc, MPI_DOUBLE_COMPLEX, recvb, nc * nc, MPI_DOUBLE_COMPLEX, MPI_COMM_WORLD, ierr)
  ! t(y, j): frequency x = rank * nc + j - 1, column y
  do b = 0, nprocs - 1
    do j = 1, nc
      do x = 0, nc - 1
        t(b * nc + j - 1, x + 1) = recvb(b * nc * nc + (j - 1) * nc + x + 1)
      end do
    end do
  end do
  call dft_columns(t)
  t1 = MPI_WTIME()
  ! verify: n^2 at (k0, l0), 0 elsewhere
  errmax = 0
  peak_x = -1
  peak_y = -1
  csum = 0
  do j = 1, nc
    x = rank * nc + j - 1
    do y = 0, n - 1
      csum = csum + t(y, j)
      if (x == k0 .and. y == l0) then
        errmax = max(errmax, abs(t(y, j) - dble(n) * n))
        peak_x = x
        peak_y = y
      else
        errmax = max(errmax, abs(t(y, j)))
      end if
    end do
  end do
  call MPI_REDUCE(csum, gsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_REDUCE(errmax, gerr, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a,i0,a)', 'ft: ', n, 'x', n, ' wave (', k0, ',', l0, ')'
    print '(a,f14.3,a,f10.3)', 'ft: checksum ', dble(gsum), ' ', aimag(gsum)
    if (gerr < 1d-6 * n * n) then
      print '(a)', 'ft: VERIFICATION SUCCESSFUL'
    else
      print '(a,es10.3)', 'ft: VERIFICATION FAILED, error ', gerr
    end if
    print '(a,f12.6,a)', 'ft: time ', t1 - t0, ' s'
  end if
  deallocate (a, t, sendb, recvb)
  call MPI_FINALIZE(ierr)

contains

  ! Forward DFT of every column of c (length n), in place.
  subroutine dft_columns(c)
    complex(kind=8), intent(inout) :: c(0:, :)
    complex(kind=8) :: col(0:n - 1), s
    integer :: jj, kk, xx
    do jj = 1, size(c, 2)
      col = c(:, jj)
      do kk = 0, n - 1
        s = 0
        do xx = 0, n - 1
          s = s + col(xx) * exp(cmplx(0d0, -2 * pi * mod(kk * xx, n) / n, kind=8))
        end do
        c(kk, jj) = s
      end do
    end do
  end subroutine
end program ft
