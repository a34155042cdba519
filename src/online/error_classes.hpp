// error_classes: the text of MPI's error classes (MPI_Error_string). simfab's error codes are
// its error classes (MPI_SUCCESS 0 .. MPI_ERR_LASTCODE, <simfab/mpi.h>), so MPI_Error_class is
// the identity on them. Under MPI_ERRORS_ARE_FATAL, which simfab applies everywhere, a program
// only sees MPI_SUCCESS; the strings serve programs that print them anyway.
// Complexity: O(1).
#pragma once

namespace simfab::online {

// "MPI_ERR_COUNT: invalid count argument"; nullptr if code is not an error code.
const char* error_string(int code);

}  // namespace simfab::online
