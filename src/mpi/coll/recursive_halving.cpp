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

After fold_and_halve(Fragment& f, const Pof2Fold& fold, RankId rank, const HalvingChunks& chunks, MaskOrder order,
                     const ReduceCost& cost, ChunkRange& held) {
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const After prev = fold_in(f, fold, rank, chunks.bytes(0, pof2), chunks.segs(0, pof2), cost);
  const int v = fold.vrank(rank);
  return v < 0 ? prev : halving_reduce_scatter(f, fold, v, chunks, order, cost, prev, held);
}

namespace {

// The rounds of doubling_allgather (to < 0) or doubling_gather (to >= 0).
After doubling(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
               ChunkRange held, int to, After prev) {
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const auto v = static_cast<uint32_t>(vrank);
  SIMFAB_CHECK(vrank >= 0 && v < pof2 && to < static_cast<int>(pof2), "doubling: bad rank");
  for (int round = std::countr_zero(pof2) - 1; round >= 0; --round) {
    const uint32_t mask = round_mask(pof2, order, round);
    const uint32_t width = held.hi - held.lo;
    const bool lower = (v & mask) == 0;
    const ChunkRange sibling = lower ? ChunkRange{held.hi, held.hi + width} : ChunkRange{held.lo - width, held.lo};
    const Side out = side(fold, v ^ mask, chunks, held), in = side(fold, v ^ mask, chunks, sibling);
    if (to < 0) {
      prev = sendrecv_step(f, prev, out, in, Combine::kReplace, ReduceCost{});
    } else if ((v & mask) != (static_cast<uint32_t>(to) & mask)) {
      return send_step(f, prev, out);
    } else {
      prev = recv_step(f, prev, in, Combine::kReplace, ReduceCost{});
    }
    held = lower ? ChunkRange{held.lo, sibling.hi} : ChunkRange{sibling.lo, held.hi};
  }
  return prev;
}

}  // namespace

After doubling_allgather(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
                         ChunkRange held, After prev) {
  return doubling(f, fold, vrank, chunks, order, held, -1, prev);
}

After doubling_gather(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
                      ChunkRange held, int to, After prev) {
  SIMFAB_CHECK(to >= 0, "doubling_gather: bad root");
  return doubling(f, fold, vrank, chunks, order, held, to, prev);
}

}  // namespace simfab::coll
