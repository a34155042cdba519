// What a replayed rank is doing, for the outputs (mpi/activity.hpp): each trace action is a call
// that lasts until the rank's next action starts. Classes: compute and sleep are computation;
// sends, receives and sendrecv (and the posting of their non-blocking forms) point-to-point;
// wait*, test*, probe, iprobe and cancel waiting; collectives and communicator creation
// collective; init, finalize, location, comm_free, set_pstate and migrate other.
// Also how far the replay has read, for progress output.
#include <algorithm>

#include "replay/ti_program.hpp"

namespace simfab {

namespace {

CallClass ti_call_class(TiKind k) {
  if (ti_is_collective(k)) return CallClass::kCollective;
  switch (k) {
    case TiKind::kCompute:
    case TiKind::kSleep: return CallClass::kCompute;
    case TiKind::kSend: case TiKind::kIsend: case TiKind::kRecv: case TiKind::kIrecv:
    case TiKind::kSsend: case TiKind::kIssend: case TiKind::kBsend: case TiKind::kIbsend:
    case TiKind::kRsend: case TiKind::kIrsend: case TiKind::kSendrecv: return CallClass::kP2p;
    case TiKind::kWait: case TiKind::kWaitall: case TiKind::kWaitany: case TiKind::kWaitsome:
    case TiKind::kTest: case TiKind::kTestany: case TiKind::kTestsome: case TiKind::kTestall:
    case TiKind::kProbe: case TiKind::kIprobe: case TiKind::kCancel: return CallClass::kWait;
    case TiKind::kCommSize: case TiKind::kCommSplit: case TiKind::kCommDup:
    case TiKind::kCommCreate: return CallClass::kCollective;
    default: return CallClass::kOther;
  }
}

}  // namespace

void TiProgram::report_call(RankId r, SimTime t, const TiAction& a, const mpi::Comm& comm,
                            const char* algorithm) const {
  CallInfo c;
  c.name = (a.nonblocking ? ti_nonblocking_name(a.kind) : ti_action_name(a.kind)).data();
  c.cls = ti_call_class(a.kind);
  c.algorithm = algorithm;
  c.comm = a.comm;
  c.local = comm.group().local_rank(r);
  c.size = comm.size();
  const auto local_or_none = [](RankId p) { return p >= 0 ? p : -1; };
  const auto sum = [&](size_t from, size_t n) {
    uint64_t total = 0;
    for (size_t i = from; i < from + n && i < counts_.size(); ++i) total += counts_[i];
    return total;
  };
  const auto n = static_cast<size_t>(comm.size());
  switch (c.cls) {
    case CallClass::kCompute:
      if (a.kind == TiKind::kCompute)  // saturated: a double beyond 2^64 does not convert
        c.flops = a.amount >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(a.amount);
      break;
    case CallClass::kP2p:
      c.peer = a.peer >= 0 ? to_world(comm, a.peer) : -1;
      c.bytes = a.bytes;
      c.local_peer = local_or_none(a.peer);
      c.tag = a.tag;
      c.peer2 = local_or_none(a.peer2);
      c.tag2 = a.tag2;
      c.bytes2 = a.bytes2;
      break;
    case CallClass::kWait:
      c.local_peer = a.peer;
      c.peer2 = a.peer2;
      c.tag = a.tag;
      break;
    case CallClass::kCollective:
      if (a.kind == TiKind::kBcast || a.kind == TiKind::kReduce || a.kind == TiKind::kGather ||
          a.kind == TiKind::kGatherv || a.kind == TiKind::kScatter || a.kind == TiKind::kScatterv) {
        c.peer = to_world(comm, a.peer);
        c.local_peer = a.peer;
      }
      c.bytes = a.bytes;
      c.bytes2 = a.bytes2;
      switch (a.kind) {
        case TiKind::kGatherv: c.bytes2 = c.local == a.peer ? sum(0, n) : 0; break;
        case TiKind::kAllgatherv: c.bytes2 = sum(0, n); break;
        case TiKind::kScatterv: c.bytes = c.local == a.peer ? sum(0, n) : 0; break;
        case TiKind::kAlltoallv:
          c.bytes = sum(0, n);
          c.bytes2 = sum(n, n);
          break;
        case TiKind::kReducescatter:
          c.bytes2 = static_cast<size_t>(c.local) < counts_.size() ? counts_[static_cast<size_t>(c.local)] : 0;
          break;
        case TiKind::kCommSplit:
          c.color = a.peer;
          c.key = a.tag;
          c.new_comm = a.comm2;
          break;
        case TiKind::kCommDup:
        case TiKind::kCommCreate: c.new_comm = a.comm2; break;
        default: break;
      }
      break;
    default:
      if (a.kind == TiKind::kCommFree) c.new_comm = a.comm2;
      break;
  }
  ex_->activity()->call(r, t, c);
}

double TiProgram::progress() const {
  uint64_t done = 0, total = 0;
  for (RankId r = 0; r < num_ranks(); ++r) {
    uint64_t first = 0, size = 0;
    trace_.rank_extent(r, first, size);
    total += size;
    const RankState& s = rank(r);
    done += s.state == State::kDone ? size : std::min(size, s.pos > first ? s.pos - first : 0);
  }
  return total == 0 ? -1.0 : static_cast<double>(done) / static_cast<double>(total);
}

}  // namespace simfab
