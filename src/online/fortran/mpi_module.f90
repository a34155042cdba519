! The `mpi` module of simfab's Fortran interface (MPI 3.1 §17.1.3): mpif.h's constants, sentinels
! and function types. Procedures have no explicit interfaces (as `include 'mpif.h'`), so any
! choice buffer, of any type and rank, is accepted. Built with simfab by gfortran.
module mpi
  implicit none
  include 'mpif.h'
end module mpi
