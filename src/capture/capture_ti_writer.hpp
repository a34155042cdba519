// Capture -> SimGrid time-independent trace (`simfab convert --ti OUT`), in the layout `smpirun
// -trace-ti` writes and `smpirun -replay` / `simfab run --trace` read (replay/ti_trace.hpp): the
// list file OUT names OUT_files/rank-<r>.ti, one private trace per rank, relative to OUT's
// directory.
//
// One rank's lines (every line starts with the rank; `comm=<id>` ends a line of a communicator
// other than MPI_COMM_WORLD; counts are elements of a SimGrid datatype id chosen by the element's
// size: 1 BYTE (6), 2 SHORT (3), 4 INT (1), 8 DOUBLE (0), 16 LONG_DOUBLE (14), 32 (27); other sizes
// are written as bytes of BYTE):
//   init                                 MPI_Init
//   compute <flops> | sleep <seconds>    a computation gap > 0 (capture_convert.hpp): the flops a
//                                        counter measured (OTF2 PAPI_FP_OPS), else gap x speed when
//                                        a speed is known, else seconds, exact to the ps
//   sleep <seconds>                      a pinning charge (--pinning)
//   send/bsend/ssend <peer> <tag> <count> <dt>      MPI_Send, Rsend (as SMPI: send), Bsend, Ssend
//   isend/ibsend/issend ...              their non-blocking forms (Irsend: isend)
//   recv/irecv <src> <tag> <count> <dt>  the source the run recorded for MPI_ANY_SOURCE (-555 when
//                                        the trace has none: liballprof); tag -1 = any
//   sendrecv <dst> <stag> <scount> <src> <rtag> <rcount> <sdt> <rdt>  (one half with
//                                        MPI_PROC_NULL: a send or a recv alone)
//   wait <src> <dst> <tag>               each request a Wait*/Test* completed (SimGrid's key: isend
//                                        (me, peer, tag), irecv (peer, me, tag), local ranks);
//   waitall                              instead, when one call completed every open request (>= 2)
//   probe <src> <tag>                    MPI_Probe (the recorded source)
//   barrier, bcast <count> <root> <dt>, reduce <count> 0 <root> <dt>, allreduce <count> 0 <dt>,
//   scan/exscan <count> 0 <dt>, reducescatter <counts xP> 0 <dt>, gather/scatter <scount> <rcount>
//   <root> <sdt> <rdt>, allgather/alltoall <scount> <rcount> <sdt> <rdt>, gatherv <scount>
//   <rcounts xP> <root> <sdt> <rdt>, scatterv <scounts xP> <rcount> <root> <sdt> <rdt>,
//   allgatherv <scount> <rcounts xP> <dt>, alltoallv <ssum> <scounts xP> <rsum> <rcounts xP> <sdt>
//   <rdt>                                the collectives (reduction flops 0: the trace does not say)
//   comm_split <color> <key> <id> | comm_dup <id> | comm_create <id> <n> <ranks>   creations, on
//                                        the parent (colour MPI_UNDEFINED: -333 with id -1;
//                                        comm_create non-members: id -1, the same group); the
//                                        constructors in Comm_split's form (Cart_create, ...) are
//                                        comm_split
//   comm_free <id>
//   finalize                             MPI_Finalize (or the end of a rank cut by --salvage)
// MPI_PROC_NULL transfers and everything on MPI_COMM_SELF-like communicators are left out.
// Cost: O(records) per rank; the text is streamed. Thread-safety: none.
#pragma once

#include <ostream>
#include <string>

#include "capture/capture_convert.hpp"

namespace simfab {

// Rank r's trace.
void write_capture_ti_rank(const CaptureRun& run, RankId r, const ConvertOptions& options, std::ostream& out);

// The list file `list_path` and `<list_path>_files/rank-<r>.ti`, each written atomically
// (core/atomic_file.hpp), the per-rank files first. Throws InputError on I/O errors.
void write_capture_ti(const CaptureRun& run, const std::string& list_path, const ConvertOptions& options);

}  // namespace simfab
