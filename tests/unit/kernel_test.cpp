// Kernel: event order (time, priority, sequence), units, configuration registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "core/config.hpp"
#include "core/event_queue.hpp"
#include "core/units.hpp"
#include "net/network_registry.hpp"

namespace simfab {
namespace {

TEST(EventQueue, PopsInTimePriorityInsertionOrder) {
  EventQueue q;
  q.push(SimTime::ps(5), 0, 1);
  q.push(SimTime::ps(3), 1, 2);
  q.push(SimTime::ps(3), 0, 3);
  q.push(SimTime::ps(3), 0, 4);
  q.push(SimTime::ps(0), 9, 5);
  std::vector<uint64_t> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  EXPECT_EQ(order, (std::vector<uint64_t>{5, 3, 4, 2, 1}));
}

TEST(EventQueue, PropertyNonDecreasingOrderUnderRandomHoldModel) {
  EventQueue q;
  std::mt19937_64 rng(42);  // fixed seed: the same sequence on every machine
  for (int i = 0; i < 1000; ++i) q.push(SimTime::ps(static_cast<int64_t>(rng() % 1000)), static_cast<uint8_t>(rng() % 3), 0);
  Event prev = q.pop();
  for (int i = 0; i < 100000; ++i) {
    Event e = q.pop();
    ASSERT_TRUE(prev.time < e.time || (prev.time == e.time && prev.key < e.key));
    prev = e;
    q.push(e.time + SimTime::ps(1 + static_cast<int64_t>(rng() % 1000)), static_cast<uint8_t>(rng() % 3), 0);
  }
}

TEST(EventQueue, BucketsKeepTheSingleHeapOrder) {
  // Reference: (time, priority, sequence) order computed independently. Pushes repeat times often
  // (so buckets open, interleave and drain) with mixed priorities.
  EventQueue q;
  std::mt19937_64 rng(7);
  struct Ref {
    int64_t time;
    uint8_t prio;
    uint64_t seq;
  };
  std::vector<Ref> pending;
  uint64_t seq = 0;
  int64_t now = 0;
  auto push = [&](int64_t t, uint8_t prio) {
    q.push(SimTime::ps(t), prio, seq);
    pending.push_back({t, prio, seq++});
  };
  for (int i = 0; i < 50; ++i) push(static_cast<int64_t>(rng() % 5), static_cast<uint8_t>(rng() % 2));
  for (int step = 0; step < 30000 && !pending.empty(); ++step) {
    auto it = std::min_element(pending.begin(), pending.end(), [](const Ref& a, const Ref& b) {
      return std::tie(a.time, a.prio, a.seq) < std::tie(b.time, b.prio, b.seq);
    });
    Event e = q.pop();
    ASSERT_EQ(e.payload, it->seq) << "step " << step;
    ASSERT_EQ(e.time.ps(), it->time);
    now = it->time;
    pending.erase(it);
    for (int k = static_cast<int>(rng() % 3) + (step % 500 == 0 ? 40 : 0); k > 0; --k)
      push(now + static_cast<int64_t>(rng() % 3), static_cast<uint8_t>(rng() % 4 == 0));
  }
  EXPECT_TRUE(q.empty() == pending.empty());
}

TEST(Units, TimesBytesBandwidths) {
  EXPECT_EQ(units::parse_time("2500")->ps(), 2500);
  EXPECT_EQ(units::parse_time("2.5us")->ps(), 2500000);
  EXPECT_EQ(units::parse_time("1ms")->ps(), 1000000000);
  EXPECT_EQ(units::parse_time("6ps")->ps(), 6);
  EXPECT_FALSE(units::parse_time("-1"));
  EXPECT_FALSE(units::parse_time("1 parsec"));
  EXPECT_FALSE(units::parse_time("nan"));
  EXPECT_FALSE(units::parse_time("1e30s"));
  EXPECT_DOUBLE_EQ(*units::parse_ps_per_byte("6"), 6.0);
  EXPECT_DOUBLE_EQ(*units::parse_ps_per_byte("10Gbps"), 800.0);
  EXPECT_DOUBLE_EQ(*units::parse_ps_per_byte("1GBps"), 1000.0);
  EXPECT_EQ(*units::parse_bytes("64KiB"), 65536u);
  EXPECT_EQ(*units::parse_bytes("10b"), 10u);
  EXPECT_DOUBLE_EQ(*units::parse_bandwidth("100Gbps"), 12.5e9);
  EXPECT_DOUBLE_EQ(*units::parse_speed("1Gf"), 1e9);
  EXPECT_DOUBLE_EQ(*units::parse_speed("2.5Tflops"), 2.5e12);
}

Config builtin() {
  Config c;
  register_network_keys(c);
  return c;
}

TEST(Config, DefaultsAndUnits) {
  Config c = builtin();
  EXPECT_EQ(c.time("loggops/L").ps(), 2500);
  EXPECT_EQ(c.choice("network/model"), "loggops");
  c.set_assignment("loggops/L=2.5us", SourceLoc{"--cfg", 0, 0});
  c.set_assignment("loggops/G=6ps", SourceLoc{"--cfg", 0, 0});
  c.set_assignment("loggops/S=64KiB", SourceLoc{"--cfg", 0, 0});
  EXPECT_EQ(c.time("loggops/L").ps(), 2500000);
  EXPECT_DOUBLE_EQ(c.per_byte("loggops/G"), 6.0);
  EXPECT_EQ(c.bytes("loggops/S"), 65536u);
  EXPECT_TRUE(c.is_explicit("loggops/L"));
  EXPECT_FALSE(c.is_explicit("loggops/o"));
}

TEST(Config, UnknownKeyNamesTheNearest) {
  Config c = builtin();
  try {
    c.set_assignment("logops/L=5", SourceLoc{"--cfg", 0, 0});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown configuration key 'logops/L'; did you mean 'loggops/L'?"),
              std::string::npos) << e.what();
  }
}

TEST(Config, BadValueSaysWhatWasExpected) {
  Config c = builtin();
  EXPECT_THROW(c.set_assignment("loggops/o=fast", {}), InputError);
  EXPECT_THROW(c.set_assignment("loggops/L", {}), InputError);
  try {
    c.set_assignment("network/model=fluid", {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected one of the listed choices (loggops, flow, smpi, packet, riesen)"), std::string::npos) << e.what();
  }
}

TEST(Config, SimGridColonSyntaxAndCaseInsensitiveChoices) {
  // SimGrid users write --cfg=network/model:SMPI and --cfg=smpi/bw-factor:0:1 (the value keeps
  // its own colons).
  Config c = builtin();
  c.set_assignment("network/model:SMPI", {});
  EXPECT_EQ(c.choice("network/model"), "smpi");
  c.set_assignment("smpi/bw-factor:65472:0.9;0:1", {});
  EXPECT_EQ(c.text("smpi/bw-factor"), "65472:0.9;0:1");
  c.set_assignment("flow/os=0:1e-6:0", {});
  EXPECT_EQ(c.text("flow/os"), "0:1e-6:0");
  EXPECT_THROW(c.set_assignment(":x", {}), InputError);
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

// The 4-ary heap with same-time buckets that EventQueue replaced (issue 29), kept as the order's
// reference: the radix heap must pop exactly what it pops.
class ReferenceQueue {
 public:
  void push(SimTime t, uint8_t prio, uint64_t payload) { heap_.push_back({t, (uint64_t{prio} << 56) | seq_++, payload}); }
  Event pop() {
    auto it = std::min_element(heap_.begin(), heap_.end(), [](const Event& a, const Event& b) {
      return a.time < b.time || (a.time == b.time && a.key < b.key);
    });
    const Event e = *it;
    *it = heap_.back();
    heap_.pop_back();
    return e;
  }
  bool empty() const { return heap_.empty(); }

 private:
  std::vector<Event> heap_;
  uint64_t seq_ = 0;
};

// Random hold-model workloads over very different time scales (same instant, picoseconds, hours:
// every radix bucket), mixed priorities, bursts of same-time pushes, next_time() between pops.
TEST(EventQueue, RadixHeapPopsExactlyTheReferenceOrder) {
  for (const int64_t spread : {int64_t{0}, int64_t{3}, int64_t{1000}, int64_t{1} << 40, int64_t{1} << 61}) {
    EventQueue q;
    ReferenceQueue ref;
    std::mt19937_64 rng(static_cast<uint64_t>(spread) + 1);
    int64_t now = 0;
    auto push = [&](int64_t t, uint8_t prio) {
      q.push(SimTime::ps(t), prio, rng());
      ref.push(SimTime::ps(t), prio, 0);
    };
    auto delay = [&] { return spread == 0 ? 0 : static_cast<int64_t>(rng() % static_cast<uint64_t>(spread)); };
    for (int i = 0; i < 200; ++i) push(delay(), static_cast<uint8_t>(rng() % 3));
    for (int step = 0; step < 20000 && !ref.empty(); ++step) {
      const SimTime next = q.next_time();
      const Event e = q.pop();
      const Event r = ref.pop();
      ASSERT_EQ(e.time, r.time) << "spread " << spread << " step " << step;
      ASSERT_EQ(e.key, r.key) << "spread " << spread << " step " << step;
      ASSERT_EQ(next, e.time);
      now = e.time.ps();
      if (!q.empty()) {
        ASSERT_GE(q.next_time().ps(), now);  // asking moves nothing: pushes at `now` stay legal
      }
      const int burst = step % 997 == 0 ? 300 : static_cast<int>(rng() % 3);
      for (int k = 0; k < burst; ++k) {
        const int64_t d = rng() % 4 == 0 ? 0 : delay();
        push(now + std::min(d, INT64_MAX / 2 - now), static_cast<uint8_t>(rng() % 4 == 0 ? 2 : rng() % 2));
      }
    }
    while (!ref.empty()) ASSERT_EQ(q.pop().key, ref.pop().key);
    EXPECT_TRUE(q.empty());
  }
}

}  // namespace
}  // namespace simfab
