// Rooted collectives and tree barriers (bcast_algorithms, reduce_algorithms,
// gather_scatter_algorithms, barrier_algorithms, tree_shapes): every algorithm computes its
// collective (check_collective) for every communicator size 1-33 and roots 0, P-1, P/2, with
// radix 2, 3, 4 and 1, 3, 8 segments; message counts and volumes match the closed forms of the
// headers; reductions charge (reduce receives) x bytes x cost of calc.
#include <gtest/gtest.h>

#include <bit>
#include <functional>

#include "mpi/coll/barrier_algorithms.hpp"
#include "mpi/coll/bcast_algorithms.hpp"
#include "mpi/coll/check.hpp"
#include "mpi/coll/gather_scatter_algorithms.hpp"
#include "mpi/coll/reduce_algorithms.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {
namespace {

constexpr Bytes kN = 1000;  // not a multiple of most P and S: exercises share()'s remainders

std::vector<RankId> roots(int p) {
  std::vector<RankId> r{0};
  if (p > 1) r.push_back(p - 1);
  if (p > 2) r.push_back(p / 2);
  return r;
}

uint64_t u(int64_t x) { return static_cast<uint64_t>(x); }
int log2_floor(int p) { return std::bit_width(static_cast<unsigned>(p)) - 1; }

// Sum of calc picoseconds and of reduce-receive bytes in one rank's fragment.
struct Charged {
  uint64_t calc_ps = 0;
  Bytes reduce_bytes = 0;
  uint32_t reduce_recvs = 0;
};
Charged charged(const Fragment& f) {
  Charged c;
  for (const FragOp& op : f.ops()) {
    if (op.kind == OpKind::kCalc) c.calc_ps += op.amount;
    if (op.kind == OpKind::kRecv && op.combine == Combine::kReduce) {
      c.reduce_bytes += op.amount;
      ++c.reduce_recvs;
    }
  }
  return c;
}

// Runs `gen` through the checker for every size 1-33 and root 0, P-1, P/2 with k segments per
// block (k = 0: k = P); `expect(report, p)` checks the closed forms.
using Gen = std::function<void(Fragment&, RankId rank, int p, RankId root)>;
using Expect = std::function<void(const CheckReport&, int p)>;
void every_size(CollKind kind, uint32_t k, const Gen& gen, const Expect& expect, const std::string& what) {
  for (int p = 1; p <= 33; ++p)
    for (RankId root : roots(p)) {
      CheckReport r = check_collective(kind, p, root, k ? k : static_cast<uint32_t>(p),
                                       [&](Fragment& f, RankId rank) { gen(f, rank, p, root); });
      ASSERT_EQ(r.error, "") << what << " p=" << p << " root=" << root;
      expect(r, p);
    }
}

// The depth of the k-nomial tree: the most non-zero base-k digits of a vrank below P.
int knomial_depth(int p, int radix) {
  int best = 0;
  for (int v = 0; v < p; ++v) {
    int s = 0;
    for (int x = v; x > 0; x /= radix) s += x % radix != 0;
    best = std::max(best, s);
  }
  return best;
}

TEST(CollRooted, TreeShapesAreTreesOnEverySize) {
  // Every non-root's parent lists it as a child, and every rank is reached from the root.
  for (int p = 1; p <= 33; ++p)
    for (RankId root : roots(p))
      for (TreeSpec spec : {TreeSpec{TreeShape::kFlat, 1}, TreeSpec{TreeShape::kKnomial, 2}, TreeSpec{TreeShape::kKnomial, 3},
                            TreeSpec{TreeShape::kKary, 2}, TreeSpec{TreeShape::kKary, 3}, TreeSpec{TreeShape::kChain, 1},
                            TreeSpec{TreeShape::kChain, 3}}) {
        std::vector<TreeNode> nodes(static_cast<size_t>(p));
        for (RankId r = 0; r < p; ++r) tree_node(spec, r, p, root, nodes[static_cast<size_t>(r)]);
        int edges = 0;
        for (RankId r = 0; r < p; ++r) {
          const TreeNode& n = nodes[static_cast<size_t>(r)];
          EXPECT_EQ(n.parent < 0, r == root);
          for (RankId c : n.children) {
            EXPECT_EQ(nodes[static_cast<size_t>(c)].parent, r) << "p=" << p << " root=" << root;
            ++edges;
          }
        }
        EXPECT_EQ(edges, p - 1);
      }
  // The in-order binomial tree: subtrees are contiguous vrank runs.
  EXPECT_EQ(knomial_subtree(0, 13, 2), 13);
  EXPECT_EQ(knomial_subtree(8, 13, 2), 5);
  EXPECT_EQ(knomial_subtree(4, 13, 2), 4);
  EXPECT_EQ(knomial_subtree(6, 13, 2), 2);
  EXPECT_EQ(knomial_subtree(3, 13, 3), 3);
}

TEST(CollRooted, LinearBcastAndReduce) {
  every_size(CollKind::kBcast, 1, [](Fragment& f, RankId r, int p, RankId root) { linear_bcast(f, r, p, root, kN); },
             [](const CheckReport& c, int p) {
               EXPECT_EQ(c.messages, u(p - 1));
               EXPECT_EQ(c.bytes, u(p - 1) * kN);
               EXPECT_EQ(c.rounds, p > 1 ? 1u : 0u);
             }, "linear_bcast");
  every_size(CollKind::kReduce, 1, [](Fragment& f, RankId r, int p, RankId root) { linear_reduce(f, r, p, root, kN); },
             [](const CheckReport& c, int p) {
               EXPECT_EQ(c.messages, u(p - 1));
               EXPECT_EQ(c.bytes, u(p - 1) * kN);
             }, "linear_reduce");
}

TEST(CollRooted, KnomialBcastAndReduceEveryRadixAndSegmentCount) {
  for (int radix : {2, 3, 4})
    for (uint32_t segs : {1u, 3u, 8u}) {
      const std::string what = "radix " + std::to_string(radix) + " segments " + std::to_string(segs);
      const auto expect = [&](const CheckReport& c, int p) {
        EXPECT_EQ(c.messages, u(p - 1) * segs) << what;
        EXPECT_EQ(c.bytes, u(p - 1) * kN) << what;
        // Hops on the critical path: the tree's depth, whatever S (each piece only waits for itself).
        EXPECT_EQ(c.rounds, static_cast<uint32_t>(knomial_depth(p, radix))) << what << " p=" << p;
      };
      every_size(CollKind::kBcast, segs,
                 [&](Fragment& f, RankId r, int p, RankId root) { knomial_bcast(f, r, p, root, kN, radix, segs); },
                 expect, "knomial_bcast " + what);
      every_size(CollKind::kReduce, segs,
                 [&](Fragment& f, RankId r, int p, RankId root) { knomial_reduce(f, r, p, root, kN, radix, segs); },
                 expect, "knomial_reduce " + what);
    }
}

TEST(CollRooted, BinaryBcastAndReduceSegmented) {
  for (uint32_t segs : {1u, 3u, 8u}) {
    const auto expect = [&](const CheckReport& c, int p) {
      EXPECT_EQ(c.messages, u(p - 1) * segs);
      EXPECT_EQ(c.bytes, u(p - 1) * kN);
      EXPECT_EQ(c.rounds, static_cast<uint32_t>(log2_floor(p))) << "p=" << p;
    };
    every_size(CollKind::kBcast, segs,
               [&](Fragment& f, RankId r, int p, RankId root) { binary_bcast(f, r, p, root, kN, segs); }, expect,
               "binary_bcast");
    every_size(CollKind::kReduce, segs,
               [&](Fragment& f, RankId r, int p, RankId root) { binary_reduce(f, r, p, root, kN, segs); }, expect,
               "binary_reduce");
  }
}

TEST(CollRooted, ChainBcastAndReducePipelined) {
  for (uint32_t segs : {1u, 3u, 8u})
    for (int chains : {1, 2, 4}) {
      const auto expect = [&](const CheckReport& c, int p) {
        EXPECT_EQ(c.messages, u(p - 1) * segs);  // (P-1) S
        EXPECT_EQ(c.bytes, u(p - 1) * kN);
        const uint32_t longest = static_cast<uint32_t>((p - 1 + chains - 1) / chains);  // ceil((P-1)/c)
        EXPECT_EQ(c.rounds, longest) << "p=" << p << " chains=" << chains;
      };
      every_size(CollKind::kBcast, segs,
                 [&](Fragment& f, RankId r, int p, RankId root) { chain_bcast(f, r, p, root, kN, segs, chains); },
                 expect, "chain_bcast");
      every_size(CollKind::kReduce, segs,
                 [&](Fragment& f, RankId r, int p, RankId root) { chain_reduce(f, r, p, root, kN, segs, chains); },
                 expect, "chain_reduce");
    }
}

TEST(CollRooted, SplitBinaryBcast) {
  for (uint32_t segs : {1u, 3u, 8u})
    every_size(CollKind::kBcast, 2 * segs,
               [&](Fragment& f, RankId r, int p, RankId root) { split_binary_bcast(f, r, p, root, kN, segs); },
               [&](const CheckReport& c, int p) {
                 EXPECT_EQ(c.messages, u(p - 1) * (segs + 1));  // each non-root: S pieces of its half + the other half
                 EXPECT_EQ(c.bytes, u(p - 1) * kN);
               }, "split_binary_bcast");
}

TEST(CollRooted, ScatterAllgatherBcast) {
  every_size(CollKind::kBcast, 0,
             [](Fragment& f, RankId r, int p, RankId root) { scatter_allgather_bcast(f, r, p, root, kN); },
             [](const CheckReport& c, int p) {
               EXPECT_EQ(c.messages, u(p) * u(p) - 1);  // P-1 scatter + P(P-1) ring
               EXPECT_GE(c.bytes, u(p - 1) * kN);
             }, "scatter_allgather_bcast");
  // Volume n log2(P) / 2 + (P-1) n for P = 2^m dividing n.
  for (int p : {1, 2, 4, 8, 16, 32}) {
    const Bytes n = 64 * 32;
    CheckReport c = check_collective(CollKind::kBcast, p, p / 2, static_cast<uint32_t>(p),
                                     [&](Fragment& f, RankId r) { scatter_allgather_bcast(f, r, p, p / 2, n); });
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.bytes, n * u(log2_floor(p)) / 2 + u(p - 1) * n) << "p=" << p;
  }
}

TEST(CollRooted, RabenseifnerReduce) {
  for (int p = 1; p <= 33; ++p)
    for (RankId root : roots(p)) {
      const int q = rabenseifner_chunks(p), rem = p - q, lg = log2_floor(q);
      const bool excluded = root < 2 * rem && root % 2 == 1;
      const Bytes n = 64 * 32;  // a multiple of every Q
      CheckReport c = check_collective(CollKind::kReduce, p, root, static_cast<uint32_t>(q),
                                       [&](Fragment& f, RankId r) { rabenseifner_reduce(f, r, p, root, n); });
      ASSERT_EQ(c.error, "") << "p=" << p << " root=" << root;
      EXPECT_EQ(c.messages, u(rem) + u(q) * u(lg) + u(q - 1) + (excluded ? 1 : 0)) << "p=" << p;
      EXPECT_EQ(c.bytes, u(rem) * n + u(q - 1) * n + n * u(lg) / 2 + (excluded ? n : 0)) << "p=" << p;
      // Reduction cost: the fold reduces n, halving n/2 + n/4 + .. + n/Q on each of the Q ranks.
      for (RankId r = 0; r < p; ++r) {
        Fragment f;
        rabenseifner_reduce(f, r, p, root, n, ReduceCost{3});
        const Charged ch = charged(f);
        const bool folded = r < 2 * rem && r % 2 == 0, out = r < 2 * rem && r % 2 == 1;
        EXPECT_EQ(ch.reduce_bytes, out ? 0 : (folded ? n : 0) + n - n / u(q)) << "p=" << p << " rank " << r;
        EXPECT_EQ(ch.calc_ps, ch.reduce_bytes * 3);
      }
    }
  for (int p : {5, 12, 33})  // any n: share() cuts the chunks unevenly
    for (RankId root : roots(p))
      EXPECT_EQ(check_collective(CollKind::kReduce, p, root, static_cast<uint32_t>(rabenseifner_chunks(p)),
                                 [&](Fragment& f, RankId r) { rabenseifner_reduce(f, r, p, root, kN); })
                    .error,
                "");
}

Bytes binomial_run_volume(int p, Bytes block) {
  Bytes total = 0;
  for (int v = 1; v < p; ++v) total += block * static_cast<Bytes>(knomial_subtree(v, p, 2));
  return total;
}

TEST(CollRooted, BinomialGatherAndScatter) {
  constexpr Bytes kBlock = 24;
  const auto expect = [](const CheckReport& c, int p) {
    EXPECT_EQ(c.messages, u(p - 1));
    EXPECT_EQ(c.bytes, binomial_run_volume(p, kBlock));
    if (std::has_single_bit(static_cast<unsigned>(p))) {
      EXPECT_EQ(c.bytes, kBlock * u(p / 2) * u(log2_floor(p)));  // b (P/2) log2 P
    }
    EXPECT_EQ(c.rounds, static_cast<uint32_t>(log2_floor(p)));  // the deepest vrank: floor(log2 P) one bits
  };
  every_size(CollKind::kGather, 1, [](Fragment& f, RankId r, int p, RankId root) { binomial_gather(f, r, p, root, kBlock); },
             expect, "binomial_gather");
  every_size(CollKind::kScatter, 1,
             [](Fragment& f, RankId r, int p, RankId root) { binomial_scatter(f, r, p, root, kBlock); }, expect,
             "binomial_scatter");
}

TEST(CollRooted, LinearSyncGather) {
  for (Bytes first : {Bytes{0}, Bytes{10}, Bytes{24}, Bytes{100}})
    every_size(CollKind::kGather, 2,
               [&](Fragment& f, RankId r, int p, RankId root) { linear_sync_gather(f, r, p, root, 24, first); },
               [](const CheckReport& c, int p) {
                 EXPECT_EQ(c.messages, 3 * u(p - 1));
                 EXPECT_EQ(c.bytes, 24 * u(p - 1));
               }, "linear_sync_gather");
}

TEST(CollRooted, Barriers) {
  every_size(CollKind::kBarrier, 1, [](Fragment& f, RankId r, int p, RankId) { tree_barrier(f, r, p); },
             [](const CheckReport& c, int p) {
               EXPECT_EQ(c.messages, 2 * u(p - 1));
               EXPECT_EQ(c.bytes, 0u);
               EXPECT_EQ(c.rounds, 2 * static_cast<uint32_t>(log2_floor(p)));
             }, "tree_barrier");
  every_size(CollKind::kBarrier, 1, [](Fragment& f, RankId r, int p, RankId) { recursive_doubling_barrier(f, r, p); },
             [](const CheckReport& c, int p) {
               const int q = 1 << log2_floor(p);
               EXPECT_EQ(c.messages, u(q) * u(log2_floor(q)) + 2 * u(p - q)) << "p=" << p;
               EXPECT_LE(c.rounds, static_cast<uint32_t>(log2_floor(q)) + (p > q ? 2u : 0u)) << "p=" << p;
               if (p == q) {
                 EXPECT_EQ(c.messages, u(p) * u(log2_floor(p)));  // P log2 P
                 EXPECT_EQ(c.rounds, static_cast<uint32_t>(log2_floor(p)));
               }
             }, "recursive_doubling_barrier");
  every_size(CollKind::kBarrier, 1, [](Fragment& f, RankId r, int p, RankId) { double_ring_barrier(f, r, p); },
             [](const CheckReport& c, int p) {
               EXPECT_EQ(c.messages, p > 1 ? 2 * u(p) : 0u);
               EXPECT_EQ(c.rounds, p > 1 ? 2 * static_cast<uint32_t>(p) : 0u);
             }, "double_ring_barrier");
}

TEST(CollRooted, ReductionChargesBytesTimesCostPerReduceReceive) {
  const ReduceCost cost{7};
  using ReduceGen = std::function<void(Fragment&, RankId, int, RankId, uint32_t)>;
  const std::vector<std::pair<std::string, ReduceGen>> gens = {
      {"linear", [&](Fragment& f, RankId r, int p, RankId root, uint32_t) { linear_reduce(f, r, p, root, kN, cost); }},
      {"knomial3", [&](Fragment& f, RankId r, int p, RankId root, uint32_t s) { knomial_reduce(f, r, p, root, kN, 3, s, cost); }},
      {"binary", [&](Fragment& f, RankId r, int p, RankId root, uint32_t s) { binary_reduce(f, r, p, root, kN, s, cost); }},
      {"chain", [&](Fragment& f, RankId r, int p, RankId root, uint32_t s) { chain_reduce(f, r, p, root, kN, s, 1, cost); }},
  };
  for (const auto& [name, gen] : gens)
    for (uint32_t segs : {1u, 3u, 8u})
      for (int p : {1, 2, 5, 8, 13, 33})
        for (RankId root : roots(p)) {
          const uint32_t k = name == "linear" ? 1 : segs;
          CheckReport c = check_collective(CollKind::kReduce, p, root, k,
                                           [&](Fragment& f, RankId r) { gen(f, r, p, root, segs); });
          ASSERT_EQ(c.error, "") << name << " p=" << p;
          uint32_t receives = 0;
          for (RankId r = 0; r < p; ++r) {
            Fragment f;
            gen(f, r, p, root, segs);
            const Charged ch = charged(f);
            receives += ch.reduce_recvs;
            EXPECT_EQ(ch.reduce_recvs % k, 0u);
            // (reduce receives of whole buffers) x bytes x cost; a segmented receive charges its piece.
            EXPECT_EQ(ch.calc_ps, (ch.reduce_recvs / k) * kN * 7) << name << " p=" << p << " rank " << r;
            EXPECT_EQ(ch.calc_ps, ch.reduce_bytes * 7);
          }
          EXPECT_EQ(receives, u(p - 1) * k);
        }
}

TEST(CollRooted, CheckerRejectsAWrongRootOrAMissingPhase) {
  // The checks above are not vacuous: the same generators fail for another collective's definition.
  EXPECT_NE(check_collective(CollKind::kBcast, 9, 1, 2, [](Fragment& f, RankId r) { binary_bcast(f, r, 9, 0, kN, 2); }).error,
            "");
  EXPECT_NE(check_collective(CollKind::kAllreduce, 9, 0, 1, [](Fragment& f, RankId r) { knomial_reduce(f, r, 9, 0, kN, 3); })
                .error,
            "");
  // The scatter phase alone is not a bcast.
  EXPECT_NE(check_collective(CollKind::kBcast, 9, 0, 9,
                             [](Fragment& f, RankId r) {
                               binomial_blocks(f, r, 9, 0, kN, BlockFlow::kScatter, BlockNaming::kChunks);
                             })
                .error,
            "");
}

TEST(CollRooted, KnomialRadixTwoIsTheBinomialShape) {
  // The in-order binomial: the root of 8 sends to 4, 2, 1 (largest subtree first); 6's parent is 4.
  TreeNode n;
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, 0, 8, 0, n);
  EXPECT_EQ(n.children, (std::vector<RankId>{4, 2, 1}));
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, 6, 8, 0, n);
  EXPECT_EQ(n.parent, 4);
  EXPECT_EQ(n.children, (std::vector<RankId>{7}));
  // Rotation: root 3 of 8, rank 2 is vrank 7, whose parent is vrank 6 = rank 1.
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, 2, 8, 3, n);
  EXPECT_EQ(n.parent, 1);
  // Radix 3 on 9 ranks: the root sends to 3, 6 then 1, 2.
  tree_node(TreeSpec{TreeShape::kKnomial, 3}, 0, 9, 0, n);
  EXPECT_EQ(n.children, (std::vector<RankId>{3, 6, 1, 2}));
  // OpenMPI's binary tree: 1 -> 3, 5; 2 -> 4, 6; 3's parent 1, 4's parent 2.
  tree_node(TreeSpec{TreeShape::kKary, 2}, 1, 7, 0, n);
  EXPECT_EQ(n.children, (std::vector<RankId>{3, 5}));
  tree_node(TreeSpec{TreeShape::kKary, 2}, 4, 7, 0, n);
  EXPECT_EQ(n.parent, 2);
  // Chains: 10 ranks, 3 chains of 3: heads 1, 4, 7.
  tree_node(TreeSpec{TreeShape::kChain, 3}, 0, 10, 0, n);
  EXPECT_EQ(n.children, (std::vector<RankId>{1, 4, 7}));
  tree_node(TreeSpec{TreeShape::kChain, 3}, 4, 10, 0, n);
  EXPECT_EQ(n.parent, 0);
  tree_node(TreeSpec{TreeShape::kChain, 3}, 6, 10, 0, n);
  EXPECT_EQ(n.parent, 5);
  EXPECT_TRUE(n.children.empty());
}

}  // namespace
}  // namespace simfab::coll
