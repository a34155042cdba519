// Platform variables: `${NAME}` in a platform file (YAML or SimGrid XML) stands for a value given
// at run time, so that one file describes a family of platforms (issue 31: "platform parameters
// such as a topology's sizes or a link's bandwidth" as sweep axes).
//
//   links:                                   <link id="up" bandwidth="${bw}" latency="${lat:-1us}"/>
//     - {name: up, bandwidth: ${bw}, latency: ${lat:-1us}}
//
//   simfab run --platform fam.yaml --platform-var bw=25GBps ...     (repeatable; also exec, platform)
//   sweep spec:  axes: {$bw: [10GBps, 25GBps]}                      (a `$NAME` setting)
//
// Rules. References in comments are left alone (YAML: from a '#' at the start of a line or after
// a blank to the line's end; XML: <!-- ... -->). NAME is [A-Za-z_][A-Za-z0-9_]*. `${NAME:-DEFAULT}` takes DEFAULT when NAME is not given
// (DEFAULT has no '}' and may be empty). `$$` is a literal '$' only before '{' ("$${x}" stays
// "${x}"); any other '$' is itself. Substitution is textual and happens once, before parsing:
// a value is not scanned again, and may not hold a newline, so every line keeps its number and an
// error in a substituted value is reported at its line (the echoed line shows the value).
//
// Input errors (exit 2), each naming file:line:column of the reference or the command line:
//   `${` not closed on its line, or a bad NAME;   a NAME with no value and no default;
//   a variable given that the file never names (a misspelt axis would otherwise sweep nothing);
//   a variable given twice, a value with a newline.
// A file without `${` and no variables given comes back unchanged (load_platform then skips the
// call and parses the mapped file itself).
//
// Cost: O(file size) when there are references or variables. Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simfab {

using PlatformVars = std::vector<std::pair<std::string, std::string>>;  // NAME -> VALUE, as given

// "NAME=VALUE" (from --platform-var) as a pair; InputError at `where` otherwise.
std::pair<std::string, std::string> parse_platform_var(const std::string& assignment, const std::string& where);

// The file's text with every reference replaced. `file`: for error locations.
enum class PlatformSyntax { kYaml, kXml };  // where its comments are
std::string substitute_platform_vars(std::string_view text, const std::string& file, const PlatformVars& vars,
                                     PlatformSyntax syntax);

// True when `name` is a valid variable name.
bool is_platform_var_name(std::string_view name);

}  // namespace simfab
