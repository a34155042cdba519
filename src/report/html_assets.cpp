// The embedded report assets (see html_assets.hpp): symbol pairs -> string views.
#include "report/html_assets.hpp"

// Defined by the assembly that cmake/report_assets.cmake generates.
#define SIMFAB_DECLARE_ASSET(name)                       \
  extern "C" const char simfab_asset_##name##_begin[]; \
  extern "C" const char simfab_asset_##name##_end[];

SIMFAB_DECLARE_ASSET(report_html)
SIMFAB_DECLARE_ASSET(report_css)
SIMFAB_DECLARE_ASSET(report_js)
SIMFAB_DECLARE_ASSET(sweep_js)
SIMFAB_DECLARE_ASSET(common_js)
#ifdef SIMFAB_HAVE_ECHARTS
SIMFAB_DECLARE_ASSET(echarts_js)
#endif

#define SIMFAB_ASSET_VIEW(name) \
  std::string_view(simfab_asset_##name##_begin, simfab_asset_##name##_end - simfab_asset_##name##_begin)

namespace simfab::html_assets {

#ifdef SIMFAB_HAVE_ECHARTS
bool have_echarts() { return true; }
std::string_view echarts_js() { return SIMFAB_ASSET_VIEW(echarts_js); }
#else
bool have_echarts() { return false; }
std::string_view echarts_js() { return {}; }
#endif
std::string_view report_html() { return SIMFAB_ASSET_VIEW(report_html); }
std::string_view report_css() { return SIMFAB_ASSET_VIEW(report_css); }
std::string_view report_js() { return SIMFAB_ASSET_VIEW(report_js); }
std::string_view sweep_js() { return SIMFAB_ASSET_VIEW(sweep_js); }
std::string_view common_js() { return SIMFAB_ASSET_VIEW(common_js); }

}  // namespace simfab::html_assets
