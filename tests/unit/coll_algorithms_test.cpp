// mpi/coll: collective generators (structure against Schedgen's patterns) and FragmentRunner
// (closed forms under LogGOPS, recycling of ops and runs).
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "mpi/coll/binomial.hpp"
#include "mpi/coll/dissemination.hpp"
#include "mpi/coll/fragment.hpp"
#include "mpi/coll/fragment_runner.hpp"
#include "mpi/coll/linear.hpp"
#include "mpi/coll/reduce_scatter.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"

namespace simfab::coll {
namespace {

using Gen = std::function<void(Fragment&, RankId)>;

// Runs one collective: every rank's fragment from `gen`, closed with calc 0, started at time 0.
class FragmentProgram final : public Program {
 public:
  FragmentProgram(int n, OpPool& ops, Gen gen) : n_(n), ops_(ops), gen_(std::move(gen)), runner_(ops) {
    run_.resize(static_cast<size_t>(n));
    done_.assign(static_cast<size_t>(n), false);
  }
  int num_ranks() const override { return n_; }
  void start(Executor& ex) override {
    ex_ = &ex;
    for (RankId r = 0; r < n_; ++r) {
      frag_.clear();
      gen_(frag_, r);
      frag_.close(SimTime::zero());
      run_[static_cast<size_t>(r)] = runner_.start(ex, frag_, r, 0, 1, SimTime::zero());
    }
  }
  void on_started(OpId op, SimTime t) override { runner_.on_started(*ex_, run_[idx(op)], op, t); }
  void on_completed(OpId op, SimTime t) override {
    const size_t r = idx(op);
    if (runner_.on_completed(*ex_, run_[r], op, t)) done_[r] = true;
  }
  bool rank_finished(RankId r) const override { return done_[static_cast<size_t>(r)]; }
  std::string describe_blocked(RankId r) const override { return runner_.describe(run_[static_cast<size_t>(r)]); }
  const FragmentRunner& runner() const { return runner_; }

 private:
  size_t idx(OpId op) const { return static_cast<size_t>(ops_[op].rank); }
  int n_;
  OpPool& ops_;
  Gen gen_;
  FragmentRunner runner_;
  Fragment frag_;
  Executor* ex_ = nullptr;
  std::vector<uint32_t> run_;
  std::vector<bool> done_;
};

struct SimRun {
  ExecutionResult res;
  size_t live_runs = 0;
  size_t pool_size = 0;
};

SimRun simulate(int n, Gen gen, LogGOPSParams p) {
  Engine engine;
  Platform platform = Platform::ideal(n);
  LogGOPSNetwork net(engine, platform, p);
  OpPool ops;
  FragmentProgram prog(n, ops, std::move(gen));
  std::vector<HostId> hosts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hosts[static_cast<size_t>(i)] = i;
  Executor ex(engine, net, ops, prog, hosts);
  SimRun r;
  r.res = ex.run();
  r.live_runs = prog.runner().live_runs();
  r.pool_size = ops.size();
  return r;
}

LogGOPSParams latency_only(int64_t L) {
  return LogGOPSParams{SimTime::ps(L), SimTime::zero(), SimTime::zero(), 0, 0, 65535};
}

std::vector<int64_t> finish_ps(const ExecutionResult& r) {
  std::vector<int64_t> v;
  for (SimTime t : r.finish) v.push_back(t.ps());
  return v;
}

// "send 8 to 1" style listing of a fragment, with its edges, to compare with Schedgen's output.
std::string show(const Fragment& f) {
  std::string out;
  for (const FragOp& op : f.ops()) {
    if (!out.empty()) out += ", ";
    if (op.kind == OpKind::kSend) out += "send " + std::to_string(op.amount) + " to " + std::to_string(op.peer);
    else if (op.kind == OpKind::kRecv) out += "recv " + std::to_string(op.amount) + " from " + std::to_string(op.peer);
    else out += "calc " + std::to_string(op.amount);
  }
  for (const FragDep& d : f.deps())
    out += "; " + std::to_string(d.succ) + (d.immediate ? " irequires " : " requires ") + std::to_string(d.pred);
  return out;
}

TEST(CollDissemination, MatchesSchedgenPattern) {
  Fragment f;
  dissemination(f, 0, 8, 180);
  EXPECT_EQ(show(f),
            "send 180 to 1, recv 180 from 7, send 180 to 2, recv 180 from 6, send 180 to 4, recv 180 from 4; "
            "2 requires 1; 4 requires 3");
  f.close(SimTime::zero());
  EXPECT_EQ(show(f).substr(show(f).find("calc")),
            "calc 0; 2 requires 1; 4 requires 3; 6 requires 0; 6 requires 2; 6 requires 4; 6 requires 5");

  Fragment one;
  dissemination(one, 0, 1, 8);
  EXPECT_EQ(one.size(), 0u);
  Fragment five;
  dissemination(five, 3, 5, 8);  // 3 rounds: distances 1, 2, 4
  EXPECT_EQ(show(five), "send 8 to 4, recv 8 from 2, send 8 to 0, recv 8 from 1, send 8 to 2, recv 8 from 4; "
                        "2 requires 1; 4 requires 3");
}

TEST(CollDissemination, EightRankAllreduceClosedForm) {
  LogGOPSParams p{SimTime::zero(), SimTime::ps(50000), SimTime::ps(100000), 6000, 0, 65535};
  SimRun r = simulate(8, [](Fragment& f, RankId rank) { dissemination(f, rank, 8, 180); }, p);
  EXPECT_TRUE(r.res.blocked.empty());
  EXPECT_EQ(finish_ps(r.res), std::vector<int64_t>(8, 3522000));
  EXPECT_EQ(r.res.messages, 24u);
  EXPECT_EQ(r.live_runs, 0u);
}

TEST(CollBinomial, BcastTreeAndVirtualRanks) {
  Fragment f;
  binomial_bcast(f, 0, 8, 0, 10);
  EXPECT_EQ(show(f), "send 10 to 1, send 10 to 2, send 10 to 4");
  f.clear();
  binomial_bcast(f, 1, 8, 0, 10);
  EXPECT_EQ(show(f), "recv 10 from 0, send 10 to 3, send 10 to 5; 1 requires 0; 2 requires 0");
  f.clear();
  binomial_bcast(f, 7, 8, 0, 10);
  EXPECT_EQ(show(f), "recv 10 from 3");
  // Root 3: ranks 0 and 3 swap virtual ranks, nothing else moves.
  f.clear();
  binomial_bcast(f, 3, 8, 3, 10);
  EXPECT_EQ(show(f), "send 10 to 1, send 10 to 2, send 10 to 4");
  f.clear();
  binomial_bcast(f, 0, 8, 3, 10);  // virtual rank 3: child of virtual rank 1, parent of 7
  EXPECT_EQ(show(f), "recv 10 from 1, send 10 to 7; 1 requires 0");
  f.clear();
  binomial_bcast(f, 1, 8, 3, 10);  // virtual rank 1: children virtual 3 (= rank 0) and 5
  EXPECT_EQ(show(f), "recv 10 from 3, send 10 to 0, send 10 to 5; 1 requires 0; 2 requires 0");

  // P - 1 messages in all; every non-root receives exactly once.
  for (int p : {2, 3, 7, 8, 13}) {
    uint32_t sends = 0;
    for (RankId r = 0; r < p; ++r) {
      Fragment g;
      binomial_bcast(g, r, p, 2 % p, 1);
      sends += g.count(OpKind::kSend);
      EXPECT_EQ(g.count(OpKind::kRecv), r == 2 % p ? 0u : 1u) << "P=" << p << " rank " << r;
    }
    EXPECT_EQ(sends, static_cast<uint32_t>(p - 1));
  }
}

TEST(CollBinomial, BcastLatencyOnlyIsDepthTimesL) {
  // o = g = G = O = 0, L = 1000: rank r finishes at 1000 x its depth = popcount(virtual rank).
  for (RankId root : {0, 3}) {
    SimRun r = simulate(
        8, [root](Fragment& f, RankId rank) { binomial_bcast(f, rank, 8, root, 64); }, latency_only(1000));
    ASSERT_TRUE(r.res.blocked.empty());
    for (RankId rank = 0; rank < 8; ++rank)
      EXPECT_EQ(r.res.finish[static_cast<size_t>(rank)].ps(),
                1000 * std::popcount(static_cast<unsigned>(binomial_vrank(rank, root))))
          << "root " << root << " rank " << rank;
    EXPECT_EQ(r.res.messages, 7u);
  }
}

TEST(CollBinomial, ReduceIsTheMirror) {
  Fragment f;
  binomial_reduce(f, 0, 8, 0, 10);
  EXPECT_EQ(show(f), "recv 10 from 1, recv 10 from 2, recv 10 from 4");
  f.clear();
  binomial_reduce(f, 1, 8, 0, 10);
  EXPECT_EQ(show(f), "send 10 to 0, recv 10 from 3, recv 10 from 5; 0 requires 1; 0 requires 2");
  f.clear();
  binomial_reduce(f, 6, 8, 0, 10);
  EXPECT_EQ(show(f), "send 10 to 2");

  // L only: a rank finishes when its last child's message arrives: L x (height of its subtree).
  SimRun r = simulate(8, [](Fragment& g, RankId rank) { binomial_reduce(g, rank, 8, 0, 64); }, latency_only(1000));
  ASSERT_TRUE(r.res.blocked.empty());
  EXPECT_EQ(finish_ps(r.res), (std::vector<int64_t>{3000, 2000, 1000, 1000, 0, 0, 0, 0}));
  EXPECT_EQ(r.res.messages, 7u);
}

TEST(CollLinear, AlltoallIsPTimesPMinusOneMessages) {
  Fragment f;
  linear_alltoall(f, 1, 4, 8, 8);
  EXPECT_EQ(show(f), "send 8 to 2, recv 8 from 0, send 8 to 3, recv 8 from 3, send 8 to 0, recv 8 from 2");
  for (int p : {1, 2, 5, 16}) {
    SimRun r = simulate(p, [p](Fragment& g, RankId rank) { linear_alltoall(g, rank, p, 100, 100); },
                     LogGOPSParams{});
    EXPECT_TRUE(r.res.blocked.empty());
    EXPECT_EQ(r.res.messages, static_cast<uint64_t>(p * (p - 1))) << "P=" << p;
    EXPECT_EQ(r.res.bytes, static_cast<uint64_t>(p * (p - 1) * 100));
  }
}

TEST(CollLinear, GatherScatterAndVVariants) {
  Fragment f;
  linear_gather(f, 2, 4, 2, 5, 7);  // root 2 receives from virtual ranks 1, 2 (= rank 0), 3
  EXPECT_EQ(show(f), "recv 7 from 1, recv 7 from 0, recv 7 from 3");
  f.clear();
  linear_gather(f, 0, 4, 2, 5, 7);
  EXPECT_EQ(show(f), "send 5 to 2");
  f.clear();
  const std::vector<Bytes> sizes{10, 20, 30, 40};
  linear_scatterv(f, 0, 4, 0, sizes, 0);
  EXPECT_EQ(show(f), "send 20 to 1, send 30 to 2, send 40 to 3");
  f.clear();
  linear_alltoallv(f, 0, 3, std::vector<Bytes>{0, 1, 2}, std::vector<Bytes>{0, 3, 4});
  EXPECT_EQ(show(f), "send 1 to 1, recv 4 from 2, send 2 to 2, recv 3 from 1");
  f.clear();
  linear_allgatherv(f, 2, 3, 9, std::vector<Bytes>{1, 2, 3});
  EXPECT_EQ(show(f), "send 9 to 0, recv 2 from 1, send 9 to 1, recv 1 from 0");

  SimRun r = simulate(4, [&](Fragment& g, RankId rank) { linear_gatherv(g, rank, 4, 1, 8 * (rank + 1), sizes); },
                   LogGOPSParams{});
  EXPECT_TRUE(r.res.blocked.empty());
  EXPECT_EQ(r.res.messages, 3u);
  EXPECT_EQ(r.res.bytes, 8u + 24u + 32u);  // what ranks 0, 2, 3 send
}

TEST(CollReduceScatter, ReduceToZeroThenScatterv) {
  const std::vector<Bytes> recv{10, 20, 30, 40};
  Fragment f;
  reduce_scatter_reduce_then_scatterv(f, 0, 4, recv, 100);
  EXPECT_EQ(show(f),
            "recv 100 from 1, recv 100 from 2, send 20 to 1, send 30 to 2, send 40 to 3; "
            "2 requires 0; 2 requires 1; 3 requires 0; 3 requires 1; 4 requires 0; 4 requires 1");
  f.clear();
  reduce_scatter_reduce_then_scatterv(f, 3, 4, recv, 100);
  EXPECT_EQ(show(f), "send 100 to 1, recv 40 from 0; 1 requires 0");

  SimRun r = simulate(4, [&](Fragment& g, RankId rank) { reduce_scatter_reduce_then_scatterv(g, rank, 4, recv, 100); },
                   latency_only(1000));
  ASSERT_TRUE(r.res.blocked.empty());
  EXPECT_EQ(r.res.messages, 6u);
  EXPECT_EQ(r.res.bytes, 3u * 100u + 20u + 30u + 40u);
  // Reduce: 3 -> 1 at 1000, 1 -> 0 at 2000 (2 -> 0 at 1000); scatter arrives at 3000.
  EXPECT_EQ(finish_ps(r.res), (std::vector<int64_t>{2000, 3000, 3000, 3000}));
}

TEST(CollFragmentRunner, RecyclesOpsAndRuns) {
  // Two dissemination rounds of 64 ranks: ops are released as they complete, runs are freed.
  SimRun r = simulate(64, [](Fragment& f, RankId rank) { dissemination(f, rank, 64, 8); }, LogGOPSParams{});
  EXPECT_TRUE(r.res.blocked.empty());
  EXPECT_EQ(r.live_runs, 0u);
  EXPECT_LE(r.pool_size, 64u * 13u);  // 12 comm ops + 1 closing calc per rank at most
}

TEST(CollFragmentRunner, DeadlockIsDescribed) {
  // Rank 1 of 2 expects a message nobody sends.
  SimRun r = simulate(2, [](Fragment& f, RankId rank) { if (rank == 1) f.recv(0, 4); }, LogGOPSParams{});
  ASSERT_EQ(r.res.blocked.size(), 1u);
  EXPECT_EQ(r.res.blocked[0].rank, 1);
  EXPECT_NE(r.res.blocked[0].waits_for.find("recv of 4 B from rank 0 tag 0 (collective) never matched by a send"), std::string::npos)
      << r.res.blocked[0].waits_for;
}

TEST(CollFragment, IrequiresReleasesOnStart) {
  // calc 0 irequires a send: both ranks finish; the calc does not wait for the send's completion.
  SimRun r = simulate(2,
                   [](Fragment& f, RankId rank) {
                     if (rank == 0) {
                       const uint32_t s = f.send(1, 100000);  // rendezvous (> S)
                       const uint32_t c = f.calc(SimTime::ps(5));
                       f.irequire(c, s);
                     } else {
                       const uint32_t c = f.calc(SimTime::ps(1000000));
                       const uint32_t rv = f.recv(0, 100000);
                       f.require(rv, c);
                     }
                   },
                   LogGOPSParams{});
  EXPECT_TRUE(r.res.blocked.empty());
}

}  // namespace
}  // namespace simfab::coll
