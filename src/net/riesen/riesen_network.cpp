#include "net/riesen/riesen_network.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/error.hpp"

namespace simfab {

namespace {

double number(const Config& cfg, const char* key, bool positive) {
  const std::string& v = cfg.text(key);
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(x) || x < 0 || (positive && x == 0))
    throw InputError(SourceLoc{key, 0, 0}, std::string("expected a ") + (positive ? "positive" : "non-negative") +
                                               " number, got '" + v + "'");
  return x;
}

}  // namespace

void register_riesen_keys(Config& cfg) {
  cfg.declare({"hybrid/bw-scale", CfgType::kText, "1",
               "network/model=riesen (seed 002): alpha in delta = s / (alpha B) + beta L; 2 = twice the bandwidth",
               {}});
  cfg.declare({"hybrid/lat-scale", CfgType::kText, "1",
               "network/model=riesen (seed 002): beta in delta = s / (alpha B) + beta L; 0.5 = half the latency", {}});
  cfg.declare({"hybrid/coll-scale", CfgType::kText, "1",
               "network/model=riesen (seed 002): the delay of a collective's messages is gamma x delta; 0 = "
               "zero-cost collectives",
               {}});
}

RiesenParams riesen_params(const Config& cfg) {
  return RiesenParams{number(cfg, "hybrid/bw-scale", true), number(cfg, "hybrid/lat-scale", false),
                      number(cfg, "hybrid/coll-scale", false)};
}

RiesenNetwork::RiesenNetwork(Engine& engine, const Platform& platform, RiesenParams p, EventKinds kinds)
    : Network(kinds), engine_(engine), platform_(platform), p_(p) {}

SimTime RiesenNetwork::delay(HostId a, HostId b, Bytes size, bool collective) const {
  const auto r = platform_.route_summary(a, b);
  if (!r)
    throw InputError(SourceLoc{platform_.source(), 0, 0}, "no route between host '" + platform_.host(a).name +
                                                              "' and host '" + platform_.host(b).name + "'");
  const double transfer_s = std::isfinite(r->bandwidth_Bps) && r->bandwidth_Bps > 0
                                ? static_cast<double>(size) / (p_.bw_scale * r->bandwidth_Bps)
                                : 0;
  double ps = transfer_s * 1e12 + p_.lat_scale * static_cast<double>(r->latency.ps());
  if (collective) ps *= p_.coll_scale;
  if (!(ps < static_cast<double>(std::numeric_limits<int64_t>::max() / 2)))
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds: a message of " +
                                      std::to_string(size) + " B takes too long under network/model=riesen");
  return SimTime::ps(std::llround(ps));
}

void RiesenNetwork::transfer(const NetMessage& m) {
  SimTime arrival = m.issued + delay(m.src, m.dst, m.size, m.collective);
  SimTime& last = last_[m.stream];
  if (arrival < last) arrival = last;  // never overtakes its stream's previous message
  last = arrival;
  engine_.schedule(arrival, kinds_.delivery, m.token);
}

std::vector<std::pair<std::string, std::string>> RiesenNetwork::derived_parameters() const {
  return {{"B", "per host pair: bandwidth of the route's slowest link"},
          {"L", "per host pair: sum of the route's link latencies"}};
}

}  // namespace simfab
