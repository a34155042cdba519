#include "run_outputs.hpp"

#include <unistd.h>

#include <charconv>
#include <filesystem>

#include "cli_options.hpp"
#include "core/atomic_file.hpp"
#include "core/units.hpp"
#include "otf2/otf2_writer.hpp"
#include "report/paje_writer.hpp"
#include "report/portals_log.hpp"
#include "report/run_stats.hpp"
#include "report/stats_csv.hpp"
#include "report/summary.hpp"
#include "report/trace_event_writer.hpp"

namespace simfab {

namespace {

RankId parse_rank(std::string_view s, const std::string& value) {
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 0)
    throw usage_error("--trace-ranks expects A-B or A (ranks, 0 or more), got '" + value + "'");
  return v;
}

// A time with units (10us, 2ms) or a bare number of seconds, as SimGrid's command line takes it.
SimTime parse_window_end(std::string_view s, SimTime empty, const std::string& value) {
  if (s.empty()) return empty;
  const auto t = units::parse_time_or_seconds(s);
  if (!t)
    throw usage_error("--trace-window expects T0:T1 (times such as 10us or 0.002; either may be empty), got '" +
                      value + "'");
  return *t;
}

}  // namespace

bool apply_output_option(std::string_view name, const std::string& value, OutputOptions& o) {
  if (name == "--trace-out") {
    o.trace_out = value;
  } else if (name == "--paje") {
    o.paje = value;
  } else if (name == "--stats") {
    o.stats_dir = value;
  } else if (name == "--otf2-out") {
    o.otf2_out = value;
  } else if (name == "--portals-log") {
    o.portals_log = value;
  } else if (name == "--trace-ranks") {
    const std::string_view v = value;
    const size_t dash = v.find('-');
    o.filter.first_rank = parse_rank(v.substr(0, dash), value);
    o.filter.last_rank = dash == std::string_view::npos ? o.filter.first_rank : parse_rank(v.substr(dash + 1), value);
    if (o.filter.last_rank < o.filter.first_rank)
      throw usage_error("--trace-ranks " + value + ": the last rank comes before the first");
    o.filtered = true;
  } else if (name == "--trace-window") {
    const std::string_view v = value;
    const size_t colon = v.find(':');
    if (colon == std::string_view::npos)
      throw usage_error("--trace-window expects T0:T1 (e.g. 1ms:2ms, or 1ms: for everything after 1 ms), got '" +
                        value + "'");
    o.filter.from = parse_window_end(v.substr(0, colon), SimTime::zero(), value);
    o.filter.to = parse_window_end(v.substr(colon + 1), SimTime::never(), value);
    if (o.filter.to < o.filter.from) throw usage_error("--trace-window " + value + ": T1 comes before T0");
    o.filtered = true;
  } else if (name == "--progress") {
    if (value == "auto") o.progress = OutputOptions::Progress::kAuto;
    else if (value == "always") o.progress = OutputOptions::Progress::kAlways;
    else if (value == "never") o.progress = OutputOptions::Progress::kNever;
    else throw usage_error("--progress expects auto, always or never, got '" + value + "'");
  } else {
    return false;
  }
  return true;
}

namespace {

// The NIC's rows to the Portals log and the timeline both.
class NicLogFanout final : public nic::NicLog {
 public:
  void add(nic::NicLog* l) {
    if (l) logs_.push_back(l);
  }
  size_t size() const { return logs_.size(); }
  nic::NicLog* only() const { return logs_.front(); }
  void row(nic::LogType type, HostId initiator, HostId target, SimTime start, SimTime end) override {
    for (nic::NicLog* l : logs_) l->row(type, initiator, target, start, end);
  }

 private:
  std::vector<nic::NicLog*> logs_;
};

}  // namespace

struct RunOutputs::Impl {
  OutputOptions options;
  const Config* cfg = nullptr;
  bool reproducible = false;
  bool made_stats_dir = false;  // this run created it: removed again unless the run succeeds
  bool finished = false;
  nlohmann::ordered_json result;  // the --json document, built once in finish() for both users
  std::unique_ptr<AtomicFile> json_file, trace_file, paje_file;
  std::unique_ptr<RunStats> stats;
  std::unique_ptr<TraceEventWriter> trace;
  std::unique_ptr<PajeWriter> paje;
  std::unique_ptr<Otf2Writer> otf2;
  std::unique_ptr<PortalsLog> portals_log;
  NicLogFanout nic_logs;
  RunRecorder recorder;
};

RunOutputs::RunOutputs(OutputOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = std::move(options); }
RunOutputs::~RunOutputs() {
  if (impl_->made_stats_dir && !impl_->finished) {
    std::error_code ec;
    std::filesystem::remove(impl_->options.stats_dir, ec);  // only if still empty
    unregister_pending_output(impl_->options.stats_dir);
  }
}

namespace {

// Two outputs naming the same file would write one temporary file twice.
void check_distinct(const OutputOptions& o) {
  const std::pair<const char*, const std::string*> named[] = {
      {"--json", &o.json},         {"--trace-out", &o.trace_out},     {"--paje", &o.paje},
      {"--stats", &o.stats_dir},   {"--portals-log", &o.portals_log}, {"--otf2-out", &o.otf2_out}};
  for (size_t i = 0; i < std::size(named); ++i)
    for (size_t j = i + 1; j < std::size(named); ++j) {
      if (named[i].second->empty() || named[j].second->empty()) continue;
      std::error_code e1, e2;
      const auto a = std::filesystem::weakly_canonical(std::filesystem::absolute(*named[i].second), e1);
      const auto b = std::filesystem::weakly_canonical(std::filesystem::absolute(*named[j].second), e2);
      if (e1 ? *named[i].second == *named[j].second : a == b)
        throw usage_error(std::string(named[i].first) + " and " + named[j].first + " name the same path '" +
                          *named[j].second + "'; give each output its own");
    }
}

}  // namespace

void RunOutputs::prepare(RunHooks& hooks, const Config& cfg, bool reproducible, bool quiet) {
  Impl& m = *impl_;
  const OutputOptions& o = m.options;
  m.cfg = &cfg;
  m.reproducible = reproducible;
  if (o.filtered && o.trace_out.empty() && o.paje.empty())
    throw usage_error("--trace-ranks and --trace-window select what --trace-out and --paje keep; give one of them");
  check_distinct(o);
  if (!o.json.empty()) m.json_file = std::make_unique<AtomicFile>(o.json, "the JSON output file");
  if (!o.trace_out.empty()) m.trace_file = std::make_unique<AtomicFile>(o.trace_out, "the --trace-out file");
  if (!o.paje.empty()) m.paje_file = std::make_unique<AtomicFile>(o.paje, "the --paje file");
  if (!o.stats_dir.empty()) {
    std::error_code ec;
    const bool existed = std::filesystem::exists(o.stats_dir, ec);
    prepare_stats_dir(o.stats_dir);
    m.made_stats_dir = !existed;
    if (m.made_stats_dir) register_pending_output(o.stats_dir, true);
  }
  // Statistics are kept whenever a timeline is written too: the trace-event file carries them
  // for `simfab report`. They come first, so they are complete when the timeline closes.
  if (m.trace_file || !o.stats_dir.empty()) {
    m.stats = std::make_unique<RunStats>();
    m.recorder.add(m.stats.get());
  }
  if (m.trace_file) {
    m.trace = std::make_unique<TraceEventWriter>(m.trace_file->stream(), o.filter, [&m](const RunResult&) {  // m.result: this run's --json document
      nlohmann::ordered_json j;
      j["result"] = m.result;
      j["stats"] = m.stats->to_json();
      return j;
    });
    m.recorder.add(m.trace.get());
  }
  if (m.paje_file) {
    m.paje = std::make_unique<PajeWriter>(m.paje_file->stream(), o.filter);
    m.recorder.add(m.paje.get());
  }
  if (!o.otf2_out.empty()) {
    m.otf2 = std::make_unique<Otf2Writer>(o.otf2_out);
    m.recorder.add(m.otf2.get());
  }
  if (!m.recorder.empty()) hooks.activity = &m.recorder;
  if (!o.portals_log.empty()) m.portals_log = std::make_unique<PortalsLog>(o.portals_log);
  m.nic_logs.add(m.portals_log.get());
  m.nic_logs.add(m.trace.get());
  if (m.nic_logs.size() > 0) hooks.nic_log = m.nic_logs.size() == 1 ? m.nic_logs.only() : &m.nic_logs;
  hooks.nic_log_required = m.portals_log != nullptr;
  hooks.progress = o.progress == OutputOptions::Progress::kAlways ||
                   (o.progress == OutputOptions::Progress::kAuto && !quiet && !o.program_shares_terminal &&
                    ::isatty(STDERR_FILENO));
}

void RunOutputs::finish(const RunResult& result) {
  Impl& m = *impl_;
  if (m.json_file || m.trace_file) m.result = result_json_value(result, *m.cfg, m.reproducible);
  if (!m.recorder.empty()) m.recorder.finish(result);
  if (m.json_file) m.json_file->stream() << m.result.dump(2) << '\n';
  if (!m.options.stats_dir.empty()) m.stats->write_csv(m.options.stats_dir);
  for (AtomicFile* f : {m.json_file.get(), m.trace_file.get(), m.paje_file.get()})
    if (f) f->commit();
  if (m.portals_log) m.portals_log->commit();
  if (m.otf2) m.otf2->commit();
  m.finished = true;
  if (m.made_stats_dir) unregister_pending_output(m.options.stats_dir);
}

}  // namespace simfab
