#include "core/units.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace simfab::units {

namespace {

struct Suffix {
  std::string_view name;
  double factor;
};

template <size_t N>
std::optional<double> scaled(std::string_view text, const Suffix (&table)[N], bool bare_ok) {
  auto parts = split_number(text);
  if (!parts) return std::nullopt;
  auto [value, suffix] = *parts;
  if (suffix.empty()) return bare_ok ? std::optional<double>(value) : std::nullopt;
  for (const auto& s : table)
    if (s.name == suffix) return value * s.factor;
  return std::nullopt;
}

constexpr Suffix kTime[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12},
                            {"m", 60e12}, {"h", 3600e12}};
constexpr Suffix kBandwidth[] = {
    {"Bps", 1},       {"kBps", 1e3},          {"MBps", 1e6},         {"GBps", 1e9},
    {"TBps", 1e12},   {"KiBps", 1024.0},      {"MiBps", 1048576.0},  {"GiBps", 1073741824.0},
    {"bps", 0.125},   {"kbps", 125.0},        {"Mbps", 125e3},       {"Gbps", 125e6},
    {"Tbps", 125e9}};
constexpr Suffix kBytes[] = {{"B", 1},     {"b", 1},          {"kB", 1e3},          {"MB", 1e6},
                             {"GB", 1e9},  {"KiB", 1024.0},   {"MiB", 1048576.0},   {"GiB", 1073741824.0}};
constexpr Suffix kSpeed[] = {{"f", 1},        {"kf", 1e3},      {"Mf", 1e6},       {"Gf", 1e9},
                             {"Tf", 1e12},    {"Pf", 1e15},     {"flops", 1},      {"kflops", 1e3},
                             {"Mflops", 1e6}, {"Gflops", 1e9},  {"Tflops", 1e12},  {"Pflops", 1e15}};

// Largest value that converts to int64 picoseconds without overflow, with margin.
constexpr double kMaxPs = 9.2e18;

}  // namespace

std::optional<std::pair<double, std::string_view>> split_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || !std::isfinite(value) || value < 0) return std::nullopt;
  std::string_view suffix(ptr, static_cast<size_t>(text.data() + text.size() - ptr));
  return std::make_pair(value, suffix);
}

std::optional<SimTime> parse_time(std::string_view text) {
  auto ps = scaled(text, kTime, true);
  if (!ps || *ps > kMaxPs) return std::nullopt;
  return SimTime::ps(std::llround(*ps));
}

std::optional<double> parse_ps_per_byte(std::string_view text) {
  if (auto per_byte = scaled(text, kTime, true)) return per_byte;
  auto bw = scaled(text, kBandwidth, false);
  if (!bw || *bw <= 0) return std::nullopt;
  return 1e12 / *bw;
}

std::optional<Bytes> parse_bytes(std::string_view text) {
  auto b = scaled(text, kBytes, true);
  if (!b || *b > 9.2e18) return std::nullopt;
  return static_cast<Bytes>(std::llround(*b));
}

std::optional<double> parse_bandwidth(std::string_view text) { return scaled(text, kBandwidth, true); }

std::optional<double> parse_speed(std::string_view text) { return scaled(text, kSpeed, true); }

std::optional<SimTime> parse_time_or_seconds(std::string_view s) {
  double seconds = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), seconds);
  if (!s.empty() && ec == std::errc() && end == s.data() + s.size() && seconds >= 0 && seconds < 9.2e6)
    return SimTime::from_seconds(seconds);
  const auto t = parse_time(s);
  if (!t || *t < SimTime::zero()) return std::nullopt;
  return t;
}

}  // namespace simfab::units
