// MPI communicators (mpi/comm.hpp, mpi/comm_creation.hpp): the world, collective creation by
// rendezvous (dup, split, create) with MPI-3.1 §6.4.2 semantics, context pairs and their reuse,
// per-communicator collective tags, collective free, and the errors of inconsistent calls.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "mpi/call_error.hpp"
#include "mpi_test_support.hpp"
#include "mpi/comm.hpp"

namespace simfab::mpi {
namespace {

using Ranks = std::vector<int32_t>;

using testing::expect_call_error;

// Every member of `parent` makes the same dup call, in rank order; returns the last ticket.
CreationTicket dup_all(CommTable& t, CommId parent, CommId id) {
  CreationTicket last;
  const int32_t n = t.at(parent, "test").size();
  for (int32_t r = 0; r < n; ++r) last = t.arrive(parent, r, CreationArgs::dup(id));
  return last;
}

void free_all(CommTable& t, CommId comm) {
  const int32_t n = t.at(comm, "test").size();
  for (int32_t r = 0; r < n; ++r) EXPECT_EQ(t.free(comm, r), r == n - 1);
}

TEST(MpiComm, WorldUsesTheExecutorsContexts) {
  CommTable t(6);
  const Comm& w = t.at(kCommWorld, "test");
  EXPECT_EQ(w.id(), kCommWorld);
  EXPECT_EQ(w.size(), 6);
  EXPECT_EQ(w.p2p_context(), 0u);
  EXPECT_EQ(w.collective_context(), 1u);
  EXPECT_EQ(w.group(), Group::world(6));
  EXPECT_EQ(t.live(), 1u);
  EXPECT_EQ(t.find(1), nullptr);
  expect_call_error([&] { t.at(3, "MPI_Send"); }, "MPI_Send", "communicator 3 does not exist");
}

TEST(MpiComm, DupExistsOnlyOnceEveryMemberArrived) {
  CommTable t(4);
  for (int32_t r = 0; r < 3; ++r) {
    const CreationTicket k = t.arrive(kCommWorld, r, CreationArgs::dup(5));
    EXPECT_EQ(k.creation, 0u);
    EXPECT_EQ(k.new_comm, 5);
    EXPECT_FALSE(k.completed);
    EXPECT_EQ(t.find(5), nullptr);
    EXPECT_FALSE(t.creation_complete(kCommWorld, 0));
  }
  const CreationTicket last = t.arrive(kCommWorld, 3, CreationArgs::dup(5));
  EXPECT_TRUE(last.completed);
  EXPECT_TRUE(t.creation_complete(kCommWorld, 0));
  EXPECT_EQ(t.creations_completed(kCommWorld), 1u);
  const Comm& d = t.at(5, "test");
  EXPECT_EQ(d.group(), Group::world(4));
  EXPECT_EQ(d.p2p_context(), 2u);
  EXPECT_EQ(d.collective_context(), 3u);
  EXPECT_EQ(t.compare(kCommWorld, 5), Comparison::kCongruent);
  EXPECT_EQ(t.compare(5, 5), Comparison::kIdent);
}

// "MPI_COMM_SPLIT ... partitions the group associated with comm into disjoint subgroups, one for
// each value of color. Each subgroup contains all processes of the same color. Within each
// subgroup, the processes are ranked in the order defined by the value of the argument key, with
// ties broken according to their rank in the old group. ... A process may supply the color value
// MPI_UNDEFINED, in which case newcomm returns MPI_COMM_NULL."
TEST(MpiComm, SplitOrdersEachColourByKeyThenParentRank) {
  CommTable t(8);
  struct Call {
    int32_t color, key;
    CommId id;
  };
  const std::vector<Call> calls{{0, 5, 10}, {1, 1, 11}, {0, 5, 10}, {1, 0, 11},
                                {kUndefined, 0, kCommNull}, {0, -1, 10}, {1, 1, 11}, {2, 0, 12}};
  // Arrival order must not matter: reverse rank order.
  for (int32_t r = 7; r >= 0; --r) {
    const Call& c = calls[static_cast<size_t>(r)];
    const CreationTicket k = t.arrive(kCommWorld, r, CreationArgs::split(c.color, c.key, c.id));
    EXPECT_EQ(k.new_comm, c.color == kUndefined ? kCommNull : c.id) << r;
    EXPECT_EQ(k.completed, r == 0);
  }
  // Colour 0: ranks 0 (key 5), 2 (key 5), 5 (key -1) -> 5, 0, 2.
  EXPECT_EQ(t.at(10, "test").group().world_ranks(), (Ranks{5, 0, 2}));
  // Colour 1: ranks 1 (key 1), 3 (key 0), 6 (key 1) -> 3, 1, 6.
  EXPECT_EQ(t.at(11, "test").group().world_ranks(), (Ranks{3, 1, 6}));
  EXPECT_EQ(t.at(12, "test").group().world_ranks(), (Ranks{7}));
  // Contexts are handed out in ascending colour order.
  EXPECT_EQ(t.at(10, "test").p2p_context(), 2u);
  EXPECT_EQ(t.at(11, "test").p2p_context(), 4u);
  EXPECT_EQ(t.at(12, "test").p2p_context(), 6u);
  EXPECT_EQ(t.live(), 4u);

  // Split of a sub-communicator: its local ranks, keys reversing them: 5,0,2 -> 2,0,5.
  for (int32_t r = 0; r < 3; ++r) t.arrive(10, r, CreationArgs::split(7, -r, 20));
  EXPECT_EQ(t.at(20, "test").group().world_ranks(), (Ranks{2, 0, 5}));
  EXPECT_EQ(t.compare(10, 20), Comparison::kSimilar);
  EXPECT_EQ(t.compare(10, 11), Comparison::kUnequal);
}

TEST(MpiComm, SplitWithEveryColourUndefinedMakesNothing) {
  CommTable t(3);
  CreationTicket k;
  for (int32_t r = 0; r < 3; ++r) k = t.arrive(kCommWorld, r, CreationArgs::split(kUndefined, r, kCommNull));
  EXPECT_TRUE(k.completed);
  EXPECT_EQ(k.new_comm, kCommNull);
  EXPECT_EQ(t.live(), 1u);
}

TEST(MpiComm, SplitByParityMakesCompactGroups) {
  constexpr int32_t kN = 1 << 20;
  CommTable t(kN);
  for (int32_t r = 0; r + 1 < kN; ++r) t.arrive(kCommWorld, r, CreationArgs::split(r % 2, 0, 1 + r % 2));
  // Pending: the world's creation counters (8 B per member) and the split's entries (8 B each).
  EXPECT_GE(t.memory_bytes(), 16u * kN);
  EXPECT_TRUE(t.arrive(kCommWorld, kN - 1, CreationArgs::split(1, 0, 2)).completed);
  EXPECT_LT(t.memory_bytes(), 8u * kN + 4096u);  // the split's state is gone; the counters stay
  EXPECT_TRUE(t.at(1, "test").group().is_compact());
  EXPECT_EQ(t.at(2, "test").group(), Group::strided(1, 2, kN / 2));
  EXPECT_EQ(t.at(1, "test").group().memory_bytes(), 0u);
}

// "MPI_COMM_CREATE ... returns a new communicator with communication group defined by group ...
// MPI_COMM_NULL is returned to processes not in group."
TEST(MpiComm, CreateGivesTheGroupToItsMembersOnly) {
  CommTable t(6);
  const Ranks group{4, 2, 0};
  for (int32_t r = 0; r < 6; ++r) {
    const CreationTicket k = t.arrive(kCommWorld, r, CreationArgs::create(group, r % 2 == 0 ? 7 : kCommNull));
    EXPECT_EQ(k.new_comm, r % 2 == 0 ? 7 : kCommNull);
  }
  EXPECT_EQ(t.at(7, "test").group().world_ranks(), (Ranks{4, 2, 0}));
  // Create on the new communicator: its local ranks 2 and 1 = world 0 and 2.
  for (int32_t r = 0; r < 3; ++r) t.arrive(7, r, CreationArgs::create(Ranks{2, 1}, 8));
  EXPECT_EQ(t.at(8, "test").group().world_ranks(), (Ranks{0, 2}));
  // An empty group: everybody gets MPI_COMM_NULL.
  CreationTicket k;
  for (int32_t r = 0; r < 6; ++r) k = t.arrive(kCommWorld, r, CreationArgs::create(Ranks{}, kCommNull));
  EXPECT_TRUE(k.completed);
  EXPECT_EQ(t.live(), 3u);
}

TEST(MpiComm, CreateRequiresTheSameValidGroupEverywhere) {
  CommTable t(4);
  t.arrive(kCommWorld, 0, CreationArgs::create(Ranks{1, 0}, 3));
  t.arrive(kCommWorld, 1, CreationArgs::create(Ranks{1, 0}, 3));
  expect_call_error([&] { t.arrive(kCommWorld, 2, CreationArgs::create(Ranks{0, 1}, kCommNull)); }, "MPI_Comm_create",
                    "rank 2 passes a group that differs from rank 0's (position 0: rank 0, not 1)");
  CommTable u(4);
  u.arrive(kCommWorld, 3, CreationArgs::create(Ranks{1, 0}, 3));
  expect_call_error([&] { u.arrive(kCommWorld, 0, CreationArgs::create(Ranks{1}, 3)); }, "MPI_Comm_create",
                    "rank 0 passes a group that differs from rank 3's (1 ranks, not 2)");
  CommTable v(4);
  expect_call_error([&] { v.arrive(kCommWorld, 0, CreationArgs::create(Ranks{1, 4}, 3)); }, "MPI_Comm_create",
                    "rank 0's group: rank 4 is not a rank of the group (size 4)");
  CommTable w(4);
  expect_call_error([&] { w.arrive(kCommWorld, 0, CreationArgs::create(Ranks{1, 1}, 3)); }, "MPI_Comm_create",
                    "rank 1 is given more than once");
  CommTable x(4);
  x.arrive(kCommWorld, 0, CreationArgs::create(Ranks{0, 1}, 3));
  expect_call_error([&] { x.arrive(kCommWorld, 1, CreationArgs::create(Ranks{0, 1}, 4)); }, "MPI_Comm_create",
                    "rank 1 gives id 4 to the new communicator, rank 0 gave 3");
}

TEST(MpiComm, CreationErrorsNameTheMemberThatDisagrees) {
  {
    CommTable t(3);
    t.arrive(kCommWorld, 0, CreationArgs::dup(5));
    expect_call_error([&] { t.arrive(kCommWorld, 1, CreationArgs::dup(6)); }, "MPI_Comm_dup",
                      "rank 1 gives id 6 to the new communicator, rank 0 gave 5 (creation #0 on communicator 0)");
  }
  {
    CommTable t(3);
    t.arrive(kCommWorld, 0, CreationArgs::split(0, 0, 5));
    expect_call_error([&] { t.arrive(kCommWorld, 1, CreationArgs::dup(5)); }, "MPI_Comm_dup",
                      "rank 1 calls MPI_Comm_dup where rank 0 called MPI_Comm_split");
  }
  {
    CommTable t(3);
    t.arrive(kCommWorld, 0, CreationArgs::split(0, 0, 5));
    expect_call_error([&] { t.arrive(kCommWorld, 1, CreationArgs::split(1, 0, 5)); }, "MPI_Comm_split",
                      "colours 0 and 1 both give id 5 (rank 0 and rank 1)");
  }
  {
    CommTable t(3);
    t.arrive(kCommWorld, 0, CreationArgs::split(2, 0, 5));
    expect_call_error([&] { t.arrive(kCommWorld, 2, CreationArgs::split(2, 0, 6)); }, "MPI_Comm_split",
                      "rank 2 gives id 6 to the new communicator, rank 0 gave 5");
  }
  {
    CommTable t(3);
    expect_call_error([&] { t.arrive(kCommWorld, 0, CreationArgs::split(-3, 0, 5)); }, "MPI_Comm_split",
                      "rank 0 gives colour -3");
    expect_call_error([&] { t.arrive(kCommWorld, 1, CreationArgs::split(0, 0, kCommNull)); }, "MPI_Comm_split",
                      "rank 1 gets a communicator but gives id -1");
  }
  {
    CommTable t(2);
    expect_call_error([&] { t.arrive(4, 0, CreationArgs::dup(5)); }, "MPI_Comm_dup", "communicator 4 does not exist");
    expect_call_error([&] { t.arrive(kCommWorld, 2, CreationArgs::dup(5)); }, "MPI_Comm_dup",
                      "rank 2 is not a rank of communicator 0 (size 2)");
  }
}

TEST(MpiComm, IdsInUseAreRejectedWhenTheCreationCompletes) {
  CommTable t(2);
  t.arrive(kCommWorld, 0, CreationArgs::dup(kCommWorld));
  expect_call_error([&] { t.arrive(kCommWorld, 1, CreationArgs::dup(kCommWorld)); }, "MPI_Comm_dup",
                    "communicator id 0 is already in use (creation #0 on communicator 0)");
  CommTable u(2);
  dup_all(u, kCommWorld, 3);
  u.arrive(kCommWorld, 0, CreationArgs::split(0, 0, 3));
  expect_call_error([&] { u.arrive(kCommWorld, 1, CreationArgs::split(1, 0, 4)); }, "MPI_Comm_split",
                    "communicator id 3 is already in use (creation #1");
}

TEST(MpiComm, EachMembersKthCallJoinsCreationK) {
  CommTable t(2);
  // Rank 0 runs ahead through two creations before rank 1 makes any.
  EXPECT_EQ(t.arrive(kCommWorld, 0, CreationArgs::dup(5)).creation, 0u);
  EXPECT_EQ(t.arrive(kCommWorld, 0, CreationArgs::split(0, 1, 6)).creation, 1u);
  EXPECT_EQ(t.creations_completed(kCommWorld), 0u);
  const CreationTicket a = t.arrive(kCommWorld, 1, CreationArgs::dup(5));
  EXPECT_TRUE(a.completed);
  EXPECT_EQ(a.creation, 0u);
  EXPECT_TRUE(t.creation_complete(kCommWorld, 0));
  EXPECT_FALSE(t.creation_complete(kCommWorld, 1));
  const CreationTicket b = t.arrive(kCommWorld, 1, CreationArgs::split(0, 0, 6));
  EXPECT_TRUE(b.completed);
  EXPECT_EQ(b.creation, 1u);
  EXPECT_EQ(t.at(6, "test").group().world_ranks(), (Ranks{1, 0}));
  // Creations on another parent have their own sequence.
  EXPECT_EQ(t.arrive(5, 1, CreationArgs::dup(7)).creation, 0u);
}

TEST(MpiComm, FreeIsCollectiveAndReleasesTheLowestContextsFirst) {
  CommTable t(3);
  dup_all(t, kCommWorld, 5);  // pair 1
  dup_all(t, kCommWorld, 6);  // pair 2
  dup_all(t, kCommWorld, 7);  // pair 3
  EXPECT_EQ(t.at(7, "test").p2p_context(), 6u);
  EXPECT_FALSE(t.free(6, 2));
  EXPECT_NE(t.find(6), nullptr);  // still live until every member has freed it
  EXPECT_FALSE(t.free(6, 0));
  EXPECT_TRUE(t.free(6, 1));
  EXPECT_EQ(t.find(6), nullptr);
  dup_all(t, kCommWorld, 6);  // the id is free again, and takes pair 2 back
  EXPECT_EQ(t.at(6, "test").p2p_context(), 4u);
  dup_all(t, kCommWorld, 8);  // pair 4
  EXPECT_EQ(t.at(8, "test").p2p_context(), 8u);
  free_all(t, 7);
  free_all(t, 5);
  dup_all(t, kCommWorld, 9);  // lowest free pair: 1 (5's), not 3 (7's)
  EXPECT_EQ(t.at(9, "test").p2p_context(), 2u);
  dup_all(t, kCommWorld, 10);
  EXPECT_EQ(t.at(10, "test").p2p_context(), 6u);
}

TEST(MpiComm, FreeErrors) {
  CommTable t(2);
  expect_call_error([&] { t.free(kCommWorld, 0); }, "MPI_Comm_free", "MPI_COMM_WORLD cannot be freed");
  expect_call_error([&] { t.free(3, 0); }, "MPI_Comm_free", "communicator 3 does not exist");
  dup_all(t, kCommWorld, 3);
  t.free(3, 1);
  expect_call_error([&] { t.free(3, 1); }, "MPI_Comm_free", "rank 1 frees communicator 3 twice");
  expect_call_error([&] { t.arrive(3, 1, CreationArgs::dup(4)); }, "MPI_Comm_dup", "rank 1 has freed communicator 3");
  t.arrive(3, 0, CreationArgs::dup(4));  // rank 1 never makes this call
  expect_call_error([&] { t.free(3, 0); }, "MPI_Comm_free",
                    "communicator 3 is freed by all its members while creation #0 on it is incomplete");
}

TEST(MpiComm, LiveContextsAreAlwaysDistinctAndLowestFirst) {
  CommTable t(5);
  std::vector<CommId> live;
  std::set<uint32_t> held;  // the reference model: context pairs of the live communicators
  auto expect_lowest = [&](CommId id) {
    uint32_t k = 1;
    while (held.count(k)) ++k;
    EXPECT_EQ(t.at(id, "test").p2p_context(), 2 * k) << "communicator " << id;
    held.insert(k);
  };
  uint32_t lcg = 12345;
  auto next = [&] { return (lcg = lcg * 1103515245u + 12345u) >> 16; };
  CommId next_id = 1;
  for (int step = 0; step < 300; ++step) {
    if (!live.empty() && next() % 3 == 0) {
      const size_t i = next() % live.size();
      held.erase(t.at(live[i], "test").p2p_context() / 2);
      free_all(t, live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (next() % 2 == 0) {  // split the world in two colours: contexts in colour order
      for (int32_t r = 0; r < 5; ++r) t.arrive(kCommWorld, r, CreationArgs::split(r % 2, 0, next_id + r % 2));
      for (CommId id : {next_id, next_id + 1}) {
        expect_lowest(id);
        live.push_back(id);
      }
      next_id += 2;
    } else {  // dup a live communicator
      const CommId parent = live.empty() ? kCommWorld : live[next() % live.size()];
      dup_all(t, parent, next_id);
      expect_lowest(next_id);
      live.push_back(next_id++);
    }
    std::set<uint32_t> contexts{0, 1};
    for (CommId id : live) {
      const Comm& c = t.at(id, "test");
      EXPECT_EQ(c.p2p_context() % 2, 0u);
      EXPECT_EQ(c.collective_context(), c.p2p_context() + 1);
      EXPECT_TRUE(contexts.insert(c.p2p_context()).second) << "step " << step;
      EXPECT_TRUE(contexts.insert(c.collective_context()).second) << "step " << step;
    }
    EXPECT_EQ(t.live(), live.size() + 1);
  }
}

TEST(MpiComm, CollectiveTagsCountPerMemberAndCommunicator) {
  CommTable t(3);
  dup_all(t, kCommWorld, 4);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 0), 0);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 0), 1);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 0), 2);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 2), 0);  // member 2's first collective matches member 0's
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 2), 1);
  EXPECT_EQ(t.next_collective_tag(4, 0), 0);  // another communicator, another sequence
  EXPECT_EQ(t.next_collective_tag(4, 1), 0);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 1), 0);
  // Creations do not consume collective tags (and vice versa).
  dup_all(t, kCommWorld, 5);
  EXPECT_EQ(t.next_collective_tag(kCommWorld, 0), 3);
  expect_call_error([&] { t.next_collective_tag(kCommWorld, 3); }, "collective",
                    "rank 3 is not a rank of communicator 0");
}

TEST(MpiComm, FourMillionRankWorldCostsConstantMemory) {
  constexpr int32_t kN = 4194304;
  CommTable t(kN);
  EXPECT_LT(t.memory_bytes(), 1024u);
  const Comm& w = t.at(kCommWorld, "test");
  EXPECT_EQ(w.size(), kN);
  EXPECT_TRUE(w.group().is_compact());
  EXPECT_EQ(w.group().local_rank(kN - 1), kN - 1);
  // The per-member counters appear with the first collective: 8 B per member from then on.
  t.next_collective_tag(kCommWorld, 7);
  EXPECT_LT(t.memory_bytes(), 8u * kN + 1024u);
}

}  // namespace
}  // namespace simfab::mpi
