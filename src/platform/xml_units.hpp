// SimGrid's units for platform XML quantities, and the small text helpers its attribute lists
// need. SimGrid reads a bare number as the base unit: flop/s for speeds, bytes/s for bandwidths
// and SECONDS for latencies (simfab's YAML reads bare latencies as picoseconds).
//   speed      f, flops, with a decimal prefix k M G T P E Z Y (100Mf, 2Gflops)
//   bandwidth  Bps, bps (= Bps / 8), with a decimal prefix or a binary one Ki .. Yi
//   time       ps ns us ms s m h d w
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simfab {

struct XmlUnit {
  std::string suffix;
  double factor;  // of the base unit
};

extern const std::vector<XmlUnit> kSpeedUnits;
extern const std::vector<XmlUnit> kBandwidthUnits;
extern const std::vector<XmlUnit> kTimeUnits;

// The value of "<number><suffix>" in the base unit; nullopt for an unknown suffix, a malformed
// number or a non-finite result.
std::optional<double> parse_with(std::string_view text, const std::vector<XmlUnit>& units);
// The accepted units of one of the tables above, for error messages.
std::string unit_list(const std::vector<XmlUnit>& units);

// `s` without leading and trailing blanks (spaces, tabs).
std::string trim_blanks(std::string_view s);
// The `sep`-separated fields of `s`, each trimmed ("1Gf, 2Gf" -> {"1Gf", "2Gf"}).
std::vector<std::string> split_fields(std::string_view s, char sep);

}  // namespace simfab
