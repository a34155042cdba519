// Helpers shared by the output tests (trace-event, Paje, statistics): synthetic runs built from
// RunInfo / RunResult / CallInfo values, so each test states only the events it feeds.
#pragma once

#include <string>
#include <vector>

#include "mpi/activity.hpp"
#include "sim/simulation.hpp"

namespace simfab::testing {

inline SimTime ps(int64_t v) { return SimTime::ps(v); }

// `ranks` ranks on hosts host0, host1, ... of a run in `format` ("ti": calls are reported).
inline RunInfo run_info(int ranks, const std::string& format = "ti") {
  RunInfo info;
  info.application = "app.ti";
  info.format = format;
  for (int r = 0; r < ranks; ++r) info.rank_host.push_back("host" + std::to_string(r));
  return info;
}

// A finished run whose ranks end at `finish`; the makespan is the latest of them.
inline RunResult run_result(std::vector<SimTime> finish) {
  RunResult res;
  res.num_ranks = static_cast<int>(finish.size());
  res.exec.makespan = SimTime::zero();
  for (SimTime t : finish) res.exec.makespan = max(res.exec.makespan, t);
  res.exec.finish = std::move(finish);
  return res;
}

inline CallInfo call(const char* name, CallClass cls, const char* algorithm = nullptr) {
  CallInfo c;
  c.name = name;
  c.cls = cls;
  c.algorithm = algorithm;
  return c;
}

}  // namespace simfab::testing
