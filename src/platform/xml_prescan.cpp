// The lenient first pass over a SimGrid platform file (xml_prescan.hpp).
#include "platform/xml_prescan.hpp"

#include <expat.h>

#include <algorithm>

namespace simfab {
namespace {

struct Pass {
  explicit Pass(XmlPrescan& o) : out(o) {}
  XmlPrescan& out;
  XML_Parser parser = nullptr;
  std::string route_host;  // inside a self-route, else empty
  std::vector<std::string> route_links;

  void on_start(const XML_Char* name, const XML_Char** atts) {
    const std::string_view el = name;
    XmlAttrs a;
    for (int i = 0; atts[i]; i += 2) a.list.emplace_back(atts[i], atts[i + 1]);
    if (el == "link") {
      if (const std::string* id = a.get("id"))
        out.links.emplace(*id, XmlPrescan::LinkDecl{a, static_cast<int>(XML_GetCurrentLineNumber(parser)),
                                                    static_cast<int>(XML_GetCurrentColumnNumber(parser)) + 1});
    } else if (el == "route") {
      const std::string* src = a.get("src");
      const std::string* dst = a.get("dst");
      route_host = src && dst && *src == *dst ? *src : "";
      route_links.clear();
    } else if (el == "link_ctn" && !route_host.empty()) {
      const std::string* id = a.get("id");
      const std::string* dir = a.get("direction");
      route_links.push_back((id ? *id : "") + (dir && *dir == "UP"     ? "_UP"
                                               : dir && *dir == "DOWN" ? "_DOWN"
                                                                       : ""));
    }
  }
  void on_end(const XML_Char* name) {
    if (std::string_view(name) == "route" && !route_host.empty()) {
      if (route_links.size() == 1) out.self_routes.emplace(route_host, route_links[0]);
      route_host.clear();
    }
  }

  // Handlers never throw through expat: a failure (out of memory) just ends the pass.
  static void start(void* self, const XML_Char* name, const XML_Char** atts) {
    auto* p = static_cast<Pass*>(self);
    try {
      p->on_start(name, atts);
    } catch (...) {
      XML_StopParser(p->parser, XML_FALSE);
    }
  }
  static void end(void* self, const XML_Char* name) {
    auto* p = static_cast<Pass*>(self);
    try {
      p->on_end(name);
    } catch (...) {
      XML_StopParser(p->parser, XML_FALSE);
    }
  }
};

}  // namespace

void XmlPrescan::run(std::string_view text) {
  Pass pass(*this);
  pass.parser = XML_ParserCreate(nullptr);
  if (!pass.parser) return;
  XML_SetUserData(pass.parser, &pass);
  XML_SetElementHandler(pass.parser, &Pass::start, &Pass::end);
  constexpr size_t kChunk = size_t{1} << 30;
  for (std::string_view rest = text;;) {
    const size_t n = std::min(rest.size(), kChunk);
    const bool last = n == rest.size();
    if (XML_Parse(pass.parser, rest.data(), static_cast<int>(n), last ? XML_TRUE : XML_FALSE) != XML_STATUS_OK || last)
      break;
    rest.remove_prefix(n);
  }
  XML_ParserFree(pass.parser);
}

}  // namespace simfab
