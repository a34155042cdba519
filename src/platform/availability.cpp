// Availability profiles: parsing SimGrid's profile text and evaluating the step function
// (availability.hpp has the format and the repetition rules).
#include "platform/availability.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/mapped_file.hpp"

namespace simfab {

namespace {

// Seconds as a user wrote them: up to 12 significant digits, no trailing zeros ("20", "0.5").
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", s);
  return buf;
}

// Seconds beyond which a date would overflow 64-bit picoseconds (about 106 days of margin kept).
constexpr double kMaxSeconds = 9.0e6;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::optional<double> number(std::string_view w) {
  double v = 0;
  if (!w.empty() && w.front() == '+') w.remove_prefix(1);
  const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || p != w.data() + w.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> Availability::value_at(SimTime t) const {
  if (dates.empty() || t < dates.front()) return std::nullopt;
  SimTime local = t;
  if (period > SimTime::zero()) {
    // Iteration k covers [d_0 + k P, d_0 + (k+1) P); within it the dates are d_i + k P.
    const int64_t k = (t - dates.front()).ps() / period.ps();
    local = t - SimTime::ps(k * period.ps());
  }
  const auto it = std::upper_bound(dates.begin(), dates.end(), local);
  return values[static_cast<size_t>(it - dates.begin()) - 1];
}

SimTime Availability::next_change(SimTime t) const {
  if (dates.empty()) return SimTime::never();
  if (t < dates.front()) return dates.front();
  int64_t k = 0;
  SimTime local = t;
  if (period > SimTime::zero()) {
    k = (t - dates.front()).ps() / period.ps();
    local = t - SimTime::ps(k * period.ps());
  }
  const auto it = std::upper_bound(dates.begin(), dates.end(), local);
  SimTime next;
  if (it != dates.end()) {
    next = *it;
  } else {
    if (period == SimTime::zero()) return SimTime::never();
    next = dates.front() + period;  // the next iteration's first event
  }
  const auto at = checked_add(next, SimTime::ps(k * period.ps()));
  return at ? *at : SimTime::never();
}

SimTime Availability::first_off(SimTime from) const {
  const Availability& a = *this;
  if (a.empty()) return SimTime::never();
  SimTime t = from;
  if (const std::optional<double> v = a.value_at(t); v && *v <= 0) return t;
  // One iteration's worth of steps covers every value the profile takes.
  for (size_t i = 0; i <= a.dates.size(); ++i) {
    t = a.next_change(t);
    if (t == SimTime::never()) return t;
    if (*a.value_at(t) <= 0) return t;
  }
  return SimTime::never();
}

std::vector<std::pair<SimTime, double>> Availability::events_until(SimTime until) const {
  std::vector<std::pair<SimTime, double>> out;
  if (dates.empty() || dates.front() > until) return out;
  SimTime t = dates.front();
  while (t <= until && t != SimTime::never()) {
    out.emplace_back(t, *value_at(t));
    t = next_change(t);
  }
  return out;
}

Availability parse_availability(std::string_view text, std::string name, const std::string& file, int first_line,
                                double periodicity) {
  Availability a;
  a.name = std::move(name);
  double loop_after = -1;
  int line_no = first_line - 1;
  auto fail = [&](std::string_view line, const std::string& what) {
    throw InputError(SourceLoc{file, line_no, 0}, "profile " + a.name + ": " + what, std::string(trim(line)));
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == '%') continue;
    const std::vector<std::string_view> w = words(line);
    if (w[0] == "PERIODICITY" || w[0] == "LOOPAFTER") {
      const std::optional<double> v = w.size() == 2 ? number(w[1]) : std::nullopt;
      const bool positive = w[0] == "PERIODICITY";
      if (!v || *v < 0 || (positive && *v == 0) || *v > kMaxSeconds)
        fail(line, "expected '" + std::string(w[0]) + " <seconds>' with seconds " + (positive ? "> 0" : ">= 0"));
      if (w[0] == "PERIODICITY") periodicity = *v;
      else loop_after = *v;
      continue;
    }
    if (w[0] == "STOCHASTIC" || w[0] == "DET" || w[0] == "NORM" || w[0] == "NORMAL" || w[0] == "GAUSS" ||
        w[0] == "GAUSSIAN" || w[0] == "EXP" || w[0] == "EXPONENTIAL" || w[0] == "UNIF" || w[0] == "UNIFORM")
      fail(line, "stochastic profiles are not supported by simfab (a run must be reproducible from its inputs); "
                 "write the dates and values out");
    const std::optional<double> d = w.size() == 2 ? number(w[0]) : std::nullopt;
    const std::optional<double> v = w.size() == 2 ? number(w[1]) : std::nullopt;
    if (!d || !v) fail(line, "expected '<date> <value>' (two numbers), 'PERIODICITY <s>' or 'LOOPAFTER <s>'");
    if (*d < 0 || *d > kMaxSeconds) fail(line, "the date must be between 0 and 9e6 seconds");
    const SimTime t = SimTime::from_seconds(*d);
    if (!a.dates.empty() && t < a.dates.back())
      fail(line, "the dates must not decrease (" + std::to_string(*d) + " s after " +
                     std::to_string(a.dates.back().seconds()) + " s)");
    a.dates.push_back(t);
    a.values.push_back(*v);
  }
  if (a.dates.empty() && (periodicity > 0 || loop_after >= 0))
    throw InputError(SourceLoc{file, first_line, 0}, "profile " + a.name + " repeats but has no event");
  if (periodicity > 0 && loop_after >= 0)
    throw InputError(SourceLoc{file, first_line, 0}, "profile " + a.name + " gives both PERIODICITY and LOOPAFTER");
  if (periodicity > 0) {
    a.period = SimTime::from_seconds(periodicity);
    if (a.period < a.dates.back()) {
      // SimGrid 3.32 aborts here; SimGrid up to 3.29 looped `periodicity` after the last event.
      a.period = a.dates.back() + a.period;
      a.note = "profile " + a.name + ": its period " + seconds_text(periodicity) + " s is shorter than its last date " +
               seconds_text(a.dates.back().seconds()) +
               " s; SimGrid 3.32 aborts on it ('Profile loop conditions are not realizable'), simfab reads it as "
               "SimGrid up to 3.29 did: the events repeat " +
               seconds_text(periodicity) + " s after the last one (period " + seconds_text(a.period.seconds()) + " s)";
    }
  } else if (loop_after >= 0) {
    a.period = a.dates.back() + SimTime::from_seconds(loop_after);
    if (a.period <= SimTime::zero())
      throw InputError(SourceLoc{file, first_line, 0},
                       "profile " + a.name + ": LOOPAFTER 0 after a single event at date 0 repeats forever at time 0");
  }
  return a;
}

Availability load_availability(const std::string& path, const std::string& base_dir, const SourceLoc& where,
                               double periodicity) {
  std::string full = path;
  if (!path.empty() && path.front() != '/' && !base_dir.empty()) full = base_dir + "/" + path;
  std::optional<MappedFile> f;
  try {
    f.emplace(full);
  } catch (const InputError& e) {
    throw InputError(where, "cannot read the profile '" + path + "' (" + full + "): " + e.message());
  }
  return parse_availability(f->text(), "'" + path + "'", full, 1, periodicity);
}

}  // namespace simfab
