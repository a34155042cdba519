// The error handlers' table (abi_errhandlers.cpp), for the other kinds of objects that have
// handlers (files: abi_io.cpp).
#pragma once

#include <simfab/mpi.h>

namespace simfab::online {

// The function of a handler that MPI_*_create_errhandler made; nullptr for the predefined ones or
// an invalid handle.
void* errhandler_function(MPI_Errhandler e);
bool errhandler_valid(MPI_Errhandler e);

}  // namespace simfab::online
