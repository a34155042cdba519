// `simfab report` (see report_cmd.hpp).
#include "report_cmd.hpp"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_options.hpp"
#include "core/error.hpp"
#include "otf2/otf2_measured.hpp"
#include "otf2/otf2_reader.hpp"
#include "report/html_assets.hpp"
#include "report/html_report.hpp"

namespace simfab {

namespace {

constexpr CliOption kOptions[] = {{"-o"}, {"--output"}, {"--title"}, {"--max-slices"}};

size_t parse_count(const std::string& text) {
  size_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v == 0)
    throw usage_error("--max-slices expects a positive whole number, got '" + text + "'");
  return v;
}

// An OTF2 archive given as a run: its measured run as a trace-out file in a temporary directory
// (named like the archive, which the report shows), removed when the report is written.
class MeasuredRuns {
 public:
  ~MeasuredRuns() {
    std::error_code ec;
    for (const std::string& d : dirs_) std::filesystem::remove_all(d, ec);
  }
  std::string add(const std::string& anchor) {
    std::string pattern = (std::filesystem::temp_directory_path() / "simfab-report.XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw InputError(SourceLoc{pattern, 0, 0}, "cannot create a temporary directory");
    dirs_.push_back(pattern);
    const std::string path = (std::filesystem::path(pattern) / std::filesystem::path(anchor).filename()).string();
    std::ofstream out(path);
    write_measured_trace_events(anchor, out);
    out.close();
    if (!out) throw InputError(SourceLoc{path, 0, 0}, "cannot write the measured run's timeline");
    return path;
  }

 private:
  std::vector<std::string> dirs_;
};

}  // namespace

int cmd_report(const std::vector<std::string>& args) {
  std::vector<std::string> options;
  HtmlReportOptions report;
  split_positionals(args, kOptions, report.inputs, options);
  parse_options(options, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "-o" || name == "--output") {
      report.output = value;
    } else if (name == "--title") {
      report.title = value;
    } else {
      report.max_slices = parse_count(value);
    }
  });
  if (report.inputs.empty() || report.inputs.size() > 2)
    throw usage_error("give one run to report, or two to compare: files written by `simfab run ... --trace-out FILE`, "
                      "or OTF2 archives (a measured run: ARCHIVE.otf2); or a sweep's results (simfab sweep ... -o "
                      "RESULTS.csv)");
  if (report.output.empty()) throw usage_error("give the output file: -o REPORT.html");
  if (!html_assets::have_echarts()) {
    std::cerr << "simfab report: this simfab was built without its chart library (web/node_modules/echarts "
                 "was missing at configure time); run scripts/install-deps.sh, then rebuild simfab\n";
    return 2;
  }
  MeasuredRuns measured;
  for (std::string& in : report.inputs)
    if (is_otf2_anchor(in)) in = measured.add(in);
  write_html_report(report);
  std::cout << "simfab: wrote " << report.output << "\n";
  return 0;
}

}  // namespace simfab
