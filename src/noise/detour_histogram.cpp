#include "noise/detour_histogram.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "noise/two_column_file.hpp"

namespace simfab::noise {

namespace {

constexpr int64_t kMaxWeight = int64_t{1} << 62;

}  // namespace

DetourHistogram DetourHistogram::parse(const std::string& name, std::string_view text) {
  DetourHistogram h;
  h.name_ = name;
  const char* expected = "expected `<duration_ns> <count>` (one bin per line, tab or space separated)";
  int64_t total = 0;
  read_two_columns(name, text, {"duration_ns,weight", expected}, [&](const ColumnLine& c) {
    const int64_t d = field_milli(name, text, c.a, c.a_at, "duration", "nanoseconds");
    if (d == 0) throw error_at(name, text, c.a_at, "a detour of duration 0: expected nanoseconds > 0");
    const int64_t w = field_milli(name, text, c.b, c.b_at, "weight", "");
    if (w > kMaxWeight - total)
      throw error_at(name, text, c.b_at, "the weights add up to more than 2^62 / 1000: scale them down");
    total += w;
    h.bins_.push_back({d, w, c.line});
    h.cum_.push_back(total);
  });
  if (h.bins_.empty())
    throw InputError(SourceLoc{name, 0, 0}, "the detour histogram is empty: " + std::string(expected) +
                                                " per bin, or a CSV with the header duration_ns,weight");
  if (total == 0)
    throw InputError(SourceLoc{name, 0, 0}, "the detour histogram's weights add up to 0: expected at least one "
                                            "bin with a weight > 0");
  return h;
}

DetourHistogram DetourHistogram::read(const std::string& path) {
  return parse(path, read_whole_file(path, "detour histogram (noise/histogram)"));
}

int64_t DetourHistogram::draw(uint64_t x) const {
  const int64_t y = static_cast<int64_t>((static_cast<unsigned __int128>(x) * static_cast<uint64_t>(total_weight())) >> 64);
  const size_t k = static_cast<size_t>(std::upper_bound(cum_.begin(), cum_.end(), y) - cum_.begin());
  return bins_[k].duration_ps;
}

unsigned __int128 DetourHistogram::weighted_sum() const {
  unsigned __int128 s = 0;
  for (const Bin& b : bins_) s += static_cast<unsigned __int128>(b.weight) * static_cast<uint64_t>(b.duration_ps);
  return s;
}

int64_t DetourHistogram::mean_ps() const {
  const unsigned __int128 s = weighted_sum();
  const auto w = static_cast<unsigned __int128>(total_weight());
  return static_cast<int64_t>((2 * s + w) / (2 * w));
}

void DetourHistogram::fit_period(int64_t period_ps) const {
  for (const Bin& b : bins_)
    if (b.duration_ps >= period_ps)
      throw InputError(SourceLoc{name_, b.line, 1},
                       "a detour of " + milli_text(b.duration_ps) + " ns does not fit noise/period (" +
                           milli_text(period_ps) + " ns): expected durations shorter than the period");
  const unsigned __int128 s = weighted_sum();
  // mu <= P / 2  <=>  2 sum w_k d_k <= P W
  if (2 * s > static_cast<unsigned __int128>(period_ps) * static_cast<uint64_t>(total_weight()))
    throw InputError(SourceLoc{name_, 0, 0},
                     "the detour histogram's mean length (" + milli_text(mean_ps()) +
                         " ns) is more than half of noise/period (" + milli_text(period_ps) +
                         " ns): expected detours that leave most of the time to the application");
}

}  // namespace simfab::noise
