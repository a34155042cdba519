#include "mpi/coll/fragment_runner.hpp"

#include "mpi/op_text.hpp"

namespace simfab::coll {

uint32_t FragmentRunner::start(Executor& ex, const Fragment& f, RankId rank, int32_t tag, uint32_t context,
                               SimTime t, const mpi::Group* group) {
  SIMFAB_CHECK(f.size() > 0, "FragmentRunner::start: empty fragment");
  SIMFAB_CHECK(f.size() < kOpFlag, "FragmentRunner::start: fragment too large");
  const uint32_t id = runs_.acquire();
  Run& run = runs_[id];
  const uint32_t n = f.size();
  run.ops.resize(n);
  run.remaining = n;
  for (uint32_t i = 0; i < n; ++i) {
    const OpId oid = ops_.alloc();
    Op& op = ops_[oid];
    const FragOp& fo = f.op(i);
    op.kind = fo.kind;
    op.amount = fo.amount;
    op.peer = group && fo.kind != OpKind::kCalc ? group->world_rank(fo.peer) : fo.peer;
    op.tag = tag;
    op.rank = rank;
    op.context = context;
    op.user = kOpFlag | i;
    run.ops[i] = oid;
  }
  // CSR by predecessor (counting sort, stable: successors keep the order the edges were added).
  run.succ_begin.assign(n + 1, 0);
  for (const FragDep& d : f.deps()) {
    ++run.succ_begin[d.pred + 1];
    ++ops_[run.ops[d.succ]].pending;
  }
  for (uint32_t i = 0; i < n; ++i) run.succ_begin[i + 1] += run.succ_begin[i];
  run.succ.resize(f.deps().size());
  // Fill using succ_begin[i] as a cursor, then shift back.
  for (const FragDep& d : f.deps()) run.succ[run.succ_begin[d.pred]++] = d.succ | (d.immediate ? kImmediate : 0);
  for (uint32_t i = n; i > 0; --i) run.succ_begin[i] = run.succ_begin[i - 1];
  run.succ_begin[0] = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (ops_[run.ops[i]].pending == 0) ex.ready(run.ops[i], t);
  return id;
}

void FragmentRunner::release(Executor& ex, Run& run, uint32_t index, SimTime t, bool immediate) {
  for (uint32_t e = run.succ_begin[index]; e < run.succ_begin[index + 1]; ++e) {
    const uint32_t edge = run.succ[e];
    if (((edge & kImmediate) != 0) != immediate) continue;
    const OpId s = run.ops[edge & ~kImmediate];
    if (--ops_[s].pending == 0) ex.ready(s, t);
  }
}

bool FragmentRunner::contains(uint32_t run, OpId op) const {
  if (run >= runs_.slots()) return false;
  const Run& r = runs_[run];
  const uint32_t index = ops_[op].user & ~kOpFlag;
  return index < r.ops.size() && r.ops[index] == op;
}

void FragmentRunner::on_started(Executor& ex, uint32_t run, OpId op, SimTime t) {
  SIMFAB_CHECK(run < runs_.slots() && owns(ops_[op]), "FragmentRunner::on_started: foreign op");
  release(ex, runs_[run], ops_[op].user & ~kOpFlag, t, true);
}

bool FragmentRunner::on_completed(Executor& ex, uint32_t run_id, OpId op, SimTime t) {
  SIMFAB_CHECK(run_id < runs_.slots() && owns(ops_[op]), "FragmentRunner::on_completed: foreign op");
  Run& run = runs_[run_id];
  const uint32_t index = ops_[op].user & ~kOpFlag;
  SIMFAB_CHECK(index < run.ops.size() && run.ops[index] == op, "FragmentRunner: op does not belong to the run");
  release(ex, run, index, t, false);
  run.ops[index] = kNoOp;
  ops_.release(op);
  if (--run.remaining > 0) return false;
  runs_.release(run_id);
  return true;
}

std::string FragmentRunner::describe(uint32_t run_id) const {
  if (run_id >= runs_.slots()) return {};
  const Run& run = runs_[run_id];
  std::string out;
  int shown = 0;
  for (OpId id : run.ops) {
    if (id == kNoOp) continue;
    const Op& op = ops_[id];
    if (!(op.flags & op_flag::kStarted)) continue;  // waits for another op of the run
    if (shown++ == 3) {
      out += "; ...";
      break;
    }
    if (shown > 1) out += "; ";
    out += describe_stuck_op(op);
  }
  return out;
}

size_t FragmentRunner::memory_bytes() const {
  size_t b = runs_.memory_bytes();
  for (uint32_t i = 0; i < runs_.slots(); ++i) {
    const Run& r = runs_[i];
    b += r.ops.capacity() * sizeof(OpId) + (r.succ_begin.capacity() + r.succ.capacity()) * sizeof(uint32_t);
  }
  return b;
}

}  // namespace simfab::coll
