#include "noise/noise_model.hpp"

#include <limits>

#include "core/error.hpp"

namespace simfab::noise {

int64_t NoiseResult::total_ps() const {
  int64_t s = 0;
  for (int64_t v : noise_ps) s += v;
  return s;
}

uint64_t NoiseResult::total_detours() const {
  uint64_t s = 0;
  for (uint64_t v : detours) s += v;
  return s;
}

NoiseModel::NoiseModel(DetourTrace trace, NoiseRule rule, std::vector<int64_t> offsets)
    : traces_{std::move(trace)}, source_(offsets.size(), 0), rule_(rule), offset_(std::move(offsets)),
      injected_(offset_.size(), 0), count_(offset_.size(), 0) {
  check_sources();
}

NoiseModel::NoiseModel(std::vector<DetourTrace> traces, std::vector<int32_t> source, NoiseRule rule,
                       std::vector<int64_t> offsets)
    : traces_(std::move(traces)), source_(std::move(source)), rule_(rule), offset_(std::move(offsets)),
      injected_(offset_.size(), 0), count_(offset_.size(), 0) {
  check_sources();
}

void NoiseModel::check_sources() const {
  SIMFAB_CHECK(!traces_.empty() && source_.size() == offset_.size(), "NoiseModel: no trace, or sizes differ");
  for (size_t r = 0; r < offset_.size(); ++r) {
    const int32_t s = source_[r];
    SIMFAB_CHECK(s >= -1 && s < static_cast<int32_t>(traces_.size()), "NoiseModel: a source out of range");
    const int64_t p = s < 0 ? 1 : traces_[static_cast<size_t>(s)].period_ps();
    SIMFAB_CHECK(offset_[r] >= 0 && offset_[r] < p, "NoiseModel: an offset outside the period");
  }
}

namespace {

constexpr __int128 kMaxSpan = std::numeric_limits<int64_t>::max() / 2;

}  // namespace

Stretch NoiseModel::at(int64_t u, int64_t c, size_t i) const {
  const DetourTrace& trace = traces_[i];
  const int64_t rest = trace.remainder(u);
  const uint64_t in_progress = rest > 0 ? 1 : 0;
  const DetourSum after_start = trace.starts_before(static_cast<__int128>(u) + 1);
  if (rule_ == NoiseRule::kLoggopsim) {
    const DetourSum before_end = trace.starts_before(static_cast<__int128>(u) + c);
    const __int128 noise = rest + before_end.time_ps - after_start.time_ps;
    const __int128 n = before_end.count - after_start.count;
    if (noise > kMaxSpan) return {static_cast<int64_t>(kMaxSpan), 0};
    return {static_cast<int64_t>(noise), in_progress + static_cast<uint64_t>(n > 0 ? n : 0)};
  }
  const __int128 y = trace.free_end(u, c);
  const __int128 noise = y - u - c;
  if (noise > kMaxSpan) return {static_cast<int64_t>(kMaxSpan), 0};
  const __int128 n = trace.starts_before(y).count - after_start.count;
  return {static_cast<int64_t>(noise), in_progress + static_cast<uint64_t>(n > 0 ? n : 0)};
}

SimTime NoiseModel::stretch(int32_t r, SimTime t, SimTime c, bool in_collective) {
  const size_t i = static_cast<size_t>(r);
  if (c <= SimTime::zero() || source_[i] < 0 || (collectives_only_ && !in_collective)) return c;
  const size_t k = static_cast<size_t>(source_[i]);
  const int64_t p = traces_[k].period_ps();
  const int64_t u = static_cast<int64_t>((t.ps() % p + offset_[i]) % p);
  const Stretch s = at(u, c.ps(), k);
  if (s.noise_ps >= kMaxSpan - c.ps())
    throw InputError(SourceLoc{"noise", 0, 0}, "simulated time overflows 64-bit picoseconds on rank " +
                                                   std::to_string(r) + ": its noise stretches an interval of " +
                                                   std::to_string(c.ps()) + " ps beyond 2^62 ps");
  injected_[i] += s.noise_ps;
  count_[i] += s.detours;
  return SimTime::ps(c.ps() + s.noise_ps);
}

NoiseResult NoiseModel::result(std::string offsets, std::string source) const {
  NoiseResult r;
  r.present = true;
  r.rule = rule_ == NoiseRule::kLoggopsim ? "loggopsim" : "preempt";
  r.offsets = std::move(offsets);
  r.source = std::move(source);
  r.period_ps = traces_[0].period_ps();
  r.detours_per_period = traces_[0].size();
  r.collectives_only = collectives_only_;
  r.offset_ps = offset_;
  r.noise_ps = injected_;
  r.detours = count_;
  return r;
}

}  // namespace simfab::noise
