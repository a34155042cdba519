// TiGoalComms: the first pass of the GOAL export over the trace's comm_* actions (see the header).
#include "replay/ti_to_goal_comms.hpp"

#include <algorithm>
#include <bit>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "mpi/call_error.hpp"
#include "mpi/comm.hpp"
#include "replay/ti_action.hpp"

namespace simfab {

GoalTags::GoalTags(uint32_t sub_comms) {
  SIMFAB_CHECK(sub_comms <= kMaxSubComms, "GoalTags: too many sub-communicators");
  block_bits_ = sub_comms <= 1 ? 29 : 29 - static_cast<int>(std::bit_width(sub_comms - 1));
}

int32_t GoalTags::collective(uint32_t slot, uint64_t k) const {
  if (slot == 0) return kCollTagBase + static_cast<int32_t>(k & ((uint64_t{1} << 29) - 1));
  const int32_t half = int32_t{1} << (block_bits_ - 1);
  return base(slot) + half + static_cast<int32_t>(k & static_cast<uint64_t>(half - 1));
}

uint32_t TiGoalComms::created(RankId r, uint32_t j) const {
  const auto i = static_cast<size_t>(r);
  SIMFAB_CHECK(i + 1 < begin_.size() && begin_[i] + j < begin_[i + 1],
               "TiGoalComms::created: rank made fewer creation calls");
  return created_[begin_[i] + j];
}

namespace {

// The action token of a line (token 1), without parsing anything.
std::string_view action_token(const TiLine& line) {
  const std::string_view v = line.view();
  const auto sep = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  size_t i = 0;
  while (i < v.size() && sep(v[i])) ++i;
  while (i < v.size() && !sep(v[i])) ++i;  // the rank
  while (i < v.size() && sep(v[i])) ++i;
  size_t b = i;
  while (i < v.size() && !sep(v[i])) ++i;
  return v.substr(b, i - b);
}

}  // namespace

class TiGoalCommsBuilder {
 public:
  TiGoalCommsBuilder(TiTrace& trace, TiGoalComms& out)
      : trace_(trace), out_(out), table_(trace.num_ranks()), ranks_(static_cast<size_t>(trace.num_ranks())) {
    out_.comms_.push_back(GoalComm{mpi::Group::world(trace.num_ranks()), mpi::kCommWorld, 0});
    live_[mpi::kCommWorld] = 0;
  }

  void run() {
    for (RankId r = 0; r < trace_.num_ranks(); ++r) advance(r);
    size_t deferred = 0;  // consecutive deferrals: the whole queue means no arrival can wait longer
    while (!queue_.empty()) {
      const RankId r = queue_.front();
      queue_.pop_front();
      if (deferred < queue_.size() + 1 && must_defer(r)) {
        queue_.push_back(r);
        ++deferred;
        continue;
      }
      deferred = 0;
      arrive(r);
    }
    for (RankId r = 0; r < trace_.num_ranks(); ++r)
      if (ranks_[static_cast<size_t>(r)].state == State::kWaiting) never_completes(r);
    if (results_.empty()) return;
    // CSR by rank; each rank's calls were recorded in its program order per creation, sort by call.
    std::sort(results_.begin(), results_.end(), [](const Result& a, const Result& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.call < b.call;
    });
    out_.begin_.assign(static_cast<size_t>(trace_.num_ranks()) + 1, 0);
    for (const Result& x : results_) ++out_.begin_[static_cast<size_t>(x.rank) + 1];
    for (size_t i = 1; i < out_.begin_.size(); ++i) out_.begin_[i] += out_.begin_[i - 1];
    out_.created_.resize(results_.size());
    for (size_t i = 0; i < results_.size(); ++i) out_.created_[i] = results_[i].instance;
  }

 private:
  enum class State : uint8_t { kRunning, kAtCreation, kWaiting, kDone };
  struct Cursor {
    uint64_t pos = 0;       // next unread byte
    uint64_t at = 0;        // kAtCreation / kWaiting: where the creation line starts (re-read)
    uint32_t parent = 0;    // kAtCreation / kWaiting: the instance the creation runs on
    uint32_t calls = 0;     // creation calls made so far
    State state = State::kRunning;
  };
  struct Arrival {
    RankId rank;
    uint32_t call;
    mpi::CommId new_id;
  };
  struct Result {
    RankId rank;
    uint32_t call;
    uint32_t instance;
  };
  // A creation in progress: (parent instance, creation index k on it).
  using Key = std::pair<uint32_t, uint32_t>;

  std::string name(const TiLine& line) const { return std::string(trace_.file_name(line.file)); }
  [[noreturn]] void fail(const TiLine& line, std::string what) const {
    throw error_at(name(line), line.text, line.begin, std::move(what));
  }

  // The live communicator `id` of which r is a member (replay's member_comm, same words).
  uint32_t member_instance(RankId r, mpi::CommId id, const TiLine& line) const {
    const mpi::Comm* comm = table_.find(id);
    if (!comm)
      fail(line, "communicator " + std::to_string(id) + " does not exist (no comm_split, comm_dup or comm_create of rank " +
                     std::to_string(r) + " made it before this line, or it was freed)");
    if (comm->group().local_rank(r) == mpi::kUndefined)
      fail(line, "rank " + std::to_string(r) + " is not a member of communicator " + std::to_string(id) + " (" +
                     std::to_string(comm->size()) + " ranks)");
    return live_.at(id);
  }

  // Re-reads the creation line r is at and parses it on its communicator (found by advance()).
  TiAction read_creation(RankId r, TiLine& line, uint32_t& parent) {
    const Cursor& c = ranks_[static_cast<size_t>(r)];
    uint64_t pos = c.at;
    SIMFAB_CHECK(trace_.next_line(r, pos, line), "TiGoalComms: a creation line vanished");
    parent = c.parent;
    return parse_ti_action(trace_.file_name(line.file), line, trace_.num_ranks(), false, counts_,
                           out_.comms_[parent].group.size());
  }

  // Reads r's lines up to its next creation call (frees applied), its finalize or its end.
  void advance(RankId r) {
    Cursor& c = ranks_[static_cast<size_t>(r)];
    TiLine line;
    for (;;) {
      const uint64_t at = c.pos;
      if (!trace_.next_line(r, c.pos, line)) break;
      const std::string_view act = action_token(line);
      if (act == "finalize") break;
      if (act.substr(0, 5) != "comm_") continue;
      const std::string_view file = trace_.file_name(line.file);
      const uint32_t inst = member_instance(r, ti_line_comm(file, line), line);
      const TiAction a =
          parse_ti_action(file, line, trace_.num_ranks(), false, counts_, out_.comms_[inst].group.size());
      if (a.kind == TiKind::kCommFree) {
        free(r, a, line);
        continue;
      }
      const bool creation =
          a.kind == TiKind::kCommCreate || ((a.kind == TiKind::kCommSplit || a.kind == TiKind::kCommDup) && a.has_arg);
      if (!creation) continue;  // comm_size, SimGrid's argument-less split/dup
      c.at = at;
      c.parent = inst;
      c.state = State::kAtCreation;
      queue_.push_back(r);
      return;
    }
    c.state = State::kDone;
  }

  void free(RankId r, const TiAction& a, const TiLine& line) {
    const uint32_t inst = member_instance(r, a.comm2, line);
    const mpi::CommId id = out_.comms_[inst].id;
    try {
      if (table_.free(id, out_.comms_[inst].group.local_rank(r))) live_.erase(id);
    } catch (const mpi::MpiCallError& e) {
      fail(line, "rank " + std::to_string(r) + ": " + e.what());
    }
  }

  static mpi::CreationArgs args_of(const TiAction& a, std::vector<int32_t>& group, const std::vector<Bytes>& counts) {
    switch (a.kind) {
      case TiKind::kCommDup: return mpi::CreationArgs::dup(a.comm2);
      case TiKind::kCommSplit:
        return mpi::CreationArgs::split(a.peer == kTiUndefined ? mpi::kUndefined : a.peer, a.tag, a.comm2);
      default:
        group.assign(counts.begin(), counts.end());
        return mpi::CreationArgs::create(group, a.comm2);
    }
  }

  // The id r would get from the creation at its cursor (kCommNull: none).
  mpi::CommId would_get(const TiAction& a, RankId local) const {
    if (a.kind == TiKind::kCommSplit && a.peer == kTiUndefined) return mpi::kCommNull;
    if (a.kind == TiKind::kCommCreate &&
        std::find(counts_.begin(), counts_.end(), static_cast<Bytes>(local)) == counts_.end())
      return mpi::kCommNull;
    return a.comm2;
  }

  // Would r's arrival complete its creation while one of the new ids is still alive?
  bool must_defer(RankId r) {
    TiLine line;
    uint32_t parent = 0;
    const TiAction a = read_creation(r, line, parent);
    const mpi::Group& g = out_.comms_[parent].group;
    const RankId local = g.local_rank(r);
    const auto it = creations_.find(member_key(parent, local));
    const Key key{parent, it == creations_.end() ? 0 : it->second};
    const auto p = pending_.find(key);
    const size_t arrived = p == pending_.end() ? 0 : p->second.size();
    if (arrived + 1 != static_cast<size_t>(g.size())) return false;
    const auto alive = [&](mpi::CommId id) { return id != mpi::kCommNull && table_.find(id) != nullptr; };
    if (alive(would_get(a, local))) return true;
    if (p != pending_.end())
      for (const Arrival& x : p->second)
        if (alive(x.new_id)) return true;
    return false;
  }

  static uint64_t member_key(uint32_t instance, RankId local) {
    return (uint64_t{instance} << 32) | static_cast<uint32_t>(local);
  }

  void arrive(RankId r) {
    Cursor& c = ranks_[static_cast<size_t>(r)];
    TiLine line;
    uint32_t parent = 0;
    const TiAction a = read_creation(r, line, parent);
    const mpi::CommId parent_id = out_.comms_[parent].id;
    const RankId local = out_.comms_[parent].group.local_rank(r);
    mpi::CreationTicket ticket;
    try {
      ticket = table_.arrive(parent_id, local, args_of(a, group_, counts_));
    } catch (const mpi::MpiCallError& e) {
      fail(line, "rank " + std::to_string(r) + ": " + e.what());
    }
    creations_[member_key(parent, local)] = ticket.creation + 1;
    const Key key{parent, ticket.creation};
    pending_[key].push_back(Arrival{r, c.calls++, ticket.new_comm});
    c.state = State::kWaiting;
    if (!ticket.completed) return;

    // The new communicators exist now: one instance per new id, members in arrival order.
    std::vector<Arrival> arrivals = std::move(pending_[key]);
    pending_.erase(key);
    std::map<mpi::CommId, uint32_t> made;
    for (const Arrival& x : arrivals) {
      uint32_t inst = TiGoalComms::kNone;
      if (x.new_id != mpi::kCommNull) {
        auto [m, fresh] = made.emplace(x.new_id, 0);
        if (fresh) {
          if (out_.comms_.size() > GoalTags::kMaxSubComms)
            fail(line, "this trace creates more than 2^27 communicators; GOAL export gives each a range of tags "
                       "(GOAL has no communicator contexts) and cannot give that many");
          const mpi::Comm& comm = table_.at(x.new_id, "GOAL export");
          m->second = static_cast<uint32_t>(out_.comms_.size());
          out_.comms_.push_back(GoalComm{comm.group(), x.new_id, static_cast<uint32_t>(out_.comms_.size())});
          live_[x.new_id] = m->second;
        }
        inst = m->second;
      }
      results_.push_back(Result{x.rank, x.call, inst});
    }
    for (const Arrival& x : arrivals) advance(x.rank);
  }

  [[noreturn]] void never_completes(RankId r) {
    TiLine line;
    uint32_t parent = 0;
    const TiAction a = read_creation(r, line, parent);
    const mpi::Group& g = out_.comms_[parent].group;
    const auto k = creations_.at(member_key(parent, g.local_rank(r))) - 1;
    std::vector<bool> came(static_cast<size_t>(g.size()), false);
    for (const Arrival& x : pending_.at(Key{parent, k})) came[static_cast<size_t>(g.local_rank(x.rank))] = true;
    std::string missing;
    int shown = 0, count = 0;
    for (int32_t i = 0; i < g.size(); ++i) {
      if (came[static_cast<size_t>(i)]) continue;
      ++count;
      if (shown < 4) missing += (shown++ ? ", " : "") + std::to_string(g.world_rank(i));
    }
    if (count > shown) missing += ", ...";
    fail(line, std::string(ti_action_name(a.kind)) + " of rank " + std::to_string(r) + " (creation #" +
                   std::to_string(k) + " on communicator " + std::to_string(out_.comms_[parent].id) +
                   ") never completes: " + std::to_string(count) + " member(s) never make that call (rank(s) " +
                   missing + "; their traces end, finalize or wait in another creation first); replay would "
                   "deadlock here");
  }

  TiTrace& trace_;
  TiGoalComms& out_;
  mpi::CommTable table_;
  std::map<mpi::CommId, uint32_t> live_;  // live id -> instance
  std::vector<Cursor> ranks_;
  std::deque<RankId> queue_;  // ranks at a creation, not yet arrived
  std::map<Key, std::vector<Arrival>> pending_;
  std::unordered_map<uint64_t, uint32_t> creations_;  // (instance, member) -> creation calls made on it (lookups only)
  std::vector<Result> results_;
  std::vector<Bytes> counts_;
  std::vector<int32_t> group_;
};

TiGoalComms::TiGoalComms(TiTrace& trace) {
  TiGoalCommsBuilder(trace, *this).run();
}

}  // namespace simfab
