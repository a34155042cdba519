// MPI groups (mpi/group.hpp): every operation against values worked out by hand from the
// definitions in MPI-3.1 §6.3 (quoted next to each case), the compact representation, and the
// errors an erroneous call raises.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi/call_error.hpp"
#include "mpi_test_support.hpp"
#include "mpi/group.hpp"
#include "mpi/group_builder.hpp"

namespace simfab::mpi {
namespace {

using Ranks = std::vector<int32_t>;

using testing::expect_call_error;

Group of(std::initializer_list<int32_t> world_ranks) {
  const Ranks r(world_ranks);
  return Group::from_world_ranks(r, "test");
}

TEST(MpiGroup, WorldAndEmpty) {
  const Group w = Group::world(8);
  EXPECT_EQ(w.size(), 8);
  EXPECT_TRUE(w.is_compact());
  EXPECT_EQ(w.memory_bytes(), 0u);
  EXPECT_EQ(w.world_ranks(), (Ranks{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(w.local_rank(5), 5);
  EXPECT_EQ(w.local_rank(8), kUndefined);
  EXPECT_EQ(w.local_rank(-1), kUndefined);
  const Group e;
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(e.local_rank(0), kUndefined);
  EXPECT_EQ(e, Group::world(0));
}

TEST(MpiGroup, StridedGroupTranslatesBothWays) {
  const Group g = Group::strided(10, -3, 4);  // 10, 7, 4, 1
  EXPECT_EQ(g.world_ranks(), (Ranks{10, 7, 4, 1}));
  EXPECT_EQ(g.local_rank(4), 2);
  EXPECT_EQ(g.local_rank(1), 3);
  EXPECT_EQ(g.local_rank(5), kUndefined);
  EXPECT_EQ(g.local_rank(13), kUndefined);
  EXPECT_EQ(g.local_rank(-2), kUndefined);
}

TEST(MpiGroup, BuilderStaysCompactWhileMembersFormAProgression) {
  EXPECT_TRUE(of({4, 2}).is_compact());
  EXPECT_TRUE(of({3, 5, 7, 9}).is_compact());
  EXPECT_TRUE(of({6}).is_compact());
  const Group g = of({3, 5, 7, 8});
  EXPECT_FALSE(g.is_compact());
  EXPECT_EQ(g.world_ranks(), (Ranks{3, 5, 7, 8}));
  EXPECT_EQ(g.local_rank(8), 3);
  EXPECT_EQ(g.local_rank(6), kUndefined);
  EXPECT_EQ(g.memory_bytes() > 0, true);
  GroupBuilder b;
  b.push(1);
  b.push(4);
  b.push(1);
  RankId dup = -1;
  EXPECT_FALSE(b.build(&dup).has_value());
  EXPECT_EQ(dup, 1);
  b.push(2);  // the builder is empty again after build()
  EXPECT_EQ(b.build()->world_ranks(), (Ranks{2}));
}

TEST(MpiGroup, FromWorldRanksRejectsNegativeAndRepeatedRanks) {
  expect_call_error([] { of({1, -1}); }, "test", "world rank -1 is negative");
  expect_call_error([] { of({1, 2, 1}); }, "test", "world rank 1 is given more than once");
  expect_call_error([] { of({5, 5}); }, "test", "world rank 5 is given more than once");
}

// "The process with rank i in newgroup is the process with rank ranks[i] in group."
TEST(MpiGroup, InclTakesTheRanksInTheOrderGiven) {
  const Group w = Group::world(8);
  const Group g = w.incl(Ranks{5, 1, 3});
  EXPECT_EQ(g.world_ranks(), (Ranks{5, 1, 3}));
  EXPECT_FALSE(g.is_compact());
  EXPECT_EQ(g.local_rank(1), 1);
  EXPECT_EQ(g.local_rank(3), 2);
  EXPECT_EQ(g.local_rank(0), kUndefined);
  EXPECT_TRUE(w.incl(Ranks{1, 3, 5, 7}).is_compact());
  EXPECT_TRUE(w.incl(Ranks{}).empty());
  // Ranks are the group's, not the world's: {9,7,5,3,1} then its ranks 4,0,2 = world 1, 9, 5.
  const Group odd_down = Group::world(10).incl(Ranks{9, 7, 5, 3, 1});
  EXPECT_EQ(odd_down.incl(Ranks{4, 0, 2}).world_ranks(), (Ranks{1, 9, 5}));
}

TEST(MpiGroup, InclRejectsInvalidAndRepeatedRanks) {
  const Group w = Group::world(8);
  expect_call_error([&] { w.incl(Ranks{8}); }, "MPI_Group_incl", "rank 8 is not a rank of the group (size 8)");
  expect_call_error([&] { w.incl(Ranks{-1}); }, "MPI_Group_incl", "rank -1 is not a rank");
  expect_call_error([&] { w.incl(Ranks{2, 3, 2}); }, "MPI_Group_incl", "rank 2 is given more than once");
  const Group g = w.incl(Ranks{6, 4});
  expect_call_error([&] { g.incl(Ranks{1, 1}); }, "MPI_Group_incl", "rank 1 is given more than once");
}

// "newgroup ... is obtained by deleting from group those processes with ranks ranks[0], ...
// The ordering of processes in newgroup is identical to the ordering in group."
TEST(MpiGroup, ExclKeepsTheGroupOrder) {
  const Group w = Group::world(8);
  EXPECT_EQ(w.excl(Ranks{0, 7}).world_ranks(), (Ranks{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(w.excl(Ranks{7, 0}).is_compact());
  EXPECT_EQ(w.excl(Ranks{3}).world_ranks(), (Ranks{0, 1, 2, 4, 5, 6, 7}));
  EXPECT_EQ(w.excl(Ranks{}), w);
  EXPECT_TRUE(w.excl(Ranks{0, 1, 2, 3, 4, 5, 6, 7}).empty());
  const Group g = of({5, 1, 3, 0});
  EXPECT_EQ(g.excl(Ranks{1}).world_ranks(), (Ranks{5, 3, 0}));
  EXPECT_EQ(g.excl(Ranks{3, 0}).world_ranks(), (Ranks{1, 3}));
  expect_call_error([&] { w.excl(Ranks{8}); }, "MPI_Group_excl", "rank 8 is not a rank");
  expect_call_error([&] { w.excl(Ranks{4, 1, 4}); }, "MPI_Group_excl", "rank 4 is given more than once");
}

// "If ranges consist of the triplets (first1, last1, stride1), ..., (firstn, lastn, striden), then
// newgroup consists of the sequence of processes in group with ranks first1, first1 + stride1, ...,
// first1 + floor((last1 - first1) / stride1) * stride1, ..., firstn, ..."
TEST(MpiGroup, RangeInclExpandsTripletsInOrder) {
  const Group w = Group::world(10);
  // (6,7,1): 6, 7.  (1,6,2): floor(5/2) = 2 -> 1, 3, 5.  (0,9,4): floor(9/4) = 2 -> 0, 4, 8.
  const std::vector<RankRange> three{{6, 7, 1}, {1, 6, 2}, {0, 9, 4}};
  EXPECT_EQ(w.range_incl(three).world_ranks(), (Ranks{6, 7, 1, 3, 5, 0, 4, 8}));
  EXPECT_EQ(w.range_incl(three), w.incl(Ranks{6, 7, 1, 3, 5, 0, 4, 8}));  // "equivalent to incl"
  // Negative strides: (9,0,-3): floor(-9/-3) = 3 -> 9, 6, 3, 0.  (8,1,-3): floor(-7/-3) = 2 -> 8, 5, 2.
  const std::vector<RankRange> down{{9, 0, -3}};
  EXPECT_EQ(w.range_incl(down).world_ranks(), (Ranks{9, 6, 3, 0}));
  EXPECT_TRUE(w.range_incl(down).is_compact());
  const std::vector<RankRange> down2{{8, 1, -3}};
  EXPECT_EQ(w.range_incl(down2).world_ranks(), (Ranks{8, 5, 2}));
  // first == last: one rank whatever the stride.
  const std::vector<RankRange> one{{3, 3, 5}, {4, 4, -1}};
  EXPECT_EQ(w.range_incl(one).world_ranks(), (Ranks{3, 4}));
  EXPECT_TRUE(w.range_incl(std::vector<RankRange>{}).empty());
  // On a general group the triplets select its local ranks: locals 4, 2, 0 of {7,2,5,0,3}.
  const Group g = w.incl(Ranks{7, 2, 5, 0, 3});
  const std::vector<RankRange> tri{{4, 0, -2}};
  EXPECT_EQ(g.range_incl(tri).world_ranks(), (Ranks{3, 5, 7}));
}

TEST(MpiGroup, RangeInclRejectsBadTriplets) {
  const Group w = Group::world(10);
  auto incl = [&](RankRange r) { w.range_incl(std::vector<RankRange>{r}); };
  expect_call_error([&] { incl({0, 4, 0}); }, "MPI_Group_range_incl", "triplet (0, 4, 0) has stride 0");
  expect_call_error([&] { incl({10, 4, -1}); }, "MPI_Group_range_incl", "rank 10 is not a rank of the group");
  expect_call_error([&] { incl({0, 10, 2}); }, "MPI_Group_range_incl", "rank 10 is not a rank of the group");
  expect_call_error([&] { incl({-1, 3, 1}); }, "MPI_Group_range_incl", "rank -1 is not a rank");
  expect_call_error([&] { incl({5, 2, 1}); }, "MPI_Group_range_incl", "triplet (5, 2, 1) runs away");
  expect_call_error([&] { incl({2, 5, -1}); }, "MPI_Group_range_incl", "triplet (2, 5, -1) runs away");
  // (0,4,2) = 0, 2, 4 and (4,6,1) = 4, 5, 6: rank 4 twice.
  expect_call_error([&] { w.range_incl(std::vector<RankRange>{{0, 4, 2}, {4, 6, 1}}); }, "MPI_Group_range_incl",
                    "rank 4 is given more than once");
}

TEST(MpiGroup, RangeExclRemovesTheExpandedRanks) {
  const Group w = Group::world(10);
  // (1,9,2): 1, 3, 5, 7, 9 removed.
  const Group even = w.range_excl(std::vector<RankRange>{{1, 9, 2}});
  EXPECT_EQ(even.world_ranks(), (Ranks{0, 2, 4, 6, 8}));
  EXPECT_TRUE(even.is_compact());
  // (9,0,-3): 9, 6, 3, 0 removed; the rest keep the group order.
  EXPECT_EQ(w.range_excl(std::vector<RankRange>{{9, 0, -3}}).world_ranks(), (Ranks{1, 2, 4, 5, 7, 8}));
  EXPECT_EQ(w.range_excl(std::vector<RankRange>{}), w);
  const Group g = w.incl(Ranks{7, 2, 5, 0, 3});
  EXPECT_EQ(g.range_excl(std::vector<RankRange>{{0, 4, 4}}).world_ranks(), (Ranks{2, 5, 0}));
  expect_call_error([&] { w.range_excl(std::vector<RankRange>{{0, 4, 2}, {2, 3, 1}}); }, "MPI_Group_range_excl",
                    "rank 2 is given more than once");
  expect_call_error([&] { w.range_excl(std::vector<RankRange>{{0, 4, 0}}); }, "MPI_Group_range_excl", "stride 0");
}

// "union: all elements of the first group (group1), followed by all elements of second group
// (group2) not in first. intersect: all elements of the first group that are also in the second
// group, ordered as in first group. difference: all elements of the first group that are not in
// the second group, ordered as in the first group."
TEST(MpiGroup, SetOperationsFollowTheFirstGroupsOrder) {
  const Group a = of({5, 1, 3});
  const Group b = of({3, 4, 5, 6});
  EXPECT_EQ(group_union(a, b).world_ranks(), (Ranks{5, 1, 3, 4, 6}));
  EXPECT_EQ(group_intersection(a, b).world_ranks(), (Ranks{5, 3}));
  EXPECT_EQ(group_difference(a, b).world_ranks(), (Ranks{1}));
  EXPECT_EQ(group_union(b, a).world_ranks(), (Ranks{3, 4, 5, 6, 1}));
  EXPECT_EQ(group_intersection(b, a).world_ranks(), (Ranks{3, 5}));
  EXPECT_EQ(group_difference(b, a).world_ranks(), (Ranks{4, 6}));
  const Group e;
  EXPECT_EQ(group_union(e, a), a);
  EXPECT_EQ(group_union(a, e), a);
  EXPECT_TRUE(group_intersection(a, e).empty());
  EXPECT_TRUE(group_difference(a, a).empty());
  EXPECT_EQ(group_difference(a, e), a);
  // "Neither union nor intersection are commutative, but both are associative."
  const Group c = of({6, 0, 1});
  EXPECT_EQ(group_union(group_union(a, b), c), group_union(a, group_union(b, c)));
  EXPECT_EQ(group_intersection(group_intersection(b, a), of({5, 3})),
            group_intersection(b, group_intersection(a, of({5, 3}))));
}

TEST(MpiGroup, SetOperationsOnRangesStayCompact) {
  const Group w = Group::world(8);
  const Group lo = w.incl(Ranks{0, 1, 2, 3});
  const Group hi = w.incl(Ranks{2, 3, 4, 5, 6, 7});
  const Group u = group_union(lo, hi);
  EXPECT_EQ(u, w);
  EXPECT_TRUE(u.is_compact());
  EXPECT_EQ(group_intersection(lo, hi).world_ranks(), (Ranks{2, 3}));
  EXPECT_EQ(group_difference(hi, lo).world_ranks(), (Ranks{4, 5, 6, 7}));
  EXPECT_TRUE(group_difference(hi, lo).is_compact());
}

// "MPI_IDENT results if the group members and group order is exactly the same in both groups ...
// MPI_SIMILAR results if the group members are the same but the order is different.
// MPI_UNEQUAL results otherwise."
TEST(MpiGroup, CompareIdentSimilarUnequal) {
  const Group w = Group::world(4);
  EXPECT_EQ(compare(w, w.incl(Ranks{0, 1, 2, 3})), Comparison::kIdent);
  EXPECT_EQ(compare(w, w.incl(Ranks{3, 2, 1, 0})), Comparison::kSimilar);
  EXPECT_EQ(compare(w, w.incl(Ranks{1, 0, 3, 2})), Comparison::kSimilar);
  EXPECT_EQ(compare(w, w.incl(Ranks{0, 1, 2})), Comparison::kUnequal);
  EXPECT_EQ(compare(w.incl(Ranks{0, 1}), Group::world(6).incl(Ranks{0, 5})), Comparison::kUnequal);
  EXPECT_EQ(compare(Group(), Group()), Comparison::kIdent);
  // Built differently, stored the same way: identical.
  const Group g1 = Group::world(8).incl(Ranks{5, 1, 3});
  const Group g2 = Group::world(8).range_incl(std::vector<RankRange>{{5, 5, 1}, {1, 3, 2}});
  EXPECT_EQ(compare(g1, g2), Comparison::kIdent);
  EXPECT_STREQ(comparison_name(Comparison::kCongruent), "MPI_CONGRUENT");
}

// "MPI_GROUP_TRANSLATE_RANKS ... returns MPI_UNDEFINED when no correspondence exists. MPI_PROC_NULL
// is a valid rank for input ..., which returns MPI_PROC_NULL as the translated rank."
TEST(MpiGroup, TranslateRanks) {
  const Group a = Group::world(8);
  const Group b = a.incl(Ranks{5, 1, 3});
  EXPECT_EQ(translate_ranks(a, Ranks{0, 1, 3, 5, kProcNull}, b), (Ranks{kUndefined, 1, 2, 0, kProcNull}));
  EXPECT_EQ(translate_ranks(b, Ranks{0, 1, 2}, a), (Ranks{5, 1, 3}));
  EXPECT_EQ(translate_ranks(b, Ranks{}, a), Ranks{});
  expect_call_error([&] { translate_ranks(b, Ranks{3}, a); }, "MPI_Group_translate_ranks",
                    "rank 3 is not a rank of the group (size 3)");
}

TEST(MpiGroup, FourMillionRankWorldCostsNoMemoryPerRank) {
  constexpr int32_t kN = 4194304;
  const Group w = Group::world(kN);
  EXPECT_EQ(w.memory_bytes(), 0u);
  EXPECT_LE(sizeof(Group), 32u);
  EXPECT_EQ(w.world_rank(kN - 1), kN - 1);
  EXPECT_EQ(w.local_rank(kN), kUndefined);
  // Every other rank, from the top down: one triplet of a compact group stays compact.
  const Group odd_down = w.range_incl(std::vector<RankRange>{{kN - 1, 0, -2}});
  EXPECT_TRUE(odd_down.is_compact());
  EXPECT_EQ(odd_down.size(), kN / 2);
  EXPECT_EQ(odd_down.local_rank(1), kN / 2 - 1);
  EXPECT_EQ(odd_down.local_rank(2), kUndefined);
  const Group tail = w.excl(Ranks{0});
  EXPECT_TRUE(tail.is_compact());
  EXPECT_EQ(tail.world_rank(0), 1);
  const Group copy = w;
  EXPECT_EQ(compare(copy, w), Comparison::kIdent);
  EXPECT_EQ(compare(odd_down, group_union(odd_down, odd_down)), Comparison::kIdent);
}

}  // namespace
}  // namespace simfab::mpi
