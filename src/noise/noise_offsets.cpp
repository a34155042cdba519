#include "noise/noise_offsets.hpp"

#include <string>

#include "core/trim.hpp"
#include "core/units.hpp"

namespace simfab::noise {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {

int64_t onto_period(uint64_t x, int64_t period_ps) {
  return static_cast<int64_t>((static_cast<unsigned __int128>(x) * static_cast<uint64_t>(period_ps)) >> 64);
}

}  // namespace

std::vector<int64_t> drawn_offsets(uint64_t seed, bool cosched, const std::vector<int64_t>& periods_ps) {
  SplitMix64 rng(seed);
  std::vector<int64_t> out(periods_ps.size());
  const uint64_t shared = rng.next();
  for (size_t r = 0; r < out.size(); ++r) {
    const uint64_t x = cosched || r == 0 ? shared : rng.next();
    out[r] = periods_ps[r] > 0 ? onto_period(x, periods_ps[r]) : 0;
  }
  return out;
}

std::vector<int64_t> drawn_offsets(uint64_t seed, bool cosched, int num_ranks, int64_t period_ps) {
  return drawn_offsets(seed, cosched, std::vector<int64_t>(static_cast<size_t>(num_ranks), period_ps));
}

std::optional<std::vector<int64_t>> fixed_offsets(std::string_view list, const std::vector<int64_t>& periods_ps,
                                                  std::string* error) {
  std::vector<int64_t> values;
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view item = trim_blanks(list.substr(0, comma));
    const auto t = units::parse_time(item);
    if (!t) {
      *error = "'" + std::string(item) + "' is not a time (e.g. 0, 1500ns, 2us)";
      return std::nullopt;
    }
    values.push_back(t->ps());
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  const size_t n = periods_ps.size();
  if (values.size() != 1 && values.size() != n) {
    *error = "it has " + std::to_string(values.size()) + " offsets for " + std::to_string(n) +
             " ranks: give one for every rank, or one per rank";
    return std::nullopt;
  }
  std::vector<int64_t> out(n);
  for (size_t r = 0; r < n; ++r) {
    const int64_t v = values.size() == 1 ? values.front() : values[r];
    out[r] = periods_ps[r] > 0 ? v % periods_ps[r] : 0;
  }
  return out;
}

std::optional<std::vector<int64_t>> fixed_offsets(std::string_view list, int num_ranks, int64_t period_ps,
                                                  std::string* error) {
  return fixed_offsets(list, std::vector<int64_t>(static_cast<size_t>(num_ranks), period_ps), error);
}

}  // namespace simfab::noise
