#include "noise/noise_classes.hpp"

#include <algorithm>
#include <array>

#include "core/error.hpp"
#include "core/trim.hpp"

namespace simfab::noise {

namespace {

constexpr std::array<std::string_view, 5> kClassKeys = {"trace", "period", "duration", "distribution", "histogram"};

InputError bad(std::string what) { return InputError(SourceLoc{"--cfg noise/classes", 0, 0}, std::move(what)); }

// The items of `s` between `sep`s, trimmed.
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t i = s.find(sep);
    out.push_back(trim_blanks(s.substr(0, i)));
    if (i == std::string_view::npos) return out;
    s.remove_prefix(i + 1);
  }
}

}  // namespace

std::vector<ClassSpec> parse_noise_classes(std::string_view text) {
  const char* form = "expected CLASS:off or CLASS:KEY=VALUE[,KEY=VALUE...], entries separated by ';' "
                     "(e.g. io:period=1ms,duration=50us;gpu:off)";
  std::vector<ClassSpec> out;
  for (std::string_view entry : split(text, ';')) {
    const size_t colon = entry.find(':');
    if (entry.empty() || colon == std::string_view::npos || colon == 0)
      throw bad("'" + std::string(entry) + "': " + form);
    ClassSpec c;
    c.name = std::string(trim_blanks(entry.substr(0, colon)));
    if (std::any_of(out.begin(), out.end(), [&](const ClassSpec& o) { return o.name == c.name; }))
      throw bad("class '" + c.name + "' is listed twice: give each class once");
    const std::string_view spec = trim_blanks(entry.substr(colon + 1));
    if (spec == "off") {
      c.off = true;
      out.push_back(std::move(c));
      continue;
    }
    for (std::string_view kv : split(spec, ',')) {
      const size_t eq = kv.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == kv.size())
        throw bad("class '" + c.name + "': '" + std::string(kv) + "' is not KEY=VALUE: " + form);
      const std::string key(trim_blanks(kv.substr(0, eq)));
      if (std::find(kClassKeys.begin(), kClassKeys.end(), key) == kClassKeys.end())
        throw bad("class '" + c.name + "': '" + key + "' is not a key of a class's noise (trace, period, duration, "
                  "distribution, histogram); rule, seed, cosched, offsets and collectives are global noise/* keys");
      c.keys.emplace_back(key, std::string(trim_blanks(kv.substr(eq + 1))));
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace simfab::noise
