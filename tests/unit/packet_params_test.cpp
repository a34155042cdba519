// The packet model's parameters (net/packet/packet_params.hpp): the packet/* keys' defaults as the
// header's table gives them, the values they parse into, and the InputErrors for bad values, each
// naming its key; and PacketNetwork's refusal of a VL that no arbitration table entry serves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "net/network_registry.hpp"
#include "net/packet/packet_network.hpp"
#include "net/packet/packet_params.hpp"
#include "platform/platform.hpp"

namespace simfab::packet {
namespace {

Config config(const std::vector<std::string>& lines) {
  Config cfg;
  register_network_keys(cfg);
  for (const auto& l : lines) cfg.set_assignment(l, {});
  return cfg;
}

PacketParams params(const std::vector<std::string>& lines = {}) { return packet_params(config(lines)); }

// packet_params() must throw an InputError whose message names `key` (and contains `detail`).
void expect_bad(const std::vector<std::string>& lines, const std::string& key, const std::string& detail = {}) {
  std::string context;
  for (const auto& l : lines) context += l + " ";
  try {
    (void)params(lines);
    ADD_FAILURE() << "no InputError for " << context;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(key), std::string::npos) << context << "-> " << msg;
    if (!detail.empty()) {
      EXPECT_NE(msg.find(detail), std::string::npos) << context << "-> " << msg;
    }
  }
}

TEST(PacketParams, RegisteredWithTheOtherModels) {
  Config cfg = config({});
  for (const char* k : {"packet/mtu", "packet/header", "packet/flit", "packet/vls", "packet/sl2vl", "packet/vlarb-low",
                        "packet/vlarb-high", "packet/high-limit", "packet/cc", "packet/check-credits"})
    EXPECT_TRUE(cfg.keys().count(k)) << k;
  cfg.set_assignment("network/model=packet", {});
  EXPECT_EQ(cfg.choice("network/model"), "packet");
}

TEST(PacketParams, Defaults) {
  const PacketParams p = params();
  EXPECT_EQ(p.mtu, 2176u);
  EXPECT_EQ(p.header, 20u);
  EXPECT_EQ(p.flit, 64u);
  EXPECT_EQ(p.payload(), 2156u);
  EXPECT_EQ(p.link_ps_per_byte, 0.0);  // each link's own bandwidth
  EXPECT_EQ(p.switch_latency.ps(), 27'000);
  EXPECT_EQ(p.vl_buffer, 8704u);  // 4 MTU packets
  EXPECT_EQ(p.vls, 1);
  for (int s = 0; s < 16; ++s) EXPECT_EQ(p.sl2vl[static_cast<size_t>(s)], 0) << "SL " << s;  // SL mod 1
  EXPECT_EQ(p.sl, 0);
  EXPECT_EQ(p.sl_large, 0);
  EXPECT_EQ(p.sl_threshold, 0u);
  EXPECT_TRUE(p.arb_high.empty());
  ASSERT_EQ(p.arb_low.size(), 1u);
  EXPECT_EQ(p.arb_low[0].vl, 0);
  EXPECT_EQ(p.arb_low[0].weight, 4);
  EXPECT_EQ(p.high_limit, 0);
  EXPECT_EQ(p.credit_period.ps(), 0);
  EXPECT_EQ(p.sink_ps_per_byte, 525.0);
  EXPECT_EQ(p.sink_packet_overhead.ps(), 32'000);
  EXPECT_FALSE(p.cc);
  EXPECT_DOUBLE_EQ(p.cc_threshold, 0.6);
  EXPECT_EQ(p.cc_marking_rate, 0);
  EXPECT_EQ(p.cc_cct_step.ps(), 1'000'000);
  EXPECT_EQ(p.cc_cct_size, 128);
  EXPECT_EQ(p.cc_increase, 1);
  EXPECT_EQ(p.cc_timer.ps(), 150'000'000);
  EXPECT_FALSE(p.check_credits);
  // Host overheads are LogGOPS's o, O, S; g and G are unused.
  EXPECT_EQ(p.host.o.ps(), 1500);
  EXPECT_EQ(p.host.S, 65535u);
  EXPECT_EQ(p.host.g.ps(), 0);
  EXPECT_EQ(p.host.G, 0.0);
}

TEST(PacketParams, BlocksRoundUpToFlits) {
  const PacketParams p = params();
  EXPECT_EQ(p.blocks(1), 1u);
  EXPECT_EQ(p.blocks(64), 1u);
  EXPECT_EQ(p.blocks(65), 2u);
  EXPECT_EQ(p.blocks(2176), 34u);
}

TEST(PacketParams, DefaultSl2VlIsSlModVlsAndDefaultLowTableWeighsEveryVl4) {
  const PacketParams p = params({"packet/vls=3"});
  for (int s = 0; s < 16; ++s) EXPECT_EQ(p.sl2vl[static_cast<size_t>(s)], s % 3) << "SL " << s;
  ASSERT_EQ(p.arb_low.size(), 3u);
  for (int v = 0; v < 3; ++v) {
    EXPECT_EQ(p.arb_low[static_cast<size_t>(v)].vl, v);
    EXPECT_EQ(p.arb_low[static_cast<size_t>(v)].weight, 4);
  }
  EXPECT_TRUE(p.arb_high.empty());
  const PacketParams q = params({"packet/vls=15"});
  EXPECT_EQ(q.arb_low.size(), 15u);
  EXPECT_EQ(q.sl2vl[15], 0);  // 15 mod 15
  EXPECT_EQ(q.sl2vl[14], 14);
}

TEST(PacketParams, ExplicitTablesParse) {
  const PacketParams p = params({"packet/vls=3", "packet/sl2vl=2,1, 0", "packet/vlarb-high=1:10, 0:255",
                                 "packet/vlarb-low=2:0,0:1", "packet/high-limit=255"});
  EXPECT_EQ(p.sl2vl[0], 2);
  EXPECT_EQ(p.sl2vl[1], 1);
  EXPECT_EQ(p.sl2vl[2], 0);
  EXPECT_EQ(p.sl2vl[3], 0);  // SLs the list leaves out keep SL mod VLs
  EXPECT_EQ(p.sl2vl[4], 1);
  ASSERT_EQ(p.arb_high.size(), 2u);
  EXPECT_EQ(p.arb_high[0].vl, 1);
  EXPECT_EQ(p.arb_high[0].weight, 10);
  EXPECT_EQ(p.arb_high[1].vl, 0);
  EXPECT_EQ(p.arb_high[1].weight, 255);
  ASSERT_EQ(p.arb_low.size(), 2u);
  EXPECT_EQ(p.arb_low[0].vl, 2);
  EXPECT_EQ(p.arb_low[0].weight, 0);
  EXPECT_EQ(p.high_limit, 255);
  EXPECT_TRUE(params({"packet/vlarb-low=none"}).arb_low.empty());
}

TEST(PacketParams, ServiceLevelOfAMessageBySize) {
  const PacketParams p = params({"packet/vls=3", "packet/sl=1", "packet/sl-large=2", "packet/sl-threshold=1000"});
  EXPECT_EQ(p.vl_of(0), 1);
  EXPECT_EQ(p.vl_of(1000), 1);  // "above" the threshold: 1000 is not
  EXPECT_EQ(p.vl_of(1001), 2);
  // Threshold 0: no large SL.
  const PacketParams q = params({"packet/vls=3", "packet/sl=1", "packet/sl-large=2"});
  EXPECT_EQ(q.vl_of(1'000'000), 1);
}

TEST(PacketParams, OtherValuesParse) {
  const PacketParams p =
      params({"packet/link-rate=16Gbps", "packet/switch-latency=100ns", "packet/mtu=4116", "packet/vl-buffer=4116",
              "packet/cc=true", "packet/cc-threshold=1", "packet/cc-marking-rate=3", "packet/check-credits=yes",
              "loggops/o=0", "loggops/S=1000000"});
  EXPECT_DOUBLE_EQ(p.link_ps_per_byte, 500.0);  // 2 GB/s
  EXPECT_EQ(p.switch_latency.ps(), 100'000);
  EXPECT_EQ(p.mtu, 4116u);
  EXPECT_EQ(p.payload(), 4096u);
  EXPECT_EQ(p.vl_buffer, 4116u);  // exactly one MTU is enough
  EXPECT_TRUE(p.cc);
  EXPECT_DOUBLE_EQ(p.cc_threshold, 1.0);
  EXPECT_EQ(p.cc_marking_rate, 3);
  EXPECT_TRUE(p.check_credits);
  EXPECT_EQ(p.host.o.ps(), 0);
  EXPECT_EQ(p.host.S, 1'000'000u);
}

TEST(PacketParams, BadSizesNameTheirKey) {
  expect_bad({"packet/vl-buffer=2175"}, "packet/vl-buffer");  // smaller than one 2176-B MTU
  expect_bad({"packet/mtu=4096", "packet/vl-buffer=4000"}, "packet/vl-buffer");
  expect_bad({"packet/header=2176"}, "packet/header");  // header >= mtu
  expect_bad({"packet/header=3000"}, "packet/header");
  expect_bad({"packet/mtu=70000", "packet/vl-buffer=70000"}, "packet/mtu");
  expect_bad({"packet/flit=0"}, "packet/flit");
  expect_bad({"packet/flit=8192"}, "packet/flit");
}

TEST(PacketParams, BadVlsAndSl2VlNameTheirKey) {
  expect_bad({"packet/vls=16"}, "packet/vls");  // VL15 is management
  expect_bad({"packet/vls=0"}, "packet/vls");
  expect_bad({"packet/sl2vl=0,1"}, "packet/sl2vl", "entry 1");  // vls=1: VL 1 does not exist
  expect_bad({"packet/vls=4", "packet/sl2vl=0,1,2,4"}, "packet/sl2vl", "entry 3");
  expect_bad({"packet/vls=2", "packet/sl2vl=0,x"}, "packet/sl2vl");
  expect_bad({"packet/vls=2", "packet/sl2vl=0,-1"}, "packet/sl2vl");
  expect_bad({"packet/vls=2", "packet/sl2vl=0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0"}, "packet/sl2vl");  // 17 SLs
  expect_bad({"packet/sl=16"}, "packet/sl");
  expect_bad({"packet/sl-large=-1"}, "packet/sl-large");
}

TEST(PacketParams, BadArbitrationTablesNameTheirKey) {
  expect_bad({"packet/vls=2", "packet/vlarb-low=0:4,2:4"}, "packet/vlarb-low", "VL 2");  // VL out of range
  expect_bad({"packet/vlarb-high=1:4"}, "packet/vlarb-high", "VL 1");                    // vls=1
  expect_bad({"packet/vlarb-high=0:256"}, "packet/vlarb-high", "256");                  // weight > 255
  expect_bad({"packet/vlarb-low=0:-1"}, "packet/vlarb-low");
  expect_bad({"packet/vlarb-low=0-4"}, "packet/vlarb-low", "0-4");  // malformed
  expect_bad({"packet/vlarb-low=0:4:1"}, "packet/vlarb-low");
  expect_bad({"packet/vlarb-low=0:"}, "packet/vlarb-low");
  expect_bad({"packet/vlarb-low=0:4,"}, "packet/vlarb-low");
  std::string many = "packet/vlarb-low=0:1";
  for (int i = 1; i < 65; ++i) many += ",0:1";  // 65 entries
  expect_bad({many}, "packet/vlarb-low", "64");
  expect_bad({"packet/high-limit=256"}, "packet/high-limit");
}

TEST(PacketParams, BadCongestionControlValuesNameTheirKey) {
  expect_bad({"packet/cc-threshold=0"}, "packet/cc-threshold");
  expect_bad({"packet/cc-threshold=1.5"}, "packet/cc-threshold");
  expect_bad({"packet/cc-threshold=abc"}, "packet/cc-threshold", "abc");
  expect_bad({"packet/cc-threshold=0.5x"}, "packet/cc-threshold");
  expect_bad({"packet/cc-threshold=-0.5"}, "packet/cc-threshold");
  expect_bad({"packet/cc-cct-size=0"}, "packet/cc-cct-size");
  expect_bad({"packet/cc-marking-rate=-1"}, "packet/cc-marking-rate");
  expect_bad({"packet/cc=true", "packet/cc-timer=0"}, "packet/cc-timer");
  // The timer may be 0 while congestion control is off.
  EXPECT_NO_THROW(params({"packet/cc-timer=0"}));
}

// PacketNetwork's constructor: every VL a message can use needs an arbitration entry with weight.
void build(const std::vector<std::string>& lines) {
  const PacketParams p = params(lines);
  const Platform platform = Platform::ideal(2);
  Engine engine;
  PacketNetwork net(engine, platform, p);
}

TEST(PacketParams, NetworkRejectsAVlWithoutArbitrationWeight) {
  // vls=2, SL 1 -> VL 1 (1 mod 2), but the low table serves only VL 0.
  try {
    build({"packet/vls=2", "packet/sl=1", "packet/vlarb-low=0:4"});
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("VL 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("SL 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("packet/vlarb-low"), std::string::npos) << msg;
  }
  // A weight-0 entry does not serve its VL.
  EXPECT_THROW(build({"packet/vls=2", "packet/sl=1", "packet/vlarb-low=0:4,1:0"}), InputError);
  // The large-message SL is checked too.
  EXPECT_THROW(build({"packet/vls=2", "packet/sl-large=1", "packet/sl-threshold=1000", "packet/vlarb-low=0:4"}),
               InputError);
  // No tables at all.
  EXPECT_THROW(build({"packet/vlarb-low=none"}), InputError);
  // Served by the low table, or by the high table alone: accepted.
  EXPECT_NO_THROW(build({"packet/vls=2", "packet/sl=1", "packet/vlarb-high=1:1", "packet/vlarb-low=0:4"}));
  EXPECT_NO_THROW(build({"packet/vls=2"}));
  EXPECT_NO_THROW(build({"packet/vls=2", "packet/sl-large=1", "packet/sl-threshold=1000", "packet/vlarb-low=0:4,1:4"}));
}

TEST(PacketParams, NetworkChecksTheLargeSlOnlyWhenAThresholdUsesIt) {
  // With packet/sl-threshold=0 no message uses packet/sl-large (vl_of), so its VL (SL 0 -> VL 0
  // by default) needs no weight: every message and CNP goes on SL 1 -> VL 1, which is served.
  EXPECT_NO_THROW(build({"packet/vls=2", "packet/sl=1", "packet/vlarb-low=1:4"}));
}

TEST(PacketParams, MakeNetworkBuildsThePacketModel) {
  Config cfg = config({"network/model=packet"});
  const Platform platform = Platform::ideal(2);
  Engine engine;
  auto net = make_network(engine, platform, cfg);
  ASSERT_NE(net, nullptr);
  EXPECT_STREQ(net->name(), "packet");
}

}  // namespace
}  // namespace simfab::packet
