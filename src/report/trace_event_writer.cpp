#include "report/trace_event_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "platform/platform.hpp"
#include "report/time_format.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

// Writes s as a JSON string literal. Plain printable ASCII (every call name) is written as is;
// anything else goes through nlohmann's serializer, which escapes control characters and replaces
// invalid UTF-8 with U+FFFD, so the file stays valid JSON whatever a host is called.
void write_json_string(std::ostream& os, std::string_view s) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char ch) {
    return ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\';
  });
  if (plain)
    os << '"' << s << '"';
  else
    os << nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* cpu_use_name(CpuUse use) {
  switch (use) {
    case CpuUse::kCompute: return "compute";
    case CpuUse::kSendOverhead: return "send overhead";
    case CpuUse::kRecvOverhead: return "recv overhead";
  }
  return "cpu";
}

bool carries_data(CallClass c) { return c == CallClass::kP2p || c == CallClass::kCollective; }

// The ,"args":{...} of a call slice (nothing when empty): only what means something for its class.
void write_call_args(std::ostream& os, const CallInfo& c) {
  bool any = false;
  auto field = [&](const char* key) -> std::ostream& {
    os << (any ? "," : R"(,"args":{)") << '"' << key << "\":";
    any = true;
    return os;
  };
  if (c.algorithm != nullptr) write_json_string(field("algorithm"), c.algorithm);
  if (c.peer >= 0) field("peer") << c.peer;
  if (carries_data(c.cls) || c.bytes != 0) field("bytes") << c.bytes;
  if (carries_data(c.cls)) field("comm") << c.comm;
  if (c.cls == CallClass::kCompute || c.flops != 0) field("flops") << c.flops;
  if (any) os << '}';
}

}  // namespace

TraceEventWriter::TraceEventWriter(std::ostream& out, TraceFilter filter, Metadata metadata)
    : out_(out), filter_(filter), metadata_(std::move(metadata)) {}

std::ostream& TraceEventWriter::next_event() {
  out_ << (first_event_ ? "\n" : ",\n");
  first_event_ = false;
  return out_;
}

void TraceEventWriter::start_run(const RunInfo& info) {
  rank_host_ = info.rank_host;
  platform_ = info.platform;
  nic_named_.clear();
  process_named_.assign(rank_host_.size(), false);
  thread_named_.clear();
  calls_ = info.format != "goal";
  messages_ = 0;
  first_event_ = true;
  out_ << R"({"displayTimeUnit":"ns","traceEvents":[)";
  const RankId n = static_cast<RankId>(rank_host_.size());
  for (RankId r = std::max<RankId>(filter_.first_rank, 0); r < n && r <= filter_.last_rank; ++r) name_process(r);
}

void TraceEventWriter::name_process(RankId r) {
  const size_t i = static_cast<size_t>(r);
  if (i >= process_named_.size() || process_named_[i]) return;
  process_named_[i] = true;
  const std::string name = "rank " + std::to_string(r) + " (" + rank_host_[i] + ")";
  next_event() << R"({"ph":"M","pid":)" << r << R"(,"tid":0,"name":"process_name","args":{"name":)";
  write_json_string(out_, name);
  out_ << "}}";
  next_event() << R"({"ph":"M","pid":)" << r << R"(,"tid":0,"name":"process_sort_index","args":{"sort_index":)"
               << r << "}}";
}

void TraceEventWriter::name_thread(RankId r, int tid, std::string_view name) {
  if (!thread_named_.insert(static_cast<uint64_t>(r) * 512 + static_cast<uint64_t>(tid)).second) return;
  next_event() << R"({"ph":"M","pid":)" << r << R"(,"tid":)" << tid << R"(,"name":"thread_name","args":{"name":)";
  write_json_string(out_, name);
  out_ << "}}";
  next_event() << R"({"ph":"M","pid":)" << r << R"(,"tid":)" << tid
               << R"(,"name":"thread_sort_index","args":{"sort_index":)" << tid << "}}";
}

void TraceEventWriter::row(nic::LogType type, HostId initiator, HostId target, SimTime start, SimTime end) {
  if (!filter_.overlaps(start, end) || !platform_) return;
  const bool pci = type >= nic::LogType::kPciPioPayload;
  const HostId host = pci ? initiator : target;  // a message shows on the NIC that receives it
  if (nic_named_.size() <= static_cast<size_t>(host)) nic_named_.resize(static_cast<size_t>(host) + 1, false);
  const int64_t pid = kNicPid + host;
  if (!nic_named_[static_cast<size_t>(host)]) {
    nic_named_[static_cast<size_t>(host)] = true;
    next_event() << R"({"ph":"M","pid":)" << pid << R"(,"tid":0,"name":"process_name","args":{"name":)";
    write_json_string(out_, "NIC " + platform_->host(host).name);
    out_ << "}}";
    next_event() << R"({"ph":"M","pid":)" << pid << R"(,"tid":0,"name":"process_sort_index","args":{"sort_index":)"
                 << pid << "}}";
    for (int tid : {0, 1})
      next_event() << R"({"ph":"M","pid":)" << pid << R"(,"tid":)" << tid
                   << R"(,"name":"thread_name","args":{"name":")" << (tid ? "PCIe" : "wire") << R"("}})";
  }
  next_event() << R"({"ph":"X","pid":)" << pid << R"(,"tid":)" << (pci ? 1 : 0) << R"(,"ts":)" << micros_text(start)
               << R"(,"dur":)" << micros_text(end - start) << R"(,"name":")" << nic::log_type_name(type)
               << R"(","cat":"nic","args":{"from":)" << initiator << R"(,"to":)" << target << "}}";
}

void TraceEventWriter::call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) {
  if (!filter_.keeps(r, begin, end)) return;
  name_thread(r, 0, "MPI");
  std::ostream& os = next_event();
  os << R"({"ph":"X","pid":)" << r << R"(,"tid":0,"ts":)" << micros_text(begin) << R"(,"dur":)"
     << micros_text(end - begin) << R"(,"name":)";
  write_json_string(os, c.name);
  os << R"(,"cat":")" << call_class_name(c.cls) << '"';
  write_call_args(os, c);
  os << '}';
}

void TraceEventWriter::cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) {
  if (begin == end || !filter_.keeps(r, begin, end)) return;
  const int tid = 1 + cpu;
  name_thread(r, tid, "CPU " + std::to_string(cpu));
  next_event() << R"({"ph":"X","pid":)" << r << R"(,"tid":)" << tid << R"(,"ts":)" << micros_text(begin)
               << R"(,"dur":)" << micros_text(end - begin) << R"(,"name":")" << cpu_use_name(use)
               << R"(","cat":"cpu"})";
}

void TraceEventWriter::message(const MessageRecord& m) {
  const uint64_t id = messages_++;
  if (!filter_.keeps(m)) return;
  name_process(m.src);
  name_process(m.dst);
  write_flow_end('s', m, m.src, m.sent, id);
  write_flow_end('f', m, m.dst, m.arrived, id);
}

void TraceEventWriter::write_flow_end(char phase, const MessageRecord& m, RankId rank, SimTime t, uint64_t id) {
  std::ostream& os = next_event();
  os << R"({"ph":")" << phase << '"';
  if (phase == 'f') os << R"(,"bp":"e")";
  os << R"(,"id":)" << id << R"(,"pid":)" << rank << R"(,"tid":)" << (calls_ ? 0 : 1 + m.cpu) << R"(,"ts":)" << micros_text(t)
     << R"(,"name":"msg","cat":")" << (m.collective() ? "collective" : "p2p") << R"(","args":{"bytes":)" << m.bytes
     << R"(,"tag":)" << m.tag << "}}";
}

// A process of counter tracks (phase "C"), one per series, sorted after the ranks and NICs.
void TraceEventWriter::counter_process(int64_t pid, const std::string& name) {
  next_event() << R"({"ph":"M","pid":)" << pid << R"(,"tid":0,"name":"process_name","args":{"name":)";
  write_json_string(out_, name);
  out_ << "}}";
  next_event() << R"({"ph":"M","pid":)" << pid << R"(,"tid":0,"name":"process_sort_index","args":{"sort_index":)"
               << pid << "}}";
}

void TraceEventWriter::counter(int64_t pid, const std::string& track, SimTime t, const char* arg, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  next_event() << R"({"ph":"C","pid":)" << pid << R"(,"tid":0,"ts":)" << micros_text(t) << R"(,"name":)";
  write_json_string(out_, track);
  out_ << R"(,"args":{")" << arg << R"(":)" << text << "}}";
}

void TraceEventWriter::counter_tracks(const RunResult& result) {
  // The packet model's fullest ports: mean buffer occupancy per bin (NetworkStats::queues).
  const NetworkStats& net = result.network;
  if (net.packet && !net.queues.empty() && net.queue_bin > SimTime::zero()) {
    counter_process(kPortsPid, "switch ports (packet model)");
    for (const NetworkStats::QueueSeries& q : net.queues)
      for (size_t k = 0; k < q.mean_bytes.size(); ++k) {
        const SimTime from = SimTime::ps(net.queue_bin.ps() * static_cast<int64_t>(k));
        if (filter_.overlaps(from, from + net.queue_bin)) counter(kPortsPid, q.name, from, "bytes", q.mean_bytes[k]);
      }
  }
  // DVFS hosts: the pstate from each step on (energy/pstate_log.hpp).
  if (!result.pstates.empty()) {
    counter_process(kPstatePid, "pstates");
    for (const energy::PstateTrack& t : result.pstates)
      for (size_t k = 0; k < t.steps.size(); ++k) {
        const SimTime until = k + 1 < t.steps.size() ? t.steps[k + 1].first : result.exec.makespan;
        if (filter_.overlaps(t.steps[k].first, until))
          counter(kPstatePid, t.host, t.steps[k].first, "pstate", t.steps[k].second);
      }
  }
}

void TraceEventWriter::finish(const RunResult& result) {
  counter_tracks(result);
  // Model switches (sim/model_switch.hpp): a global instant event where each phase begins.
  for (size_t i = 1; i < result.phases.size(); ++i) {
    const PhaseResult& p = result.phases[i];
    if (!filter_.overlaps(p.from, p.from)) continue;
    next_event() << R"({"ph":"i","s":"g","pid":0,"tid":0,"ts":)" << micros_text(p.from)
                 << R"(,"name":"model switch","cat":"switch","args":{"phase":)" << i << R"(,"model":)";
    write_json_string(out_, p.model);
    out_ << R"(,"changes":)";
    write_json_string(out_, changes_text(p.changes));
    out_ << "}}";
  }
  out_ << "\n]";
  if (metadata_)
    out_ << R"(,"simfab":)" << metadata_(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out_ << "}\n";
  out_.flush();
}

}  // namespace simfab
