! missing: calls MPI_CLOSE_PORT (dynamic processes), which simfab does not implement: simfab-f77
! refuses to link it; linked anyway, simfab exec refuses to load it.
      PROGRAM MISSING
      INCLUDE 'mpif.h'
      INTEGER IERR
      CHARACTER*(MPI_MAX_PORT_NAME) PORT
      CALL MPI_INIT(IERR)
      PORT = 'none'
      CALL MPI_CLOSE_PORT(PORT, IERR)
      CALL MPI_FINALIZE(IERR)
      END
