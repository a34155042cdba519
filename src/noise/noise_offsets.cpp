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

std::vector<int64_t> drawn_offsets(uint64_t seed, bool cosched, int num_ranks, int64_t period_ps) {
  SplitMix64 rng(seed);
  std::vector<int64_t> out(static_cast<size_t>(num_ranks));
  const int64_t shared = onto_period(rng.next(), period_ps);
  for (size_t r = 0; r < out.size(); ++r) out[r] = cosched || r == 0 ? shared : onto_period(rng.next(), period_ps);
  return out;
}

std::optional<std::vector<int64_t>> fixed_offsets(std::string_view list, int num_ranks, int64_t period_ps,
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
    values.push_back(t->ps() % period_ps);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  if (values.size() == 1) return std::vector<int64_t>(static_cast<size_t>(num_ranks), values.front());
  if (values.size() != static_cast<size_t>(num_ranks)) {
    *error = "it has " + std::to_string(values.size()) + " offsets for " + std::to_string(num_ranks) +
             " ranks: give one for every rank, or one per rank";
    return std::nullopt;
  }
  return values;
}

}  // namespace simfab::noise
