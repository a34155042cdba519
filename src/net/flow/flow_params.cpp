#include "net/flow/flow_params.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "platform/xml_units.hpp"

namespace simfab::flow {

namespace {

// SimGrid 3.32's defaults for network/model:SMPI (network_cm02.cpp, smpi_config.cpp).
constexpr const char* kSmpiBwFactor =
    "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;"
    "257:0.338112;0:0.812084";
constexpr const char* kSmpiLatFactor =
    "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;"
    "0:2.01467";
constexpr Bytes kSmpiEnvelope = 16;       // smpi_request.cpp: "MPI envelope size (tag+dest+communicator)"
constexpr double kSmpiCrossTraffic = 0.05;

InputError bad_key(const Config& cfg, const char* key, const std::string& what) {
  return InputError(SourceLoc{"--cfg", 0, 0}, std::string("bad value for ") + key + ": " + what,
                    std::string(key) + "=" + cfg.value_text(key));
}

PiecewiseLinear table(const Config& cfg, const char* key, bool with_slope,
                      PiecewiseLinear::Dialect dialect = PiecewiseLinear::Dialect::kSimFab) {
  std::string err;
  auto t = PiecewiseLinear::parse(cfg.text(key), with_slope, err, dialect);
  if (!t) throw bad_key(cfg, key, err);
  return *t;
}

void require_positive_factors(const Config& cfg, const char* key, const PiecewiseLinear& t) {
  for (const auto& s : t.sections())
    if (s.a <= 0) throw bad_key(cfg, key, "factors must be > 0");
}

// A SimGrid quantity given as text: a bare number in the base unit (B/s, s) or with a unit.
double simgrid_quantity(const Config& cfg, const char* key, const std::vector<XmlUnit>& units, bool positive) {
  const auto v = parse_with(trim_blanks(cfg.text(key)), units);
  if (!v || *v < 0 || (positive && *v <= 0))
    throw bad_key(cfg, key, std::string("expected a ") + (positive ? "positive" : "non-negative") +
                                " number, bare (SimGrid's base unit) or with a unit: " + unit_list(units));
  return *v;
}

double plain_number(const Config& cfg, const char* key) {
  const std::string& text = cfg.text(key);
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v) || v < 0)
    throw bad_key(cfg, key, "expected a finite number >= 0");
  return v;
}

}  // namespace

void register_flow_keys(Config& cfg) {
  cfg.declare({"flow/os", CfgType::kText, "0:0:0",
               "flow model: sender CPU overhead of a blocking send per message size, sections "
               "min_size:seconds:seconds_per_byte;...", {}});
  cfg.declare({"flow/ois", CfgType::kText, "0:0:0",
               "flow model: sender CPU overhead of a non-blocking send (MPI_Isend), same form as flow/os", {}});
  cfg.declare({"flow/or", CfgType::kText, "0:0:0",
               "flow model: receiver CPU overhead per message size, same form as flow/os", {}});
  cfg.declare({"flow/lat-factor", CfgType::kText, "0:1",
               "flow model: factor on the route latency per message size, sections min_size:factor;...", {}});
  cfg.declare({"flow/bw-factor", CfgType::kText, "0:1",
               "flow model: factor on the bandwidth a message can use, sections min_size:factor;...", {}});
  cfg.declare({"flow/async-threshold", CfgType::kBytes, "65536",
               "flow model: messages of at most this many bytes are asynchronous (eager; seed 003 S_a)", {}});
  cfg.declare({"flow/detached-threshold", CfgType::kBytes, "327680",
               "flow model: larger messages up to this many bytes are detached (the sender does not wait, the "
               "data waits for the receive); beyond it they are synchronous (seed 003 S_d)", {}});
  cfg.declare({"flow/tcp-gamma", CfgType::kBytes, "0",
               "flow model: TCP window in bytes; a flow's rate is at most tcp-gamma / (2 * route latency); "
               "0 = no window bound (SimGrid's default is 4194304)", {}});
}

void register_smpi_keys(Config& cfg) {
  cfg.declare({"smpi/bw-factor", CfgType::kText, kSmpiBwFactor,
               "smpi model (SimGrid's key): factor on the data rate per payload size (size + 16 B), sections "
               "threshold:factor in any order, a section applying above its threshold", {}});
  cfg.declare({"smpi/lat-factor", CfgType::kText, kSmpiLatFactor,
               "smpi model (SimGrid's key): factor on the route latency per payload size, same form as "
               "smpi/bw-factor", {}});
  cfg.declare({"smpi/os", CfgType::kText, "0:0:0:0:0",
               "smpi model (SimGrid's key): sender CPU time of a blocking send, sections "
               "threshold:seconds:seconds_per_byte[:...] applying above their threshold", {}});
  cfg.declare({"smpi/ois", CfgType::kText, "0:0:0:0:0",
               "smpi model (SimGrid's key): sender CPU time of MPI_Isend, same form as smpi/os", {}});
  cfg.declare({"smpi/or", CfgType::kText, "0:0:0:0:0",
               "smpi model (SimGrid's key): receiver CPU time per message, same form as smpi/os", {}});
  cfg.declare({"smpi/async-small-thresh", CfgType::kBytes, "0",
               "smpi model (SimGrid's key): messages smaller than this are sent eagerly (0 = none)", {}});
  cfg.declare({"smpi/send-is-detached-thresh", CfgType::kBytes, "65536",
               "smpi model (SimGrid's key): sends smaller than this are detached (the sender does not "
               "wait); larger ones wait for the data to arrive", {}});
  cfg.declare({"network/TCP-gamma", CfgType::kBytes, "4194304",
               "smpi model (SimGrid's key): TCP window; a message's rate is at most TCP-gamma / (2 * route "
               "latency); 0 = no bound", {}});
  cfg.declare({"network/crosstraffic", CfgType::kBool, "yes",
               "smpi model (SimGrid's key): each message also loads its reverse route at 5 % of its rate", {}});
  cfg.declare({"network/weight-S", CfgType::kText, "8775",
               "smpi model (SimGrid's key): bandwidth sharing is weighted by 1 / (route latency + sum of "
               "weight-S / link bandwidth); 0 = by route latency alone", {}});
  cfg.declare({"network/loopback-bw", CfgType::kText, "10GBps",
               "smpi model (SimGrid's key): bandwidth of the loopback of a host without one in the platform "
               "(bare number: bytes/s)", {}});
  cfg.declare({"network/loopback-lat", CfgType::kText, "0",
               "smpi model (SimGrid's key): latency of that loopback (bare number: seconds)", {}});
}

FlowParams flow_params(const Config& cfg) {
  FlowParams p;
  p.model = "flow";
  p.os = table(cfg, "flow/os", true);
  p.ois = table(cfg, "flow/ois", true);
  p.orr = table(cfg, "flow/or", true);
  p.lat_factor = table(cfg, "flow/lat-factor", false);
  p.bw_factor = table(cfg, "flow/bw-factor", false);
  require_positive_factors(cfg, "flow/bw-factor", p.bw_factor);
  // Seed 003's thresholds are inclusive (k <= S_a is eager).
  const auto above = [](Bytes b) { return b == UINT64_MAX ? b : b + 1; };
  p.eager_below = above(cfg.bytes("flow/async-threshold"));
  p.detached_below = above(cfg.bytes("flow/detached-threshold"));
  if (p.eager_below > p.detached_below)
    throw bad_key(cfg, "flow/async-threshold",
                  "it must not exceed flow/detached-threshold (" + cfg.value_text("flow/detached-threshold") + " B)");
  p.tcp_gamma = static_cast<double>(cfg.bytes("flow/tcp-gamma"));
  return p;
}

FlowParams smpi_params(const Config& cfg) {
  constexpr auto kSimGrid = PiecewiseLinear::Dialect::kSimGrid;
  FlowParams p;
  p.model = "smpi";
  p.os = table(cfg, "smpi/os", true, kSimGrid);
  p.ois = table(cfg, "smpi/ois", true, kSimGrid);
  p.orr = table(cfg, "smpi/or", true, kSimGrid);
  p.lat_factor = table(cfg, "smpi/lat-factor", false, kSimGrid);
  p.bw_factor = table(cfg, "smpi/bw-factor", false, kSimGrid);
  require_positive_factors(cfg, "smpi/bw-factor", p.bw_factor);
  p.eager_below = cfg.bytes("smpi/async-small-thresh");
  p.detached_below = cfg.bytes("smpi/send-is-detached-thresh");
  if (p.eager_below > p.detached_below)  // SimGrid refuses it too (smpi_config.cpp)
    throw bad_key(cfg, "smpi/async-small-thresh",
                  "it must not exceed smpi/send-is-detached-thresh (" + cfg.value_text("smpi/send-is-detached-thresh") +
                      " B)");
  p.tcp_gamma = static_cast<double>(cfg.bytes("network/TCP-gamma"));
  p.factor_scales_rate = true;
  p.cross_traffic = cfg.boolean("network/crosstraffic") ? kSmpiCrossTraffic : 0;
  p.penalty_weights = true;
  p.weight_s = plain_number(cfg, "network/weight-S");
  p.envelope = kSmpiEnvelope;
  p.order_matched_data = false;
  p.overheads_if_detached = true;
  p.loopback_bw = simgrid_quantity(cfg, "network/loopback-bw", kBandwidthUnits, true);
  p.loopback_latency = SimTime::from_seconds(simgrid_quantity(cfg, "network/loopback-lat", kTimeUnits, false));
  return p;
}

}  // namespace simfab::flow
