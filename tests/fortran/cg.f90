! cg: a conjugate-gradient kernel in the style of NAS CG, in Fortran 90 with `use mpi`.
! Solves A x = b for the 1-D Poisson matrix A = tridiag(-1, 2, -1) of order n, rows split in
! blocks over the ranks; b = A x* for x*(i) = sin(pi i / (n + 1)) + i / n, so the error is known.
! Halo exchange: MPI_Sendrecv with MPI_PROC_NULL at the ends; dot products: MPI_Allreduce.
! Usage: cg [-n N] [-i ITERATIONS]; prints its own timing (MPI_Wtime) and a verification line.
program cg
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, iters, lo, hi, m, i, it, left, right, nargs, k
  double precision, allocatable :: x(:), r(:), p(:), q(:), b(:), xs(:)
  double precision :: rho, rho_old, alpha, beta, pq, err, t0, t1, rnorm, gerr
  double precision, parameter :: pi = 3.14159265358979323846d0
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 4000
  iters = 2000
  nargs = command_argument_count()
  k = 1
  do while (k <= nargs)
    call get_command_argument(k, arg)
    if (arg == '-n') then
      call get_command_argument(k + 1, arg)
      read (arg, *) n
      k = k + 1
    else if (arg == '-i') then
      call get_command_argument(k + 1, arg)
      read (arg, *) iters
      k = k + 1
    end if
    k = k + 1
  end do
  lo = rank * n / nprocs + 1
  hi = (rank + 1) * n / nprocs
  m = hi - lo + 1
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= nprocs) right = MPI_PROC_NULL
  allocate (x(0:m + 1), r(m), p(0:m + 1), q(m), b(m), xs(0:m + 1))
  do i = 0, m + 1
    xs(i) = exact(lo + i - 1)
  end do
  do i = 1, m
    b(i) = 2 * xs(i) - xs(i - 1) - xs(i + 1)
  end do
  x = 0
  r = b
  p = 0
  p(1:m) = r
  rho = dot(r, r)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do it = 1, iters
    call halo(p)
    do i = 1, m
      q(i) = 2 * p(i) - p(i - 1) - p(i + 1)
    end do
    pq = dot(p(1:m), q)
    alpha = rho / pq
    x(1:m) = x(1:m) + alpha * p(1:m)
    r = r - alpha * q
    rho_old = rho
    rho = dot(r, r)
    if (sqrt(rho) < 1d-10) exit
    beta = rho / rho_old
    p(1:m) = r + beta * p(1:m)
  end do
  t1 = MPI_Wtime()
  rnorm = sqrt(rho)
  err = maxval(abs(x(1:m) - xs(1:m)))
  call MPI_Allreduce(err, gerr, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a)', 'cg: n=', n, ' on ', nprocs, ' ranks, converged in ', min(it, iters), ' iterations'
    print '(a,es10.3,a,es10.3)', 'cg: residual ', rnorm, ' max error ', gerr
    if (gerr < 1d-6) then
      print '(a)', 'cg: VERIFICATION SUCCESSFUL'
    else
      print '(a)', 'cg: VERIFICATION FAILED'
    end if
    print '(a,f12.6,a)', 'cg: time ', t1 - t0, ' s'
  end if
  deallocate (x, r, p, q, b, xs)
  call MPI_Finalize(ierr)

contains

  double precision function exact(j)
    integer, intent(in) :: j
    if (j < 1 .or. j > n) then
      exact = 0
    else
      exact = sin(pi * j / (n + 1)) + dble(j) / n
    end if
  end function

  double precision function dot(u, v)
    double precision, intent(in) :: u(:), v(:)
    double precision :: s
    s = sum(u * v)
    call MPI_Allreduce(s, dot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function

  subroutine halo(v)
    double precision, intent(inout) :: v(0:)
    integer :: st(MPI_STATUS_SIZE)
    call MPI_Sendrecv(v(m), 1, MPI_DOUBLE_PRECISION, right, 1, v(0), 1, MPI_DOUBLE_PRECISION, left, 1, &
                      MPI_COMM_WORLD, st, ierr)
    call MPI_Sendrecv(v(1), 1, MPI_DOUBLE_PRECISION, left, 2, v(m + 1), 1, MPI_DOUBLE_PRECISION, right, 2, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (left == MPI_PROC_NULL) v(0) = 0
    if (right == MPI_PROC_NULL) v(m + 1) = 0
  end subroutine
end program cg
