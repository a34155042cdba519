// Otf2Writer: a predicted run as an OTF2 archive (`simfab run ... --otf2-out DIR`), so that the
// viewers people use for measured runs (Vampir, otf2-print, Score-P's tools) show the prediction;
// `simfab run --otf2 DIR/traces.otf2` reads it back (otf2_reader.hpp).
//
// ARCHIVE: otf2_archive_writer.hpp's layout (a location per rank, picosecond ticks, Score-P's MPI
// definitions); communicators: MPI_COMM_WORLD (comm 0), MPI_COMM_SELF (comm 1), every communicator
// the run created (comm 2, 3, ...). Its creator is kOtf2PredictionCreator (otf2_reader.hpp).
//
// EVENTS per call the front-end reports (TI replay; report/run_observer.hpp): Enter at its start,
// its MPI records, Leave at its end, in the region MPI_<Name> (MPI_Send, MPI_Allreduce, ...).
// Computation (compute, sleep) is the time between regions, as in a measured trace; actions
// without an MPI call (location, set_pstate, ...) write nothing.
//   send/ssend/bsend/rsend  MpiSend;  isend..: MpiIsend with a request number (per rank, from 1)
//   recv                    MpiRecv;  irecv: MpiIrecvRequest, its MpiIrecv at the completion
//   sendrecv                MpiSend + MpiRecv
//   wait <src> <dst> <tag>  completes the rank's oldest open request with that key (TI's rule:
//                           isend (me, peer, tag), irecv (peer, me, tag)); waitall and finalize
//                           complete every open request: MpiIsendComplete / MpiIrecv
//   collectives             MpiCollectiveBegin/End with the op, communicator, root and Score-P's
//                           byte totals (otf2_reader.hpp, SIZES: what the reader decodes back)
//   comm_split / comm_dup   a CREATE_HANDLE collective on the parent with CommCreate of the new
//                           communicator (none for MPI_UNDEFINED); comm_free: CommDestroy
// NOT WRITTEN (the reader would not get them back exactly; documented gaps): receives from
// MPI_ANY_SOURCE (no peer is known when the call is reported: no record is written), the completions of waitany/waitsome/test* (their requests stay
// open until a later waitall or finalize), non-blocking collectives, comm_create, and per-peer
// sizes of alltoallv (OTF2 keeps totals only).
// MEMBERS of a created communicator: ranks calling their k-th creation on the same parent with the
// same colour, ordered by (key, parent rank) as MPI_Comm_split orders them (dup: the parent's
// order); resolved when the archive closes (OTF2 definitions are written last).
//
// Output is written under DIR.partial and moved into DIR by commit(); an unfinished run leaves no
// archive. Memory: 56 B per event, kept per rank until finish() writes the archive one location at
// a time (one libotf2 chunk of 256 KiB open at once), plus the open requests. Deterministic: the
// same run writes the same definitions and events (the anchor file holds OTF2's trace id).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "report/run_observer.hpp"

namespace simfab {

class Otf2Writer final : public RunObserver {
 public:
  // Checks that DIR can be written (creating it if needed); throws InputError.
  explicit Otf2Writer(std::string dir);
  ~Otf2Writer() override;
  Otf2Writer(const Otf2Writer&) = delete;
  Otf2Writer& operator=(const Otf2Writer&) = delete;

  void start_run(const RunInfo& info) override;
  void call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) override;
  void cpu_busy(RankId, uint8_t, CpuUse, SimTime, SimTime) override {}
  void message(const MessageRecord&) override {}
  void finish(const RunResult& result) override;
  // Moves the finished archive into DIR (replacing an archive named traces there). Throws InputError.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simfab
