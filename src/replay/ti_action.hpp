// TiAction: one line of a SimGrid TI trace, parsed and fully validated before it is executed
// (style guide rule 17; SMPI's ActionArgParser). The format, every action's argument layout and
// the datatype table are documented in replay/ti_trace.hpp.
//
// parse_ti_action works on string_views of the mapped file and std::from_chars only: no
// std::string per line, no exceptions except the InputError it throws for bad input, no read
// outside the line. Cost: O(tokens) per line; the action name is found among simfab's names by
// length and first letter, then SMPI 3.32's own spellings (Ssend, ISsend, sendRecv, waitAny).
//
// Field use per action (bytes = count x datatype size):
//   compute, sleep          amount = flops, seconds
//   send/isend/recv/irecv   peer, tag (-1 = any tag, receives only), bytes
//   wait, test, cancel      peer = src, peer2 = dst, tag (test: has_arg = key given); wait, test:
//                           coll_request = the key is SMPI's for a non-blocking collective (a tag
//                           below -1 other than -444; src and dst are then not read)
//   ssend .. irsend         as send/isend
//   sendrecv                peer = dst, tag, bytes (sent); peer2 = src, tag2, bytes2 (received);
//                           SMPI's sendRecv: the same fields, tags 0
//   waitany                 SMPI's `waitAny <n>`: has_arg = false (all of the rank's requests)
//   probe, iprobe           peer = src, tag
//   comm_split              has_arg (0 args: SimGrid's no-op form), peer = colour (kTiUndefined),
//                           tag = key, comm2 = new id; comm_dup: has_arg, comm2
//   comm_create             comm2 = new id (-1: not a member), counts[0..n) = the group (ranks of
//                           the parent communicator); comm_free: comm2
//   waitany, waitsome       has_arg = a key list was given; counts[3i..3i+3) = (src, dst, tag) of
//                           key i, as int32 values stored in the Bytes vector
//   init                    has_arg = an extra token was given (default datatype becomes DOUBLE)
//   bcast                   peer = root, bytes
//   reduce, allreduce       peer = root (reduce), bytes, amount = flops after the reduction
//   alltoall, allgather     bytes = sent to each peer, bytes2 = received from each peer
//   gather, scatter         peer = root, bytes = sent (by a non-root / to each peer by the root),
//                           bytes2 = received (from each peer by the root / by a non-root)
//   alltoallv               counts[0..P) = bytes sent to each peer, counts[P..2P) = received
//   gatherv, allgatherv     bytes = sent, counts[0..P) = received from each rank; gatherv: root
//   scatterv                counts[0..P) = sent to each rank, bytes2 = received, peer = root
//   reducescatter           counts[0..P) = bytes each rank receives, bytes = their sum, amount
//   scan, exscan            bytes, amount = flops after the reduction (simfab extensions)
//   set_pstate              peer = the pstate index (>= 0; the replayer checks it against the host)
//   migrate                 (no arguments)
//   location                text = the file ("" for SMPI's unknown place `location  0`), tag = line
//   host_off, host_on       text = the host's name
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/sim_time.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

enum class TiKind : uint8_t {
  kInit, kFinalize, kCommSize, kCommSplit, kCommDup, kLocation,
  kCompute, kSleep,
  kSend, kIsend, kRecv, kIrecv, kWait, kWaitall, kTest,
  // simfab's extensions (ti_trace.hpp, "SIMFAB EXTENSIONS")
  kSsend, kIssend, kBsend, kIbsend, kRsend, kIrsend, kSendrecv, kProbe, kIprobe,
  kWaitany, kWaitsome, kTestany, kTestsome, kTestall, kCancel, kCommCreate, kCommFree,
  kBarrier, kBcast, kReduce, kAllreduce, kAlltoall, kAlltoallv, kGather, kGatherv,
  kAllgather, kAllgatherv, kScatter, kScatterv, kReducescatter, kScan, kExscan,
  kSetPstate, kMigrate, kSwitch, kWtime, kHostOff, kHostOn,
  kCount,
};

// Special ranks in point-to-point actions (SMPI 3.32's values: smpi.h). A receive's or probe's
// source may be any (-555, MPI_ANY_SOURCE); any peer may be MPI_PROC_NULL (-666). Tags -1 and
// -444 (MPI_ANY_TAG) are any tag. SMPI's TI writer never writes -555 or -666: it writes a peer as
// MPI_COMM_WORLD's rank of the peer's actor, and MPI_ANY_SOURCE and MPI_PROC_NULL have none, so
// both come out as MPI_UNDEFINED, -333. A send's -333 is MPI_PROC_NULL; a blocking recv's or a
// sendRecv's -333 is any source (SMPI records no MPI_Recv or MPI_Sendrecv from MPI_PROC_NULL); an
// irecv's -333, and the source -333 of a wait or test key, is either: TiAction::undefined_source
// marks it, replay/ti_undefined_sources.hpp settles it.
inline constexpr int32_t kTiAnySource = -555;
inline constexpr int32_t kTiProcNull = -666;
inline constexpr int32_t kTiAnyTag = -444;
inline constexpr int32_t kTiUndefined = -333;  // MPI_UNDEFINED (SMPI; -32766 is accepted too for a colour)

struct TiAction {
  TiKind kind = TiKind::kInit;
  bool has_arg = false;
  RankId rank = 0;
  RankId peer = 0;   // kAnySource (op.hpp) for any source, kProcNull for MPI_PROC_NULL
  RankId peer2 = 0;
  int32_t tag = 0;   // kAnyTag (op.hpp) for any tag
  int32_t tag2 = 0;  // sendrecv: the receive's tag
  int32_t comm = 0;   // the communicator the action runs on (trailing comm=<id>; 0 = world)
  int32_t comm2 = 0;  // comm_split/dup/create: the new communicator's id (-1: none); comm_free: its id
  Bytes dt_size = 1;  // size of the action's first datatype (elements = bytes / dt_size; selectors)
  bool nonblocking = false;  // a collective named with a leading `i` (ibcast, iallreduce, ...)
  bool coll_request = false;  // wait/test: SMPI's key of a non-blocking collective (tag = SMPI's tag)
  bool undefined_source = false;  // irecv, wait, test, cancel: the source was written -333 (peer is then
                                  // kAnySource): MPI_ANY_SOURCE or MPI_PROC_NULL (above)
  double amount = 0;
  Bytes bytes = 0;
  Bytes bytes2 = 0;
  std::string_view text;  // switch: its key=value arguments; location: the file; host_off/on: the host
};

inline constexpr uint64_t kTiMaxCount = uint64_t{1} << 40;

// Parses and validates `line`. `counts` receives the per-rank byte counts of the v-collectives
// (resized to P or 2P; the caller reuses the vector). Peers, roots and per-rank counts refer to the
// action's communicator, of `comm_size` ranks (0: num_ranks, the world); the caller finds the
// communicator first with ti_line_comm. Throws InputError naming file:line:column, echoing the
// line and saying what was expected.
TiAction parse_ti_action(std::string_view file_name, const TiLine& line, int num_ranks, bool default_double,
                         std::vector<Bytes>& counts, int comm_size = 0);
// The communicator of a line: its trailing `comm=<id>`, or 0 (MPI_COMM_WORLD). O(last token).
int32_t ti_line_comm(std::string_view file_name, const TiLine& line);

bool is_ti_action_name(std::string_view name);
std::string_view ti_action_name(TiKind kind);
// "ibcast", "iallreduce", ...: the non-blocking form of collective `kind` (static storage).
std::string_view ti_nonblocking_name(TiKind kind);
bool ti_is_collective(TiKind kind);
// "init, finalize, ..." for messages.
std::string ti_action_list();

// Size in bytes of a SimGrid datatype id, or -1 when the id is unknown.
int ti_datatype_size(int64_t id);

}  // namespace simfab
