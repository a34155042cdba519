// Op: one GOAL operation (seed 004 §2.3), the unit every front-end compiles an application into:
//   calc  amount = duration in ps          (a local computation on CPU `cpu`)
//   send  amount = bytes, peer = dst rank  (tag, context)
//   recv  amount = bytes, peer = src rank  (kAnySource / kAnyTag wildcards allowed)
//   probe peer = src rank, tag             (MPI_Probe: completes when a matching message or
//                                           envelope has reached the rank; it stays unreceived)
// When a recv or probe completes, the executor overwrites peer, tag and amount with the matched
// message's source, tag and size: the op becomes its MPI_Status (MPI_SOURCE, MPI_TAG, count).
// GOAL files give every op up front; the TI replayer and the collective generators create ops on
// the fly and recycle them, so ops live in one pool with a free list (OpPool).
//
// `context` separates matching spaces (MPI communicators' contexts): communicator k matches its
// point-to-point traffic in context 2k and the collectives simfab generates for it in 2k + 1
// (MPI_COMM_WORLD: 0 and 1), so a collective's messages never match an application receive and
// no two communicators' messages match each other. 40 bytes per op.
#pragma once

#include <cstdint>
#include <vector>

#include "core/slot_pool.hpp"
#include "core/sim_time.hpp"

namespace simfab {

using OpId = uint32_t;
inline constexpr OpId kNoOp = UINT32_MAX;
inline constexpr int32_t kAnySource = -1;
inline constexpr int32_t kAnyTag = -1;
inline constexpr int32_t kProcNull = -2;  // MPI_PROC_NULL: front-ends complete such calls at once

enum class OpKind : uint8_t { kCalc, kSend, kRecv, kProbe };

namespace op_flag {
inline constexpr uint8_t kStarted = 1;
inline constexpr uint8_t kDone = 2;
inline constexpr uint8_t kPosted = 4;  // recv waiting in the posted-receive queue
inline constexpr uint8_t kImmediate = 8;  // send issued by a non-blocking call (MPI_Isend: ois)
inline constexpr uint8_t kDelay = 8;      // calc: a sleep, not a computation (no core, no pstate)
// Send modes (MPI-3.1 §3.4); a send with neither flag is a standard-mode send (MPI_Send/MPI_Rsend:
// the network's protocol for its size decides when it completes).
inline constexpr uint8_t kSynchronousMode = 16;  // MPI_Ssend: completes no earlier than the match
inline constexpr uint8_t kBufferedMode = 32;     // MPI_Bsend: completes locally, whatever the size
inline constexpr uint8_t kCancelled = 64;        // a receive cancelled before it matched
inline constexpr uint8_t kQueued = 128;          // a calc or send waiting in its resources' FIFO
}  // namespace op_flag

struct Op {
  uint64_t amount = 0;   // ps for calc, bytes for send/recv
  int32_t peer = 0;      // destination (send) or source (recv) rank
  int32_t tag = 0;
  RankId rank = 0;       // the rank that executes it
  uint32_t pending = 0;  // front-end: unmet dependencies
  uint32_t next = kNoOp; // intrusive link: the posted-receive/probe queue, or the busy-resource FIFO
  uint32_t user = 0;     // front-end data (GOAL: a switch op's index + 1, else 0; TI: request slot)
  uint32_t context = 0;  // matching context (see above)
  OpKind kind = OpKind::kCalc;
  uint8_t cpu = 0;
  uint8_t nic = 0;
  uint8_t flags = 0;
};
static_assert(sizeof(Op) == 40, "Op is documented as 40 bytes");

class OpPool {
 public:
  OpId alloc() {
    const OpId id = pool_.acquire();
    pool_[id] = Op{};
    return id;
  }
  void release(OpId id) { pool_.release(id); }
  Op& operator[](OpId id) { return pool_[id]; }
  const Op& operator[](OpId id) const { return pool_[id]; }
  size_t size() const { return pool_.slots(); }
  size_t memory_bytes() const { return pool_.memory_bytes(); }

 private:
  SlotPool<Op> pool_;
};

}  // namespace simfab
