// `simfab report`: the HTML report of one run, or the comparison of two (report/html_report.hpp).
//
//   simfab report RUN.json [RUN2.json] -o REPORT.html [--title TEXT] [--max-slices N]
//   simfab report RESULTS.csv -o REPORT.html [--title TEXT]
// RUN.json is what `simfab run ... --trace-out RUN.json` wrote, or an OTF2 archive's anchor file
// (a measured run, otf2/otf2_measured.hpp). The page is self-contained (the
// chart library, styles and data are inlined) and opens in a browser without network access.
// With two runs it compares the second against the first. RESULTS.csv is what `simfab sweep SPEC.yaml
// -o RESULTS.csv` wrote, told by its header (report/sweep_panel.hpp): the page is then the sweep
// results panel (any result column against any axis, a heatmap over two), reported alone.
// --max-slices (default 200000) caps the Gantt chart's slices per run: the longest are drawn and
// the page says how many were left out.
// Exit status 0, or 2 for bad input or usage (nothing written), or when simfab was built without
// the chart library (web/node_modules; scripts/install-deps.sh installs it).
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_report(const std::vector<std::string>& args);

}  // namespace simfab
