! lu: a pipelined wavefront sweep in the style of NAS LU's SSOR, in fixed-form Fortran 77 with
! include 'mpif.h' and COMMON blocks. The NX x NY grid is split by rows over the ranks; each
! rank, for each block of NB columns, receives the row above from rank-1 (blocking MPI_RECV of
! an MPI_TYPE_VECTOR: a row is strided in Fortran's column-major order), updates u(i,j) = (u(i-1,j) + u(i,j-1)) / 2 + 1, and sends its last row on (MPI_SEND).
! Verification: the global checksum equals a serial sweep computed on rank 0, bit for bit.
! Usage: lu [NX NY NB] (defaults 64 64 8; NX a multiple of the number of ranks, at most 512).
      PROGRAM LU
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER MAXN
      PARAMETER (MAXN=512)
      INTEGER NX, NY, NB, ME, NP, IERR
      COMMON /GRID/ NX, NY, NB, ME, NP
      DOUBLE PRECISION U(0:MAXN, 0:MAXN), S(0:MAXN, 0:MAXN)
      COMMON /FIELD/ U
      COMMON /SERIAL/ S
      INTEGER MY, I0, I, J, JB, JE, ROW, ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION CSUM, GSUM, SSUM, T0, T1
      CHARACTER*16 ARG
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NX = 64
      NY = 64
      NB = 8
      IF (COMMAND_ARGUMENT_COUNT() .GE. 3) THEN
        CALL GET_COMMAND_ARGUMENT(1, ARG)
        READ (ARG, *) NX
        CALL GET_COMMAND_ARGUMENT(2, ARG)
        READ (ARG, *) NY
        CALL GET_COMMAND_ARGUMENT(3, ARG)
        READ (ARG, *) NB
      END IF
      MY = NX / NP
      I0 = ME * MY
      DO 11 J = 0, NY
        DO 10 I = 0, MY
          U(I, J) = 0
   10   CONTINUE
   11 CONTINUE
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      T0 = MPI_WTIME()
      DO 30 JB = 1, NY, NB
        JE = MIN(JB + NB - 1, NY)
        CALL MPI_TYPE_VECTOR(JE - JB + 1, 1, MAXN + 1,
     &      MPI_DOUBLE_PRECISION, ROW, IERR)
        CALL MPI_TYPE_COMMIT(ROW, IERR)
        IF (ME .GT. 0) CALL MPI_RECV(U(0, JB), 1, ROW, ME - 1, JB,
     &      MPI_COMM_WORLD, ST, IERR)
        CALL SWEEP(JB, JE, MY)
        IF (ME .LT. NP - 1) CALL MPI_SEND(U(MY, JB), 1, ROW, ME + 1,
     &      JB, MPI_COMM_WORLD, IERR)
        CALL MPI_TYPE_FREE(ROW, IERR)
   30 CONTINUE
      T1 = MPI_WTIME()
      CSUM = 0
      DO 41 J = 1, NY
        DO 40 I = 1, MY
          CSUM = CSUM + U(I, J) * (I0 + I + 2 * J)
   40   CONTINUE
   41 CONTINUE
      CALL MPI_REDUCE(CSUM, GSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &    MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
        DO 51 J = 0, NY
          DO 50 I = 0, NX
            S(I, J) = 0
   50     CONTINUE
   51   CONTINUE
        SSUM = 0
        DO 61 J = 1, NY
          DO 60 I = 1, NX
            S(I, J) = (S(I - 1, J) + S(I, J - 1)) / 2 + 1
            SSUM = SSUM + S(I, J) * (I + 2 * J)
   60     CONTINUE
   61   CONTINUE
        WRITE (*, '(A,I0,A,I0,A,I0,A,I0,A)') 'lu: ', NX, 'x', NY,
     &      ' grid, blocks of ', NB, ' columns, ', NP, ' ranks'
        WRITE (*, '(A,F20.6)') 'lu: checksum ', GSUM
        IF (ABS(GSUM - SSUM) .LE. 1D-9 * ABS(SSUM)) THEN
          WRITE (*, '(A)') 'lu: VERIFICATION SUCCESSFUL'
        ELSE
          WRITE (*, '(A,F20.6)') 'lu: VERIFICATION FAILED ', SSUM
        END IF
        WRITE (*, '(A,F12.6,A)') 'lu: time ', T1 - T0, ' s'
      END IF
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE SWEEP(JB, JE, MY)
      IMPLICIT NONE
      INTEGER JB, JE, MY, I, J
      INTEGER NX, NY, NB, ME, NP
      COMMON /GRID/ NX, NY, NB, ME, NP
      INTEGER MAXN
      PARAMETER (MAXN=512)
      DOUBLE PRECISION U(0:MAXN, 0:MAXN)
      COMMON /FIELD/ U
      DO 21 J = JB, JE
        DO 20 I = 1, MY
          U(I, J) = (U(I - 1, J) + U(I, J - 1)) / 2 + 1
   20   CONTINUE
   21 CONTINUE
      END
