// The SimGrid XML reader's first, lenient pass: which hosts have a loopback and where every link
// is declared.
//
// SimGrid files give a host its loopback with a route from the host to itself over one link
// (<route src="h" dst="h"><link_ctn id="loopback"/></route>, small_platform.xml), often after
// the host and with the link declared after the host too. simfab sets Host::loopback when it
// adds the host, so the reader asks this pass, at each host, for its self-route's link and,
// when that link comes later in the file, for the link's declaration to build it early.
// Errors are left to the second pass (which reports an early-built link's errors at its
// declaration); an input that is not XML simply yields fewer entries.
// Cost: one expat pass, O(file); memory O(links + self-routes).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace simfab {

// The attributes of one start tag, in document order.
struct XmlAttrs {
  std::vector<std::pair<std::string, std::string>> list;
  const std::string* get(std::string_view key) const {
    for (const auto& [k, v] : list)
      if (k == key) return &v;
    return nullptr;
  }
};

struct XmlPrescan {
  struct LinkDecl {
    XmlAttrs attrs;
    int line = 0;
    int column = 0;
  };
  // host -> the link of its self-route, its name with the direction's suffix ("l", "l_UP")
  std::unordered_map<std::string, std::string> self_routes;
  // the first declaration of each link id
  std::unordered_map<std::string, LinkDecl> links;

  void run(std::string_view text);
};

}  // namespace simfab
