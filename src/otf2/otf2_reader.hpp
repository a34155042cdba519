// Reading an OTF2 archive's MPI events into capture records (capture/capture_record.hpp), so that
// an OTF2 trace of a real run -- Score-P's, TAU's, simfab's own --otf2-out -- goes through the same
// alignment and conversion as simfab's captures (capture/capture_run.hpp): `simfab run --otf2`
// replays it, `simfab convert --otf2` writes TI and GOAL.
//
// ONE MPI CALL = the events between the Enter and the Leave of an MPI region (otf2_defs.hpp) on
// the rank's location; MPI regions nested in it are part of it. Its record:
//   MpiSend                      MPI_Send (MPI_Bsend/Ssend/Rsend by the region's name)
//   MpiIsend                     MPI_Isend (Ibsend/Issend/Irsend by name); the request is OTF2's
//   MpiRecv                      MPI_Recv; MpiSend + MpiRecv in one call: MPI_Sendrecv(_replace)
//   MpiIrecvRequest              MPI_Irecv; its source, tag and size come from the MpiIrecv that
//                                completes it (OTF2 records them there)
//   MpiIsendComplete, MpiIrecv,  a completion (MPI_Wait, Waitall, Test, ... by name; Waitall for
//   MpiRequestCancelled          other names) of those requests; a cancelled one moves nothing
//   MpiCollectiveEnd             the collective its operation says, on its communicator, root
//   CREATE_HANDLE collective     a communicator creation on the collective's communicator (the
//                                parent); the CommCreate inside names the new one. MPI_Comm_dup
//                                (by name) is a dup, every other constructor is recorded in
//                                MPI_Comm_split's form (colour = the parent rank of the new
//                                communicator's rank 0, key = the new rank; no CommCreate:
//                                MPI_UNDEFINED), as the capture library records them
//   CommDestroy                  MPI_Comm_free
//   MPI_Init(_thread), MPI_Finalize   by name
//   nothing of the above         no record: its time is part of the computation around it (as
//                                MPI_Comm_rank, MPI_Probe and failed tests are in captures)
// Several operations in one call (MPI_Startall) become several records of the same call, the
// completions last. A rank whose first MPI call is not MPI_Init gets one at its first event, and
// one MPI_Finalize at its last event when it has none.
// Computation = the time between MPI calls (capture_convert.hpp's gaps), as sleeps unless a
// --speed turns it into flops; where the archive records a PAPI floating-point counter
// (Otf2Defs::flop_metrics) at the calls' Enter and Leave, the counter's difference over the gap is
// its flops (RankCapture::counters). The name of the innermost non-MPI region around a call is its call
// site (the TI `location` line; code regions of seed 001 §2.11 are pairs of them).
//
// SIZES. OTF2 records one send total and one receive total per collective and rank. simfab reads
// them as Score-P 8 and later count them (scorep_mpi_coll_bytes_*: a root or an all-to-all rank
// counts its own block, N blocks for N ranks, one fewer with MPI_IN_PLACE) and recovers the
// per-rank block B (counts below are bytes, datatype BYTE):
//   bcast        non-root received; root sent / N
//   reduce       non-root sent; root sent, or received / (N-1) with MPI_IN_PLACE (sent 0)
//   allreduce, allgather, alltoall, reduce_scatter_block   sent / N (sent / (N-1) when N does not
//                divide it: MPI_IN_PLACE; an in-place sum that N also divides reads as N blocks)
//   scan         (sent + received) / (N+1), or / (N-1) when in place; exscan (sent + received)/(N-1)
//   gather       sent, or root received / (N-1) when in place; scatter: the mirror image
//   gatherv      the root's receive counts are the other ranks' sent (its own: received minus
//                theirs); scatterv: the mirror image; allgatherv: each rank's block as allgather's;
//                reduce_scatter: each rank's received / N
//   alltoallv/w  per-peer counts are not recorded: each rank's sent total is split evenly over
//                the N peers (the first sent mod N get one byte more) -- an APPROXIMATION
// ERRORS (InputError, exit 2) name `<archive>[location <L>]:<event position>` (OTF2's position
// of the event in its location, from 1): an MPI event outside an MPI call, an unknown region or
// communicator, a communicator the rank is not in, a peer or root outside its communicator, a
// Leave that does not match the open region, a location that ends inside a call, non-blocking
// collectives (not supported yet), a damaged or truncated event file (libotf2's message). The
// alignment then checks what spans ranks (unmatched sends, disagreeing collectives, ...).
//
// Memory: O(records) for the whole run (CapRecord, about 170 B per MPI call): the archive is read
// one location at a time but kept whole, as `simfab convert` keeps captures. Cost: O(events).
#pragma once

#include <string>
#include <vector>

#include "capture/capture_convert.hpp"
#include "capture/capture_run.hpp"

namespace simfab {

// Every rank's records (rank order), sizes decoded; not yet aligned. `creator` (if given) receives
// the archive's creator. Throws InputError.
std::vector<RankCapture> read_otf2_ranks(const std::string& anchor, std::string* creator = nullptr);
// read_otf2_ranks + CaptureRun::align.
CaptureRun load_otf2_run(const std::string& anchor, std::string* creator = nullptr);

// The creator simfab names in the archives of its predictions (`run --otf2-out`); archives of
// measured runs (`convert --otf2-out`) name "simfab <version> convert".
inline constexpr const char* kOtf2PredictionCreator = "simfab " SIMFAB_VERSION " prediction";

// How `simfab run --otf2` and `simfab convert --otf2` turn an archive into TI by default:
// reductions charge one flop per 8 bytes (OTF2 records no datatype: one operation per double), and
// communicator creations cost their measured time (capture_convert.hpp) -- except in archives
// of simfab's predictions (kOtf2PredictionCreator), whose call durations are predictions, not measurements: the
// creation is then modelled only, so a prediction read back predicts the same run.
ConvertOptions otf2_convert_defaults(const std::string& creator);

// Whether `path` names an OTF2 anchor file (its first bytes are OTF2's anchor header).
bool is_otf2_anchor(const std::string& path);

}  // namespace simfab
