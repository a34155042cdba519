// A captured real run as an OTF2 archive (`simfab convert CAPTURES --otf2-out DIR`): the
// measured run opens in Vampir and otf2-print, and `simfab run --otf2` / `convert --otf2` read it
// back to the same TI the capture converts to (the run's time base, its sizes in bytes).
//
// Per rank (location = rank, otf2_archive_writer.hpp), per record the alignment kept
// (capture/capture_run.hpp), at its measured times (the earliest time of any rank is time zero):
//   the call site, if recorded, as a user region around the call (the reader's call site again);
//   the MPI function's region with its records, the inverse of otf2_reader.hpp's table:
//   MpiSend / MpiIsend / MpiRecv (the resolved source) / MpiIrecvRequest; a completion's done
//   entries as MpiIsendComplete, MpiIrecv (source, tag, bytes of its status) or
//   MpiRequestCancelled; collectives with Score-P's byte totals (otf2_sizes.hpp, from the
//   converters' collective arguments); creations as CREATE_HANDLE with CommCreate; frees as
//   CommDestroy. A nonblocking collective is written as its collective at its call (OTF2 1-2 has no
//   nonblocking collective events; the completion that finds it done writes nothing for it), so
//   read back it replays blocking there; a matched probe that found a message as the MpiRecv, its
//   Mrecv/Imrecv as the region only. MPI_PROC_NULL transfers and calls on MPI_COMM_SELF-like communicators write the
//   region only. A rank cut by --salvage ends with an MPI_Finalize at its last time.
// Communicators: world = comm 0, self = comm 1, the run's communicator k = comm k + 1 (its
// members and parent from the alignment). The archive's creator is "simfab <version> convert"
// (measured: reading it back charges communicator creations their measured cost).
// Cost: O(records) time, one event chunk per rank. Throws InputError (I/O).
#pragma once

#include <string>

#include "capture/capture_run.hpp"

namespace simfab {

void write_capture_otf2(const CaptureRun& run, const std::string& dir);

}  // namespace simfab
