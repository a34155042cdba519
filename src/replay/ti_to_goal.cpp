// TI trace -> GOAL text, one rank at a time (see ti_to_goal.hpp for the mapping).
#include "replay/ti_to_goal.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/text_locator.hpp"
#include "mpi/coll/fragment.hpp"
#include "replay/goal_writer.hpp"
#include "replay/ti_action.hpp"
#include "replay/ti_duration.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_undefined_sources.hpp"

namespace simfab {

namespace {

constexpr size_t kNoLine = SIZE_MAX;
constexpr GoalLabel kNoLabel = 0;         // a request born completed (MPI_PROC_NULL)
constexpr int32_t kNoKey = INT32_MIN;     // a non-blocking collective's request: no wait key names it

class TiGoalExporter {
 public:
  TiGoalExporter(TiTrace& trace, const Platform& platform, std::span<const HostId> rank_host,
                 const coll::CollChoice& choice, const TiGoalComms& comms, const TiUndefinedSources& undefined,
                 GoalWriter& out)
      : trace_(trace), platform_(platform), rank_host_(rank_host), choice_(choice), comms_(comms),
        undefined_(undefined), tags_(comms.sub_comms()), out_(out) {}

  // Writes the block of the next rank.
  void export_rank();

 private:
  struct Dep {
    GoalLabel op;
    bool immediate;
  };
  struct Request {
    int32_t src, dst, tag, comm;  // replay's key: world ranks (or wildcards), the trace's tag, comm id
    GoalLabel op;                 // kNoLabel: born completed
    bool recv;                    // an irecv's
  };
  // A communicator the rank holds: its instance and the rank's collectives on it so far.
  struct Held {
    uint32_t instance;
    uint64_t colls;
    bool smp_ready = false;  // CollCall::smp_ready: SimGrid's init_smp has run on it
  };

  void reset(RankId r);
  // Runs one action; false once the rank has finalized.
  bool action(const TiAction& a, const TiLine& line, Held& comm);
  // Makes `op` wait for the frontier (a root of the current action).
  void hang_on_frontier(GoalLabel op);
  // The next action also waits for the completion of `op` (a request).
  void also_require(GoalLabel op);
  void point_to_point(const TiAction& a, const TiLine& line, const Held& comm);
  // Opens a request with replay's key (peer: a world rank, a wildcard or kProcNull).
  void add_request(bool send, RankId peer, int32_t tag, int32_t comm, GoalLabel op);
  void sendrecv(const TiAction& a, const TiLine& line, const Held& comm);
  void wait(const TiAction& a, const TiLine& line, const Held& comm);
  void wait_any(const TiAction& a, const TiLine& line, const Held& comm);
  void cancel(const TiAction& a, const TiLine& line, const Held& comm);
  void collective(const TiAction& a, const TiLine& line, Held& comm);
  void creation(const TiAction& a, const TiLine& line, Held& parent);
  void free_comm(const TiAction& a, const TiLine& line);
  // Writes frag_ as the rank's next collective on `comm`; the frontier then requires it.
  void write_fragment(Held& comm);
  // The communicator of `line` (its comm=<id>), which the rank must hold.
  Held& held(int32_t id, const TiLine& line);
  // The request of the rank with a's key on `comm`, or an InputError naming the call.
  std::vector<Request>::iterator find_request(const TiAction& a, const TiLine& line, const Held& comm,
                                              int32_t src, int32_t dst, int32_t tag);
  RankId to_world(const Held& comm, RankId local) const {
    return local < 0 || comm.instance == 0 ? local : comms_.comm(comm.instance).group.world_rank(local);
  }
  // The GOAL tag of point-to-point tag `tag` on `comm` (kAnyTag stays), or an InputError.
  int32_t p2p_tag(int32_t tag, const TiLine& line, const Held& comm);
  // The tag any rule: a rank may not have both a tag -1 receive and a collective.
  void note_any_tag(const TiLine& line);
  void note_collective(const TiLine& line);
  [[noreturn]] void any_tag_with_collective(const TiLine& line) const;
  [[noreturn]] void inexpressible(const TiLine& line, const TiAction& a, const char* why) const;
  void check_nothing_after_finalize(uint64_t pos, const TiLine& finalize_line) const;
  [[noreturn]] void fail(const TiLine& line, std::string what) const;
  const Host& host() const { return platform_.host(rank_host_[static_cast<size_t>(rank_)]); }
  std::string file_name(uint32_t file) const { return std::string(trace_.file_name(file)); }

  TiTrace& trace_;
  const Platform& platform_;
  std::span<const HostId> rank_host_;
  const coll::CollChoice& choice_;
  const TiGoalComms& comms_;
  const TiUndefinedSources& undefined_;  // what the trace's irecvs -333 stand for, as replay decides
  const GoalTags tags_;
  GoalWriter& out_;

  // The rank being written.
  RankId rank_ = 0;
  bool default_double_ = false;
  Held world_{0, 0};
  std::map<int32_t, Held> held_;      // the sub-communicators it holds, by id
  uint32_t creations_ = 0;            // its creation calls so far
  size_t any_tag_line_ = kNoLine;     // offset of its first tag -1 receive
  size_t coll_line_ = kNoLine;        // offset of its first collective (creations included)
  std::vector<Dep> frontier_;         // what the next action waits for
  std::vector<Dep> saved_;            // scratch: the frontier before a non-blocking collective
  std::vector<Request> requests_;     // not yet waited for, oldest first

  // Scratch, reused by every action.
  std::vector<Bytes> counts_;
  coll::Fragment frag_;
  std::vector<GoalLabel> labels_;     // fragment op -> label
  std::vector<uint32_t> pred_begin_;  // fragment ops' predecessors, CSR by successor
  std::vector<uint32_t> pred_;        // index into frag_.deps()
  std::vector<uint8_t> implied_;      // 0 / kStarted / kCompleted once the closing calc completed
  std::vector<uint32_t> stack_;
};

void TiGoalExporter::fail(const TiLine& line, std::string what) const {
  throw error_at(file_name(line.file), line.text, line.begin, std::move(what));
}

void TiGoalExporter::inexpressible(const TiLine& line, const TiAction& a, const char* why) const {
  fail(line, "cannot export '" + std::string(ti_action_name(a.kind)) + "' to GOAL: " + why +
                 "; replay the trace with simfab run instead");
}

void TiGoalExporter::reset(RankId r) {
  rank_ = r;
  default_double_ = false;
  world_ = Held{0, 0};
  held_.clear();
  creations_ = 0;
  any_tag_line_ = coll_line_ = kNoLine;
  frontier_.clear();
  requests_.clear();
}

TiGoalExporter::Held& TiGoalExporter::held(int32_t id, const TiLine& line) {
  if (id == 0) return world_;
  const auto it = held_.find(id);
  if (it == held_.end())
    fail(line, "communicator " + std::to_string(id) + " does not exist for rank " + std::to_string(rank_) +
                   " (no comm_split, comm_dup or comm_create of rank " + std::to_string(rank_) +
                   " made it before this line, it was freed, or rank " + std::to_string(rank_) +
                   " is not a member)");
  return it->second;
}

void TiGoalExporter::export_rank() {
  reset(out_.begin_rank());
  uint64_t pos = 0;
  TiLine line;
  while (trace_.next_line(rank_, pos, line)) {
    const std::string_view file = trace_.file_name(line.file);
    Held& comm = held(ti_line_comm(file, line), line);
    const int size = comm.instance == 0 ? 0 : comms_.comm(comm.instance).group.size();
    TiAction a = parse_ti_action(file, line, trace_.num_ranks(), default_double_, counts_, size);
    undefined_.resolve(a, rank_);
    if (!action(a, line, comm)) {
      check_nothing_after_finalize(pos, line);
      break;
    }
  }
  out_.end_rank();
}

bool TiGoalExporter::action(const TiAction& a, const TiLine& line, Held& comm) {
  const bool null_peer = a.peer == kProcNull;
  switch (a.kind) {
    case TiKind::kInit:
      default_double_ = default_double_ || a.has_arg;
      return true;
    case TiKind::kCommSplit:
    case TiKind::kCommDup:
      if (a.has_arg) creation(a, line, comm);
      return true;  // else SimGrid's argument-less form: nothing
    case TiKind::kCommCreate:
      creation(a, line, comm);
      return true;
    case TiKind::kCommFree:
      free_comm(a, line);
      return true;
    case TiKind::kCommSize:
    case TiKind::kLocation:
    case TiKind::kTest:
    case TiKind::kTestany:
    case TiKind::kTestsome:
    case TiKind::kTestall:
    case TiKind::kIprobe:
    case TiKind::kWtime:    // a hybrid run's clock reading: nothing to simulate
    case TiKind::kMigrate:  // GOAL has fixed hosts: a load-balancing point exports as nothing
      return true;
    case TiKind::kFinalize:
      return false;
    case TiKind::kCompute:
    case TiKind::kSleep: {
      const SimTime d = a.kind == TiKind::kCompute ? ti_compute_time(a.amount, host(), trace_.file_name(line.file), line)
                                                   : ti_sleep_time(a.amount, trace_.file_name(line.file), line);
      const GoalLabel op = out_.calc(static_cast<uint64_t>(d.ps()));
      hang_on_frontier(op);
      frontier_.assign(1, Dep{op, false});
      return true;
    }
    case TiKind::kSsend:
    case TiKind::kIssend:
      if (!null_peer) inexpressible(line, a, "GOAL has no synchronous-mode send (one that completes only once matched)");
      point_to_point(a, line, comm);
      return true;
    case TiKind::kBsend:
    case TiKind::kIbsend:
      if (!null_peer)
        inexpressible(line, a, "GOAL has no buffered-mode send (one that completes locally whatever its size)");
      point_to_point(a, line, comm);
      return true;
    case TiKind::kProbe:
      if (!null_peer) inexpressible(line, a, "GOAL has no probe (waiting for a message without receiving it)");
      return true;
    case TiKind::kSend:
    case TiKind::kRecv:
    case TiKind::kIsend:
    case TiKind::kIrecv:
    case TiKind::kRsend:   // a standard send (ti_program.hpp)
    case TiKind::kIrsend:
      point_to_point(a, line, comm);
      return true;
    case TiKind::kSendrecv:
      sendrecv(a, line, comm);
      return true;
    case TiKind::kWait:
      wait(a, line, comm);
      return true;
    case TiKind::kWaitall:
      for (const Request& q : requests_)
        if (q.op != kNoLabel) also_require(q.op);
      requests_.clear();
      return true;
    case TiKind::kWaitany:
    case TiKind::kWaitsome:
      wait_any(a, line, comm);
      return true;
    case TiKind::kCancel:
      cancel(a, line, comm);
      return true;
    case TiKind::kSwitch:
      fail(line, "cannot export 'switch' to GOAL: a GOAL schedule has no model switch (replay the trace, or give "
                 "simfab run --switch TIME:... with the exported schedule)");
      return true;
    default:
      if (!ti_is_collective(a.kind))
        fail(line, "cannot export the action '" + std::string(ti_action_name(a.kind)) +
                       "' to GOAL: simfab goal does not know how to write it yet");
      collective(a, line, comm);
      return true;
  }
}

void TiGoalExporter::hang_on_frontier(GoalLabel op) {
  for (const Dep& d : frontier_) out_.depend(op, d.op, d.immediate);
}

void TiGoalExporter::also_require(GoalLabel op) {
  // Only the frontier's first entry (the last op written) can name a request already: upgrade it.
  if (!frontier_.empty() && frontier_.front().op == op) frontier_.front().immediate = false;
  else frontier_.push_back(Dep{op, false});
}

int32_t TiGoalExporter::p2p_tag(int32_t tag, const TiLine& line, const Held& comm) {
  if (tag == kAnyTag) return kAnyTag;
  const int32_t limit = tags_.p2p_limit(comms_.comm(comm.instance).slot);
  if (tag < limit) return tags_.p2p(comms_.comm(comm.instance).slot, tag);
  if (comm.instance == 0)
    fail(line, "tag " + std::to_string(tag) + " is in the range GOAL export gives collectives (" +
                   std::to_string(kCollTagBase) + " and above: GOAL has no communicator contexts, tags keep "
                   "collective messages apart); point-to-point tags must stay below " + std::to_string(kCollTagBase));
  fail(line, "tag " + std::to_string(tag) + " on communicator " + std::to_string(comms_.comm(comm.instance).id) +
                 " is too large for GOAL export: GOAL has no communicator contexts, so each of the " +
                 std::to_string(comms_.sub_comms()) + " communicator(s) this trace creates gets its own range of " +
                 std::to_string(limit) + " point-to-point tags; tags on sub-communicators must stay below " +
                 std::to_string(limit));
}

void TiGoalExporter::note_any_tag(const TiLine& line) {
  if (any_tag_line_ == kNoLine) any_tag_line_ = line.begin;
  if (coll_line_ != kNoLine) any_tag_with_collective(line);
}

void TiGoalExporter::note_collective(const TiLine& line) {
  if (coll_line_ == kNoLine) coll_line_ = line.begin;
  if (any_tag_line_ != kNoLine) any_tag_with_collective(line);
}

void TiGoalExporter::any_tag_with_collective(const TiLine& line) const {
  const std::string_view text = trace_.text(line.file);
  const std::string name = file_name(line.file);
  throw error_at(name, text, any_tag_line_,
                 "a receive with tag -1 (MPI_ANY_TAG) cannot be exported together with collectives (rank " +
                     std::to_string(rank_) + " has one at line " + std::to_string(locate(name, text, coll_line_).line) +
                     "; communicator creations count): GOAL has no communicator contexts, so 'tag any' could "
                     "match a collective's message");
}

void TiGoalExporter::point_to_point(const TiAction& a, const TiLine& line, const Held& comm) {
  const bool send = a.kind != TiKind::kRecv && a.kind != TiKind::kIrecv;
  const bool immediate = a.kind == TiKind::kIsend || a.kind == TiKind::kIrecv || a.kind == TiKind::kIrsend ||
                         a.kind == TiKind::kIssend || a.kind == TiKind::kIbsend;
  const RankId peer = to_world(comm, a.peer);
  const int32_t id = comms_.comm(comm.instance).id;
  if (a.peer == kProcNull) {  // no op; a request is born completed
    if (immediate) add_request(send, peer, a.tag, id, kNoLabel);
    return;
  }
  const int32_t tag = p2p_tag(a.tag, line, comm);
  if (!send && a.tag == kAnyTag) note_any_tag(line);
  const GoalLabel op = send ? out_.send(a.bytes, peer, tag) : out_.recv(a.bytes, peer, tag);
  hang_on_frontier(op);
  frontier_.assign(1, Dep{op, immediate});
  if (immediate) add_request(send, peer, a.tag, id, op);
}

void TiGoalExporter::add_request(bool send, RankId peer, int32_t tag, int32_t comm, GoalLabel op) {
  requests_.push_back(send ? Request{rank_, peer, tag, comm, op, false} : Request{peer, rank_, tag, comm, op, true});
}

void TiGoalExporter::sendrecv(const TiAction& a, const TiLine& line, const Held& comm) {
  GoalLabel s = kNoLabel, r = kNoLabel;
  if (a.peer != kProcNull) {
    s = out_.send(a.bytes, to_world(comm, a.peer), p2p_tag(a.tag, line, comm));
    hang_on_frontier(s);
  }
  if (a.peer2 != kProcNull) {
    const int32_t tag = p2p_tag(a.tag2, line, comm);
    if (a.tag2 == kAnyTag) note_any_tag(line);
    r = out_.recv(a.bytes2, to_world(comm, a.peer2), tag);
    hang_on_frontier(r);
  }
  if (s == kNoLabel && r == kNoLabel) return;
  frontier_.clear();
  if (s != kNoLabel) frontier_.push_back(Dep{s, false});
  if (r != kNoLabel) frontier_.push_back(Dep{r, false});
}

std::vector<TiGoalExporter::Request>::iterator TiGoalExporter::find_request(const TiAction& a, const TiLine& line,
                                                                            const Held& comm, int32_t src,
                                                                            int32_t dst, int32_t tag) {
  const int32_t s = to_world(comm, src), d = to_world(comm, dst), id = comms_.comm(comm.instance).id;
  for (auto it = requests_.begin(); it != requests_.end(); ++it)
    if (it->src == s && it->dst == d && it->tag == tag && it->comm == id) return it;
  const auto who = [](int32_t x) {
    return x == kAnySource ? std::string("any") : x == kProcNull ? std::string("MPI_PROC_NULL") : std::to_string(x);
  };
  fail(line, std::string(ti_action_name(a.kind)) + " for a request (src " + who(src) + ", dst " + who(dst) + ", tag " +
                 (tag == kAnyTag ? std::string("any") : std::to_string(tag)) +
                 ") that was never started (no earlier isend/irecv of rank " + std::to_string(rank_) +
                 " has that source, destination, tag and communicator, or it was already waited for); "
                 "replay would block here for ever");
}

void TiGoalExporter::wait(const TiAction& a, const TiLine& line, const Held& comm) {
  if (a.coll_request) {  // SMPI's wait of a non-blocking collective: its oldest one on `comm`, as replay does
    const int32_t id = comms_.comm(comm.instance).id;
    for (auto it = requests_.begin(); it != requests_.end(); ++it) {
      if (it->src != kNoKey || it->comm != id) continue;
      if (it->op != kNoLabel) also_require(it->op);
      requests_.erase(it);
      return;
    }
    fail(line, "wait with SMPI's collective tag " + std::to_string(a.tag) + " (the wait of a non-blocking collective): rank " +
                   std::to_string(rank_) + " has no non-blocking collective outstanding on this communicator");
  }
  const auto it = find_request(a, line, comm, a.peer, a.peer2, a.tag);
  if (it->op != kNoLabel) also_require(it->op);
  requests_.erase(it);
}

void TiGoalExporter::wait_any(const TiAction& a, const TiLine& line, const Held& comm) {
  // Replay consumes the first (waitany) or every (waitsome) completed request among those
  // concerned; which ones have completed is a matter of timing unless all were born completed.
  const bool some = a.kind == TiKind::kWaitsome;
  std::vector<size_t> concerned;
  if (a.has_arg) {
    for (size_t i = 0; i < counts_.size(); i += 3) {
      const auto it = find_request(a, line, comm, static_cast<int32_t>(counts_[i]), static_cast<int32_t>(counts_[i + 1]),
                                   static_cast<int32_t>(counts_[i + 2]));
      concerned.push_back(static_cast<size_t>(it - requests_.begin()));
    }
  } else {
    for (size_t i = 0; i < requests_.size(); ++i) concerned.push_back(i);
  }
  // waitany: deterministic when the first request visited was born completed (replay consumes it);
  // waitsome: when every one was (replay consumes them all).
  const auto timed = [&](size_t i) { return requests_[i].op != kNoLabel; };
  if (!concerned.empty() && (some ? std::any_of(concerned.begin(), concerned.end(), timed) : timed(concerned[0])))
    inexpressible(line, a,
                  some ? "GOAL has no any-of dependency (an operation that waits for whichever of several completes), "
                         "and which of its requests have completed depends on timing (only requests born completed, "
                         "on MPI_PROC_NULL, can be exported)"
                       : "GOAL has no any-of dependency (an operation that waits for whichever of several completes "
                         "first), and its first request has an operation (only a first request born completed, on "
                         "MPI_PROC_NULL, can be exported)");
  if (concerned.empty()) return;
  if (!some) concerned.resize(1);
  std::sort(concerned.begin(), concerned.end());
  concerned.erase(std::unique(concerned.begin(), concerned.end()), concerned.end());
  for (size_t k = concerned.size(); k > 0; --k)
    requests_.erase(requests_.begin() + static_cast<std::ptrdiff_t>(concerned[k - 1]));
}

void TiGoalExporter::cancel(const TiAction& a, const TiLine& line, const Held& comm) {
  const auto it = find_request(a, line, comm, a.peer, a.peer2, a.tag);
  // Replay cancels only a receive still posted; a send or a request born completed is left alone.
  if (it->op == kNoLabel || !it->recv) return;
  inexpressible(line, a, "whether the receive is cancelled depends on its timing (GOAL cannot cancel an operation)");
}

void TiGoalExporter::collective(const TiAction& a, const TiLine& line, Held& comm) {
  SimTime closing = SimTime::zero();
  if (a.kind == TiKind::kReduce || a.kind == TiKind::kAllreduce || a.kind == TiKind::kReducescatter ||
      a.kind == TiKind::kScan || a.kind == TiKind::kExscan)
    closing = ti_compute_time(a.amount, host(), trace_.file_name(line.file), line);
  const mpi::Group& g = comms_.comm(comm.instance).group;
  frag_.clear();
  build_ti_collective(frag_, a, g.local_rank(rank_), g.size(), counts_, closing, choice_, &comm.smp_ready);
  note_collective(line);
  if (!a.nonblocking) {
    write_fragment(comm);
    return;
  }
  // ibcast, iallreduce, ...: replay goes on at once and keeps a request that no wait key names
  // (waitall and finalize complete it): the ops a blocking call would require become requests.
  saved_.assign(frontier_.begin(), frontier_.end());
  write_fragment(comm);
  const int32_t id = comms_.comm(comm.instance).id;
  for (const Dep& d : frontier_) requests_.push_back(Request{kNoKey, kNoKey, kNoKey, id, d.op, false});
  frontier_.swap(saved_);
}

void TiGoalExporter::creation(const TiAction& a, const TiLine& line, Held& parent) {
  // The cost replay charges (replay/ti_comm.cpp, start_creation).
  const mpi::Group& g = comms_.comm(parent.instance).group;
  const RankId local = g.local_rank(rank_);
  frag_.clear();
  build_creation_fragment(frag_, a.kind, local, g.size());
  note_collective(line);
  write_fragment(parent);
  const uint32_t inst = comms_.created(rank_, creations_++);
  if (inst == TiGoalComms::kNone) return;
  held_[comms_.comm(inst).id] = Held{inst, 0};
}

void TiGoalExporter::free_comm(const TiAction& a, const TiLine& line) {
  held(a.comm2, line);  // the rank must hold it
  held_.erase(a.comm2);
}

void TiGoalExporter::write_fragment(Held& comm) {
  const uint32_t slot = comms_.comm(comm.instance).slot;
  const mpi::Group* group = comm.instance == 0 ? nullptr : &comms_.comm(comm.instance).group;
  const int32_t tag = tags_.collective(slot, comm.colls++);

  // Predecessors per op (CSR by successor): roots have none.
  const uint32_t n = frag_.size();
  const std::span<const coll::FragDep> deps = frag_.deps();
  pred_begin_.assign(n + 1, 0);
  for (const coll::FragDep& d : deps) ++pred_begin_[d.succ + 1];
  for (uint32_t i = 0; i < n; ++i) pred_begin_[i + 1] += pred_begin_[i];
  pred_.resize(deps.size());
  stack_.assign(pred_begin_.begin(), pred_begin_.end() - 1);  // fill cursors
  for (uint32_t e = 0; e < deps.size(); ++e) pred_[stack_[deps[e].succ]++] = e;

  labels_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const coll::FragOp& op = frag_.op(i);
    const RankId peer = group && op.kind != OpKind::kCalc ? group->world_rank(op.peer) : op.peer;
    switch (op.kind) {
      case OpKind::kCalc: labels_[i] = out_.calc(op.amount); break;
      case OpKind::kSend: labels_[i] = out_.send(op.amount, peer, tag); break;
      case OpKind::kRecv: labels_[i] = out_.recv(op.amount, peer, tag); break;
      default: SIMFAB_CHECK(false, "write_ti_as_goal: a collective generated an op GOAL cannot express");
    }
    if (pred_begin_[i] == pred_begin_[i + 1]) hang_on_frontier(labels_[i]);
  }
  for (const coll::FragDep& d : deps) out_.depend(labels_[d.succ], labels_[d.pred], d.immediate);

  // Replay leaves the collective when ALL its ops completed. The closing calc (the last op)
  // completing implies that its `requires` predecessors completed and its `irequires` ones
  // started, and so on backwards; the next action must also require every op left merely started.
  constexpr uint8_t kStarted = 1, kCompleted = 2;
  const uint32_t close = n - 1;
  implied_.assign(n, 0);
  implied_[close] = kCompleted;
  stack_.assign(1, close);
  while (!stack_.empty()) {
    const uint32_t s = stack_.back();
    stack_.pop_back();
    for (uint32_t k = pred_begin_[s]; k < pred_begin_[s + 1]; ++k) {
      const coll::FragDep& d = deps[pred_[k]];
      const uint8_t v = d.immediate ? kStarted : kCompleted;
      if (implied_[d.pred] == 0) stack_.push_back(d.pred);
      if (v > implied_[d.pred]) implied_[d.pred] = v;
    }
  }
  frontier_.assign(1, Dep{labels_[close], false});
  for (uint32_t i = 0; i < close; ++i)
    if (implied_[i] != kCompleted) frontier_.push_back(Dep{labels_[i], false});
}

void TiGoalExporter::check_nothing_after_finalize(uint64_t pos, const TiLine& finalize_line) const {
  TiLine next;
  if (!trace_.next_line(rank_, pos, next)) return;
  const std::string name = file_name(finalize_line.file);
  fail(next, "action after 'finalize': rank " + std::to_string(rank_) + " already finalized at line " +
                 std::to_string(locate(name, finalize_line.text, finalize_line.begin).line) +
                 "; nothing of a rank may follow its finalize");
}

}  // namespace

GoalExportStats write_ti_as_goal(TiTrace& trace, const Platform& platform, std::span<const HostId> rank_host,
                                 const coll::CollChoice& choice, std::ostream& out) {
  SIMFAB_CHECK(rank_host.size() == static_cast<size_t>(trace.num_ranks()),
               "write_ti_as_goal: rank_host must have one host per rank");
  for (HostId h : rank_host)
    SIMFAB_CHECK(h >= 0 && h < platform.host_count(), "write_ti_as_goal: rank mapped to an unknown host");
  const TiGoalComms comms(trace);
  const TiUndefinedSources undefined = TiUndefinedSources::scan(trace);
  GoalWriter writer(out, trace.num_ranks());
  TiGoalExporter exporter(trace, platform, rank_host, choice, comms, undefined, writer);
  for (int r = 0; r < trace.num_ranks(); ++r) exporter.export_rank();
  writer.finish();
  return GoalExportStats{writer.ops_written(), writer.dependencies_written()};
}

}  // namespace simfab
