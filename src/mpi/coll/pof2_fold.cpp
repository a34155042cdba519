#include "mpi/coll/pof2_fold.hpp"

#include <bit>

#include "core/error.hpp"

namespace simfab::coll {

Pof2Fold::Pof2Fold(int size, FoldKeeps keeps)
    : size_(size),
      pof2_(static_cast<int>(std::bit_floor(static_cast<unsigned>(size)))),
      rem_(size - pof2_),
      survivor_parity_(keeps == FoldKeeps::kOdd ? 1 : 0) {
  SIMFAB_CHECK(size >= 1, "Pof2Fold: size must be >= 1");
}

int Pof2Fold::vrank(RankId r) const {
  if (!folded(r)) return r - rem_;
  return sits_out(r) ? -1 : r / 2;
}

After fold_in(Fragment& f, const Pof2Fold& fold, RankId rank, Bytes bytes, Segs segs, const ReduceCost& cost,
              After prev) {
  if (!fold.folded(rank)) return prev;
  const Side side{fold.partner(rank), bytes, segs};
  if (fold.sits_out(rank)) return send_step(f, prev, side);
  return recv_step(f, prev, side, Combine::kReduce, cost);
}

After fold_out(Fragment& f, const Pof2Fold& fold, RankId rank, Bytes bytes, Segs segs, After prev) {
  if (!fold.folded(rank)) return prev;
  const Side side{fold.partner(rank), bytes, segs};
  if (fold.sits_out(rank)) return recv_step(f, prev, side, Combine::kReplace, ReduceCost{});
  return send_step(f, prev, side);
}

}  // namespace simfab::coll
