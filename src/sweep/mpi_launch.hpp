// Is this process one of several started by an MPI launcher? `mpirun -np K simfab sweep ...`
// (Open MPI: OMPI_COMM_WORLD_SIZE; MPICH's hydra and Slurm's PMI-2: PMI_SIZE; srun with PMIx:
// SLURM_STEP_NUM_TASKS beside PMIX_RANK) makes simfab sweep replace itself with simfab-sweep-mpi,
// its sibling linked with MPI, so that simfab itself needs no MPI library (issue 31).
#pragma once

namespace simfab {

// The number of processes the launcher started (1 when none, or the variables are not numbers).
int launcher_world_size();

}  // namespace simfab
