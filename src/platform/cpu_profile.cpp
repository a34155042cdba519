#include "platform/cpu_profile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "core/units.hpp"
#include "core/trim.hpp"

namespace simfab {
namespace {

std::string watts(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g W", w);
  return buf;
}

bool parse_number(std::string_view s, double* out) {
  const std::string text(trim_blanks(s));
  if (text.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return *end == '\0' && std::isfinite(*out);
}

}  // namespace

CpuProfileError diagnose_cpu_profile(const CpuProfile& p) {
  using Field = CpuProfileError::Field;
  auto fail = [](Field f, int pstate, std::string text) { return CpuProfileError{f, pstate, std::move(text)}; };
  if (p.speeds.empty()) return fail(Field::kSpeeds, -1, "no speed: a host needs at least one pstate");
  for (size_t i = 0; i < p.speeds.size(); ++i)
    if (!(p.speeds[i] >= 0) || !std::isfinite(p.speeds[i]))
      return fail(Field::kSpeeds, static_cast<int>(i),
                  "pstate " + std::to_string(i) + ": the speed must be a number of flop/s >= 0");
  if (p.initial_pstate < 0 || p.initial_pstate >= p.pstates())
    return fail(Field::kInitialPstate, p.initial_pstate,
                "pstate " + std::to_string(p.initial_pstate) + " is out of range: the host has " +
                    std::to_string(p.pstates()) + " pstate" + (p.pstates() == 1 ? "" : "s") + " (0 to " +
                    std::to_string(p.pstates() - 1) + ")");
  if (!(p.speeds[static_cast<size_t>(p.initial_pstate)] > 0))
    return fail(Field::kInitialPstate, p.initial_pstate,
                "pstate " + std::to_string(p.initial_pstate) +
                    " has speed 0 (a booting or off state), so it cannot be the pstate the host starts in");
  if (!p.power.empty() && p.power.size() != p.speeds.size())
    return fail(Field::kPower, -1,
                std::to_string(p.power.size()) + " power triple" + (p.power.size() == 1 ? "" : "s") + " for " +
                    std::to_string(p.speeds.size()) + " speed" + (p.speeds.size() == 1 ? "" : "s") +
                    ": give one Idle:OneCore:AllCores triple per pstate");
  for (size_t i = 0; i < p.power.size(); ++i) {
    const PstatePower& w = p.power[i];
    const std::string at = "pstate " + std::to_string(i) + ": ";
    const char* names[] = {"Idle", "OneCore", "AllCores"};
    const double values[] = {w.idle_w, w.one_core_w, w.all_cores_w};
    for (int k = 0; k < 3; ++k)
      if (!(values[k] >= 0) || !std::isfinite(values[k]))
        return fail(Field::kPower, static_cast<int>(i),
                    at + names[k] + " power " + watts(values[k]) + " must be a finite number >= 0");
    if (w.all_cores_w < w.one_core_w)
      return fail(Field::kPower, static_cast<int>(i),
                  at + "AllCores " + watts(w.all_cores_w) + " is below OneCore " + watts(w.one_core_w) +
                      ": power cannot fall as more cores work");
  }
  if (!(p.power_off_w >= 0) || !std::isfinite(p.power_off_w))
    return fail(Field::kPowerOff, -1,
                "the power when off (" + watts(p.power_off_w) + ") must be a finite number >= 0");
  for (const auto& [t, field, name] : {std::tuple{&p.boot, Field::kBoot, "boot"},
                                       std::tuple{&p.shutdown, Field::kShutdown, "shutdown"}}) {
    if (!(t->time_s >= 0) || !std::isfinite(t->time_s))
      return fail(field, -1, std::string("the ") + name + " time (" + std::to_string(t->time_s) +
                                 " s) must be a finite number >= 0");
    if (!(t->energy_j >= 0) || !std::isfinite(t->energy_j))
      return fail(field, -1, std::string("the ") + name + " energy (" + std::to_string(t->energy_j) +
                                 " J) must be a finite number >= 0");
  }
  for (size_t i = 0; i < p.cstates.size(); ++i) {
    const CState& c = p.cstates[i];
    if (!(c.power_w >= 0) || !std::isfinite(c.power_w) || !(c.latency_s >= 0) || !std::isfinite(c.latency_s))
      return fail(Field::kCStates, -1, "C-state " + c.name + ": power and latency must be finite numbers >= 0");
    if (i > 0 && (c.power_w > p.cstates[i - 1].power_w || c.latency_s < p.cstates[i - 1].latency_s))
      return fail(Field::kCStates, -1, "C-state " + c.name + " is listed after " + p.cstates[i - 1].name +
                                           ": a deeper state draws no more and takes no less time to leave");
  }
  return {};
}

std::string check_cpu_profile(const CpuProfile& p) { return diagnose_cpu_profile(p).text; }

std::optional<std::vector<CState>> parse_cstates(std::string_view text, std::string* error) {
  std::vector<CState> out;
  size_t pos = 0;
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string_view item = trim_blanks(text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos));
    const size_t c1 = item.find(':'), c2 = c1 == std::string_view::npos ? c1 : item.find(':', c1 + 1);
    if (c2 == std::string_view::npos || item.find(':', c2 + 1) != std::string_view::npos) {
      *error = "C-state '" + std::string(item) + "': expected name:watts:latency, e.g. C6:45:300us";
      return std::nullopt;
    }
    CState s;
    s.name = std::string(trim_blanks(item.substr(0, c1)));
    const auto w = parse_watts(item.substr(c1 + 1, c2 - c1 - 1));
    const auto lat = units::parse_time(trim_blanks(item.substr(c2 + 1)));
    if (s.name.empty() || !w || !lat) {
      *error = "C-state '" + std::string(item) + "': expected name:watts:latency with a time unit, e.g. C6:45:300us";
      return std::nullopt;
    }
    s.power_w = *w;
    s.latency_s = lat->seconds();
    out.push_back(std::move(s));
    if (comma == std::string_view::npos) return out;
    pos = comma + 1;
  }
}

std::optional<std::vector<PstatePower>> parse_watt_per_state(std::string_view text, std::string* error) {
  std::vector<PstatePower> out;
  size_t pos = 0;
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string_view item = trim_blanks(text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos));
    std::vector<double> v;
    size_t p = 0;
    while (true) {
      const size_t colon = item.find(':', p);
      double x = 0;
      if (!parse_number(item.substr(p, colon == std::string_view::npos ? item.npos : colon - p), &x)) {
        *error = "pstate " + std::to_string(out.size()) + ": '" + std::string(item) +
                 "' is not Idle:OneCore:AllCores (numbers of watts separated by ':')";
        return std::nullopt;
      }
      v.push_back(x);
      if (colon == std::string_view::npos) break;
      p = colon + 1;
    }
    if (v.size() == 2) out.push_back({v[0], v[0], v[1]});
    else if (v.size() == 3) out.push_back({v[0], v[1], v[2]});
    else {
      *error = "pstate " + std::to_string(out.size()) + ": '" + std::string(item) + "' has " + std::to_string(v.size()) +
               " value" + (v.size() == 1 ? "" : "s") + "; expected Idle:OneCore:AllCores (or Idle:AllCores)";
      return std::nullopt;
    }
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::optional<double> parse_watts(std::string_view text) {
  double v = 0;
  if (!parse_number(text, &v)) return std::nullopt;
  return v;
}

std::optional<std::pair<double, double>> parse_wattage_range(std::string_view text, std::string* error) {
  const std::string_view t = trim_blanks(text);
  const size_t colon = t.find(':');
  double idle = 0, busy = 0;
  if (colon == std::string_view::npos || t.find(':', colon + 1) != std::string_view::npos ||
      !parse_number(t.substr(0, colon), &idle) || !parse_number(t.substr(colon + 1), &busy)) {
    *error = "'" + std::string(t) + "' is not Idle:Busy (two numbers of watts separated by ':')";
    return std::nullopt;
  }
  return std::make_pair(idle, busy);
}

std::string check_link_power(double idle_w, double busy_w) {
  if (!(idle_w >= 0) || !std::isfinite(idle_w)) return "idle power " + watts(idle_w) + " must be a finite number >= 0";
  if (!(busy_w >= 0) || !std::isfinite(busy_w)) return "busy power " + watts(busy_w) + " must be a finite number >= 0";
  if (busy_w < idle_w)
    return "busy power " + watts(busy_w) + " is below idle power " + watts(idle_w) +
           ": a link cannot draw less when it carries traffic";
  return {};
}

}  // namespace simfab
