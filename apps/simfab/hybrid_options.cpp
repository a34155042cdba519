#include "hybrid_options.hpp"

#include "cli_options.hpp"

namespace simfab {

void parse_hybrid_options(const std::vector<std::string>& args, HybridRunOptions& o, Config& cfg) {
  static constexpr CliOption kOptions[] = {
      {"--platform"},  {"--platform-var"}, {"--hostfile"}, {"--cfg"},          {"--json"},         {"--reproducible", false},
      {"--quiet", false}, {"--trace-out"}, {"--paje"},     {"--stats"},        {"--trace-ranks"},
      {"--trace-window"}, {"--switch"}, {"--pcontrol"},    {"--switch-after"}, {"--ti-out"}};
  parse_options(args, kOptions, [&](std::string_view name, const std::string& value) {
    if (apply_input_option(name, value, o.in, cfg) || apply_output_option(name, value, o.out)) return;
    if (name == "--json") o.out.json = value;
    else if (name == "--reproducible") o.reproducible = true;
    else if (name == "--ti-out") o.ti_out = value;
    else o.quiet = true;
  });
}

std::string join_options(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    if (!s.empty()) s += kOptionSeparator;
    s += a;
  }
  return s;
}

std::vector<std::string> split_options(const std::string& joined) {
  std::vector<std::string> out;
  if (joined.empty()) return out;
  size_t i = 0;
  for (;;) {
    const size_t j = joined.find(kOptionSeparator, i);
    out.push_back(joined.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

}  // namespace simfab
