// write_measured_trace_events (see otf2_measured.hpp).
#include "otf2/otf2_measured.hpp"

#include <algorithm>

#include "core/config.hpp"
#include "otf2/otf2_reader.hpp"
#include "report/run_recorder.hpp"
#include "report/run_stats.hpp"
#include "report/summary.hpp"
#include "report/trace_event_writer.hpp"
#include "sim/simulation.hpp"

namespace simfab {

namespace {

CallClass class_of(CapFunc f) {
  switch (cap_class(f)) {
    case CapClass::kSend:
    case CapClass::kIsend:
    case CapClass::kRecv:
    case CapClass::kIrecv:
    case CapClass::kSendrecv: return CallClass::kP2p;
    case CapClass::kCompletion:
    case CapClass::kProbe: return CallClass::kWait;
    case CapClass::kCollective:
    case CapClass::kCreation: return CallClass::kCollective;
    default: return CallClass::kOther;
  }
}

SimTime at(const CapRecord& rec, bool end) {
  const int64_t t = end ? (rec.ret == kCapNoTime ? rec.call : rec.ret) : (rec.call == kCapNoTime ? rec.ret : rec.call);
  return SimTime::ps(t == kCapNoTime ? 0 : t);
}

}  // namespace

void write_measured_trace_events(const std::string& anchor, std::ostream& out) {
  const CaptureRun run = load_otf2_run(anchor);
  Config cfg;
  register_builtin_keys(cfg);
  RunResult result;
  result.model = "measured";
  result.platform = "<measured run>";
  result.application = anchor;
  result.application_format = "otf2 (measured)";
  result.num_ranks = run.num_ranks();
  for (RankId r = 0; r < run.num_ranks(); ++r) result.rank_host.push_back(run.rank(r).header.hostname);

  RunStats stats;
  TraceEventWriter trace(out, TraceFilter{}, [&](const RunResult& res) {
    nlohmann::ordered_json j;
    j["result"] = result_json_value(res, cfg, true);
    j["stats"] = stats.to_json();
    return j;
  });
  RunRecorder recorder;
  recorder.add(&stats);
  recorder.add(&trace);
  RunInfo info;
  info.application = anchor;
  info.format = result.application_format;
  info.platform_path = result.platform;
  info.model = result.model;
  info.rank_host = result.rank_host;
  for (RankId r = 0; r < run.num_ranks(); ++r) info.rank_host_id.push_back(r);
  recorder.start_run(info);

  CallInfo compute;
  compute.name = "compute";
  compute.cls = CallClass::kCompute;
  result.exec.finish.assign(static_cast<size_t>(run.num_ranks()), SimTime::zero());
  for (RankId r = 0; r < run.num_ranks(); ++r) {
    const RankCapture& rc = run.rank(r);
    SimTime last = SimTime::zero();
    recorder.call(r, last, compute);
    for (uint32_t i = 0; i < run.kept(r); ++i) {
      const CapRecord& rec = rc.records[i];
      const SimTime begin = max(last, at(rec, false)), end = max(begin, at(rec, true));
      CallInfo c;
      c.name = cap_func_name(rec.func).data();  // static storage
      c.cls = class_of(rec.func);
      c.comm = std::max(rec.comm_id, 0);
      recorder.call(r, begin, c);
      if (run.step(r, i) == CapStep::kOp &&
          (cap_class(rec.func) == CapClass::kSend || cap_class(rec.func) == CapClass::kIsend ||
           cap_class(rec.func) == CapClass::kSendrecv) &&
          rec.s_peer >= 0) {
        MessageRecord m;
        m.src = r;
        m.dst = run.world_rank(rec.comm_id, rec.s_peer);
        m.bytes = rec.s_count * rec.s_dt;
        m.tag = rec.s_tag;
        m.context = 2 * static_cast<uint32_t>(std::max(rec.comm_id, 0));
        m.sent = m.arrived = begin;
        recorder.message(m);
        ++result.exec.messages;
        result.exec.bytes += m.bytes;
      }
      if (cap_class(rec.func) != CapClass::kFinalize) recorder.call(r, end, compute);
      last = end;
    }
    result.exec.finish[static_cast<size_t>(r)] = last;
    result.exec.makespan = max(result.exec.makespan, last);
  }
  recorder.finish(result);
}

}  // namespace simfab
