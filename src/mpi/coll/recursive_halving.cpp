#include "mpi/coll/recursive_halving.hpp"

#include <bit>

#include "core/error.hpp"

namespace simfab::coll {

namespace {

// The mask of round `round` (0-based) of a halving over pof2 ranks.
uint32_t round_mask(uint32_t pof2, MaskOrder order, int round) {
  return order == MaskOrder::kNearFirst ? 1u << round : pof2 >> (round + 1);
}

Side side(const Pof2Fold& fold, uint32_t partner, const HalvingChunks& chunks, ChunkRange r) {
  return Side{fold.rank_of(static_cast<int>(partner)), chunks.bytes(r.lo, r.hi), chunks.segs(r.lo, r.hi)};
}

}  // namespace

After halving_reduce_scatter(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks,
                             MaskOrder order, const ReduceCost& cost, After prev, ChunkRange& held) {
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const auto v = static_cast<uint32_t>(vrank);
  SIMFAB_CHECK(vrank >= 0 && v < pof2 && chunks.unit(pof2) == chunks.units, "halving: bad rank or chunks");
  held = ChunkRange{0, pof2};
  const int rounds = std::countr_zero(pof2);
  for (int round = 0; round < rounds; ++round) {
    const uint32_t mask = round_mask(pof2, order, round);
    const uint32_t mid = (held.lo + held.hi) / 2;
    const bool lower = (v & mask) == 0;
    const ChunkRange give = lower ? ChunkRange{mid, held.hi} : ChunkRange{held.lo, mid};
    const ChunkRange keep = lower ? ChunkRange{held.lo, mid} : ChunkRange{mid, held.hi};
    prev = sendrecv_step(f, prev, side(fold, v ^ mask, chunks, give), side(fold, v ^ mask, chunks, keep),
                         Combine::kReduce, cost);
    held = keep;
  }
  return prev;
}

After doubling_allgather(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
                         ChunkRange held, After prev) {
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const auto v = static_cast<uint32_t>(vrank);
  SIMFAB_CHECK(vrank >= 0 && v < pof2, "doubling_allgather: bad rank");
  for (int round = std::countr_zero(pof2) - 1; round >= 0; --round) {
    const uint32_t mask = round_mask(pof2, order, round);
    const uint32_t width = held.hi - held.lo;
    const bool lower = (v & mask) == 0;
    const ChunkRange sibling = lower ? ChunkRange{held.hi, held.hi + width} : ChunkRange{held.lo - width, held.lo};
    prev = sendrecv_step(f, prev, side(fold, v ^ mask, chunks, held), side(fold, v ^ mask, chunks, sibling),
                         Combine::kReplace, ReduceCost{});
    held = lower ? ChunkRange{held.lo, sibling.hi} : ChunkRange{sibling.lo, held.hi};
  }
  return prev;
}

}  // namespace simfab::coll
