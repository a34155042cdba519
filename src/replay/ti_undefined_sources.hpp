// TiUndefinedSources: what the -333 source of an `irecv` in an SMPI trace stands for.
//
// SMPI 3.32's `smpirun -trace-ti` writes every peer as MPI_COMM_WORLD's rank of the peer's actor
// (smpi_pmpi_request.cpp); MPI_ANY_SOURCE and MPI_PROC_NULL have no actor, so both are written as
// MPI_UNDEFINED, -333 (replay/ti_action.hpp). The call settles most of them: a send's -333 is
// MPI_PROC_NULL, and a blocking recv's or sendRecv's is MPI_ANY_SOURCE since SMPI records no
// MPI_Recv or MPI_Sendrecv from MPI_PROC_NULL. An irecv's -333 (and the -333 source of the wait,
// test or cancel key naming its request) can be either; TiAction::undefined_source marks it.
//
// The trace settles those by counting messages per receiving rank r and tag t:
//   free(r, t) = the messages sent to r with tag t (sends and isends of every mode, sendrecv's
//                send half) - r's receives with tag t that cannot be MPI_PROC_NULL (recv,
//                sendrecv's receive half, irecv from a rank or -555).
// r's irecvs -333 with tag t are MPI_PROC_NULL when free(r, t) <= 0 or when nothing is left for
// them once r's any-tag receives (-1/-444 with a certain source) have taken the free messages of
// every tag; with tag any (-444) when that total is <= 0. Otherwise they stay MPI_ANY_SOURCE: some
// message needs them. A rank that holds both kinds with the same tag (free(r, t) > 0 but smaller
// than its irecvs -333) keeps them all as wildcards; one that should have been MPI_PROC_NULL may
// then wait for ever, and TiProgram's deadlock report says so (its description of such a receive
// names the -333). Stencil and shift patterns (a -333 for a missing neighbour, a tag per
// direction, or the neighbour's receive taking the one tag) are resolved exactly.
//
// Cost: one pass over the trace (every line parsed), made only when some file holds "-333";
// lines on a communicator other than the world (simfab's `comm=`; SMPI writes none) are not
// counted. Memory: 16 B per (receiving rank, tag) pair seen in that pass, nothing when no -333 is
// found. A streamed trace (hybrid execution) is not scanned: its -333 stay wildcards.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "replay/ti_action.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

class TiUndefinedSources {
 public:
  TiUndefinedSources() = default;  // resolves nothing
  // Scans `trace` as above. Throws InputError for a malformed line (the replay would too).
  static TiUndefinedSources scan(const TiTrace& trace);

  // Whether rank r's irecvs -333 with tag `tag` (kAnyTag: any tag) are MPI_PROC_NULL.
  bool proc_null(RankId r, int32_t tag) const;
  // If `a`, an action of world rank r on the world, has an undefined source that is MPI_PROC_NULL,
  // makes its peer kProcNull and clears undefined_source; otherwise leaves it as it is.
  void resolve(TiAction& a, RankId r) const;

 private:
  static uint64_t key(RankId r, int32_t tag) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(r)) << 32) | static_cast<uint32_t>(tag);
  }
  std::unordered_map<uint64_t, int64_t> free_;       // free(r, t) of the header, by key(r, t)
  std::unordered_map<RankId, int64_t> free_total_;   // sum over t of max(free(r, t), 0) - any-tag receives
};

}  // namespace simfab
