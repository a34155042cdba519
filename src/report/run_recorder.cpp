#include "report/run_recorder.hpp"

#include <cstring>

#include "core/error.hpp"
#include "sim/simulation.hpp"

namespace simfab {

void RunRecorder::start_run(const RunInfo& info) {
  open_.assign(info.rank_host.size(), Open{});
  for (RunObserver* o : observers_) o->start_run(info);
}

void RunRecorder::call(RankId r, SimTime t, const CallInfo& info) {
  Open& s = open_[static_cast<size_t>(r)];
  // A refinement of the open call (online mode adds a collective's algorithm once it is chosen):
  // no zero-length interval is emitted for the first report. Other calls at the same instant are
  // calls of their own (TI replay posts several irecvs in zero time).
  const bool refines = info.refines && s.open && s.begin == t && std::strcmp(s.info.name, info.name) == 0;
  if (s.open && !refines)
    for (RunObserver* o : observers_) o->call_interval(r, s.begin, max(s.begin, t), s.info);
  s = Open{t, info, true};
}

void RunRecorder::cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) {
  for (RunObserver* o : observers_) o->cpu_busy(r, cpu, use, begin, end);
}

void RunRecorder::message(const MessageRecord& m) {
  for (RunObserver* o : observers_) o->message(m);
}

void RunRecorder::finish(const RunResult& result) {
  SIMFAB_CHECK(open_.size() == result.exec.finish.size(), "RunRecorder::finish: rank count differs from start_run");
  for (size_t r = 0; r < open_.size(); ++r) {
    Open& s = open_[r];
    if (!s.open) continue;
    const SimTime end = max(s.begin, result.exec.finish[r]);
    for (RunObserver* o : observers_) o->call_interval(static_cast<RankId>(r), s.begin, end, s.info);
    s.open = false;
  }
  for (RunObserver* o : observers_) o->finish(result);
}

}  // namespace simfab
