// CapRecord: one parsed record of a capture trace (docs/capture-format.md): what a real MPI run
// did in one MPI call on one rank, as simfab's capture library (`# simfab-capture 1`) or
// liballprof (`# htor's PMPI Tracer 0.9`, seed 004 §2.4) wrote it.
//
// A record line is `FUNC:calltime:field:...:field:returntime`. The function decides the fields
// (capture_record.cpp holds one layout table per dialect); each field is stored in a named slot
// below, so writers never look at positions:
//   point-to-point  s_* = the send side (buffer, count, datatype size, peer = dest, tag)
//                   r_* = the receive side (peer = source, which may be kCapAnySource, tag)
//                   Sendrecv fills both; Sendrecv_replace too (one buffer)
//   collectives     s_* = the send buffer and count, r_* = the receive buffer and count; counts
//                   (v-variants, Reduce_scatter) go to the rank's count pool: s_counts / r_counts
//                   Bcast, Reduce, Allreduce, Scan, Exscan use s_count for both sides
//   completions     done entries in the rank's done pool (Wait*, Test*); liballprof's Wait/Waitall
//                   give request addresses instead (req, n), turned into done entries later
// Times stay in the file's unit (int64; liballprof's µs since the epoch would overflow picoseconds):
// CaptureHeader::ps_per_unit converts differences.
//
// Memory: one CapRecord (about 170 B) per record; lists live in per-rank pools. Thread-safety: none.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace simfab {

enum class CapFunc : uint8_t {
  kInit, kInitThread, kFinalize, kCommRank, kCommSize,
  kSend, kBsend, kSsend, kRsend, kIsend, kIbsend, kIssend, kIrsend,
  kRecv, kIrecv, kSendrecv, kSendrecvReplace,
  kWait, kWaitall, kWaitany, kWaitsome, kTest, kTestall, kTestany, kTestsome,
  kProbe, kIprobe,
  kBarrier, kBcast, kReduce, kAllreduce, kScan, kExscan, kReduceScatterBlock, kReduceScatter,
  kGather, kScatter, kAllgather, kAlltoall, kGatherv, kScatterv, kAllgatherv, kAlltoallv,
  kCommDup, kCommSplit, kCommCreate,
  // Creations the capture library writes in MPI_Comm_split's form (color = the parent rank of the
  // new rank 0, key = the new rank; docs/capture-format.md).
  kCartCreate, kCartSub, kCommSplitType, kGraphCreate, kDistGraphCreate, kDistGraphCreateAdjacent,
  kCommFree,
  // Matched probes: the probe that matched receives, the Mrecv takes what it found.
  kMprobe, kImprobe, kMrecv, kImrecv,
  // Nonblocking collectives: a blocking collective's fields and a request (cap_blocking).
  kIbarrier, kIbcast, kIreduce, kIallreduce, kIscan, kIexscan, kIreduceScatterBlock, kIreduceScatter,
  kIgather, kIscatter, kIallgather, kIalltoall, kIgatherv, kIscatterv, kIallgatherv, kIalltoallv,
  kCommIdup,  // MPI_Comm_dup's fields and a request: converted as a Comm_dup at its call
  kCount,
};

// What a function is, for the converters.
enum class CapClass : uint8_t {
  kInit,        // MPI_Init(_thread)
  kFinalize,
  kIgnored,     // MPI_Comm_rank/size, MPI_Iprobe: their time is part of the gap (as Schedgen)
  kSend,        // blocking sends
  kIsend,       // non-blocking sends: open a request
  kRecv,        // MPI_Recv; MPI_Mprobe and MPI_Improbe that found a message (they match it; their
                // status gives the bytes)
  kIrecv,
  kSendrecv,    // Sendrecv, Sendrecv_replace
  kCompletion,  // Wait*, Test*: complete the requests in their done list
  kProbe,
  kCollective,  // barrier .. alltoallv
  kCreation,    // Comm_dup/split/create: a collective of the parent
  kFree,        // Comm_free
  kTaken,       // MPI_Mrecv, MPI_Imrecv: receive what a matched probe took; an op with no output (its
                // duration is dropped like every op's; Imrecv's request completes nothing)
};

std::string_view cap_func_name(CapFunc f);  // "MPI_Send"
CapClass cap_class(CapFunc f);
// Whether a collective has a root field.
bool cap_rooted(CapFunc f);
// A nonblocking collective's blocking form (MPI_Iallreduce -> MPI_Allreduce); any other f itself.
CapFunc cap_blocking(CapFunc f);
// Whether a creation duplicates its parent (MPI_Comm_dup, MPI_Comm_idup).
inline bool cap_dup_form(CapFunc f) { return f == CapFunc::kCommDup || f == CapFunc::kCommIdup; }
// Whether f is a nonblocking collective (it opens a request).
inline bool cap_nonblocking_coll(CapFunc f) { return cap_blocking(f) != f; }
// Whether a creation has MPI_Comm_split's fields (comm:color:key:newcomm): Comm_split and the
// topology and type constructors recorded in its form.
bool cap_split_form(CapFunc f);

inline constexpr int32_t kCapAnySource = -1;
inline constexpr int32_t kCapAnyTag = -1;
inline constexpr int32_t kCapProcNull = -2;
// A `done` entry's src for a request that MPI_Cancel cancelled (MPI_Test_cancelled on its status).
inline constexpr int32_t kCapCancelled = -3;
inline constexpr int32_t kCapUndefined = -32766;          // MPI_UNDEFINED as a split colour
inline constexpr uint64_t kCapInPlace = std::numeric_limits<uint64_t>::max();  // buffer `-1`
inline constexpr int64_t kCapNoTime = std::numeric_limits<int64_t>::min();     // time `-`
inline constexpr uint32_t kCapNoList = std::numeric_limits<uint32_t>::max();   // counts `-`

// A `comm` field: the handle (per file), the rank in it and its size.
struct CapComm {
  int64_t handle = 0;
  int32_t rank = 0;
  int32_t size = 0;
};

// One entry of a `done` list: request number, and its status (src/tag/bytes; a send's is
// -2/-1/0). `op` is filled by the alignment (capture_run.hpp): the index of the record that opened
// the request, or kNullRequest for one that moves no message (MPI_PROC_NULL, MPI_REQUEST_NULL).
struct CapDone {
  static constexpr uint32_t kNullRequest = std::numeric_limits<uint32_t>::max();
  uint64_t req = 0;
  int32_t src = 0;
  int32_t tag = 0;
  uint64_t bytes = 0;
  uint32_t op = kNullRequest;
};

struct CapRecord {
  CapFunc func = CapFunc::kInit;
  uint32_t line = 0;              // 1-based line in its file
  int64_t call = kCapNoTime;      // file time unit
  int64_t ret = kCapNoTime;
  CapComm comm;                   // the call's communicator (when it has one)
  CapComm newcomm;                // creations: the new communicator (has_newcomm)
  bool has_comm = false;
  bool has_newcomm = false;
  bool has_status = false;        // `status` was src,tag,bytes (not `-` or an address)
  bool flag = false;              // Test*, Iprobe
  // send side / receive side
  uint64_t s_buf = 0, r_buf = 0;
  uint64_t s_count = 0, r_count = 0;
  uint64_t s_dt = 0, r_dt = 0;    // datatype sizes in bytes
  int32_t s_peer = 0, r_peer = 0;
  int32_t s_tag = 0, r_tag = 0;
  int32_t root = 0;
  int32_t color = 0, key = 0;
  int32_t st_src = 0, st_tag = 0; // status
  uint64_t st_bytes = 0;
  uint64_t req = 0;               // the request (Isend/Irecv; liballprof Wait: its address)
  uint64_t n = 0;                 // Waitall/any/some, Test{all,any,some}: the array length
  uint32_t s_counts = kCapNoList; // index of P counts in the rank's count pool, or kCapNoList
  uint32_t r_counts = kCapNoList;
  uint32_t done_begin = 0;        // done entries [done_begin, done_begin + done_count)
  uint32_t done_count = 0;
  uint32_t site = 0;              // its call site: index + 1 into RankCapture::sites (0: none)
  // Filled by the alignment (capture_run.hpp).
  int32_t comm_id = 0;            // the TI communicator id (0 = world), or kCapLocalComm
  int32_t new_id = -1;            // creations: the new communicator's id, -1 for none
  bool wild_src = false;          // a receive/probe posted with MPI_ANY_SOURCE (r_peer resolved if known)
  bool wild_tag = false;
};

// Communicator ids: 0 = MPI_COMM_WORLD, 1.. = created ones; MPI_COMM_SELF and what is derived from
// it are local to one rank and produce nothing.
inline constexpr int32_t kCapLocalComm = -2;

}  // namespace simfab
