// TiProgram's load-balancing points (`migrate`, AMPI's MPI_Migrate; seed 001 §2.17, ch. 9):
// with lb/balancer=greedy, every lb/every-th migrate action of a rank is a point where all ranks
// meet (an ideal barrier: no messages, no cost); when the last arrives, GreedyLB
// (energy/greedy_lb.hpp) maps the ranks again from the flops each computed since the previous
// balancing, the executor and this program move the ranks that change host, and every rank goes
// on after its migration time (zero when it stays). A rank that finished before reaching the
// point leaves the others waiting: a deadlock, reported as such.
#include "replay/ti_program.hpp"

namespace simfab {

bool TiProgram::start_migrate(RankId r, SimTime t) {
  if (!lb_.enabled) return false;
  if (++lb_points_[static_cast<size_t>(r)] % static_cast<uint64_t>(lb_.every) != 0) return false;
  // A zero delay brings the engine to the rank's time; arrive_migrate runs at its end.
  RankState& s = rank(r);
  s.state = State::kOp;
  s.wait = issue(r, OpKind::kCalc, 0, 0, 0, kNoRequest, t, op_flag::kDelay);
  migrate_ops_[s.wait] = true;
  return true;
}

void TiProgram::arrive_migrate(RankId r) {
  rank(r).state = State::kMigrating;
  if (++lb_arrived_ == num_ranks()) rebalance();
}

void TiProgram::rebalance() {
  lb_arrived_ = 0;
  const std::vector<HostId> next = energy::greedy_lb(lb_flops_, rank_host_, platform_);
  const SimTime now = ex_->engine().now();
  for (RankId r = 0; r < num_ranks(); ++r) {
    const size_t i = static_cast<size_t>(r);
    const SimTime cost = energy::migration_time(platform_, rank_host_[i], next[i], lb_.rank_memory);
    if (next[i] != rank_host_[i]) {
      ++migrations_;
      ex_->migrate(r, next[i]);
      rank_host_[i] = next[i];
    }
    lb_flops_[i] = 0;
    RankState& s = rank(r);
    s.state = State::kOp;
    s.wait = issue(r, OpKind::kCalc, static_cast<uint64_t>(cost.ps()), 0, 0, kNoRequest, now, op_flag::kDelay);
  }
}

}  // namespace simfab
