// Loading a platform file in either format simfab reads: its native YAML
// (platform/yaml_platform.cpp) or SimGrid's platform XML (platform/xml_platform.hpp). The format
// is the file's: XML when its first non-blank text is "<" (an XML declaration, a DOCTYPE or the
// <platform> element), YAML otherwise, whatever the extension.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "platform/platform.hpp"
#include "platform/platform_vars.hpp"

namespace simfab {

// Throws InputError naming the file, line and column of the offending text. The loader's warnings
// (Platform::warnings) are written to `warnings`, one line each, when it is given. `vars`: the
// values of the file's ${NAME} references (platform/platform_vars.hpp).
Platform load_platform(const std::string& path, std::ostream* warnings = nullptr, const PlatformVars& vars = {});

// True when `text` looks like XML (first non-blank character '<', after a UTF-8 byte-order mark).
bool looks_like_xml(std::string_view text);

}  // namespace simfab
