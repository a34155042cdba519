// Where in the noise trace each rank starts: its offset o_r in [0, P) (noise_model.hpp).
//
//   independent (noise/cosched=no, the default)  o_r = draw_r: the r-th value of a splitmix64
//                stream seeded with noise/seed (draw_0 is the first), mapped onto [0, P) by
//                floor(x P / 2^64) (no modulo bias beyond 2^-64 per value);
//   co-scheduled (noise/cosched=yes)             o_r = draw_0 for every rank: the OS interrupts
//                all nodes at once (gang-scheduled daemons, synchronised ticks);
//   fixed (noise/offsets=LIST)                   o_r from the list (one time for every rank, or one
//                per rank), each taken modulo P: for tests and hand computations.
// Unlike LogGOPSim (which seeds from the clock), the same seed always gives the same offsets, so
// a run is repeatable; a different seed moves every independent offset. O(ranks) time and memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace simfab::noise {

// splitmix64 (Steele, Lea, Flood 2014): the state advances by the golden-ratio increment and each
// output is a bijective mix of it. Small, fast, and every seed gives a full-period stream.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();

 private:
  uint64_t state_;
};

std::vector<int64_t> drawn_offsets(uint64_t seed, bool cosched, int num_ranks, int64_t period_ps);
// Per-rank periods (host classes: noise_classes.hpp): the same draws, draw_r (or draw_0) mapped
// onto rank r's period P_r; P_r = 0 (a rank without noise) gives 0. Equal periods give the above.
std::vector<int64_t> drawn_offsets(uint64_t seed, bool cosched, const std::vector<int64_t>& periods_ps);
// noise/offsets's list ("0", "1us,0,0,0"): one value per rank, each modulo period_ps; nullopt when
// the list is neither one value nor one per rank, or a value is not a time (why: in *error).
std::optional<std::vector<int64_t>> fixed_offsets(std::string_view list, int num_ranks, int64_t period_ps,
                                                  std::string* error);
// The same modulo each rank's period (0: offset 0).
std::optional<std::vector<int64_t>> fixed_offsets(std::string_view list, const std::vector<int64_t>& periods_ps,
                                                  std::string* error);

}  // namespace simfab::noise
