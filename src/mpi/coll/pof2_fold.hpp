// The non-power-of-two fold of MPICH's recursive algorithms (allreduce_intra_recursive_doubling.c,
// allreduce_intra_reduce_scatter_allgather.c, reduce_scatter_intra_recursive_halving.c in MPICH
// 4.x): with pof2 = the largest power of two <= P and rem = P - pof2, the first 2*rem ranks pair
// up (0,1), (2,3), ...; one rank of each pair sends its whole buffer to the other and sits out,
// the other reduces it into its own. The pof2 remaining ranks run the power-of-two core under
// virtual ranks 0 .. pof2-1; afterwards every survivor of a pair sends the result back.
//
//   real rank r            r < 2*rem, survivor    r < 2*rem, sitter    r >= 2*rem
//   virtual rank           r / 2                  -1 (sits out)        r - rem
//   virtual v -> real      v < rem: 2v + (1 if the odd rank survives, else 0);  v >= rem: v + rem
//
// Which rank of a pair survives: MPICH's allreduce and reduce_scatter keep the ODD one (even
// ranks send to rank+1: "this is better for non-commutative operations because it doesn't require
// a buffer copy"); MPICH's reduce and OpenMPI's recursive doubling keep the EVEN one (odd ranks
// send to rank-1). FoldKeeps selects it.
//
// Cost (rem > 0): 2 messages per folded pair of the whole buffer in (sitter -> survivor) plus
// whatever the collective sends back (allreduce: the whole result; reduce_scatter: the sitter's
// block): 2*rem extra messages in all, on top of the pof2 core. P = 6: pof2 = 4, rem = 2, ranks
// 0 and 2 send to 1 and 3 and wait; virtual ranks 0 1 2 3 are real ranks 1 3 4 5.
// Complexity: O(1) ops per rank.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

enum class FoldKeeps : uint8_t { kOdd, kEven };

class Pof2Fold {
 public:
  // REQUIRES: size >= 1.
  explicit Pof2Fold(int size, FoldKeeps keeps = FoldKeeps::kOdd);

  int size() const { return size_; }
  int pof2() const { return pof2_; }
  int rem() const { return rem_; }
  bool folded(RankId r) const { return r < 2 * rem_; }
  bool sits_out(RankId r) const { return folded(r) && r % 2 != survivor_parity_; }
  RankId partner(RankId r) const { return r % 2 == 0 ? r + 1 : r - 1; }  // REQUIRES: folded(r)
  // -1 for a rank that sits out.
  int vrank(RankId r) const;
  RankId rank_of(int vrank) const { return vrank < rem_ ? 2 * vrank + survivor_parity_ : vrank + rem_; }

 private:
  int size_ = 1;
  int pof2_ = 1;
  int rem_ = 0;
  int survivor_parity_ = 1;
};

// The fold's first half on `rank`: a sitter sends `bytes` (segments `segs`) to its partner, a
// survivor receives and reduces them (Combine::kReduce, charged by `cost`); other ranks do
// nothing. Returns what the core's first step must require.
After fold_in(Fragment& f, const Pof2Fold& fold, RankId rank, Bytes bytes, Segs segs, const ReduceCost& cost,
              After prev = {});

// The second half: a survivor sends `bytes` (segments `segs`, the sitter's share of the result)
// once `prev` (the core's last step) is done; the sitter receives them (kReplace) after its own
// fold_in send, as MPICH's blocking Send then Recv. Returns the step that ends the collective.
After fold_out(Fragment& f, const Pof2Fold& fold, RankId rank, Bytes bytes, Segs segs, After prev);

}  // namespace simfab::coll
