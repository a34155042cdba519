// `simfab report`: one self-contained HTML page from the files `simfab run --trace-out` writes.
//
// Input: a Chrome/Perfetto trace-event JSON object whose "simfab" key holds {"result": the --json
// result (report/summary.hpp), "stats": the run statistics}; its "traceEvents" give the Gantt
// chart: per rank (pid) the "X" events of the MPI track (tid 0), or, for a rank without any, its
// CPU tracks (tid >= 1). Flow events and everything else are not kept.
//
// Or, alone, a sweep's results (`simfab sweep SPEC.yaml -o results.csv`), recognised by its header
// (report/sweep_panel.hpp): the page is then the sweep results panel, drawn by web/report/sweep.js
// from {"title", "sweep": SWEEP} (SWEEP: sweep_panel.hpp), titled "simfab sweep: results.csv".
//
// Output: web/report/report.html with its placeholders filled ({{TITLE}}, {{CSS}}, {{ECHARTS}},
// {{COMMON_JS}}, {{PAGE_JS}}: report.js, or sweep.js for a sweep, {{DATA}}, {{VERSION}}): styles
// and scripts inlined, the runs embedded as
//   <script type="application/json" id="simfab-data">{"title", "runs": [RUN, ...]}</script>
// with RUN = {"file", "result", "stats", "rank_names": [...], "gantt": GANTT} and GANTT =
//   {"categories": [...], "labels": [...], "total": slices in the trace, "shown": slices kept,
//    "cpu_ranks": ranks drawn from CPU tracks,
//    "rank": [...], "begin_ps": [...], "dur_ps": [...], "cat": [...], "label": [...]}
// (columns of equal length, sorted by rank then begin; cat/label index the two tables). When a
// trace has more than max_slices slices, the longest max_slices are kept and the page says so.
//
// Cost: each input is memory-mapped and parsed once; events are consumed as the parser finishes
// them and then dropped, so memory is O(max_slices + ranks + the "simfab" object), not O(trace).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace simfab {

struct HtmlReportOptions {
  std::vector<std::string> inputs;  // one run, or two to compare (the second against the first), or a sweep's CSV
  std::string output;               // the HTML file
  std::string title;                // empty: "simfab report: APPLICATION", "A vs B" or "simfab sweep: FILE"
  size_t max_slices = 200000;       // Gantt slices kept per run
};

// Reads and checks every input, then writes the page atomically. An unreadable input, one that is
// not JSON or not a trace-out file (no "simfab" object), a bad sweep CSV or a sweep's CSV with
// another input is an InputError naming that file, and nothing is written. REQUIRES html_assets::have_echarts().
void write_html_report(const HtmlReportOptions& options);

// `json` made safe inside <script type="application/json">: "</" -> "<\/" and "<!--" ->
// "\u003c!--" (both only occur inside JSON strings, where the replacements mean the same).
std::string escape_script_json(std::string_view json);

}  // namespace simfab
