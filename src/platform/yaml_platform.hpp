// Loading simfab's native YAML platform files. Format: see yaml_platform.cpp and the README.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "platform/platform.hpp"

namespace simfab {

// Throws InputError naming the file, line and column of the offending node and what was expected.
Platform load_platform_yaml(const std::string& path);
// At most this many hosts, switches and links (about 2 GB of platform): a few-line file asking for
// a billion switches is an error at its parameter, not an out-of-memory crash.
constexpr int64_t kPlatformElementLimit = 20'000'000;

// `element_limit` caps the hosts, switches and links topologies may generate (see Platform).
Platform parse_platform_yaml(std::string_view text, const std::string& name,
                             int64_t element_limit = kPlatformElementLimit);

}  // namespace simfab
