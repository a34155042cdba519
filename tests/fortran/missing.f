! missing: calls MPI_FILE_SEEK_SHARED, which simfab does not implement: simfab-f77 refuses to
! link it; linked anyway, simfab exec refuses to load it.
      PROGRAM MISSING
      INCLUDE 'mpif.h'
      INTEGER IERR, FH
      INTEGER(KIND=MPI_OFFSET_KIND) OFF
      CALL MPI_INIT(IERR)
      FH = 0
      OFF = 0
      CALL MPI_FILE_SEEK_SHARED(FH, OFF, 0, IERR)
      CALL MPI_FINALIZE(IERR)
      END
