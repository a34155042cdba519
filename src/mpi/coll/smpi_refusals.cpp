#include "mpi/coll/smpi_refusals.hpp"

#include <bit>
#include <cstdio>
#include <set>
#include <string_view>

#include "mpi/coll/smpi_reduce_scatter_gather.hpp"
#include "mpi/coll/smpi_split_bintree.hpp"

namespace simfab::coll {

namespace {

struct Refusal {
  CollOp op;
  const char* simfab;   // the registry algorithm
  const char* simgrid;  // SimGrid's name for it
  bool (*refuses)(const CollCall& c);
  const char* reason;
  const char* instead;  // what simfab runs
};

bool not_pof2(const CollCall& c) { return !std::has_single_bit(static_cast<unsigned>(c.size)); }
bool unsplit(const CollCall& c) { return c.size > 1 && !smpi_split_bintree_splits(c); }

constexpr const char* kPof2 = "needs a power of two";
constexpr Refusal kRefusals[] = {
    {CollOp::kAlltoall, "smpi-pair", "pair", not_pof2, kPof2, "it anyway, with partners r+i and r-i"},
    {CollOp::kAlltoallv, "smpi-pair", "pair", not_pof2, kPof2, "bruck instead"},
    {CollOp::kAllgather, "smpi-pair", "pair", not_pof2, kPof2, "the ring instead"},
    {CollOp::kAllgatherv, "smpi-pair", "pair", not_pof2, kPof2, "the ring instead"},
    {CollOp::kReduce, "smpi-scatter_gather", "scatter_gather", smpi_scatter_gather_truncates,
     "fewer elements than ranks, not a power of two: MPI_ERR_TRUNCATE", "it anyway"},
    {CollOp::kBcast, "smpi-ompi_split_bintree", "ompi_split_bintree", unsplit,
     "a half shorter than one segment: its SMP_linear fallback crashes smpirun -replay", "split-binary instead"},
};

}  // namespace

std::string smpi_refusal_warning(CollOp op, const CollAlgorithm& a, const CollCall& c) {
  for (const Refusal& r : kRefusals) {
    if (r.op != op || std::string_view(a.name) != r.simfab || !r.refuses(c)) continue;
    return std::string("simfab: warning: SimGrid 3.32 refuses ") + coll_op_name(op) + " '" + r.simgrid + "' on " +
           std::to_string(c.size) + " ranks (" + r.reason + "); simfab runs " + r.instead;
  }
  return {};
}

bool warn_smpi_refusal_once(CollOp op, const CollAlgorithm& a, const CollCall& c) {
  static std::set<std::string> seen;
  std::string line = smpi_refusal_warning(op, a, c);
  if (line.empty() || !seen.insert(line).second) return false;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  return true;
}

}  // namespace simfab::coll
