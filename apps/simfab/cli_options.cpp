#include "cli_options.hpp"

#include <algorithm>

#include "core/spelling.hpp"
#include "core/units.hpp"

namespace simfab {

InputError usage_error(const std::string& what, const std::string& text) {
  return InputError(SourceLoc{"command line", 0, 0}, what + " (simfab help shows the usage)", text);
}

void parse_options(const std::vector<std::string>& args, std::span<const CliOption> options,
                   const std::function<void(std::string_view name, const std::string& value)>& on_option) {
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::string value;
    bool has_inline = false;
    if (auto eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline = true;
    }
    const CliOption* known = nullptr;
    for (const CliOption& o : options)
      if (o.name == name && (o.takes_value || !has_inline)) known = &o;
    if (known == nullptr) {
      std::vector<std::string_view> names;
      for (const CliOption& o : options) names.push_back(o.name);
      const std::string near = nearest_name(name, names);
      throw usage_error("unknown option '" + args[i] + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    if (known->takes_value && !has_inline) {
      if (i + 1 >= args.size()) throw usage_error("option " + name + " needs a value");
      value = args[++i];
    }
    // An option that sets one thing given twice is a mistake (which one was meant?), not last-wins.
    static constexpr std::string_view kRepeatable[] = {"--cfg", "--switch", "--pcontrol", "--switch-after",
                                                       "--mpirun-arg", "--platform-var"};
    if (known->takes_value && std::find(std::begin(kRepeatable), std::end(kRepeatable), known->name) == std::end(kRepeatable)) {
      if (std::find(seen.begin(), seen.end(), known->name) != seen.end())
        throw usage_error("option " + std::string(known->name) + " is given twice; give it once");
      seen.push_back(known->name);
    }
    on_option(known->name, value);
  }
}

void split_positionals(const std::vector<std::string>& args, std::span<const CliOption> options,
                       std::vector<std::string>& positionals, std::vector<std::string>& option_args) {
  const auto takes_value = [&](std::string_view name) {
    for (const CliOption& o : options)
      if (o.name == name) return o.takes_value;
    return false;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.empty() || a[0] != '-') {
      positionals.push_back(a);
      continue;
    }
    option_args.push_back(a);
    if (a.find('=') == std::string::npos && takes_value(a) && i + 1 < args.size()) option_args.push_back(args[++i]);
  }
}

double parse_speed_option(const std::string& value) {
  const auto s = units::parse_speed(value);
  if (!s || !(*s > 0)) throw usage_error("--speed expects a positive speed such as 2Gf or 2e9, got '" + value + "'");
  return *s;
}

bool apply_input_option(std::string_view name, const std::string& value, SimulationInput& in, Config& cfg) {
  if (name == "--platform") in.platform_path = value;
  else if (name == "--platform-var") in.platform_vars.push_back(parse_platform_var(value, "--platform-var"));
  else if (name == "--goal") in.goal_path = value;
  else if (name == "--trace") in.trace_path = value;
  else if (name == "--otf2") in.otf2_path = value;
  else if (name == "--hostfile") in.hostfile_path = value;
  else if (name == "--cfg") cfg.set_assignment(value, SourceLoc{"--cfg", 0, 0});
  else if (name == "--switch") in.switches.times.push_back(value);
  else if (name == "--pcontrol") in.switches.pcontrol.push_back(value);
  else if (name == "--switch-after") in.switches.after.push_back(value);
  else return false;
  return true;
}

}  // namespace simfab
