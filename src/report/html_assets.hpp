// The HTML report's page assets, embedded in the simfab executable at build time.
//
// cmake/report_assets.cmake generates one source file whose top-level assembly `.incbin`s each
// asset verbatim between two symbols (simfab_asset_<name>_begin / _end), so a 1 MB chart library
// costs no C++ string literal and no compile time; the accessors below turn those symbol pairs into
// views. The assets are:
//   report_html  web/report/report.html: the page template ({{NAME}} placeholders, see html_report)
//   report_css   web/report/report.css
//   common_js    web/report/common.js: what both pages' scripts share (formats, elements, charts)
//   report_js    web/report/report.js: the chart code, reading the run data embedded in the page
//   sweep_js     web/report/sweep.js: a sweep's page instead (the sweep results panel)
//   echarts_js   web/node_modules/echarts/dist/echarts.min.js (Apache ECharts, from npm)
// ECharts is only there when it was installed at configure time (scripts/install-deps.sh runs
// `npm ci` in web/); without it the build defines no SIMFAB_HAVE_ECHARTS, have_echarts() is false
// and echarts_js() is empty, so `simfab report` can refuse with a clear message.
//
// The symbols live in the executable that embeds the assets (cmake: simfab_embed_report_assets),
// not in simfab_lib: another binary calling these must embed them too.
#pragma once

#include <string_view>

namespace simfab::html_assets {

bool have_echarts();
std::string_view echarts_js();
std::string_view report_html();
std::string_view report_css();
std::string_view report_js();
std::string_view sweep_js();
std::string_view common_js();

}  // namespace simfab::html_assets
