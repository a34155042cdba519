// DetourHistogram: an empirical distribution of detour lengths (noise/distribution=histogram,
// noise/histogram=FILE), e.g. the durations a noise benchmark (netgauge, FTQ, selfish) measured.
//
// File (two_column_file.hpp's layout: `#` comments, blank lines, CRLF accepted):
//   whitespace form   `<duration_ns> <count>` per bin
//   CSV form          the header `duration_ns,weight`, then `<duration_ns>,<weight>` per bin
// A duration is nanoseconds > 0 (decimal, rounded to the picosecond); a weight (or count) is a
// number >= 0 with three fraction digits kept (exact integer thousandths); bins may come in any
// order and repeat a duration (their weights add up). The total weight W must be > 0.
//
// Draw. Bins k = 0..m-1 with duration d_k and weight w_k (thousandths), in file order, and
// cumulative weights c_k = w_0 + ... + w_k (c_{m-1} = W). A 64-bit uniform x (a splitmix64
// output) picks y = floor(x W / 2^64) in [0, W) and returns d_k for the smallest k with c_k > y,
// so P(d_k) = w_k / W up to 2^-64 per value, in integer arithmetic (the same x, the same length on
// every machine). Zero-weight bins are never drawn. O(log m) per draw.
// Mean: mu = sum w_k d_k / W (exact in 128 bits; shown rounded to the picosecond).
//
// Fit to a period P (fit_period): every bin's duration must be < P (its detour, at the start of a
// period, leaves time for the application) and mu <= P / 2 (LogGOPSim-style noise: detours take
// a minority of the time; the drawn exponential and uniform lengths are capped at P / 2 too).
// Errors are InputErrors at file:line (the bin that does not fit), or at the file for the mean
// and for a zero total weight, saying what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simfab::noise {

class DetourHistogram {
 public:
  struct Bin {
    int64_t duration_ps = 0;
    int64_t weight = 0;  // thousandths
    int line = 0;        // in the file, for messages
  };

  static DetourHistogram read(const std::string& path);
  // The same from text already in memory (`name` in messages); for tests.
  static DetourHistogram parse(const std::string& name, std::string_view text);

  // The length for a uniform 64-bit x (see Draw).
  int64_t draw(uint64_t x) const;
  // Throws unless every bin fits a period of period_ps and the mean is at most half of it.
  void fit_period(int64_t period_ps) const;

  const std::vector<Bin>& bins() const { return bins_; }
  int64_t total_weight() const { return cum_.back(); }
  int64_t mean_ps() const;  // mu rounded half up
  const std::string& name() const { return name_; }

 private:
  unsigned __int128 weighted_sum() const;  // sum w_k d_k (< 2^124: w < 2^62, d < 2^62)
  std::string name_;
  std::vector<Bin> bins_;
  std::vector<int64_t> cum_;  // c_k
};

}  // namespace simfab::noise
