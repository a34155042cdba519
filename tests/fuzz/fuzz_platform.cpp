// Fuzz target: the YAML and SimGrid XML platform readers, topologies included, and what `platform describe`
// computes on small results. Any input ends in a Platform or an InputError. Inputs with a run of
// more than 4 digits are skipped, and topologies are capped at 20,000 elements: they may
// legitimately ask for millions of hosts, which is slow, not wrong.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "platform/load_platform.hpp"
#include "platform/xml_platform.hpp"
#include "platform/yaml_platform.hpp"
#include "topo/metrics.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  std::string text(reinterpret_cast<const char*>(data), size);
  int digits = 0;
  for (char c : text)
    if ((digits = c >= '0' && c <= '9' ? digits + 1 : 0) > 4) return 0;
  try {
    Platform p = looks_like_xml(text) ? parse_platform_xml(text, "fuzz.xml")
                                      : parse_platform_yaml(text, "fuzz.yaml", 20'000);
    for (HostId a = 0; a < p.host_count() && a < 8; ++a)
      for (HostId b = 0; b < p.host_count() && b < 8; ++b) (void)p.route(a, b, RouteRequest{static_cast<uint64_t>(a), nullptr});
    if (p.host_count() <= 64) {
      (void)route_stats(p);
      (void)bisection_bandwidth(p);
    }
  } catch (const InputError&) {
  }
  return 0;
}
