// PacketNetwork (net/packet/packet_network.hpp) through the real executor: closed forms for one
// packet over 1..n hops (the header's head/tail formulas and the sink rule), sink-bound and
// link-bound multi-packet messages, seed 004 §6 test 12's 400,000-B transfer, and the same runs
// with packet/check-credits (which aborts on a credit-conservation violation).
//
// Every run uses loggops/o=0 and a large loggops/S (eager, no host overhead), so the message
// departs at d = 0 and the receiver's recv completes when the sink consumes the last packet.
// Expected values are computed below from the formulas, not recorded from runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "mpi/executor.hpp"
#include "net/network_registry.hpp"
#include "replay/goal_program.hpp"
#include "replay/goal_schedule.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

constexpr int64_t kNs = 1000;  // ps
constexpr int64_t kHeader = 20;
constexpr int64_t kMtu = 2176;
constexpr int64_t kPayload = kMtu - kHeader;  // 2156
constexpr int64_t kFlit = 64;
constexpr int64_t kSwitch = 27 * kNs;         // packet/switch-latency default
constexpr int64_t kSinkPsPerByte = 525;       // packet/sink-rate default
constexpr int64_t kSinkPacket = 32 * kNs;     // packet/sink-packet-overhead default

// A link's rate as an exact fraction of ps per byte: 16 Gb/s = 2 GB/s = 500 ps/B; 4 Gb/s =
// 2000 ps/B; 3 Gb/s = 375 MB/s = 8000/3 ps/B. ser(x) = ceil(x bytes at that rate).
struct Rate {
  const char* yaml;
  int64_t num;  // ps per byte = num / den
  int64_t den;
  int64_t ser(int64_t bytes) const { return (bytes * num + den - 1) / den; }
};
constexpr Rate k16Gbps{"16Gbps", 500, 1};
constexpr Rate k4Gbps{"4Gbps", 2000, 1};
constexpr Rate k3Gbps{"3Gbps", 8000, 3};

int64_t sink_drain(int64_t bytes) { return bytes * kSinkPsPerByte; }  // ceil of an integer product

// The packet sizes (headers included) of a message of `size` bytes: ceil(size / 2156) packets,
// at least one, each min(2176, 20 + remaining).
std::vector<int64_t> packet_sizes(int64_t size) {
  std::vector<int64_t> out;
  int64_t left = size;
  do {
    const int64_t pay = std::min(left, kPayload);
    out.push_back(kHeader + pay);
    left -= pay;
  } while (left > 0);
  return out;
}

// The bytes of a packet's last flit (64 for a multiple of 64).
int64_t last_flit(int64_t B) { return B - (B + kFlit - 1) / kFlit * kFlit + kFlit; }

// One packet of B bytes over n hops with latencies lat[0..n-1] (ps), equal rates, d = 0
// (packet_network.hpp's closed form; h = min(B, F) is the head flit):
//   head at the destination  sum lat + n ser(h) + (n-1) t_sw
//   tail at the destination  sum lat + (n-1)(ser(h) + t_sw) + ser(B)
// and the idle sink, starting at the head, consumes it at
//   max(head + B x 525 ps, tail + f_last x 525 ps) + 32 ns
// (the header's sink rule since commit eadd201: the last flit is drained after it arrives).
struct OnePacket {
  int64_t head;
  int64_t tail;
  int64_t consumed;
};
OnePacket one_packet(int64_t B, const std::vector<int64_t>& lat, const Rate& r) {
  const int64_t n = static_cast<int64_t>(lat.size());
  int64_t sum_lat = 0;
  for (int64_t l : lat) sum_lat += l;
  const int64_t h = std::min(B, kFlit);
  OnePacket p;
  p.head = sum_lat + n * r.ser(h) + (n - 1) * kSwitch;
  p.tail = sum_lat + (n - 1) * (r.ser(h) + kSwitch) + r.ser(B);
  p.consumed = std::max(p.head + sink_drain(B), p.tail + sink_drain(last_flit(B))) + kSinkPacket;
  return p;
}

std::string one_message_goal(int64_t size) {
  const std::string s = std::to_string(size);
  return "num_ranks 2 rank 0 { s: send " + s + "b to 1 tag 0 } rank 1 { r: recv " + s + "b from 0 tag 0 }";
}

// A chain a - s1 - ... - s(n-1) - b of one graph topology: n = lat.size() cables (a direct
// host-host cable for n = 1), each with its own latency, all at rate r.
std::string chain_platform(const std::vector<int64_t>& lat, const Rate& r) {
  const size_t n = lat.size();
  std::string y = "version: 1\nhosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\n"
                  "topology:\n  name: t\n  kind: graph\n  link: {bandwidth: " + std::string(r.yaml) +
                  ", latency: 1ns}\n  switches: [";
  for (size_t i = 1; i < n; ++i) y += (i > 1 ? ", s" : "s") + std::to_string(i);
  y += "]\n  links:\n";
  for (size_t i = 0; i < n; ++i) {
    const std::string from = i == 0 ? "a" : "s" + std::to_string(i);
    const std::string to = i + 1 == n ? "b" : "s" + std::to_string(i + 1);
    y += "    - {between: [" + from + ", " + to + "], latency: " + std::to_string(lat[i]) + "ps}\n";
  }
  return y;
}

std::vector<std::string> base_cfg(std::vector<std::string> extra = {}) {
  std::vector<std::string> c = {"network/model=packet", "loggops/o=0", "loggops/S=1000000000"};
  c.insert(c.end(), extra.begin(), extra.end());
  return c;
}

RunResult run_yaml(const std::string& yaml, const std::string& goal, const std::vector<std::string>& cfg_lines) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  SimulationInput in;
  in.platform_path = write_test_file("p.yaml", yaml);
  in.goal_path = write_test_file("a.goal", goal);
  return run_simulation(in, cfg);
}

// Runs `size` bytes a -> b and returns the time rank 1's recv completes (the last packet consumed).
int64_t receive_time(const std::string& yaml, int64_t size, const std::vector<std::string>& extra = {},
                     RunResult* out = nullptr) {
  RunResult r = run_yaml(yaml, one_message_goal(size), base_cfg(extra));
  EXPECT_TRUE(r.exec.blocked.empty());
  EXPECT_TRUE(r.exec.network_stuck.empty()) << r.exec.network_stuck;
  EXPECT_EQ(r.model, "packet");
  EXPECT_EQ(r.exec.finish.size(), 2u);
  if (r.exec.finish.size() != 2) return -1;
  const int64_t t = r.exec.finish[1].ps();
  if (out) *out = std::move(r);
  return t;
}

const std::vector<int64_t> kSizes = {0, 1, 43, 44, 45, 100, 1000, 2155, 2156};  // one packet each

// (a) One packet over a direct host-host cable (a graph with no switch).
TEST(PacketNetwork, OnePacketOverADirectCable) {
  const std::vector<int64_t> lat = {7 * kNs};
  for (const Rate* r : {&k16Gbps, &k4Gbps, &k3Gbps}) {
    const std::string yaml = chain_platform(lat, *r);
    for (int64_t b : kSizes) {
      const int64_t B = b + kHeader;
      const OnePacket p = one_packet(B, lat, *r);
      // n = 1: head = lat + ser(min(B, 64)), tail = lat + ser(B).
      ASSERT_EQ(p.head, lat[0] + r->ser(std::min(B, kFlit)));
      ASSERT_EQ(p.tail, lat[0] + r->ser(B));
      RunResult res;
      EXPECT_EQ(receive_time(yaml, b, {}, &res), p.consumed) << r->yaml << ", " << b << " B";
      EXPECT_EQ(res.network.packets, 1u);
      EXPECT_EQ(res.network.packet_hops, 1u);
    }
  }
}

TEST(PacketNetwork, OnePacketClosedFormSpotValues) {
  // The closed forms worked out by hand for 16 Gb/s (500 ps/B) and 7-ns cables, as a check on
  // the helper itself:
  //   1000 B, 1 hop: B = 1020; head = 7000 + 64 x 500 = 39,000; drain 1020 x 525 = 535,500;
  //   tail = 7000 + 510,000 = 517,000; consumed max(574,500, 517,000) + 32,000 = 606,500.
  EXPECT_EQ(one_packet(1020, {7 * kNs}, k16Gbps).consumed, 606'500);
  //   1 B, 2 hops (5, 5 ns): B = 21 = h; head = 10,000 + 2 x 10,500 + 27,000 = 58,000;
  //   consumed 58,000 + 21 x 525 + 32,000 = 101,025.
  EXPECT_EQ(one_packet(21, {5 * kNs, 5 * kNs}, k16Gbps).consumed, 101'025);
  //   64-B flit host-switch-host with 5-ns cables: head 2 x (5 + 32) + 27 = 101 ns (seed 004 §3.8).
  EXPECT_EQ(one_packet(64, {5 * kNs, 5 * kNs}, k16Gbps).head, 101'000);
  //   2176 B at 4 Gb/s, 1 hop: head 7000 + 128,000 + 1,142,400 < tail 7000 + 4,352,000 + the
  //   last flit's 64 x 525 = 33,600: the tail decides: 4,392,600 + 32,000.
  EXPECT_EQ(one_packet(2176, {7 * kNs}, k4Gbps).consumed, 4'424'600);
  //   120 B at 4 Gb/s, 1 hop: last flit 56 B; head 7000 + 128,000 + 63,000 = 198,000; tail
  //   7000 + 240,000 + 29,400 = 276,400: 308,400.
  EXPECT_EQ(last_flit(120), 56);
  EXPECT_EQ(last_flit(128), 64);
  EXPECT_EQ(last_flit(21), 21);
  EXPECT_EQ(one_packet(120, {7 * kNs}, k4Gbps).consumed, 308'400);
}

// (a) The same over a platform built in code: two hosts and one link on an explicit route.
TEST(PacketNetwork, OnePacketOverAnExplicitRoute) {
  for (int64_t b : kSizes) {
    Platform p;
    const LinkId l = p.add_link(Link{"l0", 2e9, SimTime::ps(9 * kNs)});  // 16 Gb/s, 9 ns
    p.add_host(Host{"a", 1, 1e9, -1, -1});
    p.add_host(Host{"b", 1, 1e9, -1, -1});
    p.add_route(0, 1, {l}, false);
    ASSERT_TRUE(p.is_hop(l));
    Config cfg;
    register_network_keys(cfg);
    for (const auto& c : base_cfg()) cfg.set_assignment(c, {});
    GoalSchedule g = parse_goal_text(one_message_goal(b), "one.goal");
    Engine engine;
    auto net = make_network(engine, p, cfg);
    GoalProgram prog(g);
    Executor ex(engine, *net, g.ops, prog, {0, 1});
    const ExecutionResult r = ex.run();
    ASSERT_TRUE(r.blocked.empty());
    EXPECT_EQ(r.finish[1].ps(), one_packet(b + kHeader, {9 * kNs}, k16Gbps).consumed) << b << " B";
    EXPECT_EQ(net->statistics().packets, 1u);
  }
}

// (b) One packet over n hops through n-1 switches, cables of different latencies.
TEST(PacketNetwork, OnePacketOverNHops) {
  const std::vector<int64_t> all_lat = {5 * kNs, 11 * kNs, 3 * kNs, 17 * kNs, 2 * kNs};
  for (const Rate* r : {&k16Gbps, &k4Gbps, &k3Gbps})
    for (size_t n = 2; n <= all_lat.size(); ++n) {
      const std::vector<int64_t> lat(all_lat.begin(), all_lat.begin() + static_cast<ptrdiff_t>(n));
      const std::string yaml = chain_platform(lat, *r);
      for (int64_t b : kSizes) {
        RunResult res;
        EXPECT_EQ(receive_time(yaml, b, {}, &res), one_packet(b + kHeader, lat, *r).consumed)
            << r->yaml << ", " << n << " hops, " << b << " B";
        EXPECT_EQ(res.network.packet_hops, n);
      }
    }
}

TEST(PacketNetwork, SwitchLatencyIsPaidOncePerSwitch) {
  // 3 hops, 16 Gb/s, 1 B: consumed = head + 21 x 525 + 32 ns with head = sum lat + 3 ser(21) +
  // 2 t_sw: raising t_sw by 13 ns moves the result by 26 ns.
  const std::vector<int64_t> lat = {5 * kNs, 5 * kNs, 5 * kNs};
  const std::string yaml = chain_platform(lat, k16Gbps);
  const int64_t base = receive_time(yaml, 1);
  EXPECT_EQ(base, one_packet(21, lat, k16Gbps).consumed);
  EXPECT_EQ(receive_time(yaml, 1, {"packet/switch-latency=40ns"}), base + 2 * 13 * kNs);
}

// Multi-packet messages. Sink-bound (16 Gb/s links: 500 ps/B < 525 ps/B plus 32 ns per packet at
// the sink): the first packet's head reaches the idle sink, and from then on the sink is never
// idle, because each later packet's head and tail arrive while its predecessor drains (the link
// delivers one 2176-B packet per 1,088 ns, the sink takes 1,174.4 ns per packet, and the four-
// packet VL buffer keeps the pipeline full). Then every packet k costs B_k x 525 ps + 32 ns after
// the first head:  consumed = head_1 + sum_k (B_k x 525 + 32,000).
int64_t sink_bound(int64_t size, const std::vector<int64_t>& lat, const Rate& r) {
  EXPECT_LT(r.ser(kMtu), sink_drain(kMtu) + kSinkPacket) << "not sink-bound";
  const std::vector<int64_t> sizes = packet_sizes(size);
  int64_t t = one_packet(sizes[0], lat, r).head;
  for (int64_t B : sizes) t += sink_drain(B) + kSinkPacket;
  return t;
}

// (c) Seed 004 §6 test 12: 400,000 B over host-switch-host, 5-ns 16 Gb/s cables.
TEST(PacketNetwork, FourHundredKilobytesHostSwitchHost) {
  const std::vector<int64_t> lat = {5 * kNs, 5 * kNs};
  const std::string yaml = chain_platform(lat, k16Gbps);
  // 186 packets: 185 x 2176 B and one of 20 + (400,000 - 185 x 2156) = 1160 B. Head of the first
  // at 2 x (5 + 32) + 27 = 101 ns; then 185 x (1,142,400 + 32,000) + 1160 x 525 + 32,000:
  // 101,000 + 217,264,000 + 641,000 = 218,006,000 ps.
  const std::vector<int64_t> sizes = packet_sizes(400'000);
  ASSERT_EQ(sizes.size(), 186u);
  EXPECT_EQ(sizes.back(), 1160);
  const int64_t expected = sink_bound(400'000, lat, k16Gbps);
  EXPECT_EQ(expected, 218'006'000);
  RunResult res;
  const int64_t got = receive_time(yaml, 400'000, {}, &res);
  EXPECT_EQ(got, expected);
  // Seed 004's measured window: 217.6 to 218.3 us.
  EXPECT_GE(got, 217'600'000);
  EXPECT_LE(got, 218'300'000);
  EXPECT_EQ(res.network.packets, 186u);
  EXPECT_EQ(res.network.packet_hops, 2u * 186u);
}

TEST(PacketNetwork, SinkBoundOverADirectCable) {
  // 100,000 B: 47 packets (46 x 2176 B and 20 + 824 = 844 B) over one 16 Gb/s, 7-ns cable.
  const std::vector<int64_t> lat = {7 * kNs};
  const std::string yaml = chain_platform(lat, k16Gbps);
  ASSERT_EQ(packet_sizes(100'000).size(), 47u);
  EXPECT_EQ(receive_time(yaml, 100'000), sink_bound(100'000, lat, k16Gbps));
  // Exactly two full packets (4312 B): 7,000 + 32,000 + 2 x (1,142,400 + 32,000).
  EXPECT_EQ(receive_time(yaml, 2 * kPayload), 7'000 + 32'000 + 2 * (1'142'400 + 32'000));
}

// Link-bound: a 4 Gb/s direct cable (2000 ps/B) sends packets back to back (credits come back
// long before the buffer fills: the sink frees each packet under 66 ns after its tail). Packet
// k's head arrives ser(64) = 128 ns after packet k-1's tail, when the sink is free again, and its
// tail B_k x 2000 ps after that, later than the sink could drain it (128 ns + B_k x 525 <=
// B_k x 2000 + f_last x 525 for B_k >= 87). So each packet, the last included, is consumed at
// its tail + f_last x 525 + 32 ns:
//   consumed = lat + sum_k ser(B_k) + f_last(B_N) x 525 + 32,000
//            = lat + 2000 (size + 20 N) + f_last(B_N) x 525 + 32,000.
int64_t link_bound(int64_t size, int64_t lat) {
  const std::vector<int64_t> sizes = packet_sizes(size);
  EXPECT_GE(sizes.back(), 87);
  const int64_t n = static_cast<int64_t>(sizes.size());
  return lat + 2000 * (size + kHeader * n) + sink_drain(last_flit(sizes.back())) + kSinkPacket;
}

TEST(PacketNetwork, LinkBoundOverASlowDirectCable) {
  const std::vector<int64_t> lat = {7 * kNs};
  const std::string yaml = chain_platform(lat, k4Gbps);
  // 10,000 B: 4 x 2176 + 1396 (last flit 52 B): 7,000 + 2000 x 10,100 + 27,300 + 32,000.
  EXPECT_EQ(link_bound(10'000, lat[0]), 7'000 + 20'200'000 + 27'300 + 32'000);
  for (int64_t size : {int64_t{10'000}, int64_t{3 * kPayload}, int64_t{50'000}})
    EXPECT_EQ(receive_time(yaml, size), link_bound(size, lat[0])) << size << " B";
}

// (d) With packet/check-credits the conservation invariant is checked after every event (a
// violation aborts); the runs complete with the same times.
TEST(PacketNetwork, CheckCreditsRunsComplete) {
  const std::vector<int64_t> two = {5 * kNs, 5 * kNs};
  const std::string pair = chain_platform(two, k16Gbps);
  EXPECT_EQ(receive_time(pair, 400'000, {"packet/check-credits=true"}), 218'006'000);
  const std::vector<int64_t> four = {5 * kNs, 11 * kNs, 3 * kNs, 17 * kNs};
  const std::string chain = chain_platform(four, k16Gbps);
  for (int64_t b : {int64_t{1}, int64_t{1000}, int64_t{2156}})
    EXPECT_EQ(receive_time(chain, b, {"packet/check-credits=true"}), one_packet(b + kHeader, four, k16Gbps).consumed);
  EXPECT_EQ(receive_time(chain, 100'000, {"packet/check-credits=true"}), sink_bound(100'000, four, k16Gbps));
  const std::vector<int64_t> one = {7 * kNs};
  EXPECT_EQ(receive_time(chain_platform(one, k4Gbps), 50'000, {"packet/check-credits=true"}),
            link_bound(50'000, one[0]));
  // A buffer of exactly one MTU (credits for one packet per hop) still completes.
  EXPECT_GT(receive_time(chain, 100'000, {"packet/check-credits=true", "packet/vl-buffer=2176"}), 0);
}

// packet/flit-exact computes every hop flit by flit; on these uncontended runs it must give the
// packet-level closed forms exactly.
const std::vector<std::string> kFlitExact = {"packet/flit-exact=true", "packet/check-credits=true"};

TEST(PacketNetwork, FlitExactModeGivesTheSameClosedForms) {
  const std::vector<std::string>& exact = kFlitExact;
  const std::vector<int64_t> four = {5 * kNs, 11 * kNs, 3 * kNs, 17 * kNs};
  for (const Rate* r : {&k16Gbps, &k4Gbps}) {
    const std::string chain = chain_platform(four, *r);
    for (int64_t b : kSizes)
      EXPECT_EQ(receive_time(chain, b, exact), one_packet(b + kHeader, four, *r).consumed) << r->yaml << ", " << b;
  }
  const std::vector<int64_t> two = {5 * kNs, 5 * kNs};
  EXPECT_EQ(receive_time(chain_platform(two, k16Gbps), 400'000, exact), 218'006'000);
  const std::vector<int64_t> one = {7 * kNs};
  EXPECT_EQ(receive_time(chain_platform(one, k4Gbps), 50'000, exact), link_bound(50'000, one[0]));
}

// The same at a rate that is not a whole number of ps per flit (3 Gb/s: 8000/3 ps/B, a 64-B flit
// 170,666.7 ps): the packet-level hop rounds ser(B) up once, so flit by flit the times must add up
// to the same ceil(B x 8000 / 3), not to a sum of per-flit ceilings.
TEST(PacketNetwork, FlitExactModeAtAFractionalRate) {
  const std::vector<int64_t> four = {5 * kNs, 11 * kNs, 3 * kNs, 17 * kNs};
  const std::string chain = chain_platform(four, k3Gbps);
  for (int64_t b : kSizes)
    EXPECT_EQ(receive_time(chain, b, kFlitExact), one_packet(b + kHeader, four, k3Gbps).consumed) << b << " B";
}

// Several data VLs (the arbitrated path): one message on one VL is timed as with one VL.
TEST(PacketNetwork, OneMessageOnOneOfSeveralVlsIsUnchanged) {
  const std::vector<int64_t> two = {5 * kNs, 5 * kNs};
  const std::string pair = chain_platform(two, k16Gbps);
  EXPECT_EQ(receive_time(pair, 400'000, {"packet/vls=2", "packet/check-credits=true"}), 218'006'000);
  EXPECT_EQ(receive_time(pair, 400'000, {"packet/vls=4", "packet/sl=3", "packet/check-credits=true"}), 218'006'000);
}

}  // namespace
}  // namespace simfab
