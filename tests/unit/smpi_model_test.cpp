// network/model=smpi against SimGrid 3.32: every expected time below was measured with
//   smpirun -np N -platform P.xml -hostfile H -replay list.txt --cfg=smpi/display-timing:yes
// (Debian libsimgrid-dev 3.32, default configuration). "Simulated time" has 6 significant digits,
// hence a tolerance of half a unit in the 6th. The platforms are written inline; the traces are SimGrid
// 3.32 time-independent traces. flow_params.hpp lists the rules these cases pin down.
#include <gtest/gtest.h>

#include <cmath>

#include "core/config.hpp"
#include "core/error.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

// Two hosts, one 1 GBps / 10 us link, Full routing (smpirun's usual test platform).
const char* kTwoHosts = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="10us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
</platform>
)";

// Four hosts: a -> c over la, bb, lc and b -> d over lb, bb, ld (the backbone bb is shared).
std::string four_hosts(const std::string& la, const std::string& lb, const std::string& bb_bw,
                       const std::string& policy) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
         "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/><host id=\"c\" speed=\"1Gf\"/>"
         "<host id=\"d\" speed=\"1Gf\"/>\n"
         "<link id=\"la\" bandwidth=\"1GBps\" latency=\"" + la + "\" sharing_policy=\"" + policy + "\"/>\n"
         "<link id=\"lb\" bandwidth=\"1GBps\" latency=\"" + lb + "\" sharing_policy=\"" + policy + "\"/>\n"
         "<link id=\"lc\" bandwidth=\"1GBps\" latency=\"1us\" sharing_policy=\"" + policy + "\"/>\n"
         "<link id=\"ld\" bandwidth=\"1GBps\" latency=\"1us\" sharing_policy=\"" + policy + "\"/>\n"
         "<link id=\"bb\" bandwidth=\"" + bb_bw + "\" latency=\"1us\" sharing_policy=\"" + policy + "\"/>\n"
         "<route src=\"a\" dst=\"c\"><link_ctn id=\"la\"/><link_ctn id=\"bb\"/><link_ctn id=\"lc\"/></route>\n"
         "<route src=\"b\" dst=\"d\"><link_ctn id=\"lb\"/><link_ctn id=\"bb\"/><link_ctn id=\"ld\"/></route>\n"
         "<route src=\"a\" dst=\"b\"><link_ctn id=\"la\"/><link_ctn id=\"lb\"/></route>\n"
         "<route src=\"c\" dst=\"d\"><link_ctn id=\"lc\"/><link_ctn id=\"ld\"/></route>\n"
         "<route src=\"a\" dst=\"d\"><link_ctn id=\"la\"/><link_ctn id=\"bb\"/><link_ctn id=\"ld\"/></route>\n"
         "<route src=\"b\" dst=\"c\"><link_ctn id=\"lb\"/><link_ctn id=\"bb\"/><link_ctn id=\"lc\"/></route>\n"
         "</zone>\n</platform>\n";
}

double run_smpi(const std::string& platform_xml, const std::string& hosts, const std::string& trace,
                const std::vector<std::string>& cfg_lines = {}) {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", "smpi", {});
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  SimulationInput in;
  in.platform_path = write_test_file("p.xml", platform_xml);
  in.hostfile_path = write_test_file("hosts", hosts);
  in.trace_path = write_test_file("t.ti", trace);
  return run_simulation(in, cfg).exec.makespan.seconds();
}

std::string one_send(Bytes size) {
  const std::string k = std::to_string(size);
  return "0 init\n1 init\n0 send 1 0 " + k + "\n1 recv 0 0 " + k + "\n0 finalize\n1 finalize\n";
}

// smpirun prints %g: 6 significant digits, so the true value is within half a unit of the 6th.
void expect_smpirun(double simfab_s, double smpirun_s) {
  const double half_unit = 0.5 * std::pow(10.0, std::floor(std::log10(smpirun_s)) - 5);
  EXPECT_NEAR(simfab_s, smpirun_s, half_unit) << "smpirun says " << smpirun_s;
}

TEST(SmpiModel, OneMessageMatchesSmpirunAcrossTheFactorSections) {
  // latency 10 us * lat_factor(k + 16) + (k + 16) / (1 GBps / 1.05 cross traffic * bw_factor(k + 16)):
  // 241 B (payload 257) is still in the first section, 242 B is not; 65470 B is in the last one.
  const std::pair<Bytes, double> cases[] = {{0, 2.01674e-05},      {241, 2.0479e-05},     {242, 2.03353e-05},
                                            {1000, 2.26224e-05},   {65470, 0.000189531},  {100000, 0.000228074}};
  for (auto [size, smpirun] : cases) {
    SCOPED_TRACE(size);
    expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", one_send(size)), smpirun);
  }
}

TEST(SmpiModel, RanksOnOneHostUseSimGridsDefaultLoopback) {
  // 10 GBps fatpipe, no latency, no cross traffic on it: (1e6 + 16) / (1e10 * 0.940694).
  expect_smpirun(run_smpi(kTwoHosts, "a\na\n", one_send(1000000)), 0.000106306);
}

TEST(SmpiModel, RanksOnOneClusterHostGoUpThroughTheBackboneAndDown) {
  // A SimGrid cluster without loopback routes a host to itself over its private link up, the
  // backbone and the link down; over a SHARED private link that is the same link twice (used at
  // 2 + 2 * 0.05 by the message and its cross traffic).
  auto cluster = [](const std::string& policy) {
    return "<?xml version='1.0'?>\n<platform version=\"4.1\"><zone id=\"world\" routing=\"Full\">"
           "<cluster id=\"c\" prefix=\"node\" suffix=\"\" radical=\"0-3\" speed=\"10Gf\" bw=\"100Gbps\" "
           "lat=\"1us\" bb_bw=\"400Gbps\" bb_lat=\"500ns\"" + policy + "/></zone></platform>\n";
  };
  expect_smpirun(run_smpi(cluster(""), "node0\nnode0\n", one_send(1000000)), 0.000118406);
  expect_smpirun(run_smpi(cluster(" sharing_policy=\"SHARED\""), "node0\nnode0\n", one_send(1000000)), 0.000106763);
  const char* two = "0 init\n1 init\n2 init\n0 isend 1 0 1000000\n0 isend 2 0 1000000\n0 waitall\n"
                    "1 recv 0 0 1000000\n2 recv 0 0 1000000\n0 finalize\n1 finalize\n2 finalize\n";
  expect_smpirun(run_smpi(cluster(""), "node0\nnode0\nnode1\n", two), 0.000203451);
  expect_smpirun(run_smpi(cluster(" sharing_policy=\"SHARED\""), "node0\nnode0\nnode1\n", two), 0.00019606);
}

TEST(SmpiModel, DetachedAndSynchronousSendsWithALateReceiver) {
  // The receiver computes 1 ms before posting. Below 64 KiB the sender is free at once (makespan
  // 1 ms + the message); above, it waits for the data, then computes its own 1 ms.
  auto trace = [](Bytes size) {
    const std::string k = std::to_string(size);
    return "0 init\n1 init\n0 send 1 0 " + k + "\n0 compute 1000000\n1 compute 1000000\n1 recv 0 0 " + k +
           "\n0 finalize\n1 finalize\n";
  };
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", trace(1000)), 0.00102262);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", trace(100000)), 0.00222807);
}

TEST(SmpiModel, SharingIsWeightedByLatencyAndWeightS) {
  // Two messages cross the backbone together; their shares follow 1 / (latency + sum 8775 / bw).
  struct Case {
    const char *la, *lb, *bb, *policy;
    Bytes s1, s2;
    double smpirun;
  };
  const Case cases[] = {{"10us", "10us", "1GBps", "SHARED", 1000000, 1000000, 0.00237215},
                        {"10us", "100us", "1GBps", "SHARED", 1000000, 3000000, 0.00460455},
                        {"1us", "300us", "100MBps", "SHARED", 1000000, 3000000, 0.0446832},
                        {"1us", "300us", "100MBps", "FATPIPE", 1000000, 3000000, 0.0354079}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.lb) + " " + c.bb + " " + c.policy);
    const std::string k1 = std::to_string(c.s1), k2 = std::to_string(c.s2);
    const std::string trace = "0 init\n1 init\n2 init\n3 init\n0 send 2 0 " + k1 + "\n1 send 3 0 " + k2 +
                              "\n2 recv 0 0 " + k1 + "\n3 recv 1 0 " + k2 +
                              "\n0 finalize\n1 finalize\n2 finalize\n3 finalize\n";
    expect_smpirun(run_smpi(four_hosts(c.la, c.lb, c.bb, c.policy), "a\nb\nc\nd\n", trace), c.smpirun);
  }
}

TEST(SmpiModel, MatchedDataIsNotHeldInStreamOrder) {
  // 60000 B then 20000 B to the same rank, both matched at once: the small one arrives first, so
  // the receiver's 1 ms of compute starts before the large one is in.
  const char* trace =
      "0 init\n1 init\n0 isend 1 0 60000\n0 isend 1 1 20000\n0 waitall\n1 irecv 0 0 60000\n1 irecv 0 1 20000\n"
      "1 wait 0 1 1\n1 compute 1000000\n1 wait 0 1 0\n0 finalize\n1 finalize\n";
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", trace), 0.00109512);
}

TEST(SmpiModel, SimGridKeysTurnTheModelIntoItsClosedForm) {
  // Factors 1, no cross traffic, no window: 10 us + (1e6 + 16) B / 1 GBps, to the picosecond.
  const double t = run_smpi(kTwoHosts, "a\nb\n", one_send(1000000),
                            {"smpi/bw-factor:0:1", "smpi/lat-factor:0:1", "network/crosstraffic:no",
                             "network/TCP-gamma:0"});
  EXPECT_DOUBLE_EQ(t, 10e-6 + 1000016e-9);
}

TEST(SmpiModel, OverheadsApplyAsSmpiRequestChargesThem) {
  // 10 us of smpi/os, smpi/ois or smpi/or: a blocking send pays os and the receive pays or only
  // when the message is detached (1000 B), not when it is synchronous (65536 B); MPI_Isend pays
  // ois at any size, and never os.
  const std::string send_1000 = one_send(1000), send_65536 = one_send(65536);
  auto isend = [](Bytes size) {
    const std::string k = std::to_string(size);
    return "0 init\n1 init\n0 isend 1 0 " + k + "\n0 compute 1000\n0 waitall\n1 recv 0 0 " + k +
           "\n0 finalize\n1 finalize\n";
  };
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", send_1000, {"smpi/os:0:1e-5:0"}), 3.26224e-05);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", send_1000, {"smpi/or:0:1e-5:0"}), 3.26224e-05);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", send_65536, {"smpi/os:0:1e-5:0"}), 0.000189605);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", send_65536, {"smpi/or:0:1e-5:0"}), 0.000189605);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", isend(1000), {"smpi/ois:0:1e-5:0"}), 3.26224e-05);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", isend(1000), {"smpi/os:0:1e-5:0"}), 2.26224e-05);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", isend(100000), {"smpi/ois:0:1e-5:0"}), 0.000238074);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\n", isend(100000), {"smpi/or:0:1e-5:0"}), 0.000228074);
}

TEST(SmpiModel, CollectivesDefaultToSimGridsSelector) {
  // A 100000-byte bcast from rank 0 on three ranks (hosts a, b, a): SimGrid's default binomial
  // tree, unless the run picks another selector.
  const char* trace = "0 init\n1 init\n2 init\n0 bcast 100000 0\n1 bcast 100000 0\n2 bcast 100000 0\n"
                      "0 finalize\n1 finalize\n2 finalize\n";
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\na\n", trace), 0.000238706);
  expect_smpirun(run_smpi(kTwoHosts, "a\nb\na\n", trace, {"smpi/coll-selector:default"}), 0.000238706);
  EXPECT_LT(run_smpi(kTwoHosts, "a\nb\na\n", trace, {"mpi/coll-selector=schedgen"}), 0.000230);
}

TEST(SmpiModel, BadSimGridValuesAreInputErrors) {
  EXPECT_THROW(run_smpi(kTwoHosts, "a\nb\n", one_send(10), {"smpi/async-small-thresh:100000"}), InputError);
  EXPECT_THROW(run_smpi(kTwoHosts, "a\nb\n", one_send(10), {"smpi/bw-factor:0:0"}), InputError);
  EXPECT_THROW(run_smpi(kTwoHosts, "a\nb\n", one_send(10), {"network/loopback-bw:fast"}), InputError);
  EXPECT_THROW(run_smpi(kTwoHosts, "a\nb\n", one_send(10), {"network/weight-S:-1"}), InputError);
}

}  // namespace
}  // namespace simfab
