#include "report/paje_writer.hpp"

#include <algorithm>
#include <string_view>

#include "report/time_format.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

// SimGrid's event ids and field orders (src/instr/instr_paje_header.cpp, non-"basic" header).
constexpr const char* kHeader =
    "%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 2\n%       Alias string\n%       Type string\n%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineLinkType 4\n%       Alias string\n%       Type string\n"
    "%       StartContainerType string\n%       EndContainerType string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 5\n%       Alias string\n%       Type string\n%       Name string\n"
    "%       Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 6\n%       Time date\n%       Alias string\n%       Type string\n"
    "%       Container string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 7\n%       Time date\n%       Type string\n%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajePushState 12\n%       Time date\n%       Type string\n%       Container string\n"
    "%       Value string\n%EndEventDef\n"
    "%EventDef PajePopState 13\n%       Time date\n%       Type string\n%       Container string\n"
    "%EndEventDef\n"
    "%EventDef PajeStartLink 15\n%       Time date\n%       Type string\n%       Container string\n"
    "%       Value string\n%       StartContainer string\n%       Key string\n%       Size int\n%EndEventDef\n"
    "%EventDef PajeEndLink 16\n%       Time date\n%       Type string\n%       Container string\n"
    "%       Value string\n%       EndContainer string\n%       Key string\n%EndEventDef\n";

constexpr const char* kTypes =
    "0 RANK 0 \"rank\"\n"
    "0 CORE RANK \"cpu\"\n"
    "2 MPI RANK \"MPI\"\n"
    "2 CPU CORE \"CPU\"\n"
    "4 MSG 0 RANK RANK \"message\"\n"
    "5 cpu0 CPU \"compute\" \"0 0.6 0\"\n"
    "5 cpu1 CPU \"send overhead\" \"0 0.4 1\"\n"
    "5 cpu2 CPU \"recv overhead\" \"0.4 0.8 1\"\n"
    "5 p2p MSG \"p2p\" \"0 0 0\"\n"
    "5 collective MSG \"collective\" \"1 0.5 0\"\n";

const char* class_color(CallClass c) {
  switch (c) {
    case CallClass::kCompute: return "0 0.6 0";
    case CallClass::kP2p: return "0 0.4 1";
    case CallClass::kCollective: return "1 0.5 0";
    case CallClass::kWait: return "0.8 0 0";
    case CallClass::kOther: break;
  }
  return "0.6 0.6 0.6";
}

// A Paje string has no escapes: quotes and line breaks would end it, so they become '_'.
std::string paje_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) out.push_back(ch == '"' || ch == '\n' || ch == '\r' ? '_' : ch);
  return out + '"';
}

std::string rank_alias(RankId r) { return "r" + std::to_string(r); }
std::string cpu_alias(RankId r, uint8_t cpu) { return rank_alias(r) + "c" + std::to_string(cpu); }

}  // namespace

PajeWriter::PajeWriter(std::ostream& out, TraceFilter filter) : out_(out), filter_(filter) {}

void PajeWriter::start_run(const RunInfo& info) {
  num_ranks_ = static_cast<RankId>(info.rank_host.size());
  events_.clear();
  mpi_values_.clear();
  mpi_index_.clear();
  cpu_containers_.clear();
  messages_ = 0;
  rank_container_.assign(info.rank_host.size(), false);
  for (RankId r = std::max<RankId>(filter_.first_rank, 0); r < num_ranks_ && r <= filter_.last_rank; ++r)
    rank_container_[static_cast<size_t>(r)] = true;
}

uint32_t PajeWriter::mpi_value(const CallInfo& c) {
  const std::string_view name = c.name;
  if (const auto it = mpi_index_.find(name); it != mpi_index_.end()) return it->second;
  const auto v = static_cast<uint32_t>(mpi_values_.size());
  mpi_index_.emplace(std::string(name), v);
  mpi_values_.push_back(MpiValue{std::string(name), c.cls});
  return v;
}

void PajeWriter::call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) {
  if (!filter_.keeps(r, begin, end)) return;
  const uint32_t v = mpi_value(c);
  events_.push_back(Event{begin.ps(), v, 0, r, 0, Kind::kPushMpi, false});
  events_.push_back(Event{end.ps(), 0, 0, r, 0, Kind::kPopMpi, false});
}

void PajeWriter::cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) {
  if (begin == end || !filter_.keeps(r, begin, end)) return;
  cpu_containers_.emplace(r, cpu);
  events_.push_back(Event{begin.ps(), static_cast<uint64_t>(use), 0, r, cpu, Kind::kPushCpu, false});
  events_.push_back(Event{end.ps(), 0, 0, r, cpu, Kind::kPopCpu, false});
}

void PajeWriter::message(const MessageRecord& m) {
  const uint64_t key = messages_++;
  if (!filter_.keeps(m)) return;
  rank_container_[static_cast<size_t>(m.src)] = true;
  rank_container_[static_cast<size_t>(m.dst)] = true;
  events_.push_back(Event{m.sent.ps(), key, m.bytes, m.src, 0, Kind::kStartLink, m.collective()});
  events_.push_back(Event{m.arrived.ps(), key, m.bytes, m.dst, 0, Kind::kEndLink, m.collective()});
}

void PajeWriter::write_definitions() const {
  out_ << kHeader << kTypes;
  for (size_t i = 0; i < mpi_values_.size(); ++i)
    out_ << "5 mpi" << i << " MPI " << paje_string(mpi_values_[i].name) << " \"" << class_color(mpi_values_[i].cls)
         << "\"\n";
}

// Creates (at `at`, parents first) or destroys (children first) every container.
void PajeWriter::write_containers(SimTime at, bool create) const {
  const std::string t = seconds_text(at);
  auto cpus = [&] {
    for (const auto& [r, cpu] : cpu_containers_) {
      if (create)
        out_ << "6 " << t << ' ' << cpu_alias(r, cpu) << " CORE " << rank_alias(r) << " \"rank " << r << " cpu "
             << int{cpu} << "\"\n";
      else
        out_ << "7 " << t << " CORE " << cpu_alias(r, cpu) << '\n';
    }
  };
  if (!create) cpus();
  for (RankId r = 0; r < num_ranks_; ++r) {
    if (!rank_container_[static_cast<size_t>(r)]) continue;
    if (create)
      out_ << "6 " << t << ' ' << rank_alias(r) << " RANK 0 \"rank " << r << "\"\n";
    else
      out_ << "7 " << t << " RANK " << rank_alias(r) << '\n';
  }
  if (create) cpus();
}

void PajeWriter::write_event(const Event& e) const {
  const std::string t = seconds_text(SimTime::ps(e.ps));
  switch (e.kind) {
    case Kind::kPushMpi: out_ << "12 " << t << " MPI " << rank_alias(e.rank) << " mpi" << e.value << '\n'; break;
    case Kind::kPopMpi: out_ << "13 " << t << " MPI " << rank_alias(e.rank) << '\n'; break;
    case Kind::kPushCpu:
      out_ << "12 " << t << " CPU " << cpu_alias(e.rank, e.cpu) << " cpu" << e.value << '\n';
      break;
    case Kind::kPopCpu: out_ << "13 " << t << " CPU " << cpu_alias(e.rank, e.cpu) << '\n'; break;
    case Kind::kStartLink:
      out_ << "15 " << t << " MSG 0 " << (e.collective ? "collective" : "p2p") << ' ' << rank_alias(e.rank) << " m"
           << e.value << ' ' << e.bytes << '\n';
      break;
    case Kind::kEndLink:
      out_ << "16 " << t << " MSG 0 " << (e.collective ? "collective" : "p2p") << ' ' << rank_alias(e.rank) << " m"
           << e.value << '\n';
      break;
  }
}

void PajeWriter::finish(const RunResult& result) {
  std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.ps < b.ps; });
  SimTime end = result.exec.makespan;
  if (!events_.empty()) end = max(end, SimTime::ps(events_.back().ps));
  write_definitions();
  write_containers(SimTime::zero(), true);
  for (const Event& e : events_) write_event(e);
  write_containers(end, false);
  out_.flush();
  events_.clear();
  events_.shrink_to_fit();
}

}  // namespace simfab
