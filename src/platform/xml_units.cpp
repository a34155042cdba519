#include "platform/xml_units.hpp"

#include <cmath>
#include <initializer_list>
#include <utility>

#include "core/units.hpp"

namespace simfab {

namespace {
// SimGrid's unit tables: decimal prefixes k M G T P E Z Y, binary Ki .. Yi for bandwidths.
std::vector<XmlUnit> with_prefixes(std::initializer_list<XmlUnit> bases, bool binary) {
  static const std::vector<std::pair<std::string_view, double>> kDecimal = {
      {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}, {"Z", 1e21}, {"Y", 1e24}};
  static const std::vector<std::pair<std::string_view, double>> kBinary = {
      {"Ki", 0x1p10}, {"Mi", 0x1p20}, {"Gi", 0x1p30}, {"Ti", 0x1p40},
      {"Pi", 0x1p50}, {"Ei", 0x1p60}, {"Zi", 0x1p70}, {"Yi", 0x1p80}};
  std::vector<XmlUnit> out = {{"", 1}};
  for (const XmlUnit& b : bases) {
    out.push_back(b);
    for (const auto* table : {&kDecimal, &kBinary}) {
      if (table == &kBinary && !binary) continue;
      for (const auto& [prefix, factor] : *table) {
        out.push_back(XmlUnit{std::string(prefix) + b.suffix, factor * b.factor});
      }
    }
  }
  return out;
}

}  // namespace

const std::vector<XmlUnit> kSpeedUnits = with_prefixes({{"f", 1}, {"flops", 1}}, false);
const std::vector<XmlUnit> kBandwidthUnits = with_prefixes({{"Bps", 1}, {"bps", 1 / 8.0}}, true);
const std::vector<XmlUnit> kTimeUnits = {{"", 1},      {"ps", 1e-12}, {"ns", 1e-9},   {"us", 1e-6},
                                      {"ms", 1e-3}, {"s", 1},      {"m", 60},      {"h", 3600},
                                      {"d", 86400}, {"w", 604800}};

std::optional<double> parse_with(std::string_view text, const std::vector<XmlUnit>& units) {
  auto split = units::split_number(text);
  if (!split) return std::nullopt;
  for (const XmlUnit& u : units)
    if (u.suffix == split->second) {
      double v = split->first * u.factor;
      if (!std::isfinite(v)) return std::nullopt;
      return v;
    }
  return std::nullopt;
}

std::string unit_list(const std::vector<XmlUnit>& units) {
  if (&units == &kSpeedUnits) return "f or flops with an optional prefix k M G T P E Z Y (e.g. 100Mf, 2Gflops)";
  if (&units == &kBandwidthUnits)
    return "Bps (bytes/s) or bps (bits/s) with an optional prefix k M G T P E Z Y or Ki Mi Gi Ti Pi Ei Zi Yi "
           "(e.g. 1.25GBps, 10Gbps, 1KiBps)";
  return "ps ns us ms s m h d w (e.g. 1us); a bare number is seconds";
}

std::string trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split_fields(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  while (true) {
    size_t e = s.find(sep, b);
    out.push_back(trim_blanks(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b)));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

}  // namespace simfab
