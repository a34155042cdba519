#include "mpi/coll/smpi_bcast.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/smpi_linear.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes kSmpIdBytes = 4;  // init_smp's MPI_INT payloads

// SimGrid's "if root is not zero send to rank zero first": one blocking message of the whole
// buffer (segments [0, pieces)).
void root_to_zero(Fragment& f, const CollCall& c, uint32_t pieces) {
  if (c.root == 0) return;
  if (c.rank == c.root) f.send(0, c.bytes, Segs{0, pieces});
  else if (c.rank == 0) f.recv(c.root, c.bytes, Segs{0, pieces});
}

TreeNode relay_node(RelayTree tree, RankId r, int p) {
  TreeNode n;
  if (tree == RelayTree::kChain) {
    n.parent = r == 0 ? -1 : r - 1;
    if (r + 1 < p) n.children.push_back(r + 1);
  } else {
    n.parent = r == 0 ? -1 : (r - 1) / 2;
    for (RankId child : {2 * r + 1, 2 * r + 2})
      if (child < p) n.children.push_back(child);
  }
  return n;
}

// NTSL/NTSB's pipeline, in SimGrid's call order: every irecv first (piece order), then per piece
// (once received) an isend to each child. tree_down's edges, but all receives come first.
void relay_pipelined(Fragment& f, const TreeNode& node, Bytes piece, uint32_t pieces) {
  std::vector<uint32_t> recvs;
  for (uint32_t s = 0; s < pieces && node.parent >= 0; ++s) {
    recvs.push_back(f.recv(node.parent, piece, Segs{s, 1}));
    if (s > 0) f.irequire(recvs[s], recvs[s - 1]);
  }
  std::vector<uint32_t> last(node.children.size(), kNoOp);  // the previous piece's send to each child
  for (uint32_t s = 0; s < pieces; ++s)
    for (size_t c = 0; c < node.children.size(); ++c) {
      const uint32_t send = f.send(node.children[c], piece, Segs{s, 1});
      if (!recvs.empty()) f.require(send, recvs[s]);
      if (last[c] != kNoOp) f.irequire(send, last[c]);
      last[c] = send;
    }
}

// allgather__ring (allgather-ring.cpp) of `bytes` per rank: step i sendrecv(r+i, r-i).
After ring_allgather(Fragment& f, After prev, RankId r, int p, Bytes bytes) {
  for (int i = 1; i < p; ++i)
    prev = sendrecv_step(f, prev, Side{(r + i) % p, bytes, {}}, Side{(r - i + p) % p, bytes, {}}, Combine::kReplace,
                         ReduceCost{});
  return prev;
}

}  // namespace

Bytes smpi_relay_bcast(Fragment& f, const CollCall& c, RelayTree tree) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size, "smpi_relay_bcast: rank out of range");
  const Bytes ts = std::max<Bytes>(1, c.type_size), count = c.elements();
  const Bytes segment = std::max<Bytes>(1, kSmpiRelaySegmentBytes / ts);
  const bool pipelined = count > segment;
  const auto pieces = static_cast<uint32_t>(pipelined ? count / segment : 1);
  const uint32_t begin = f.size();
  root_to_zero(f, c, pieces);
  const uint32_t mid = f.size();
  const TreeNode node = relay_node(tree, c.rank, c.size);
  if (pipelined) relay_pipelined(f, node, segment * ts, pieces);
  else tree_down_blocking(f, node, c.bytes, Segs{0, 1});
  then_after(f, begin, mid);
  return pipelined ? count % segment * ts : 0;
}

void smpi_init_smp(Fragment& f, RankId rank, int size) {
  const uint32_t begin = f.size();
  const After ids = ring_allgather(f, After{}, rank, size, kSmpIdBytes);  // leader ids over the communicator
  ring_allgather(f, ids, rank, size, kSmpIdBytes);  // local sizes over the leaders' communicator
  const uint32_t reduce = f.size();
  smpi_linear_to_root(f, rank, size, 0, kSmpIdBytes, PerRank{kSmpIdBytes}, true);  // allreduce__default
  then_after(f, begin, reduce);
  const uint32_t bcast = f.size();
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, rank, size, 0, node);
  tree_down_blocking(f, node, kSmpIdBytes, Segs{});
  then_after(f, reduce, bcast);
}

bool smpi_smp_setup_once(Fragment& f, const CollCall& c) {
  if (!c.smp_ready || *c.smp_ready || f.tracking()) return false;
  smpi_init_smp(f, c.rank, c.size);
  *c.smp_ready = true;
  return true;
}

void smpi_smp_binomial_bcast(Fragment& f, const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size,
               "smpi_smp_binomial_bcast: rank out of range");
  const uint32_t begin = f.size();
  smpi_smp_setup_once(f, c);
  const uint32_t first = f.size();
  root_to_zero(f, c, 1);
  then_after(f, begin, first);
  const uint32_t tree = f.size();
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, c.rank, c.size, 0, node);
  tree_down_blocking(f, node, c.bytes, Segs{0, 1});
  then_after(f, begin, tree);
}

void smpi_mvapich2_knomial_bcast(Fragment& f, const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size,
               "smpi_mvapich2_knomial_bcast: rank out of range");
  const uint32_t begin = f.size();
  smpi_smp_setup_once(f, c);
  const uint32_t tree = f.size();
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKnomial, kSmpiMv2KnomialFactor}, c.rank, c.size, c.root, node);
  std::vector<uint32_t> prev;  // the blocking recv, then the previous level's sends (waitall)
  if (node.parent >= 0) prev.push_back(f.recv(node.parent, c.bytes, Segs{0, 1}));
  const RankId v = vrank_of(c.rank, c.root, c.size);
  // Children come grouped by level, highest place first (tree_node's order); a level is the
  // place k^i of the child's offset d = j k^i (1 <= j < k), i.e. d's highest power of k.
  auto place = [](RankId d) {
    int64_t m = 1;
    while (m * kSmpiMv2KnomialFactor <= d) m *= kSmpiMv2KnomialFactor;
    return m;
  };
  std::vector<uint32_t> level;
  for (size_t i = 0; i < node.children.size(); ++i) {
    const RankId child = node.children[i];
    const uint32_t send = f.send(child, c.bytes, Segs{0, 1});
    for (uint32_t p : prev) f.require(send, p);
    if (!level.empty()) f.irequire(send, level.back());
    level.push_back(send);
    const bool last = i + 1 == node.children.size() ||
                      place(vrank_of(node.children[i + 1], c.root, c.size) - v) != place(vrank_of(child, c.root, c.size) - v);
    if (last) {
      prev.swap(level);
      level.clear();
    }
  }
  then_after(f, begin, tree);
}

void smpi_flattree_bcast(Fragment& f, const CollCall& c) {
  if (c.rank != c.root) {
    f.recv(c.root, c.bytes, Segs{0, 1});
    return;
  }
  for (RankId r = 0; r < c.size; ++r)
    if (r != c.root) f.send(r, c.bytes, Segs{0, 1});
}

}  // namespace simfab::coll
