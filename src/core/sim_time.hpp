// SimTime: simulated time as a strong 64-bit integer count of picoseconds.
//
// Why integers: LogGOPSim works in picoseconds (seed 004 §2.6), and integer time makes every run
// bit-for-bit reproducible on every machine. Models that compute in double (fluid solvers, flop
// counts divided by speeds) convert back through exactly one rounding function, from_seconds().
//
// Range: int64 picoseconds cover +-106 days of simulated time. kNever (INT64_MAX) means "not
// scheduled / unknown", as LogGOPSim's UINT64_MAX does (seed 004 §4.6).
// Thread-safety: a value type.
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>

namespace simfab {

class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime ps(int64_t v) { return SimTime(v); }
  // Rounds to the nearest picosecond. The one conversion from floating-point seconds.
  // REQUIRES: seconds is finite and within range (callers validate user input first).
  static SimTime from_seconds(double seconds) { return SimTime(std::llround(seconds * 1e12)); }
  static constexpr SimTime never() { return SimTime(std::numeric_limits<int64_t>::max()); }
  static constexpr SimTime zero() { return SimTime(0); }

  constexpr int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const SimTime&) const = default;
  constexpr SimTime operator+(SimTime o) const { return SimTime(ps_ + o.ps_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(ps_ - o.ps_); }
  constexpr SimTime& operator+=(SimTime o) { ps_ += o.ps_; return *this; }

 private:
  constexpr explicit SimTime(int64_t v) : ps_(v) {}
  int64_t ps_ = 0;
};

inline constexpr SimTime max(SimTime a, SimTime b) { return a < b ? b : a; }

// a + b, or never() when the sum would leave the representable range: for models adding cost
// terms, whose caller (the executor) turns never() into an input error. REQUIRES: a, b >= 0.
inline SimTime saturating_add(SimTime a, SimTime b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a.ps(), b.ps(), &out)) return SimTime::never();
  return SimTime::ps(out);
}

// a + d, or nullopt when the sum would leave the representable range (about 106 days): callers
// turn that into an input error rather than wrap around. REQUIRES: a, d >= 0.
inline std::optional<SimTime> checked_add(SimTime a, SimTime d) {
  int64_t out = 0;
  if (__builtin_add_overflow(a.ps(), d.ps(), &out) || out == std::numeric_limits<int64_t>::max())
    return std::nullopt;
  return SimTime::ps(out);
}

using Bytes = uint64_t;
using RankId = int32_t;
using HostId = int32_t;

}  // namespace simfab
