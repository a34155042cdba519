// TiGoalComms: every communicator of a TI trace, found before the GOAL export (replay/ti_to_goal.hpp)
// writes any rank, and the GOAL tag ranges that stand in for their matching contexts.
//
// WHY A FIRST PASS. The export writes rank by rank, but a rank's communicator depends on the other
// members' calls (comm_split's colours and keys, comm_create's group). So a first pass reads every
// rank's lines, looks only at comm_* actions (a line whose action token starts with "comm_" is
// parsed; the others are skipped unparsed, up to the rank's finalize), and feeds an mpi::CommTable
// as replay (replay/ti_comm.cpp) does: arrive at creations, free, look the line's `comm=<id>` up.
// It records every communicator created (an INSTANCE: its group, id and tag slot) and, for each
// rank, the instance each of its creation calls gave it (none for MPI_UNDEFINED colours and
// comm_create non-members). The second pass (the export) replays those per rank.
//
// ORDER OF THE FIRST PASS. A creation completes only when every member of the parent arrived, so
// a rank cannot read past a creation until the others reach it. The pass is a small scheduler:
//   - advance(r) reads r's lines, applying comm_free at once (frees never block), and stops at r's
//     next creation call (r is then AT a creation) or at the end of its lines / its finalize;
//   - a FIFO queue holds the ranks at a creation; the front one arrives (CommTable::arrive); when
//     its arrival completes the creation, every member is advanced again (and queued at its next
//     creation), so the ranks go round-robin by creation index, each as far as it can;
//   - frees are applied as early as program order allows, and an arrival that would complete a
//     creation whose new id is still alive (another communicator with that id whose members have
//     not all freed it yet) is deferred to the back of the queue while other arrivals can make
//     progress. Replay meets comm_* actions in the executor's processing order (roughly time
//     order, but a calc completes as soon as it is processed, so a rank may run ahead); any order
//     that respects program order and the creations' rendezvous builds the same groups, so only
//     the "id still in use" check depends on it. Deferring makes this pass accept a trace whenever
//     some such order frees the id first (a superset of what replay accepts); when every queued
//     arrival is deferred, the first arrives and the CommTable reports the id in use.
//   - at the end, a rank still waiting in a creation is an InputError (replay would deadlock):
//     its line and the members that never reach that creation.
// Instances are never reused (unlike replay's context pairs): the pass's order is not time order,
// so "freed before created" here does not prove that no message of the old communicator is in
// flight when the new one starts.
//
// TAG SLOTS (GoalTags): GOAL has no contexts, so each matching space gets a disjoint tag range:
//   [0, 2^30)                 MPI_COMM_WORLD point-to-point: the trace's tag t as is
//   [2^30, 3 x 2^29)          MPI_COMM_WORLD collectives: 2^30 + (k mod 2^29), k = the rank's
//                             collective number on the world (creations on the world count)
//   [3 x 2^29, 2^31)          N sub-communicator instances, slot s = 1..N in creation order, one
//                             block of 2^b tags each, b = 29 - ceil(log2 N) (so N x 2^b <= 2^29):
//                               base + t                      point-to-point tag t < 2^(b-1)
//                               base + 2^(b-1) + (k mod 2^(b-1))   the k-th collective on it
//                             base = 3 x 2^29 + (s - 1) x 2^b. One communicator: tags < 2^28;
//                             8192: tags < 2^15 (MPI_TAG_UB is at least 32767).
// A collective tag that wraps (k mod M) is still matched correctly: two members exchange a
// collective's messages in program order, per pair in order, and a member leaves collective k only
// once all its messages are matched, so collective k + M's messages can never meet k's receives.
// A point-to-point tag beyond its range is an InputError (p2p_limit says the bound); more than
// 2^27 instances is one too (b would drop below 2).
//
// Cost: the first pass reads the trace once more (the action token of each line; full parsing of
// comm_* lines only), O(lines + creations x log) time; memory O(P) for the cursors (32 B per rank)
// plus O(communicators + creation calls). Thread-safety: none.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/group.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

inline constexpr int32_t kCollTagBase = int32_t{1} << 30;     // world collectives from here
inline constexpr int32_t kCommTagBase = 3 * (int32_t{1} << 29);  // sub-communicator blocks from here

// One communicator the trace creates (or the world, instance 0).
struct GoalComm {
  mpi::Group group;
  int32_t id = 0;     // the trace's id (ids may be reused after a free: instances are not)
  uint32_t slot = 0;  // 0: the world; 1..N: its tag block
};

class GoalTags {
 public:
  // For `sub_comms` sub-communicator instances. REQUIRES: sub_comms <= kMaxSubComms.
  explicit GoalTags(uint32_t sub_comms);
  static constexpr uint32_t kMaxSubComms = uint32_t{1} << 27;

  // Point-to-point tags of slot `slot` must be below this.
  int32_t p2p_limit(uint32_t slot) const { return slot == 0 ? kCollTagBase : int32_t{1} << (block_bits_ - 1); }
  // REQUIRES: 0 <= tag < p2p_limit(slot).
  int32_t p2p(uint32_t slot, int32_t tag) const { return slot == 0 ? tag : base(slot) + tag; }
  // The tag of the k-th collective on slot `slot`.
  int32_t collective(uint32_t slot, uint64_t k) const;
  int block_bits() const { return block_bits_; }

 private:
  int32_t base(uint32_t slot) const { return kCommTagBase + static_cast<int32_t>((slot - 1) << block_bits_); }
  int block_bits_ = 29;
};

class TiGoalComms {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The first pass (see above). Throws InputError (file:line, the line echoed) for a comm_* line
  // replay would reject and for a creation that never completes.
  explicit TiGoalComms(TiTrace& trace);

  // Instance 0 is MPI_COMM_WORLD.
  const GoalComm& comm(uint32_t instance) const { return comms_[instance]; }
  uint32_t sub_comms() const { return static_cast<uint32_t>(comms_.size() - 1); }
  // The instance rank r's j-th creation call (j = 0, 1, ...: comm_split/comm_dup with arguments,
  // comm_create, in program order) gave it, or kNone. REQUIRES: r made at least j + 1 such calls.
  uint32_t created(RankId r, uint32_t j) const;

 private:
  friend class TiGoalCommsBuilder;
  std::vector<GoalComm> comms_;
  // CSR by rank: the instances of rank r's creation calls are created_[begin_[r] .. begin_[r+1]).
  // Both empty when the trace creates nothing.
  std::vector<uint64_t> begin_;
  std::vector<uint32_t> created_;
};

}  // namespace simfab
