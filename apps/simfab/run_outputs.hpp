// The outputs a run can write besides its summary and --json: a Perfetto/Chrome trace-event
// timeline (--trace-out), a Paje trace (--paje), statistics CSV files (--stats DIR), and the
// progress line (--progress). Shared by `simfab run` and `simfab exec`.
//
//   --trace-out FILE     trace-event JSON (report/trace_event_writer.hpp), with the run's result and
//                        statistics under "simfab": the input of `simfab report`
//   --paje FILE          Paje (report/paje_writer.hpp), for ViTE, pajeng and SimGrid users
//   --trace-ranks A-B    timelines keep ranks A to B only (or one rank A)
//   --trace-window T0:T1 timelines keep what overlaps [T0, T1] (times with units: 10us, 2ms; bare
//                        numbers are seconds; either side may be empty: 1ms: or :5ms)
//   --stats DIR          the CSV files of report/run_stats.hpp (DIR is created)
//   --portals-log DIR    with nic/model=portals: seed 000's CSV event log (report/portals_log.hpp)
//   --progress auto|always|never   a status line on stderr while the run lasts; auto: only when
//                        stderr is a terminal
// Every output path is checked before the simulation starts: the JSON result and the timeline
// files are opened then (as temporary files, renamed only after a successful run) and the
// statistics directory is created and probed (and removed again if the run fails), so an
// unwritable path costs no simulation time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "report/run_observer.hpp"
#include "report/run_recorder.hpp"
#include "sim/simulation.hpp"

namespace simfab {

struct OutputOptions {
  std::string json;  // --json (the result), written with the other outputs
  std::string trace_out, paje, stats_dir, portals_log, otf2_out;
  TraceFilter filter;
  bool filtered = false;  // --trace-ranks or --trace-window given
  enum class Progress : uint8_t { kAuto, kAlways, kNever } progress = Progress::kAuto;
  // simfab exec: the program writes to the same terminal, where a status line would run into its
  // lines, so `auto` draws none (`--progress always` still does).
  bool program_shares_terminal = false;
};

// Handles the options above; false when `name` is none of them. Throws usage_error on bad values.
bool apply_output_option(std::string_view name, const std::string& value, OutputOptions& o);

// The outputs of one run: opened by prepare() before the simulation, completed by finish().
class RunOutputs {
 public:
  explicit RunOutputs(OutputOptions options);
  ~RunOutputs();
  // Opens and probes every output (two outputs naming one file are an error); fills hooks
  // (activity sink, progress: never under --quiet unless --progress always). Throws InputError.
  void prepare(RunHooks& hooks, const Config& cfg, bool reproducible, bool quiet);
  // After a successful run: completes every output, then renames them into place.
  void finish(const RunResult& result);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simfab
