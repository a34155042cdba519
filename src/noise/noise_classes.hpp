// Noise per host class (noise/classes; issue 33): hosts declare a class in the platform (YAML
// `noise_class: NAME` on a host or a cluster, SimGrid XML <prop id="noise_class" value="NAME"/> in
// a <host> or <cluster>: Host::noise_class), and the class gets its own detours.
//
//   noise/classes=CLASS:SPEC[;CLASS:SPEC...]
//   SPEC = off                                       no noise on the class's hosts
//        | KEY=VALUE[,KEY=VALUE...]                  the class's own noise source, KEY one of
//                                                    trace, period, duration, distribution, histogram
//                                                    (the noise/<KEY> keys, same values and checks)
// e.g. noise/classes=io:period=1ms,duration=50us;gpu:off
// A rank reads its host's class's source (the host it starts on); a rank whose host has no class,
// or a class not listed, reads the global noise/* source (none when it has none). The rule, the
// seed, co-scheduling, fixed offsets and noise/collectives stay global: rank r's offset is the same
// draw (or list value) as without classes, mapped onto (taken modulo) its own source's period.
// A class's SPEC is complete in itself: it inherits nothing from the global noise/trace, period,
// duration, distribution or histogram.
// Errors (InputError at `--cfg noise/classes`): an entry that is not CLASS:SPEC, a class listed
// twice, a key that is not one of the five (the global ones are named as such), and (in
// noise_keys.cpp) a class no host has, a SPEC that gives no noise. O(length) to parse.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simfab::noise {

struct ClassSpec {
  std::string name;
  bool off = false;
  std::vector<std::pair<std::string, std::string>> keys;  // ("period", "1ms"), in the text's order
};

std::vector<ClassSpec> parse_noise_classes(std::string_view text);

}  // namespace simfab::noise
