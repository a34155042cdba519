#include "platform/load_platform.hpp"

#include "core/mapped_file.hpp"
#include "platform/xml_platform.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab {

bool looks_like_xml(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '<';
}

Platform load_platform(const std::string& path, std::ostream* warnings, const PlatformVars& vars) {
  MappedFile file(path);
  std::string substituted;
  std::string_view text = file.text();
  if (!vars.empty() || text.find("${") != std::string_view::npos) {
    substituted = substitute_platform_vars(text, path, vars,
                                           looks_like_xml(text) ? PlatformSyntax::kXml : PlatformSyntax::kYaml);
    text = substituted;
  }
  Platform p = looks_like_xml(text) ? parse_platform_xml(text, path) : parse_platform_yaml(text, path);
  if (warnings)
    for (const std::string& w : p.warnings()) *warnings << w << '\n';
  return p;
}

}  // namespace simfab
