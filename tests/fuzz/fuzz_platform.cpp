// Fuzz target: the YAML platform reader. Any input ends in a Platform or an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "platform/yaml_platform.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Platform p = parse_platform_yaml(text, "fuzz.yaml");
    for (HostId a = 0; a < p.host_count() && a < 8; ++a)
      for (HostId b = 0; b < p.host_count() && b < 8; ++b) (void)p.route(a, b);
  } catch (const InputError&) {
  }
  return 0;
}
