#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

std::span<const uint32_t> Fragment::end_ops(uint32_t begin, uint32_t end) {
  ends_.clear();
  if (end <= begin) return ends_;
  marked_.assign(end - begin, 0);
  for (const FragDep& d : deps_)
    if (!d.immediate && d.pred >= begin && d.pred < end) marked_[d.pred - begin] = 1;
  for (uint32_t i = begin; i < end; ++i)
    if (!marked_[i - begin]) ends_.push_back(i);
  return ends_;
}

uint32_t Fragment::close(SimTime duration) {
  const uint32_t n = size();
  std::span<const uint32_t> ends = end_ops(0, n);
  const uint32_t c = calc(duration);
  for (uint32_t e : ends) require(c, e);
  return c;
}

uint32_t Fragment::count(OpKind kind) const {
  uint32_t n = 0;
  for (const FragOp& op : ops_) n += op.kind == kind;
  return n;
}

Bytes Fragment::bytes(OpKind kind) const {
  Bytes b = 0;
  for (const FragOp& op : ops_)
    if (op.kind == kind) b += op.amount;
  return b;
}

}  // namespace simfab::coll
