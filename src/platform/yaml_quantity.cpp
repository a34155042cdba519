#include "platform/yaml_quantity.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "core/units.hpp"

namespace simfab {

namespace {

// How to read and describe one kind of quantity.
struct QuantityKind {
  std::string_view noun;
  std::string_view units;  // accepted suffixes, for messages
  std::string_view bare;   // unit of a bare number
};

constexpr QuantityKind kSpeedKind{"speed", "f kf Mf Gf Tf Pf, flops kflops Mflops Gflops Tflops Pflops",
                                  "flop/s"};
constexpr QuantityKind kBandwidthKind{
    "bandwidth", "Bps kBps MBps GBps TBps KiBps MiBps GiBps, bps kbps Mbps Gbps Tbps", "bytes/s"};
constexpr QuantityKind kLatencyKind{"latency", "ps ns us ms s m h", "ps"};

std::string str(std::string_view s) { return std::string(s); }

std::string expected(const QuantityKind& kind) {
  return "a " + str(kind.noun) + ": a number with one of the units " + str(kind.units) +
         " (a bare number is " + str(kind.bare) + ")";
}

bool is_negative(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s.starts_with('-') && units::split_number(s.substr(1));
}

std::string bad_quantity(const QuantityKind& kind, const std::string& s) {
  return "bad " + str(kind.noun) + " '" + s + "'; expected " + expected(kind);
}

double positive_rate(const YamlMap& m, const YamlField& f, const QuantityKind& kind,
                     std::optional<double> (*parse)(std::string_view)) {
  const std::string& s = m.scalar(f, expected(kind));
  std::optional<double> v = parse(s);
  if (!v && is_negative(s)) throw m.error(f, str(kind.noun) + " must be > 0, got '" + s + "'");
  if (!v) throw m.error(f, bad_quantity(kind, s));
  if (*v <= 0) throw m.error(f, str(kind.noun) + " must be > 0, got '" + s + "'");
  return *v;
}

}  // namespace

double read_speed(const YamlMap& m, const YamlField& f) {
  return positive_rate(m, f, kSpeedKind, units::parse_speed);
}

double read_bandwidth(const YamlMap& m, const YamlField& f) {
  return positive_rate(m, f, kBandwidthKind, units::parse_bandwidth);
}

SimTime read_latency(const YamlMap& m, const YamlField& f) {
  const std::string& s = m.scalar(f, expected(kLatencyKind));
  std::optional<SimTime> v = units::parse_time(s);
  if (v) return *v;
  if (is_negative(s)) throw m.error(f, "latency must not be negative, got '" + s + "'");
  // A known unit that still fails is a value too large for 64-bit picoseconds.
  auto parts = units::split_number(s);
  if (parts && units::parse_time("1" + str(parts->second)))
    throw m.error(f, "latency '" + s + "' is out of range; at most about 106 days (9.2e18 ps)");
  throw m.error(f, bad_quantity(kLatencyKind, s));
}

}  // namespace simfab
