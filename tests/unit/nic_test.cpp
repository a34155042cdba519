// Nic (nic/nic.hpp): the NIC model alone, driven by a scripted client over a flow wire, against
// closed forms written out from the model's terms (seed 000 §4.3, §5.3-5.6, Appendix R) and the
// shape tests of seed 000 §6: paths and their steps (test 4), the 64/65 B SEND step (test 3),
// bandwidth near 12.5 GB/s (test 4), two DMA transfers sharing 15.75 GB/s (test 5), E2E
// retransmission and give-up (test 8), quick ACKs (test 9), determinism (test 11), in-flight
// limits (§7.1). Times are integer picoseconds; expected values are computed, not recorded.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "net/network_registry.hpp"
#include "nic/nic.hpp"
#include "nic/nic_params.hpp"
#include "platform/platform.hpp"

namespace simfab::nic {
namespace {

constexpr int64_t kNs = 1000;

// n hosts behind one switch (a star: host i's cable, then the destination's), cables of `bw`
// bytes/s and `lat` each.
Platform star(int n, double bw, SimTime lat) {
  Platform p;
  for (int i = 0; i < n; ++i) {
    Host h;
    h.name = "h" + std::to_string(i);
    p.add_host(h);
  }
  std::vector<LinkId> up, down;
  for (int i = 0; i < n; ++i) {
    Link u, d;
    u.name = "up" + std::to_string(i);
    d.name = "down" + std::to_string(i);
    u.bandwidth_Bps = d.bandwidth_Bps = bw;
    u.latency = d.latency = lat;
    up.push_back(p.add_link(u));
    down.push_back(p.add_link(d));
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) p.add_route(a, b, {up[static_cast<size_t>(a)], down[static_cast<size_t>(b)]}, true);
  return p;
}

struct Seen {
  int op;  // the client's id
  std::string what;
  Fail fail;
  SimTime at, visible;
};

class Harness final : public NicClient {
 public:
  explicit Harness(std::vector<std::string> cfg_lines = {}, int hosts = 2, double bw = 12.5e9,
                   SimTime lat = SimTime::ps(500 * kNs))
      : platform_(star(hosts, bw, lat)) {
    register_network_keys(cfg_);
    register_nic_keys(cfg_);
    cfg_.set("nic/model", "portals", SourceLoc{});
    for (const auto& l : cfg_lines) cfg_.set_assignment(l, SourceLoc{});
    p_ = nic_params(cfg_);
    auto wire = make_network(engine_, platform_, cfg_, "flow", EventKinds{EventKind::kWire, EventKind::kWireDelivery});
    nic_ = std::make_unique<Nic>(engine_, platform_, p_, std::move(wire));
  }

  // Posts op `id` from the CPU at `t`: the command leaves after the post cost.
  void post(int id, OpType op, Bytes length, bool ack, HostId from = 0, HostId to = 1, SimTime t = SimTime::zero(),
            bool service = false, bool matching = true) {
    Command c;
    c.op = op;
    c.initiator = from;
    c.target = to;
    c.initiator_pid = from;
    c.target_pid = to;
    c.length = length;
    c.ack_req = ack;
    c.matching = matching;
    c.service = service;
    c.client = this;
    c.user = static_cast<uint64_t>(id);
    nic_->post(c, t + nic_->post_cost(c));
  }
  void run() { engine_.run(); }

  TargetOutcome on_target(const Command& c, NicTime when) override {
    seen_.push_back({static_cast<int>(c.user), "TARGET", Fail::kOk, when.at, when.visible});
    TargetOutcome o;
    o.reply_bytes = c.op == OpType::kGet ? c.length : (c.op == OpType::kPut ? 0 : c.length);
    return o;
  }
  void on_initiator(const Command& c, InitiatorEvent e, Fail fail, NicTime when) override {
    static const char* kNames[] = {"SEND", "ACK", "REPLY"};
    seen_.push_back({static_cast<int>(c.user), kNames[static_cast<int>(e)], fail, when.at, when.visible});
  }

  const Seen& get(int id, const std::string& what) const {
    for (const Seen& s : seen_)
      if (s.op == id && s.what == what) return s;
    ADD_FAILURE() << "op " << id << " has no " << what;
    static Seen none{};
    return none;
  }
  int count(int id, const std::string& what) const {
    int n = 0;
    for (const Seen& s : seen_) n += s.op == id && s.what == what;
    return n;
  }
  uint64_t wire_messages() const {
    uint64_t n = 0;
    for (const auto& k : nic_->counters()) n += k.wire_messages;
    return n;
  }

  Engine engine_;
  Config cfg_;
  Platform platform_;
  NicParams p_;
  std::unique_ptr<Nic> nic_;
  std::vector<Seen> seen_;
};

SimTime secs(double s) { return SimTime::from_seconds(s); }

// The flow wire over two cables of 12.5 GB/s and 500 ns: latency 1 us, then s bytes at 12.5 GB/s.
SimTime wire(Bytes s) { return SimTime::ps(1000 * kNs) + secs(static_cast<double>(s) / 12.5e9); }

// One Put of s bytes (ACK requested) alone, written out from the model's terms (nic.hpp).
struct PutTimes {
  SimTime target, send, ack;
};
PutTimes put_closed_form(const Harness& h, Bytes s) {
  const NicParams& p = h.p_;
  const bool pio = s > p.inline_max(true) && s <= p.pio_max(true);
  const bool dma = s > p.pio_max(true);
  const SimTime cpu = pio ? p.pio_cpu_delay : SimTime::zero();
  const SimTime arrive = cpu + p.pci_small(p.command_size + (pio ? s - p.inline_max(true) : 0));
  SimTime wire_start, tx_end;
  if (dma) {
    const SimTime read = arrive + p.pci_small(p.dma_request_size);
    wire_start = read + p.packet_delay(s) + p.send_delay;
    tx_end = std::max(wire_start, read + secs(static_cast<double>(s) / 12.5e9));
  } else {
    wire_start = arrive + p.send_delay;
    tx_end = wire_start + p.pio_tx_delay;
  }
  const SimTime at_target = wire_start + wire(s) + (s > 0 ? p.packet_delay(s) : SimTime::zero());
  const SimTime ack = at_target + p.send_delay + wire(p.ack_size);
  PutTimes t;
  t.target = at_target + p.event_latency();
  t.ack = ack + p.event_latency();
  t.send = (s <= p.early_send ? tx_end : ack) + p.event_latency();
  return t;
}

TEST(NicModel, PutClosedFormPerPath) {
  for (Bytes s : {0, 1, 8, 9, 64, 65, 408, 409, 511, 512, 513, 4096, 1 << 20}) {
    Harness h;
    h.post(1, OpType::kPut, s, true);
    h.run();
    const PutTimes want = put_closed_form(h, s);
    EXPECT_EQ(h.get(1, "TARGET").visible.ps(), want.target.ps()) << s << " B";
    EXPECT_EQ(h.get(1, "ACK").visible.ps(), want.ack.ps()) << s << " B";
    EXPECT_EQ(h.get(1, "SEND").visible.ps(), want.send.ps()) << s << " B";
    EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
  }
}

TEST(NicModel, PathThresholdsMatchingAndNot) {
  struct Case {
    Bytes size;
    bool matching;
    int path;  // 0 inline, 1 PIO, 2 DMA
  };
  for (Case c : std::vector<Case>{{8, true, 0}, {9, true, 1}, {408, true, 1}, {409, true, 2},
                                  {16, false, 0}, {17, false, 1}, {416, false, 1}, {417, false, 2}}) {
    Harness h;
    h.post(1, OpType::kPut, c.size, false, 0, 1, SimTime::zero(), false, c.matching);
    h.run();
    const NicCounters& k = h.nic_->counters()[0];
    EXPECT_EQ(k.inline_puts, c.path == 0 ? 1u : 0u) << c.size;
    EXPECT_EQ(k.pio_puts, c.path == 1 ? 1u : 0u) << c.size;
    EXPECT_EQ(k.dma_puts, c.path == 2 ? 1u : 0u) << c.size;
  }
}

// Seed test 4's steps: latency jumps at 8/9 B (inline -> PIO: the CPU's payload write) and at
// 408/409 B (PIO -> DMA: the DMA request and the first-packet delay).
TEST(NicModel, LatencyStepsAtPathChanges) {
  auto latency = [](Bytes s) {
    Harness h;
    h.post(1, OpType::kPut, s, true);
    h.run();
    return h.get(1, "TARGET").visible.ps();
  };
  const int64_t byte = latency(101) - latency(100);  // the size's own cost per byte, away from steps
  EXPECT_GT(latency(9) - latency(8), 150 * kNs);
  EXPECT_GT(latency(409) - latency(408), 150 * kNs);
  EXPECT_LT(latency(65) - latency(64), 10 * byte + 10);
}

// Seed test 3: SEND comes early (once the NIC has the payload) up to 64 B, with the ACK above.
TEST(NicModel, SendStepAt64Bytes) {
  Harness h;
  h.post(1, OpType::kPut, 64, true);
  h.post(2, OpType::kPut, 65, true, 0, 1, SimTime::ps(100'000 * kNs));
  h.run();
  EXPECT_LT(h.get(1, "SEND").visible, h.get(1, "ACK").visible);
  EXPECT_EQ(h.get(2, "SEND").visible, h.get(2, "ACK").visible);
}

// Seed test 4: the pipelined DMA model streams near 12.5 GB/s, not half of it (the rejected
// sequential model): 64 MiB in one Put, and 16 back-to-back 4 MiB Puts.
TEST(NicModel, LargePutsNearCableRate) {
  {
    Harness h;
    const Bytes s = Bytes{64} << 20;
    h.post(1, OpType::kPut, s, false);
    h.run();
    const double gbs = static_cast<double>(s) / h.get(1, "TARGET").visible.seconds() / 1e9;
    EXPECT_GT(gbs, 12.4);
    EXPECT_LE(gbs, 12.5);
  }
  {
    Harness h;
    const Bytes s = Bytes{4} << 20;
    for (int i = 0; i < 16; ++i) h.post(i, OpType::kPut, s, false);
    h.run();
    const double gbs = 16.0 * static_cast<double>(s) / h.get(15, "TARGET").visible.seconds() / 1e9;
    EXPECT_GT(gbs, 12.3);
  }
}

// Seed test 5: two DMA reads on one node's PCIe (compute and service VNs, each to its own target,
// over a 100 GB/s fabric so the cable does not limit) share 15.75 GB/s: 7.875 GB/s each; one
// alone runs at the 12.5 GB/s per-transfer cap. Rates from the sender's PCIe busy time (its reads
// only: the writes are at the targets) and from the first target's delivery.
TEST(NicModel, PcieSharedByTwoDmaReads) {
  const Bytes s = Bytes{64} << 20;
  auto run = [&](bool two) {
    Harness h({}, 3, 100e9, SimTime::ps(100 * kNs));
    h.post(1, OpType::kPut, s, false, 0, 1);
    if (two) h.post(2, OpType::kPut, s, false, 0, 2, SimTime::zero(), true);
    h.run();
    const double bytes = static_cast<double>(two ? 2 * s : s);
    return std::make_pair(bytes / h.nic_->counters()[0].pcie_busy.seconds() / 1e9,  // the bus's rate
                          static_cast<double>(s) / h.get(1, "TARGET").at.seconds() / 1e9);  // one message's
  };
  const auto one = run(false), two = run(true);
  EXPECT_NEAR(one.first, 12.5, 0.01);
  EXPECT_NEAR(one.second, 12.5, 0.05);
  EXPECT_NEAR(two.first, 15.75, 0.01);
  EXPECT_NEAR(two.second, 15.75 / 2, 0.05);
}

// Seed test 9: quick ACKs remove exactly the Portals ACK and its BXI ACK per acknowledged Put.
TEST(NicModel, QuickAcksRemoveTwoWireMessagesPerPut) {
  const int n = 10;
  auto run = [&](bool quick) {
    Harness h({quick ? "nic/quick-acks=yes" : "nic/quick-acks=no"});
    for (int i = 0; i < n; ++i) h.post(i, OpType::kPut, 1024, true, 0, 1, SimTime::ps(i * 10'000 * kNs));
    h.run();
    return std::make_pair(h.wire_messages(), h.get(n - 1, "ACK").visible);
  };
  const auto slow = run(false), quick = run(true);
  EXPECT_EQ(slow.first, 3u * n);
  EXPECT_EQ(slow.first - quick.first, 2u * n);
  EXPECT_LT(quick.second, slow.second);
}

// E2E off: no BXI ACK on the wire; a Put without ACK is then one message.
TEST(NicModel, E2eOffSendsNoBxiAck) {
  Harness h({"nic/e2e=no"});
  h.post(1, OpType::kPut, 1024, false);
  h.post(2, OpType::kPut, 1024, true);
  h.run();
  EXPECT_EQ(h.nic_->counters()[1].bxi_acks + h.nic_->counters()[0].bxi_acks, 0u);
  EXPECT_EQ(h.wire_messages(), 3u);  // two requests and one Portals ACK
  EXPECT_EQ(h.count(1, "SEND"), 1);
  EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
}

// Seed test 8: a lost request is sent again retry-timeout after its transmission and then
// acknowledged; BXI ACKs are never retransmitted.
TEST(NicModel, LostRequestIsRetransmitted) {
  Harness h({"nic/drop=1", "nic/retry-timeout=50us"});
  h.post(1, OpType::kPut, 1024, true);
  h.run();
  const PutTimes first = put_closed_form(h, 1024);
  const NicCounters& k = h.nic_->counters()[0];
  EXPECT_EQ(k.retransmissions, 1u);
  EXPECT_EQ(h.nic_->counters()[1].dropped, 1u);
  EXPECT_EQ(h.get(1, "ACK").fail, Fail::kOk);
  EXPECT_EQ(h.count(1, "TARGET"), 1);
  EXPECT_GT(h.get(1, "ACK").visible, first.ack + SimTime::ps(50'000 * kNs));
  EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
}

TEST(NicModel, GivesUpAfterMaxRetries) {
  Harness h({"nic/drop=all", "nic/retry-timeout=20us", "nic/max-retries=3"});
  h.post(1, OpType::kPut, 100, true);
  h.post(2, OpType::kGet, 4096, false, 0, 1, SimTime::ps(1 * kNs));
  h.run();
  const NicCounters& k = h.nic_->counters()[0];
  EXPECT_EQ(k.retransmissions, 6u);  // 3 per operation
  EXPECT_EQ(k.given_up, 2u);
  EXPECT_EQ(k.wire_messages, 8u);    // 4 transmissions each
  EXPECT_EQ(h.get(1, "ACK").fail, Fail::kUndeliverable);
  EXPECT_EQ(h.get(2, "REPLY").fail, Fail::kUndeliverable);
  EXPECT_EQ(h.count(1, "TARGET"), 0);
  EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
}

// A lost Portals ACK: the initiator's request times out and is sent again; the target does not
// process the duplicate but acknowledges it again.
TEST(NicModel, LostAckMakesADuplicateThatIsOnlyAcknowledged) {
  Harness h({"nic/drop=2", "nic/retry-timeout=50us"});
  h.post(1, OpType::kPut, 1024, true);
  h.run();
  EXPECT_EQ(h.count(1, "TARGET"), 1);
  EXPECT_EQ(h.count(1, "ACK"), 1);
  EXPECT_EQ(h.get(1, "ACK").fail, Fail::kOk);
  EXPECT_GE(h.nic_->counters()[0].retransmissions + h.nic_->counters()[1].retransmissions, 1u);
  EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
}

// Get: REPLY after the request, the target's DMA read of the response and the last packet.
TEST(NicModel, GetClosedForm) {
  for (Bytes s : {Bytes{0}, Bytes{8}, Bytes{4096}}) {
    Harness h;
    h.post(1, OpType::kGet, s, false);
    h.run();
    const NicParams& p = h.p_;
    const SimTime arrive = p.pci_small(p.command_size);
    const SimTime at_target = arrive + p.send_delay + wire(p.get_request_size);
    SimTime start;
    if (s == 0) {
      start = at_target + p.send_delay;
    } else {
      start = at_target + p.pci_small(p.dma_request_size) + p.packet_delay(s) + p.send_delay;
    }
    const SimTime reply = start + wire(s) + (s > 0 ? p.packet_delay(s) : SimTime::zero()) + p.event_latency();
    EXPECT_EQ(h.get(1, "TARGET").visible.ps(), (at_target + p.event_latency()).ps()) << s;
    EXPECT_EQ(h.get(1, "REPLY").visible.ps(), reply.ps()) << s;
    EXPECT_EQ(h.count(1, "SEND"), 0);
  }
}

// §7.1: a per-target in-flight limit parks requests until acknowledgements return.
TEST(NicModel, InflightLimitParksRequests) {
  auto run = [](const char* limit) {
    Harness h({limit}, 2, 12.5e9, SimTime::ps(20'000 * kNs));  // a long fabric: many requests in flight
    for (int i = 0; i < 20; ++i) h.post(i, OpType::kPut, 64 * 1024, false);
    h.run();
    EXPECT_EQ(h.nic_->operations_in_flight(), 0u);
    return std::make_pair(h.nic_->counters()[0].inflight_stalls, h.get(19, "TARGET").visible);
  };
  const auto none = run("nic/max-inflight-to-target=0");
  const auto two = run("nic/max-inflight-to-target=2");
  const auto pair = run("nic/max-inflight-to-process=2");
  EXPECT_EQ(none.first, 0u);
  EXPECT_GT(two.first, 0u);
  EXPECT_GT(two.second, none.second);
  EXPECT_EQ(two.second, pair.second);  // one process pair: the same limit
}

// The command queue holds cq-depth commands per node and VN.
TEST(NicModel, CommandQueueDepth) {
  Harness h({"nic/cq-depth=4"});
  for (int i = 0; i < 3; ++i) h.post(i, OpType::kPut, 8, false);
  EXPECT_FALSE(h.nic_->queue_full(0, false));
  h.post(3, OpType::kPut, 8, false);
  EXPECT_TRUE(h.nic_->queue_full(0, false));
  EXPECT_FALSE(h.nic_->queue_full(0, true));
  h.run();
  EXPECT_FALSE(h.nic_->queue_full(0, false));
}

// Seed test 11: the same inputs give the same times.
TEST(NicModel, Deterministic) {
  auto run = [] {
    Harness h({"nic/drop=3,7", "nic/retry-timeout=30us"}, 4);
    for (int i = 0; i < 40; ++i)
      h.post(i, i % 3 ? OpType::kPut : OpType::kGet, static_cast<Bytes>(37 * i * i), i % 2 == 0, i % 4, (i + 1) % 4,
             SimTime::ps(i * 300 * kNs));
    h.run();
    std::string s;
    for (const Seen& e : h.seen_) s += std::to_string(e.op) + e.what + std::to_string(e.visible.ps()) + ";";
    return s;
  };
  EXPECT_EQ(run(), run());
}

TEST(NicModel, BadKeysNameTheKey) {
  auto err = [](const std::string& line) {
    Config cfg;
    register_nic_keys(cfg);
    try {
      cfg.set_assignment(line, SourceLoc{"--cfg", 0, 0});
      nic_params(cfg);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(err("nic/cq-depth=0").find("nic/cq-depth"), std::string::npos);
  EXPECT_NE(err("nic/drop=1,x").find("nic/drop"), std::string::npos);
  EXPECT_NE(err("nic/drop=0").find("nic/drop"), std::string::npos);
  EXPECT_NE(err("nic/pcie-bw=0").find("nic/pcie-bw"), std::string::npos);
  EXPECT_NE(err("nic/power-busy=-1").find("nic/power-busy"), std::string::npos);
  EXPECT_NE(err("nic/max-inflight-to-target=-2").find("nic/max-inflight-to-target"), std::string::npos);
  EXPECT_NE(err("nic/model=bxi").find("nic/model"), std::string::npos);
}

}  // namespace
}  // namespace simfab::nic
