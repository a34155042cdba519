#include "mpi/coll/check.hpp"

#include <algorithm>
#include <bit>
#include <deque>

#include "core/error.hpp"

namespace simfab::coll {

const char* coll_kind_name(CollKind k) {
  switch (k) {
    case CollKind::kBarrier: return "barrier";
    case CollKind::kBcast: return "bcast";
    case CollKind::kReduce: return "reduce";
    case CollKind::kAllreduce: return "allreduce";
    case CollKind::kScan: return "scan";
    case CollKind::kExscan: return "exscan";
    case CollKind::kReduceScatter: return "reduce_scatter";
    case CollKind::kGather: return "gather";
    case CollKind::kAllgather: return "allgather";
    case CollKind::kScatter: return "scatter";
    case CollKind::kAlltoall: return "alltoall";
  }
  return "?";
}

namespace {

using Bits = uint64_t;  // a set of ranks

Bits upto(int n) { return n >= 64 ? ~Bits{0} : (Bits{1} << n) - 1; }  // {0 .. n-1}

struct Layout {
  uint32_t segments = 0;
  uint32_t k = 1;
  int p = 1;
  uint32_t block_of(uint32_t seg) const { return seg / k; }
};

Layout layout(CollKind kind, int p, uint32_t k) {
  Layout l{0, k, p};
  const uint32_t up = static_cast<uint32_t>(p);
  switch (kind) {
    case CollKind::kBarrier: l.segments = 0; break;
    case CollKind::kBcast: case CollKind::kReduce: case CollKind::kAllreduce: l.segments = k; break;
    case CollKind::kScan: case CollKind::kExscan: l.segments = 2 * k; break;
    case CollKind::kReduceScatter: case CollKind::kGather: case CollKind::kAllgather: case CollKind::kScatter:
      l.segments = up * k; break;
    case CollKind::kAlltoall: l.segments = up * up * k; break;
  }
  return l;
}

Bits initial(CollKind kind, const Layout& l, RankId r, RankId root, uint32_t seg) {
  const Bits me = Bits{1} << r;
  const uint32_t b = l.block_of(seg);
  switch (kind) {
    case CollKind::kBcast: case CollKind::kScatter: return r == root ? me : 0;
    case CollKind::kReduce: case CollKind::kAllreduce: case CollKind::kScan:
    case CollKind::kReduceScatter: return me;
    case CollKind::kExscan: return seg < l.k ? 0 : me;  // recvbuf holds nothing until written
    case CollKind::kGather: case CollKind::kAllgather: return b == static_cast<uint32_t>(r) ? me : 0;
    case CollKind::kAlltoall: return b / static_cast<uint32_t>(l.p) == static_cast<uint32_t>(r) ? me : 0;
    case CollKind::kBarrier: return 0;
  }
  return 0;
}

// The required final value, or nullopt-like `checked = false` when the segment is free.
struct Want {
  bool checked = false;
  Bits value = 0;
};

Want final_value(CollKind kind, const Layout& l, RankId r, RankId root, uint32_t seg) {
  const Bits all = upto(l.p);
  const uint32_t b = l.block_of(seg);
  const uint32_t ur = static_cast<uint32_t>(r);
  switch (kind) {
    case CollKind::kBcast: return {true, Bits{1} << root};
    case CollKind::kReduce: return {r == root, all};
    case CollKind::kAllreduce: return {true, all};
    case CollKind::kScan: return {seg < l.k, upto(r + 1)};
    case CollKind::kExscan: return {r > 0 && seg < l.k, upto(r)};
    case CollKind::kReduceScatter: return {b == ur, all};
    case CollKind::kGather: return {r == root, Bits{1} << b};
    case CollKind::kAllgather: return {true, Bits{1} << b};
    case CollKind::kScatter: return {b == ur, Bits{1} << root};
    case CollKind::kAlltoall: return {b % static_cast<uint32_t>(l.p) == ur, Bits{1} << (b / static_cast<uint32_t>(l.p))};
    case CollKind::kBarrier: return {};
  }
  return {};
}

struct Message {
  uint32_t send_op = 0;
  Bytes bytes = 0;
  std::vector<uint32_t> segs;
  std::vector<Bits> values;
  Bits knowledge = 0;
  uint32_t depth = 0;
};

class Checker {
 public:
  Checker(CollKind kind, int p, RankId root, uint32_t k, const CollGenerator& gen)
      : kind_(kind), p_(p), root_(root), layout_(layout(kind, p, k)), ranks_(static_cast<size_t>(p)),
        channels_(static_cast<size_t>(p * p)), posted_(static_cast<size_t>(p * p)) {
    report_.sends.assign(static_cast<size_t>(p), 0);
    report_.sent_bytes.assign(static_cast<size_t>(p), 0);
    for (RankId r = 0; r < p; ++r) build(r, gen);
  }

  CheckReport run() {
    for (RankId r = 0; r < p_ && ok(); ++r)
      for (uint32_t i = 0; i < rank(r).f.size(); ++i)
        if (rank(r).req_left[i] == 0 && rank(r).ireq_left[i] == 0) ready_.push_back({r, i});
    // Starts first; a received message is only merged when nothing else can start, so a send
    // that does not depend on a receive runs before that receive's data is there.
    while (ok() && (!ready_.empty() || !deliverable_.empty())) {
      if (!ready_.empty()) {
        auto [r, i] = ready_.front();
        ready_.pop_front();
        start(r, i);
      } else {
        auto [dst, src] = deliverable_.front();
        deliverable_.pop_front();
        deliver(dst, src);
      }
    }
    if (ok()) finish();
    return report_;
  }

 private:
  struct RankRun {
    Fragment f;
    std::vector<uint32_t> req_left, ireq_left, depth;
    std::vector<std::vector<uint32_t>> req_succ, ireq_succ;
    std::vector<std::vector<Bits>> ancestors;  // requires-ancestors of each op, as op bitsets
    std::vector<Bits> know;                    // causal knowledge per op
    std::vector<uint8_t> done;
    std::vector<Bits> value;                   // per segment
    std::vector<uint32_t> writer;              // per segment: the recv that last wrote it, or kNone
  };
  static constexpr uint32_t kNone = UINT32_MAX;

  RankRun& rank(RankId r) { return ranks_[static_cast<size_t>(r)]; }
  bool ok() const { return report_.error.empty(); }
  void fail(RankId r, uint32_t op, const std::string& what) {
    if (ok())
      report_.error = std::string(coll_kind_name(kind_)) + " on " + std::to_string(p_) + " ranks (root " +
                      std::to_string(root_) + "): rank " + std::to_string(r) + " op " + std::to_string(op) + ": " + what;
  }
  size_t chan(RankId src, RankId dst) const { return static_cast<size_t>(src * p_ + dst); }

  void build(RankId r, const CollGenerator& gen) {
    RankRun& rr = rank(r);
    rr.f.track_data(true);
    rr.f.clear();
    gen(rr.f, r);
    const uint32_t n = rr.f.size();
    rr.req_left.assign(n, 0);
    rr.ireq_left.assign(n, 0);
    rr.depth.assign(n, 0);
    rr.req_succ.assign(n, {});
    rr.ireq_succ.assign(n, {});
    rr.done.assign(n, 0);
    rr.know.assign(n, Bits{1} << r);
    for (const FragDep& d : rr.f.deps()) {
      (d.immediate ? rr.ireq_succ : rr.req_succ)[d.pred].push_back(d.succ);
      ++(d.immediate ? rr.ireq_left : rr.req_left)[d.succ];
    }
    const size_t words = (n + 63) / 64;
    rr.ancestors.assign(n, std::vector<Bits>(words, 0));
    // Ancestors through `requires` edges, and through edges of both kinds (`before`: the ops
    // issued before this one in every run), in a topological order of the whole DAG.
    std::vector<std::vector<Bits>> before(n, std::vector<Bits>(words, 0));
    std::vector<uint32_t> indeg(n, 0), order;
    for (const FragDep& d : rr.f.deps()) ++indeg[d.succ];
    for (uint32_t i = 0; i < n; ++i)
      if (!indeg[i]) order.push_back(i);
    for (size_t h = 0; h < order.size(); ++h) {
      const uint32_t i = order[h];
      for (const FragDep& d : rr.f.deps()) {
        if (d.pred != i) continue;
        if (!d.immediate) {
          auto& a = rr.ancestors[d.succ];
          for (size_t w = 0; w < words; ++w) a[w] |= rr.ancestors[i][w];
          a[i / 64] |= Bits{1} << (i % 64);
        }
        auto& b = before[d.succ];
        for (size_t w = 0; w < words; ++w) b[w] |= before[i][w];
        b[i / 64] |= Bits{1} << (i % 64);
        if (--indeg[d.succ] == 0) order.push_back(d.succ);
      }
    }
    if (order.size() != n) return fail(r, 0, "the fragment's dependencies have a cycle");
    check_order(r, order, before);
    rr.value.resize(layout_.segments);
    rr.writer.assign(layout_.segments, kNone);
    for (uint32_t s = 0; s < layout_.segments; ++s) rr.value[s] = initial(kind_, layout_, r, root_, s);
  }

  // The matching-order rule (check.hpp): the sends of rank r to one peer, and its receives from
  // one peer, form a chain of `before`. A set is totally ordered by a partial order iff the
  // members that are consecutive in a topological order are ordered, so only those pairs are
  // tested: O(ops) tests after the O(ops^2 / 64) closure.
  void check_order(RankId r, const std::vector<uint32_t>& order, const std::vector<std::vector<Bits>>& before) {
    RankRun& rr = rank(r);
    std::vector<uint32_t> last_send(static_cast<size_t>(p_), kNone), last_recv(static_cast<size_t>(p_), kNone);
    for (uint32_t i : order) {
      const FragOp& op = rr.f.op(i);
      if (op.kind == OpKind::kCalc || op.peer < 0 || op.peer >= p_) continue;  // bad peers fail in start()
      const bool send = op.kind == OpKind::kSend;
      uint32_t& last = (send ? last_send : last_recv)[static_cast<size_t>(op.peer)];
      if (last != kNone && !((before[i][last / 64] >> (last % 64)) & 1)) {
        const uint32_t a = std::min(last, i), b = std::max(last, i);
        return fail(r, a, std::string(send ? "sends to" : "receives from") + " rank " + std::to_string(op.peer) +
                              ", and so does op " + std::to_string(b) + ", but no chain of requires/irequires edges " +
                              "orders the two (" + describe(rr.f.op(a)) + "; " + describe(rr.f.op(b)) +
                              "): timing decides which " + (send ? "receive of rank " : "send of rank ") +
                              std::to_string(op.peer) + " each one matches");
      }
      last = i;
    }
  }

  static std::string describe(const FragOp& op) {
    return op.kind == OpKind::kSend ? "send " + std::to_string(op.amount) + " B to rank " + std::to_string(op.peer)
                                    : "recv " + std::to_string(op.amount) + " B from rank " + std::to_string(op.peer);
  }

  bool is_ancestor(const RankRun& rr, uint32_t anc, uint32_t op) const {
    return (rr.ancestors[op][anc / 64] >> (anc % 64)) & 1;
  }

  void start(RankId r, uint32_t i) {
    RankRun& rr = rank(r);
    for (uint32_t s : rr.ireq_succ[i]) release(r, i, s, false);
    const FragOp& op = rr.f.op(i);
    if (op.kind == OpKind::kCalc) return complete(r, i);
    if (op.peer < 0 || op.peer >= p_ || op.peer == r) return fail(r, i, "peer " + std::to_string(op.peer) + " is not another rank");
    if (op.kind == OpKind::kSend) {
      Message m{i, op.amount, {}, {}, rr.know[i], rr.depth[i] + 1};
      for (uint32_t s : rr.f.data(i)) {
        if (s >= layout_.segments) return fail(r, i, "sends segment " + std::to_string(s) + " beyond the layout");
        if (rr.value[s] == 0) return fail(r, i, "sends segment " + std::to_string(s) + " that it does not hold");
        if (rr.writer[s] != kNone && !is_ancestor(rr, rr.writer[s], i))
          return fail(r, i, "sends segment " + std::to_string(s) + " without waiting for the receive (op " +
                                std::to_string(rr.writer[s]) + ") that brings it");
        m.segs.push_back(s);
        m.values.push_back(rr.value[s]);
      }
      ++report_.messages;
      report_.bytes += op.amount;
      ++report_.sends[static_cast<size_t>(r)];
      report_.sent_bytes[static_cast<size_t>(r)] += op.amount;
      channels_[chan(r, op.peer)].push_back(std::move(m));
      note_deliverable(op.peer, r);
      return complete(r, i);
    }
    posted_[chan(op.peer, r)].push_back(i);
    note_deliverable(r, op.peer);
  }

  void note_deliverable(RankId dst, RankId src) {
    if (!channels_[chan(src, dst)].empty() && !posted_[chan(src, dst)].empty()) deliverable_.push_back({dst, src});
  }

  void deliver(RankId dst, RankId src) {
    auto& ch = channels_[chan(src, dst)];
    auto& po = posted_[chan(src, dst)];
    if (ch.empty() || po.empty()) return;  // matched meanwhile
    Message m = std::move(ch.front());
    ch.pop_front();
    const uint32_t i = po.front();
    po.pop_front();
    RankRun& rr = rank(dst);
    const FragOp& op = rr.f.op(i);
    const auto want = rr.f.data(i);
    if (m.bytes != op.amount)
      return fail(dst, i, "receives " + std::to_string(op.amount) + " B from rank " + std::to_string(src) + " but op " +
                              std::to_string(m.send_op) + " there sends " + std::to_string(m.bytes) + " B");
    // The receive lists the sent segments, then possibly further targets of the same length
    // (fan-out: the received buffer merged into several of the receiver's).
    const size_t len = m.segs.size();
    if (want.size() < len || !std::equal(m.segs.begin(), m.segs.end(), want.begin()) ||
        (len == 0 ? !want.empty() : want.size() % len != 0))
      return fail(dst, i, "receives other segments than op " + std::to_string(m.send_op) + " of rank " +
                              std::to_string(src) + " sends");
    for (size_t j = 0; j < want.size(); ++j) {
      const uint32_t s = want[j];
      if (s >= layout_.segments) return fail(dst, i, "receives into segment " + std::to_string(s) + " beyond the layout");
      const Bits v = m.values[j % len];
      if (op.combine == Combine::kReduce) {
        if (rr.value[s] & v)
          return fail(dst, i, "counts the contribution of rank " + std::to_string(std::countr_zero(rr.value[s] & v)) +
                                  " twice in segment " + std::to_string(s));
        rr.value[s] |= v;
      } else {
        rr.value[s] = v;
      }
      rr.writer[s] = i;
    }
    rr.know[i] |= m.knowledge;
    rr.depth[i] = std::max(rr.depth[i], m.depth);
    report_.rounds = std::max(report_.rounds, m.depth);
    complete(dst, i);
    note_deliverable(dst, src);
  }

  void release(RankId r, uint32_t pred, uint32_t succ, bool completed) {
    RankRun& rr = rank(r);
    rr.know[succ] |= rr.know[pred];
    rr.depth[succ] = std::max(rr.depth[succ], rr.depth[pred]);
    uint32_t& left = completed ? rr.req_left[succ] : rr.ireq_left[succ];
    if (--left == 0 && rr.req_left[succ] == 0 && rr.ireq_left[succ] == 0) ready_.push_back({r, succ});
  }

  void complete(RankId r, uint32_t i) {
    RankRun& rr = rank(r);
    rr.done[i] = 1;
    for (uint32_t s : rr.req_succ[i]) release(r, i, s, true);
  }

  void finish() {
    for (RankId r = 0; r < p_; ++r) {
      RankRun& rr = rank(r);
      for (uint32_t i = 0; i < rr.f.size(); ++i)
        if (!rr.done[i]) return fail(r, i, "never completes (deadlock: a receive without its send, or a cycle)");
      for (RankId s = 0; s < p_; ++s)
        if (!channels_[chan(r, s)].empty())
          return fail(r, channels_[chan(r, s)].front().send_op,
                      "sends a message to rank " + std::to_string(s) + " that no receive takes");
      Bits know = Bits{1} << r;
      for (Bits k : rr.know) know |= k;
      if (kind_ == CollKind::kBarrier && know != upto(p_))
        return fail(r, 0, "leaves the barrier without hearing from rank " + std::to_string(std::countr_zero(~know)));
      for (uint32_t s = 0; s < layout_.segments; ++s) {
        const Want w = final_value(kind_, layout_, r, root_, s);
        if (w.checked && rr.value[s] != w.value)
          return fail(r, 0, "ends with segment " + std::to_string(s) + " = " + show(rr.value[s]) + ", expected " +
                                show(w.value));
      }
    }
  }

  static std::string show(Bits b) {
    std::string out = "{";
    for (int i = 0; i < 64; ++i)
      if ((b >> i) & 1) out += (out.size() > 1 ? "," : "") + std::to_string(i);
    return out + "}";
  }

  CollKind kind_;
  int p_;
  RankId root_;
  Layout layout_;
  std::vector<RankRun> ranks_;
  std::vector<std::deque<Message>> channels_;  // per (src, dst): messages not yet received
  std::vector<std::deque<uint32_t>> posted_;   // per (src, dst): posted receives at dst
  std::deque<std::pair<RankId, uint32_t>> ready_;
  std::deque<std::pair<RankId, RankId>> deliverable_;  // (dst, src) pairs that may match
  CheckReport report_;
};

}  // namespace

CheckReport check_collective(CollKind kind, int size, RankId root, uint32_t segments_per_block,
                             const CollGenerator& gen) {
  SIMFAB_CHECK(size >= 1 && size <= 64 && root >= 0 && root < size && segments_per_block >= 1,
               "check_collective: size must be 1..64, root inside, k >= 1");
  return Checker(kind, size, root, segments_per_block, gen).run();
}

}  // namespace simfab::coll
