// Command-line options of the simfab commands, parsed one way for all of them.
//
// An option is `--name VALUE`, `--name=VALUE` (for names starting with "--"), or a flag `--name`
// (a flag given a value, `--quiet=1`, is an unknown option). parse_options hands each option to
// the command in command-line order, so a later --cfg overrides an earlier one; an unknown option
// is a usage error that suggests the nearest known name (core/spelling.hpp). O(arguments).
// The options naming an application and its platform are shared by `run` and `goal`:
// apply_input_option handles them.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"
#include "core/error.hpp"
#include "sim/simulation.hpp"

namespace simfab {

struct CliOption {
  std::string_view name;  // "--platform", "-o"
  bool takes_value = true;
};

// An InputError located at "command line", pointing at `simfab help`.
InputError usage_error(const std::string& what, const std::string& text = {});
// `--speed`'s value (2Gf, 2e9: the traced machine's flop/s per core), positive; else a usage error.
double parse_speed_option(const std::string& value);

// Calls on_option(name, value) per option (value empty for a flag). Throws usage_error for an
// unknown option or a missing value.
void parse_options(const std::vector<std::string>& args, std::span<const CliOption> options,
                   const std::function<void(std::string_view name, const std::string& value)>& on_option);

// For commands with positional arguments (convert, report): the arguments not starting with '-'
// that are no option's value go to `positionals`, the options (each followed by its value when
// `options` says it takes one and it is not given as --name=VALUE) to `option_args`, which
// parse_options then takes. An unknown option keeps no value: parse_options reports it.
void split_positionals(const std::vector<std::string>& args, std::span<const CliOption> options,
                       std::vector<std::string>& positionals, std::vector<std::string>& option_args);

// The shared input options: --platform, --goal, --trace, --hostfile (into `in`) and --cfg (into
// `cfg`). Returns false when `name` is none of them.
bool apply_input_option(std::string_view name, const std::string& value, SimulationInput& in, Config& cfg);

}  // namespace simfab
