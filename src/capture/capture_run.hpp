// CaptureRun: every rank's capture trace of one real MPI run, read in full and aligned across
// ranks before anything is written (`simfab convert`; unlike Schedgen, which reads one rank at a
// time and so can neither resolve wildcards nor check that the ranks agree).
//
// PIPELINE (load, then align; each step names file:line in its errors, InputError, exit 2):
//   1. read      every file (capture_reader.hpp); a `.part` file only with salvage
//   2. ranks     every file of the same run (simfab: equal `# run:`; mixing dialects is mixing
//                runs) and world size, the ranks 0 .. size-1 each exactly once: "two files claim
//                rank 3", "no file for rank 2", "traces of different runs" name both files
//   3. comms     per rank, communicator handles -> ids. MPI_COMM_WORLD = 0. A creation
//                (Comm_dup/split/create, and Cart_create, Cart_sub, Comm_split_type, Graph_create,
//                Dist_graph_create(_adjacent), which the capture library writes in Comm_split's
//                form) is collective over its parent, so the new communicator is
//                named by (parent id, index of the creation call on the parent, colour) -- the same
//                on every member -- and gets the next free id (1, 2, ... in the order rank 0, 1, ...
//                first meet those keys: deterministic). Its members come from their newcomm fields
//                (world ranks by new rank). MPI_COMM_SELF and communicators of one rank whose
//                handle was never created (liballprof) are LOCAL (kCapLocalComm): nothing of them is
//                converted. A handle used before a recorded call created it is an error, as is a
//                `comm` field whose rank/size differs from the handle's (interleaved lines).
//   4. requests  per rank, request numbers -> the record that opened them (Isend/Irecv, the
//                nonblocking collectives; MPI_Imrecv's and MPI_Comm_idup's requests move nothing:
//                kNullRequest); each done entry of a completion (Wait*, Test*) gets CapDone::op. A request that was never
//                opened, or is completed twice, is an error ("a Wait on an unknown request").
//                liballprof's Wait/Waitall name request addresses (Waitall: n addresses 8 bytes
//                apart, as Schedgen assumes); unknown ones are skipped, as Schedgen does.
//                MPI_ANY_SOURCE / MPI_ANY_TAG receives are RESOLVED to the status the run
//                recorded (Recv, Sendrecv, Probe: their status; Irecv: its done entry), so the TI
//                trace names the real peer and replay is deterministic. liballprof records no
//                status: its wildcards stay wildcards.
//   5. agreement per communicator, the members' collectives (creations included) in order must
//                be the same call with the same root (and, for bcast/reduce/allreduce/scan/exscan,
//                the same byte count); per channel (comm, src, dst, tag), the k-th send matches the
//                k-th receive: sends and receives must balance (the error names the channel and
//                both counts) and no receive may be smaller than its message. Unresolved
//                wildcards are checked by totals per (comm, destination).
// SALVAGE (Options::salvage): instead of failing, keep a consistent prefix of each rank. A rank
// keeps its records up to its first bad one (reader damage, or a problem of steps 3-4); then,
// to a fixed point, every rank is cut at its first point-to-point op whose partner op was cut
// (or never existed) and at its first collective some member of the communicator does not reach
// (or disagrees on). The converters then end every cut rank with finalize. warnings() has one
// line per rank cut: "file:line: warning: rank R cut here (why); kept K of N records".
//
// Cost: O(records log) time, O(records) memory (all ranks are in memory at once).
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "core/sim_time.hpp"

namespace simfab {

// A communicator of the run (id 0 = MPI_COMM_WORLD).
struct CapCommInfo {
  int32_t parent = -1;       // the parent's id (-1 for the world)
  CapFunc how = CapFunc::kInit;  // Comm_dup / Comm_split / Comm_create
  uint32_t creation = 0;     // index of its creation call among the parent's creations
  int32_t color = 0;
  std::vector<RankId> members;  // world ranks by rank in this communicator (-1: unknown yet)
};

// What a record becomes in the converted trace.
enum class CapStep : uint8_t {
  kSkip,    // nothing; its time is part of the next gap (Comm_rank, Iprobe, a Test that completed
            // nothing, MPI_PROC_NULL transfers, collectives on local communicators)
  kMarker,  // a TI line without an op or a gap of its own (Comm_free)
  kOp,      // an operation, preceded by the computation gap since the previous kOp's return
  kInit,
  kFinalize,
};

class CaptureRun {
 public:
  struct Options {
    bool salvage = false;
  };

  // Steps 1-5 over the per-rank files `paths` (expand_capture_inputs gives them for a directory).
  static CaptureRun load(const std::vector<std::string>& paths, const Options& options);
  // Steps 2-5 over ranks already read (tests, fuzzing).
  static CaptureRun align(std::vector<RankCapture> ranks, const Options& options);

  int num_ranks() const { return static_cast<int>(ranks_.size()); }
  // The distinct `# hostname:` headers of the ranks (the nodes the run used); 0 when a rank's file
  // has none (liballprof). Counted once, when the run is aligned (O(ranks log ranks)).
  int node_count() const { return nodes_; }
  const RankCapture& rank(RankId r) const { return ranks_[static_cast<size_t>(r)]; }
  // Records [0, kept(r)) are converted; the writers end the rank with finalize when the last kept
  // record is not MPI_Finalize (salvage).
  uint32_t kept(RankId r) const { return kept_[static_cast<size_t>(r)]; }
  bool ends_with_finalize(RankId r) const;
  CapStep step(RankId r, uint32_t i) const;

  size_t num_comms() const { return comms_.size(); }
  const CapCommInfo& comm(int32_t id) const { return comms_[static_cast<size_t>(id)]; }
  RankId world_rank(int32_t comm_id, int32_t local) const;
  // The rank of world rank `w` in communicator `comm_id`, or -1.
  int32_t local_rank(int32_t comm_id, RankId w) const;
  // The record of communicator `comm_id`'s member `local` for the collective whose ordinal is
  // `coll_index` there (v-collectives take the root's counts from it), or UINT32_MAX.
  uint32_t collective_record(int32_t comm_id, uint32_t coll_index, int32_t local) const;
  // The ordinal of collective (or creation) record i of rank r on its communicator.
  uint32_t coll_index(RankId r, uint32_t i) const { return coll_index_[static_cast<size_t>(r)][i]; }

  // `# speed:` of the traces (the first rank's that has one), 0 when none says.
  double speed() const { return speed_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Picoseconds between two times of rank r's file.
  int64_t ps_between(RankId r, int64_t from, int64_t to) const {
    return (to - from) * rank(r).header.ps_per_unit;
  }

 private:
  friend class CaptureAligner;
  CaptureRun() = default;

  std::vector<RankCapture> ranks_;
  std::vector<uint32_t> kept_;
  std::vector<CapCommInfo> comms_;
  // Per communicator, per member (local rank): the indices of its collective records, in order.
  std::vector<std::vector<std::vector<uint32_t>>> colls_;
  std::vector<std::vector<uint32_t>> coll_index_;  // per rank, per record (UINT32_MAX: none)
  std::vector<std::vector<std::pair<RankId, int32_t>>> by_world_;  // per comm: (world, local), sorted
  double speed_ = 0;
  int nodes_ = 0;
  std::vector<std::string> warnings_;
};

// The per-rank files named on the command line: each path is a file, or a directory whose files
// named `<anything>-<number>.txt` (simfab's rank-R.txt, liballprof's pmpi-trace-rank-R.txt; with
// salvage also `.txt.part`) are taken, in order of that number. Without salvage a `.part` file is
// an error that suggests --salvage. Throws InputError.
std::vector<std::string> expand_capture_inputs(const std::vector<std::string>& inputs, bool salvage);

// Picoseconds in seconds as an exact decimal ("0.000073", "12", "1.5"), for TI `sleep` lines.
std::string ps_as_seconds(int64_t ps);

}  // namespace simfab
