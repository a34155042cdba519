/* `#include <mpi.h>` for programs built with simfab-cc / simfab-cxx (which pass
 * -I include/simfab/compat): simfab's MPI interface, declared in <simfab/mpi.h>. */
#include <simfab/mpi.h>
