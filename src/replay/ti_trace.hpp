// TiTrace / TiProgram: replay of SimGrid time-independent (TI) traces, the format `smpirun
// -trace-ti` writes and `smpirun -replay` reads (SimGrid 3.27-3.32; research notes A, checked
// against smpi_replay.cpp and xbt_replay.cpp). The format has no official specification
// (simgrid/simgrid#319); this header is simfab's.
//
// INTERFACE CONTRACT (used by sim/simulation.cpp): open_ti_trace, ti_num_ranks, make_ti_program.
//
// ---- FILES --------------------------------------------------------------------------------
// The path given to simfab is either
//   (a) a TRACE: lines `<rank> <action> <args...>` for any ranks, interleaved in any order, or
//   (b) a LIST: one trace path per non-empty line (SimGrid's `-replay` file; `#` lines skipped).
//       Line i (0-based, blank and `#` lines not counted) is the private trace of rank i; a list
//       of exactly one path names a trace shared by all ranks.
// Detection: if the first significant line starts with a non-negative integer followed by a known
// action name, the file is a trace; otherwise it is a list. A relative path in a list is resolved
// against the list file's directory first and, if no file is there, against the current
// directory (SimGrid only does the latter).
// Ranks: a list of >1 paths has one rank per path; a shared trace has (largest rank token + 1)
// ranks, found by one scan at open that stores nothing per line. A rank with no line does nothing.
// Every line of a private trace must carry that file's rank (InputError otherwise; SimGrid warns
// and skips). A missing final newline is accepted (SimGrid drops that last line; simfab does not).
//
// ---- LINE SYNTAX ----------------------------------------------------------------------------
// Tokens are separated by spaces, tabs (and a trailing CR). Blank lines and lines whose first
// non-blank character is `#` are skipped. Token 0 is the MPI_COMM_WORLD rank, token 1 the action.
// Counts and flop amounts are decimal numbers and may use exponents (`1e6`, `1e+06`, `5e4`): they
// must be finite and non-negative, and counts must be whole numbers (at most 2^40 elements).
// Ranks, peers, roots, tags and datatype ids are plain integers. Each line is validated in full
// before it is executed. Too few or too many arguments are errors (SimGrid ignores extras).
//
// ---- ACTIONS (P = number of ranks; "xP" = exactly P tokens, one per rank; dt = datatype id) --
// | action        | arguments after `<rank> <action>`                     | simfab does
// |---------------|-------------------------------------------------------|---------------------------
// | init          | [<x>]                                                 | any <x>: default dt DOUBLE
// | finalize      |                                                       | waitall, then the rank ends
// | comm_size     | [<n>]                                                 | nothing (*)
// | comm_split    | (none), or simfab's <color> <key> <new_comm>          | nothing / see EXTENSIONS
// | comm_dup      | (none), or simfab's <new_comm>                        | nothing / see EXTENSIONS
// | location      | <file> <line> (the file may hold blanks), or SMPI's 0 | the next MPI call's site (**)
// | compute       | <flops>                                               | calc flops/speed, blocking
// | sleep         | <seconds>                                             | calc of that time, blocking
// | send, recv    | <peer> <tag> <count> [<dt>]                           | blocking send / receive
//                   (a receive's peer may be -555: any source; a tag -1 or -444: any tag; any
//                   peer -666: MPI_PROC_NULL; SMPI's -333: see "WHAT SMPI 3.32 WRITES")
// | isend, irecv  | <peer> <tag> <count> [<dt>]                           | non-blocking: a request
// | wait          | <src> <dst> <tag>                                     | waits for that request
//                   (a tag below -1 other than -444: SMPI's wait for a non-blocking collective)
// | waitall       | [anything]                                            | waits for all requests
// | test          | [<src> <dst> <tag>]                                   | nothing
// | barrier       |                                                       | dissemination, 1 byte
// | bcast         | <count> [<root> [<dt>]]                               | binomial tree (root 0)
// | reduce        | <count> <flops> [<root> [<dt>]]                       | binomial tree, calc flops
// | allreduce     | <count> <flops> [<dt>]                                | dissemination, calc flops
// | alltoall      | <scount> <rcount> [<sdt> [<rdt>]]                     | linear
// | alltoallv     | <sbuf> <scounts xP> <rbuf> <rcounts xP> [<sdt> <rdt>] | linear, per-peer sizes
// | gather        | <scount> <rcount> [<root> [<sdt> [<rdt>]]]            | linear to root
// | gatherv       | <scount> <rcounts xP> [<root> [<sdt> [<rdt>]]]        | linear to root
// | allgather     | <scount> <rcount> [<sdt> [<rdt>]]                     | dissemination, scount x sdt
// | allgatherv    | <scount> <rcounts xP> [<dt> [<displs>...]]            | linear (<= P displs, unused)
// | scatter       | <scount> <rcount> [<root> [<sdt> [<rdt>]]]            | linear from root
// | scatterv      | <scounts xP> <rcount> [<root> [<sdt> <rdt>]]          | linear from root
// | reducescatter | <rcounts xP> <flops> [<dt>]                           | reduce to 0 + scatterv, calc
//
// ---- WHAT SMPI 3.32 WRITES (`smpirun -trace-ti`; examples/ti/smpi/ has recorded samples) ------
// Files: `-trace-ti --cfg=tracing/filename:F` writes the list F and one file per rank in
// F_files/ (`<timestamp>_rank-<r+1>.txt`, listed in rank order, paths relative to the directory
// smpirun ran in); with --cfg=tracing/smpi/format/ti-one-file:yes, F names one shared trace whose
// ranks' lines are interleaved. Both replay as is. Lines may end with a space (`bcast 3 0 0 `).
// Records whose form is not the table's above, all replayed by simfab:
// | SMPI writes                       | for                  | simfab replays
// |-----------------------------------|----------------------|-----------------------------------------
// | sendRecv <sc> <dst> <rc> <src> <sdt> <rdt> | MPI_Sendrecv | sendrecv with tag 0 both ways (the tags are
// |                                   |                      | not recorded; SimGrid's replay uses 0)
// | Ssend, ISsend <peer> <tag> <count> <dt> | MPI_Ssend, MPI_Issend | ssend, issend
// | bsend, ibsend; send, isend        | MPI_(I)bsend, MPI_(I)rsend | as named (rsend is recorded as send)
// | waitAny <n>                       | MPI_Waitany          | waitany over all the rank's requests
// | testany, testall (no arguments)   | MPI_Testany/Testall  | nothing, as test
// | i<coll> ... (ibcast, iallreduce, ..., iscan) | MPI_I<coll> | the non-blocking collective
// | wait <x> <y> <t>, t < -1, t != -444 | MPI_Wait of an i<coll> | waits for the rank's oldest outstanding
// |                                   |   (t = SMPI's internal tag - 1, e.g. -4446 | non-blocking collective
// |                                   |   allreduce; x, y meaningless) |
// | -333 as a send's peer             | MPI_PROC_NULL        | MPI_PROC_NULL (no message)
// | -333 as a recv's or sendRecv's    | MPI_ANY_SOURCE (no MPI_Recv or | any source
// |   source                          |   MPI_Sendrecv from MPI_PROC_NULL is recorded) |
// | -333 as an irecv's source, and as | MPI_ANY_SOURCE or MPI_PROC_NULL | MPI_PROC_NULL where no message
// |   the source of its wait's key    |   (both are MPI_UNDEFINED | sent to the rank with that tag is
// |   (`wait -333 <rank> <tag>`)      |   to SMPI's writer)  | left for it, else any source
// |                                   |                      | (replay/ti_undefined_sources.hpp;
// |                                   |                      | the deadlock report names the -333)
// | -333 as a wait key's destination  | an isend to MPI_PROC_NULL | its request (born completed)
// | -444 as a tag                     | MPI_ANY_TAG (the wait of such an irecv too) | any tag
// | roots of collectives              | the root as given: a rank of the call's communicator | the root
// | location  0 (no file, line 0)     | every call, with smpi/trace-call-location | an unknown site
// | gatherv/scatterv with zero counts | the non-roots' calls | the root's counts are the ones used
// | <dt> -1                           | a derived datatype   | 0 bytes per element, as SimGrid's table
// Not written at all: MPI_Comm_split/dup/create/free (a sub-communicator's collective is written
// as MPI_COMM_WORLD's, with its local root), MPI_Probe (its polling is a `compute`), MPI_Waitsome,
// MPI_Cancel (the cancelled receive's wait then never completes, in any replay), a blocking
// MPI_Recv from MPI_PROC_NULL, and an MPI_Sendrecv with MPI_PROC_NULL on either side: SMPI then
// records neither half, so the other half's message is missing and the peer's matching call of a
// recorded trace waits for ever (a shift's end ranks: no replay can recover it). Refused with the reason (no replay can recover them):
// `Start <dst> <tag> <bytes> <dt>` (MPI_Start: a receive's source is missing, the byte count is
// written with the element's datatype), a bare `Startall`, and MPI_Reduce_scatter_block, which
// SMPI writes as `reducescatter` followed by zeros of no fixed length ("0 0", "0 0 0 0 0 1"): a
// wrong argument count says so; a length that happens to fit P + 1 replays as zero bytes.
// SimGrid 3.32's own replay runs only init, finalize, comm_size/split/dup (no-ops), location
// (with a file name), compute, sleep, send, isend, recv, irecv, test, wait, waitall, barrier,
// bcast, reduce, allreduce, alltoall(v), gather(v), allgather(v), scatter(v), reducescatter, scan,
// exscan and sendRecv: it rejects the other records above, aborts on a -333 send or irecv ("Actor
// pid=-1 is gone??") and deadlocks on a -333 recv (it reads -333 as a rank).
//
// ---- SIMFAB EXTENSIONS (the MPI layer of issue 4; SimGrid 3.32 rejects these lines but scan) ----
// Point-to-point (peers as in send/recv; -666 = MPI_PROC_NULL anywhere a peer is expected):
// | ssend, issend | <peer> <tag> <count> [<dt>]                  | synchronous mode: done at the match
// | bsend, ibsend | <peer> <tag> <count> [<dt>]                  | buffered mode: done locally
// | rsend, irsend | <peer> <tag> <count> [<dt>]                  | ready mode = standard (as OpenMPI)
// | sendrecv      | <dst> <stag> <scount> <src> <rtag> <rcount> [<sdt> [<rdt>]] | both, then next
// | probe         | <src> <tag>                                  | blocks until a match has arrived
// | iprobe        | <src> <tag>                                  | nothing (its answer is in the trace)
// | waitany       | [<n> (<src> <dst> <tag>) x n]                | the first of them (all: no list)
// | waitsome      | [<n> (<src> <dst> <tag>) x n]                | every completed one, or the first
// | testany, testsome, testall | [anything]                      | nothing, like test
// | cancel        | <src> <dst> <tag>                            | cancels that irecv if unmatched
// Energy (seed 001): | set_pstate | <pstate> | the rank's host runs at that pstate from the time
// the rank reaches the line on (computations already running continue at the new speed); an index
// the host does not have is an error at the line. | host_off, host_on | <host> | from the time the
// rank reaches the line, the named host shuts down and is off, or boots and is on again
// (cpu/host_power.hpp; its boot_time, boot_energy, shutdown_time, shutdown_energy): a host whose
// ranks have not all finished cannot be switched off, nor a host switched twice the same way.
// Tasks (seed 001 §2.11): (**) SimGrid writes `location <file> <line>` before every action with
// --cfg=smpi/trace-call-location:yes (the program built with smpicc -trace-call-location); before
// a compute it names the MPI call that ends the computation. A computation's task is the pair
// (the site of the rank's previous MPI call, the site of its next one), what per-task governors
// (energy/governor=adagio, adagio-improved, lagrange) key their state by; a trace without
// locations is one task per rank.
// Load balancing (seed 001 ch. 9): | migrate | (no arguments) | AMPI's MPI_Migrate: with
// --cfg lb/balancer=greedy, every lb/every-th migrate point is a barrier of all ranks at which
// GreedyLB may move ranks to other hosts (energy/greedy_lb.hpp); otherwise nothing.
// Model switching (seed 000 ch. 6): | switch | <key=value> [<key=value>...] | from here on the
// rank's messages go through the network model these keys give (sim/model_switch.hpp): every
// rank must reach its k-th switch with the same keys; messages in flight keep their model.
// Hybrid execution (src/hybrid/): | wtime | (no arguments) | the rank read MPI_Wtime here: a hybrid
// run answers with the rank's virtual time; any other replay does nothing.
// Collectives: every collective above also exists non-blocking as i<name> (ibarrier, ibcast,
// iallreduce, ...): same arguments; the rank goes on at once, and waitall, waitany/waitsome
// without a key list, SMPI's wait with a collective tag (above), or finalize complete it. A
// blocking collective never matches a non-blocking one. And:
// | scan, exscan  | <count> <flops> [<dt>]                       | MPICH's recursive doubling, calc
// Communicators: any action may end with `comm=<id>` (default 0 = MPI_COMM_WORLD); its peers,
// roots, per-rank counts and request keys are then ranks of that communicator, and its messages
// match only that communicator's (own matching contexts for point-to-point and collectives).
// | comm_split    | <color> <key> <new_comm>      | MPI_Comm_split of the line's communicator;
// |               |                               | color -333 (or -32766): MPI_UNDEFINED, no new one
// | comm_dup      | <new_comm>                    | MPI_Comm_dup
// | comm_create   | <new_comm> <n> <ranks x n>    | MPI_Comm_create with that group (parent ranks);
// |               |                               | non-members give -1
// | comm_free     | <comm>                        | MPI_Comm_free (released once all members freed)
// Ids are chosen by the trace writer: >= 1, the same on every member of one communicator, reusable
// once freed. Replay reads a rank's lines as soon as its previous action has started computing, so
// "freed" means freed in that reading order: a rank that reuses an id right after a long compute
// can find it still in use by a member that frees it later in the replay, an error ("already in
// use"). Writers should give each new communicator a fresh id. Creation is collective: each member's k-th creation call on a parent is creation k,
// checked for agreement (mpi/comm_creation.hpp); it costs an 8 B recursive-doubling allreduce
// (dup) or a Bruck allgather of 8 B per member (split, create) on the parent (replay/ti_comm.cpp).
// MPI misuse is an input error naming file:line and the rank: an unknown communicator or one the
// rank is not in, a wait/cancel whose key matches no outstanding request (never started or already
// waited for), a receive smaller than its message (MPI_ERR_TRUNCATE), collectives whose members
// disagree on the call, root or sizes (mpi/coll_match.hpp), a collective some member never calls
// (reported when the run ends or the communicator is freed), and a communicator used after the
// rank freed it.
// SimGrid's own traces carry no communicator: their collectives all run on MPI_COMM_WORLD (SMPI
// writes a sub-communicator's collective as if it were the world's). simfab's extensions below
// add them.
// Details: a missing dt is the rank's default (BYTE, or DOUBLE after `init <x>`); a missing root
// is 0. alltoallv's buffer sizes are checked but unused. compute is free on an ideal platform
// (infinite speed). isend's request key is (rank, peer, tag), irecv's (peer, rank, tag); wait
// takes the oldest request with its key; a request stays (completed) until a wait, waitall or
// finalize consumes it, so `test` has nothing to do (SimGrid's null request after a test).
// SimGrid 3.32 replays none of simfab's extensions above but scan and exscan (which SMPI writes).
// Examples (SimGrid's examples/smpi/replay): `0 send 1 0 1e6`, `1 irecv 0 0 1e6`, `1 wait 0 1 0`,
// simfab's: `3 comm_split 1 3 2`, `3 bcast 1000 0 comm=2`, `0 sendrecv 1 0 8 1 0 8`, `1 probe -555 7`,
// `0 init 1`, `0 reduce 5e4 5e8 0 4`, `0 alltoallv 100 1 40 30 1000 1 80 100` (P = 3).
//
// Semantics (equivalent to the GOAL schedule Schedgen would write, so both predict the same):
// every action starts when the previous one of its rank has completed (isend/irecv: started). A
// wait for a request that does not exist is an input error ("trace.txt:12:1: wait of rank 0 for
// the request (src 0, dst 1, tag 3): no isend/irecv of this rank ... is outstanding"); SimGrid
// silently ignores it. A rank is finished at `finalize` or at the end of its trace, once it
// has nothing outstanding. Point-to-point ops of communicator k use context 2k and the trace's tag;
// its collectives use context 2k + 1 and tag = the member's collective counter on k (all members
// call collectives in the same order), so they never match application messages (world: 0 and 1).
// Collective op graphs come from mpi/coll/ (Schedgen's algorithms where Schedgen has one, unless
// mpi/<collective> or mpi/coll-selector choose), built for the member's rank in its communicator,
// and end with Schedgen's closing calc.
//
// ---- DATATYPES (SimGrid's smpi_datatype.cpp ids; size in bytes on x86-64) -------------------
//   -1 NULL 0 | 0 DOUBLE 8 | 1 INT 4 | 2 CHAR 1 | 3 SHORT 2 | 4 LONG 8 | 5 FLOAT 4 | 6 BYTE 1
//   7 LONG_LONG 8 | 8 SIGNED_CHAR 1 | 9 UNSIGNED_CHAR 1 | 10 UNSIGNED_SHORT 2 | 11 UNSIGNED 4
//   12 UNSIGNED_LONG 8 | 13 UNSIGNED_LONG_LONG 8 | 14 LONG_DOUBLE 16 | 15 WCHAR 4 | 16 C_BOOL 1
//   17 INT8_T 1 | 18 INT16_T 2 | 19 INT32_T 4 | 20 INT64_T 8 | 21 UINT8_T 1 | 22 UINT16_T 2
//   23 UINT32_T 4 | 24 UINT64_T 8 | 25 C_FLOAT_COMPLEX 8 | 26 C_DOUBLE_COMPLEX 16
//   27 C_LONG_DOUBLE_COMPLEX 32 | 28 AINT 8 | 29 OFFSET 8 | 30 FLOAT_INT 8 | 31 LONG_INT 16
//   32 DOUBLE_INT 16 | 33 SHORT_INT 8 | 34 2INT 8 | 35 2FLOAT 8 | 36 2DOUBLE 16 | 37 2LONG 16
//   38 REAL 4 | 39 REAL4 4 | 40 REAL8 8 | 41 REAL16 16 | 42 COMPLEX8 8 | 43 COMPLEX16 16
//   44 COMPLEX32 16 | 45 INTEGER1 4 | 46 INTEGER2 2 | 47 INTEGER4 4 | 48 INTEGER8 8
//   49 INTEGER16 16 | 50 LONG_DOUBLE_INT 32 | 51 UB 0 | 52 LB 0 | 53 PACKED 1 | 54 PTR 8 | 55 COUNT 8
// (SimGrid's own quirks are kept: INTEGER1 is an int, COMPLEX32 two doubles.) Bytes = count x size.
// Any other id is an error. Note SimGrid's writer already multiplies counts of non-replayable
// types by their size, so such traces over-count; simfab replays what the trace says.
//
// ---- STREAMING AND COST ---------------------------------------------------------------------
// A trace is read while it is replayed, never loaded: files are memory-mapped (MappedFile) and
// each rank keeps a cursor (a byte offset; the file is the rank's own, or the shared one).
//   shared trace    a rank's cursor scans forward to its next line, skipping other ranks' lines:
//                   O(lines skipped) per action. The open scan records where each rank's first
//                   line starts and its last line ends (16 B per rank), so a cursor never scans
//                   outside that span: a trace whose ranks come in blocks (`cat rank*.txt`) costs
//                   O(lines) in all, a finely interleaved one (SimGrid's one-file output) up to
//                   O(P x lines). Private traces (a list) never skip.
//   private traces  up to kKeepAllMapped files (16,384: a mapping each, well under Linux's default
//                   vm.max_map_count of 65,530; no descriptor stays open) are each mapped once, on first use; with more,
//                   at most kCacheSlots are mapped at a time; the least recently used one is
//                   unmapped (use stamps come from a counter, so eviction is deterministic).
// Memory: 16 B per rank (shared trace) or 12 B per file plus its path (list); nothing per line.
//
// ---- STREAMS (hybrid execution, src/hybrid/) --------------------------------------------------
// open_stream() makes a trace of per-rank streams that fill while the replay runs: the ranks of a
// real program send their lines as they go. Stream r is "file" r, named "<name> rank <r>"; when
// rank r's cursor reaches the end of what has arrived, next_line calls more(r), which must append
// complete lines to some streams (append) or end them (end_stream) and return once rank r's
// stream has grown or ended; next_line then goes on (more is called again while nothing of rank
// r's came). A stream keeps every line it got (about 40 B a call) for error locations.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/mapped_file.hpp"
#include "mpi/coll/first_call.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/program.hpp"
#include "platform/platform.hpp"

#include "energy/greedy_lb.hpp"

namespace simfab {

// One significant line of a trace, trimmed: text.substr(begin, end - begin).
struct TiLine {
  std::string_view text;  // the whole file (for error locations)
  size_t begin = 0;
  size_t end = 0;
  uint32_t file = 0;
  std::string_view view() const { return text.substr(begin, end - begin); }
};

class TiTrace {
 public:
  static constexpr int kMaxRanks = 1 << 22;            // largest rank count accepted (4,194,304)
  static constexpr size_t kKeepAllMapped = 16384;      // up to this many files stay mapped (fds are closed)
  static constexpr size_t kCacheSlots = 4096;          // files mapped at a time beyond that

  // Opens a trace or a list (see above). Throws InputError.
  static std::unique_ptr<TiTrace> open(const std::string& path);
  // A trace of `num_ranks` streams (STREAMS above).
  static std::unique_ptr<TiTrace> open_stream(int num_ranks, const std::string& name,
                                              std::function<void(RankId)> more);
  // Streams only: appends complete lines to rank r's stream; ends it (nothing more will come).
  void append(RankId r, std::string_view lines) const;
  void end_stream(RankId r) const;
  bool streaming() const { return static_cast<bool>(more_); }

  TiTrace(const TiTrace&) = delete;
  TiTrace& operator=(const TiTrace&) = delete;

  int num_ranks() const { return num_ranks_; }
  bool shared() const { return shared_; }
  size_t file_count() const { return path_end_.size(); }
  uint32_t file_of(RankId r) const { return shared_ ? 0 : static_cast<uint32_t>(r); }
  // The file's path as used to open it (resolved), for messages.
  std::string_view file_name(uint32_t file) const;
  // The list file, or empty when the trace was given directly.
  const std::string& list_path() const { return list_path_; }

  // The file's text, mapped on demand. With more than kKeepAllMapped files the view is valid
  // only until text() is called for another file.
  std::string_view text(uint32_t file) const;

  // Finds rank r's next line at or after byte `pos` of its file; on success fills `line` and
  // moves `pos` past it. Returns false at the end of the file (pos = file size). Throws
  // InputError for a private-trace line of another rank or a malformed rank token.
  bool next_line(RankId r, uint64_t& pos, TiLine& line) const;

  // Rank r's lines lie in bytes [first, first + size) of its file (progress output). The first call
  // on a list of per-rank files asks the file system for every file's size (O(files) once).
  void rank_extent(RankId r, uint64_t& first, uint64_t& size) const;

  size_t mapped_files() const { return used_slots_; }
  size_t memory_bytes() const;

 private:
  TiTrace() = default;
  void add_file(std::string_view path);
  void scan_ranks(uint32_t file);
  void read_list(std::string_view text);

  std::string list_path_;
  bool shared_ = false;
  int num_ranks_ = 0;
  std::string paths_;               // all resolved paths, concatenated
  std::vector<uint64_t> path_end_;  // end of file i's path in paths_
  // Shared trace: rank r's lines lie in [span_[2r], span_[2r+1]) (first line start, last line end).
  static constexpr uint64_t kUnseen = UINT64_MAX;
  std::vector<uint64_t> span_;
  // Mapping cache: slot_of_[file] = slot or -1; a slot holds one mapping and its last use.
  mutable std::vector<int32_t> slot_of_;
  mutable std::vector<std::unique_ptr<MappedFile>> maps_;
  mutable std::vector<uint32_t> slot_file_;
  mutable std::vector<uint64_t> last_use_;
  mutable size_t used_slots_ = 0;
  mutable std::vector<uint64_t> file_size_;  // per-rank files' sizes, once rank_extent asks
  mutable uint64_t clock_ = 0;
  // Streams: each rank's text so far, and whether it ended.
  std::function<void(RankId)> more_;
  mutable std::vector<std::string> streams_;
  mutable std::vector<uint8_t> ended_;
};

// Opens a TI trace: either one trace file holding every rank's actions, or a list file naming one
// trace file per rank. Throws InputError on unreadable files or an unrecognisable layout.
std::unique_ptr<TiTrace> open_ti_trace(const std::string& path);
int ti_num_ranks(const TiTrace& trace);
// Where the traced run ran, from the first file's leading comment lines, as simfab convert writes
// them from the capture's headers: `# mpi-library: <MPI_Get_library_version's first line>` and
// `# mpi-nodes: <distinct host names of the ranks>`. Empty / 0 when the trace does not say.
// O(leading comments).
struct TiOrigin {
  std::string library;
  SourceLoc library_at;
  int nodes = 0;
  SourceLoc nodes_at;
};
TiOrigin ti_origin(const TiTrace& trace);

// The Program that replays `trace`; compute amounts are flops divided by the speed of the rank's
// host. Parse errors found during the replay are thrown as InputError (file, line, column, echo).
std::unique_ptr<Program> make_ti_program(TiTrace& trace, OpPool& ops, const Platform& platform,
                                         const std::vector<HostId>& rank_host, const coll::CollChoice& choice = {},
                                         const energy::LbOptions& lb = {},
                                         const coll::FirstCallCosts& first_call = {});

}  // namespace simfab
