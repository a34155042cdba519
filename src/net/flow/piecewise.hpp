// PiecewiseLinear: a function of the message size k made of sections, the shape of every size-
// dependent parameter of the SMPI point-to-point model (seed 003 §IV-A; SimGrid's smpi/os,
// smpi/or, smpi/ois, smpi/bw-factor, smpi/lat-factor).
//
//   section i covers  min_i <= k < min_{i+1}      (min_0 = 0; the last section is unbounded)
//   value(k)        = a_i + b_i * k
//
// Text form, as SimGrid writes it: sections separated by ';', each "min:a" (a factor; b = 0) or
// "min:a:b" (an overhead: a in seconds, b in seconds per byte), e.g.
//   "0:1e-6:1e-10;1421:2e-6:1e-10"          overhead, 2 sections
//   "0:1;65472:0.94"                         bandwidth factor
// Seed 003 closes its segments on the right (k <= 1420 is "small"), so its five segments start
// at 0, 1421, 32769, 65537 and 327681 (SEGMENT LOOKUP test S1 of the digest).
// Sections must start at 0 and be strictly increasing (SimGrid sorts silently; simfab reports
// unsorted or overlapping tables, which are almost always typos). Values must be finite and >= 0.
//
// SimGrid's dialect (Dialect::kSimGrid, the smpi/* keys of network/model=smpi) is SimGrid 3.32's
// FactorSet, measured against smpirun: sections in any order (SimGrid's defaults are written
// largest first, "65472:0.940694;...;0:0.812084"), extra values after the ones used ignored
// ("0:0:0:0:0" is its smpi/os default), and each threshold is exclusive:
//   section i covers  min_i < k <= min_{i+1}   (k <= min_0 uses section 0)
// e.g. with "0:a;257:b" a 257-byte payload still gets a, 258 gets b. Duplicate thresholds are
// still refused.
// Lookup: O(log sections) by binary search. Immutable after parsing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab::flow {

class PiecewiseLinear {
 public:
  struct Section {
    Bytes min_size = 0;
    double a = 0;  // value at k = 0 of the line (a factor, or seconds)
    double b = 0;  // slope per byte (0 for factors)
  };

  enum class Dialect : uint8_t { kSimFab, kSimGrid };

  // Parses `text`; `with_slope` selects "min:a:b" (true) or "min:a" (false). On a malformed
  // table, returns nullopt and sets `error` to what is wrong and what was expected.
  static std::optional<PiecewiseLinear> parse(std::string_view text, bool with_slope, std::string& error,
                                              Dialect dialect = Dialect::kSimFab);
  static PiecewiseLinear constant(double a) { return PiecewiseLinear({Section{0, a, 0}}, false); }

  size_t segment(Bytes k) const;
  double value(Bytes k) const {
    const Section& s = sections_[segment(k)];
    return s.a + s.b * static_cast<double>(k);
  }
  const std::vector<Section>& sections() const { return sections_; }

 private:
  PiecewiseLinear(std::vector<Section> s, bool exclusive) : sections_(std::move(s)), exclusive_(exclusive) {}
  std::vector<Section> sections_;  // sorted by min_size, never empty; first at 0 unless kSimGrid
  bool exclusive_;                 // SimGrid's thresholds: min_i < k

};

}  // namespace simfab::flow
