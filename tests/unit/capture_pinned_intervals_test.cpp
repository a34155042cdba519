// PinnedIntervals (capture/pinned_intervals.hpp): seed 004 §6 test 8, the memory-pinning interval
// set of the thesis's Appendix F, exactly its table, plus the merging rules it implies.
#include <gtest/gtest.h>

#include "capture/pinned_intervals.hpp"

namespace simfab {
namespace {

TEST(CapturePinnedIntervals, Seed004Test8Table) {
  PinnedIntervals p;
  EXPECT_EQ(p.insert(0, 100), 100u);
  EXPECT_EQ(p.insert(50, 150), 50u);
  EXPECT_EQ(p.insert(0, 150), 0u);
  EXPECT_EQ(p.insert(200, 300), 100u);
  EXPECT_EQ(p.insert(140, 210), 50u);  // merges to [0, 300]
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.insert(0, 300), 0u);
  p.flush();
  EXPECT_EQ(p.insert(0, 10), 10u);
}

TEST(CapturePinnedIntervals, ClosedOverlapMergesTouchingIntervals) {
  PinnedIntervals p;
  EXPECT_EQ(p.insert(0, 100), 100u);
  EXPECT_EQ(p.insert(100, 200), 100u);  // touches [0,100]: closed test, merged, 100 new bytes
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.insert(0, 200), 0u);
}

TEST(CapturePinnedIntervals, ChainOfIntervalsMergesAtOnce) {
  PinnedIntervals p;
  for (uint64_t a : {0, 20, 40, 60}) EXPECT_EQ(p.insert(a, a + 10), 10u);
  EXPECT_EQ(p.size(), 4u);
  EXPECT_EQ(p.insert(5, 65), 30u);  // covers the three gaps of 10 bytes
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.insert(0, 70), 0u);
}

TEST(CapturePinnedIntervals, EmptyAndContainedRanges) {
  PinnedIntervals p;
  EXPECT_EQ(p.insert(5, 5), 0u);
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(p.insert(1000, 2000), 1000u);
  EXPECT_EQ(p.insert(1200, 1300), 0u);
  EXPECT_EQ(p.insert(900, 2100), 200u);
}

}  // namespace
}  // namespace simfab
