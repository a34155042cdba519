// Deterministic 64-bit mixing for routing choices: Valiant intermediates, ECMP next hops, any
// "random" pick a routing function must make identically on every run and every platform.
//
// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014; the finaliser is Stafford's "Mix13" variant of MurmurHash3's fmix64):
//   z = x + 0x9e3779b97f4a7c15 (the golden-ratio increment)
//   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
//   z = (z ^ (z >> 27)) * 0x94d049bb133111eb
//   return z ^ (z >> 31)
// It is a bijection on 64-bit words with full avalanche (each input bit flips each output bit with
// probability ~1/2), so consecutive inputs (host indices, salts 0, 1, 2, ...) give unrelated
// outputs. mix64(x) is splitmix64(x); mix(x, y, ...) chains it over several words; pick(h, n)
// maps a hash to [0, n) by modulo (bias <= n / 2^64, negligible for any n a topology has).
//
// Not cryptographic and not a random stream: the same inputs always give the same output, which is
// what the routing contract (topo/topology.hpp) requires. O(1), no state, thread-safe.
#pragma once

#include <cstdint>

namespace simfab {

constexpr uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The same, under the name the graph router uses (mix64(mix64(a << 32 | b) ^ v)).
constexpr uint64_t mix64(uint64_t x) { return splitmix64(x); }

// Hash of an ordered list of words: mix(a) = splitmix64(a), mix(a, b, ...) = splitmix64(mix(a) ^ b ...).
constexpr uint64_t mix(uint64_t x) { return splitmix64(x); }
template <class... Rest>
constexpr uint64_t mix(uint64_t x, uint64_t y, Rest... rest) {
  return mix(splitmix64(x) ^ y, static_cast<uint64_t>(rest)...);
}

// An index in [0, n) from hash h. REQUIRES: n > 0.
constexpr uint64_t pick(uint64_t h, uint64_t n) { return h % n; }

}  // namespace simfab
