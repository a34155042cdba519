#include "report/rank_breakdown.hpp"

#include <algorithm>

namespace simfab {

void RankBreakdown::reset(int num_ranks) { ranks_.assign(static_cast<size_t>(num_ranks), Rank{}); }

void RankBreakdown::add_call(RankId r, CallClass cls, SimTime length) {
  Rank& k = ranks_[static_cast<size_t>(r)];
  k.by_class[static_cast<size_t>(cls)] += length.ps();
  k.has_calls = true;
}

void RankBreakdown::add_cpu(RankId r, CpuUse use, SimTime length) {
  Rank& k = ranks_[static_cast<size_t>(r)];
  (use == CpuUse::kCompute ? k.cpu_compute : k.cpu_overhead) += length.ps();
}

RankTimes RankBreakdown::times(RankId r, SimTime finish, SimTime makespan) const {
  const Rank& k = ranks_[static_cast<size_t>(r)];
  const auto ps = [](int64_t v) { return SimTime::ps(v); };
  RankTimes t;
  t.rank = r;
  t.finish = finish;
  t.idle = makespan - finish;
  if (k.has_calls) {
    const auto of = [&](CallClass c) { return k.by_class[static_cast<size_t>(c)]; };
    int64_t covered = 0;
    for (int64_t v : k.by_class) covered += v;
    t.compute = ps(of(CallClass::kCompute));
    t.p2p = ps(of(CallClass::kP2p));
    t.collective = ps(of(CallClass::kCollective));
    t.wait = ps(of(CallClass::kWait));
    t.other = ps(of(CallClass::kOther) + std::max<int64_t>(0, finish.ps() - covered));
  } else {
    t.compute = ps(k.cpu_compute);
    t.p2p = ps(k.cpu_overhead);
    t.wait = ps(std::max<int64_t>(0, finish.ps() - k.cpu_compute - k.cpu_overhead));
  }
  return t;
}

}  // namespace simfab
