// Capture -> GOAL in Schedgen's shape (see capture_goal_writer.hpp).
#include "capture/capture_goal_writer.hpp"

#include <unordered_map>

#include "core/error.hpp"
#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"
#include "replay/goal_writer.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_to_goal_comms.hpp"

namespace simfab {

namespace {

struct Dep {
  GoalLabel op;
  bool immediate;
};

class RankGoal {
 public:
  RankGoal(const CaptureRun& run, RankId r, const ConvertOptions& options, const GoalTags& tags, GoalWriter& out)
      : run_(run), r_(r), rc_(run.rank(r)), options_(options), tags_(tags), out_(out) {}

  void write();

 private:
  [[noreturn]] void fail(const CapRecord& rec, const std::string& what) const {
    throw InputError(SourceLoc{rc_.path, static_cast<int>(rec.line), 0}, what);
  }
  int32_t p2p_tag(const CapRecord& rec, int32_t tag) const;
  int32_t coll_tag(const CapRecord& rec, uint32_t i) const;
  void op(uint32_t i);
  void point_to_point(const CapRecord& rec, uint32_t i);
  void completion(const CapRecord& rec);
  void fragment(const CapRecord& rec, uint32_t i);
  GoalLabel send(const CapRecord& rec) {
    return out_.send(rec.s_count * rec.s_dt, run_.world_rank(rec.comm_id, rec.s_peer), p2p_tag(rec, rec.s_tag));
  }
  GoalLabel recv(const CapRecord& rec) {
    const RankId from = rec.r_peer == kCapAnySource ? kAnySource : run_.world_rank(rec.comm_id, rec.r_peer);
    return out_.recv(rec.r_count * rec.r_dt, from, p2p_tag(rec, rec.r_tag));
  }

  const CaptureRun& run_;
  RankId r_;
  const RankCapture& rc_;
  const ConvertOptions& options_;
  const GoalTags& tags_;
  GoalWriter& out_;
  std::vector<Dep> prev_;                          // what the next gap requires
  std::vector<GoalLabel> roots_;                   // the current op's first ops
  std::vector<Dep> after_;                         // what the gap after it will require
  std::unordered_map<uint32_t, GoalLabel> requests_;  // open request record -> its op (lookup only)
  coll::Fragment frag_;
  std::vector<Bytes> counts_;
  std::vector<GoalLabel> labels_;
  std::vector<uint8_t> has_pred_;
};

int32_t RankGoal::p2p_tag(const CapRecord& rec, int32_t tag) const {
  if (tag == kCapAnyTag) return kAnyTag;
  if (rec.comm_id == 0) {
    if (tag >= kCaptureCollTagBase && tag < kCaptureCollTagBase + kCaptureCollTagSpan)
      fail(rec, "tag " + std::to_string(tag) +
                    " cannot be written in GOAL: GOAL has no communicators, so tags 1000000 .. 1000000+2^29-1 carry "
                    "MPI_COMM_WORLD's collectives (Schedgen's numbering); convert to TI (--ti) instead");
    if (tag >= kCommTagBase)
      fail(rec, "tag " + std::to_string(tag) + " cannot be written in GOAL: tags from 3 x 2^29 on carry the "
                                              "sub-communicators; convert to TI (--ti) instead");
    return tag;
  }
  const uint32_t slot = static_cast<uint32_t>(rec.comm_id);
  if (tag >= tags_.p2p_limit(slot))
    fail(rec, "tag " + std::to_string(tag) + " on communicator " + std::to_string(rec.comm_id) +
                  " cannot be written in GOAL: with " + std::to_string(run_.num_comms() - 1) +
                  " communicators, their tags must stay below " + std::to_string(tags_.p2p_limit(slot)) +
                  "; convert to TI (--ti) instead");
  return tags_.p2p(slot, tag);
}

int32_t RankGoal::coll_tag(const CapRecord& rec, uint32_t i) const {
  const uint64_t k = run_.coll_index(r_, i);
  if (rec.comm_id == 0) return kCaptureCollTagBase + static_cast<int32_t>(k % kCaptureCollTagSpan);
  return tags_.collective(static_cast<uint32_t>(rec.comm_id), k);
}

void RankGoal::point_to_point(const CapRecord& rec, uint32_t i) {
  const CapClass cls = cap_class(rec.func);
  GoalLabel a = 0, b = 0;
  if (cls == CapClass::kSend || cls == CapClass::kIsend) a = send(rec);
  else if (cls == CapClass::kRecv || cls == CapClass::kIrecv) a = recv(rec);
  else if (cls == CapClass::kProbe) a = out_.calc(0);
  else {  // sendrecv: its send, then its receive (either may be MPI_PROC_NULL)
    if (rec.s_peer != kCapProcNull) a = send(rec);
    if (rec.r_peer != kCapProcNull) (a == 0 ? a : b) = recv(rec);
  }
  const bool immediate = cls == CapClass::kIsend || cls == CapClass::kIrecv;
  for (GoalLabel l : {a, b})
    if (l != 0) {
      roots_.push_back(l);
      after_.push_back(Dep{l, immediate});
    }
  if (immediate) requests_[i] = a;
}

void RankGoal::completion(const CapRecord& rec) {
  const GoalLabel l = out_.calc(0);
  for (uint32_t d = 0; d < rec.done_count; ++d) {
    const uint32_t op = rc_.done[rec.done_begin + d].op;
    if (op == CapDone::kNullRequest) continue;
    auto it = requests_.find(op);
    SIMFAB_CHECK(it != requests_.end(), "capture GOAL writer: a completed request has no op");
    out_.depend(l, it->second, false);
    requests_.erase(it);
  }
  roots_.push_back(l);
  after_.push_back(Dep{l, false});
}

void RankGoal::fragment(const CapRecord& rec, uint32_t i) {
  frag_.clear();
  const int32_t comm = rec.comm_id;
  const int32_t local = rec.comm.rank, size = rec.comm.size;
  if (cap_class(rec.func) == CapClass::kCreation) {
    build_creation_fragment(frag_, cap_dup_form(rec.func) ? TiKind::kCommDup : TiKind::kCommSplit, local, size);
  } else {
    const CapCollArgs c = collective_args(run_, r_, i);
    TiAction a;
    a.kind = c.kind;
    a.peer = c.root;
    a.bytes = c.s_count * c.s_dt;
    a.bytes2 = c.r_count * c.r_dt;
    counts_.clear();
    for (uint64_t n : c.s_counts) counts_.push_back(n * c.s_dt);
    for (uint64_t n : c.r_counts) counts_.push_back(n * c.r_dt);
    if (c.kind == TiKind::kReducescatter) {  // bytes: the sum of the blocks
      a.bytes = 0;
      for (Bytes b : counts_) a.bytes += b;
    }
    build_ti_collective(frag_, a, local, size, counts_, SimTime::zero(), coll::CollChoice{});
  }
  const int32_t tag = coll_tag(rec, i);
  const auto ops = frag_.ops();
  labels_.assign(ops.size(), 0);
  has_pred_.assign(ops.size(), 0);
  for (const coll::FragDep& d : frag_.deps()) has_pred_[d.succ] = 1;
  for (size_t k = 0; k < ops.size(); ++k) {
    const coll::FragOp& o = ops[k];
    switch (o.kind) {
      case OpKind::kSend: labels_[k] = out_.send(o.amount, run_.world_rank(comm, o.peer), tag); break;
      case OpKind::kRecv: labels_[k] = out_.recv(o.amount, run_.world_rank(comm, o.peer), tag); break;
      default: labels_[k] = out_.calc(o.amount); break;
    }
  }
  for (const coll::FragDep& d : frag_.deps()) out_.depend(labels_[d.succ], labels_[d.pred], d.immediate);
  for (size_t k = 0; k < ops.size(); ++k)
    if (!has_pred_[k]) roots_.push_back(labels_[k]);
  if (cap_nonblocking_coll(rec.func)) {  // the rank goes on once it started; its completion waits for the end
    for (GoalLabel root : roots_) after_.push_back(Dep{root, true});
    requests_[i] = labels_.back();
    return;
  }
  after_.push_back(Dep{labels_.back(), false});  // the closing calc
}

void RankGoal::op(uint32_t i) {
  const CapRecord& rec = rc_.records[i];
  switch (cap_class(rec.func)) {
    case CapClass::kCompletion:
    case CapClass::kTaken: return completion(rec);  // Mrecv/Imrecv: an empty calc in the chain
    case CapClass::kCollective:
    case CapClass::kCreation: return fragment(rec, i);
    default: return point_to_point(rec, i);
  }
}

void RankGoal::write() {
  out_.begin_rank();
  walk_rank(run_, r_, options_, [&](const CapVisit& v) {
    if (v.step == CapStep::kOp) {
      roots_.clear();
      after_.clear();
      op(v.index);
      const GoalLabel gap = out_.calc(static_cast<uint64_t>(v.gap_ps));
      for (GoalLabel root : roots_) out_.depend(root, gap, false);
      for (const Dep& p : prev_) out_.depend(gap, p.op, p.immediate);
      if (v.pin_ps > 0) {
        const GoalLabel pin = out_.calc(static_cast<uint64_t>(v.pin_ps));
        for (GoalLabel root : roots_) out_.depend(root, pin, false);
        out_.depend(pin, gap, false);
      }
      prev_ = after_;
    } else if (v.step == CapStep::kFinalize && v.gap_ps >= 0) {
      const GoalLabel gap = out_.calc(static_cast<uint64_t>(v.gap_ps));
      for (const Dep& p : prev_) out_.depend(gap, p.op, p.immediate);
    }
  });
  out_.end_rank();
}

}  // namespace

void write_capture_goal(const CaptureRun& run, const ConvertOptions& options, std::ostream& out) {
  const GoalTags tags(static_cast<uint32_t>(run.num_comms() - 1));
  GoalWriter writer(out, run.num_ranks());
  for (int r = 0; r < run.num_ranks(); ++r) RankGoal(run, r, options, tags, writer).write();
  writer.finish();
}

}  // namespace simfab
