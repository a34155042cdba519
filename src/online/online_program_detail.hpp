// Internal to OnlineProgram's implementation files (online_program.cpp, online_requests.cpp,
// online_messages.cpp, online_comms.cpp): the Op::user values it reserves and the MPI_Comm
// handle <-> CommTable id mapping (online_program.hpp, "Handles").
#pragma once

#include <simfab/mpi.h>

#include <cstdint>

#include "mpi/coll/fragment_runner.hpp"
#include "mpi/comm_creation.hpp"

namespace simfab::online::detail {

inline constexpr uint32_t kNoPayload = coll::FragmentRunner::kOpFlag - 1;  // a send without data
inline constexpr uint32_t kCalcUser = coll::FragmentRunner::kOpFlag - 2;   // a computation
inline constexpr uint32_t kNoRequest = UINT32_MAX;
inline constexpr MPI_Comm kFirstTableHandle = 3;  // MPI_Comm h >= 3 is CommTable id h - 2

inline mpi::CommId comm_id_of(MPI_Comm c) { return c == MPI_COMM_WORLD ? mpi::kCommWorld : c - 2; }
inline MPI_Comm handle_of(mpi::CommId id) { return id == mpi::kCommWorld ? MPI_COMM_WORLD : id + 2; }

}  // namespace simfab::online::detail
