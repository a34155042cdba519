// `simfab report` (see report_cmd.hpp).
#include "report_cmd.hpp"

#include <charconv>
#include <iostream>

#include "cli_options.hpp"
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
    throw usage_error("give one run to report, or two to compare: files written by `simfab run ... --trace-out FILE`");
  if (report.output.empty()) throw usage_error("give the output file: -o REPORT.html");
  if (!html_assets::have_echarts()) {
    std::cerr << "simfab report: this simfab was built without its chart library (web/node_modules/echarts "
                 "was missing at configure time); run scripts/install-deps.sh, then rebuild simfab\n";
    return 2;
  }
  write_html_report(report);
  std::cout << "simfab: wrote " << report.output << "\n";
  return 0;
}

}  // namespace simfab
