// SimGrid platform XML (v4.0/4.1) -> Platform. The supported subset and the names generated are
// documented in xml_platform.hpp; cluster semantics mirror yaml_platform.cpp.
#include "platform/xml_platform.hpp"

#include <expat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "core/mapped_file.hpp"
#include "core/units.hpp"
#include "platform/xml_units.hpp"
#include "platform/radical.hpp"
#include "platform/yaml_platform.hpp"  // kPlatformElementLimit
#include "topo/fat_tree.hpp"
#include "topo/torus.hpp"

namespace simfab {
namespace {


// The attributes of one start tag, in order.
struct Attrs {
  std::vector<std::pair<std::string, std::string>> list;
  const std::string* get(std::string_view key) const {
    for (const auto& [k, v] : list)
      if (k == key) return &v;
    return nullptr;
  }
};

enum class Policy { kShared, kFatpipe, kSplitDuplex };

struct Duplex {
  LinkId up;
  LinkId down;
};

// A first, lenient pass: the host self-routes (<route src="h" dst="h"> with one <link_ctn>, the
// way SimGrid files give a host its loopback) and where every <link> is declared. simfab sets a
// host's loopback when it adds the host, so a loopback link declared after its host is built
// early, from its recorded attributes. Errors are left to the second pass.
struct Prescan {
  struct LinkDecl {
    Attrs attrs;
    int line = 0;
    int column = 0;
  };
  std::unordered_map<std::string, std::string> self_routes;  // host -> link name (with direction)
  std::unordered_map<std::string, LinkDecl> links;           // first declaration of each link id
  std::string route_host;                                    // inside a self-route, else empty
  std::vector<std::string> route_links;
  XML_Parser parser = nullptr;

  // Handlers never throw through expat: a failure (out of memory) just ends the prescan.
  static void start(void* self, const XML_Char* name, const XML_Char** atts) {
    auto* p = static_cast<Prescan*>(self);
    try {
      p->on_start(name, atts);
    } catch (...) {
      XML_StopParser(p->parser, XML_FALSE);
    }
  }
  void on_start(const XML_Char* name, const XML_Char** atts) {
    Prescan* p = this;
    const std::string el = name;
    Attrs a;
    for (int i = 0; atts[i]; i += 2) a.list.emplace_back(atts[i], atts[i + 1]);
    if (el == "link") {
      if (const std::string* id = a.get("id"))
        p->links.emplace(*id, LinkDecl{a, static_cast<int>(XML_GetCurrentLineNumber(p->parser)),
                                       static_cast<int>(XML_GetCurrentColumnNumber(p->parser)) + 1});
    } else if (el == "route") {
      const std::string* src = a.get("src");
      const std::string* dst = a.get("dst");
      p->route_host = src && dst && *src == *dst ? *src : "";
      p->route_links.clear();
    } else if (el == "link_ctn" && !p->route_host.empty()) {
      const std::string* id = a.get("id");
      const std::string* dir = a.get("direction");
      p->route_links.push_back((id ? *id : "") + (dir && *dir == "UP"     ? "_UP"
                                                  : dir && *dir == "DOWN" ? "_DOWN"
                                                                          : ""));
    }
  }
  static void end(void* self, const XML_Char* name) {
    auto* p = static_cast<Prescan*>(self);
    try {
      if (std::string_view(name) == "route" && !p->route_host.empty()) {
        if (p->route_links.size() == 1) p->self_routes.emplace(p->route_host, p->route_links[0]);
        p->route_host.clear();
      }
    } catch (...) {
      XML_StopParser(p->parser, XML_FALSE);
    }
  }

  void run(std::string_view text) {
    parser = XML_ParserCreate(nullptr);
    if (!parser) return;
    XML_SetUserData(parser, this);
    XML_SetElementHandler(parser, &Prescan::start, &Prescan::end);
    std::string_view rest = text;
    constexpr size_t kChunk = size_t{1} << 30;
    do {
      const size_t n = std::min(rest.size(), kChunk);
      const bool last = n == rest.size();
      if (XML_Parse(parser, rest.data(), static_cast<int>(n), last ? XML_TRUE : XML_FALSE) != XML_STATUS_OK) break;
      rest.remove_prefix(n);
      if (last) break;
    } while (true);
    XML_ParserFree(parser);
  }
};

class XmlBuilder {
 public:
  XmlBuilder(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {
    platform_.set_element_limit(kPlatformElementLimit);
  }

  Platform build() {
    prescan_.run(text_);
    XML_Parser parser = XML_ParserCreate(nullptr);
    if (!parser) throw InputError(SourceLoc{name_, 0, 0}, "cannot create an XML parser (out of memory)");
    parser_ = parser;
    XML_SetUserData(parser, this);
    XML_SetElementHandler(parser, &XmlBuilder::on_start_cb, &XmlBuilder::on_end_cb);
    struct Free {
      XML_Parser p;
      ~Free() { XML_ParserFree(p); }
    } guard{parser};
    std::string_view rest = text_;
    constexpr size_t kChunk = size_t{1} << 30;
    bool ok = true;
    do {
      const size_t n = std::min(rest.size(), kChunk);
      const bool last = n == rest.size();
      ok = XML_Parse(parser, rest.data(), static_cast<int>(n), last ? XML_TRUE : XML_FALSE) == XML_STATUS_OK;
      rest.remove_prefix(n);
      if (!ok || last) break;
    } while (true);
    if (error_) std::rethrow_exception(error_);
    if (!ok) {
      const int line = static_cast<int>(XML_GetCurrentLineNumber(parser));
      const int col = static_cast<int>(XML_GetCurrentColumnNumber(parser)) + 1;
      throw InputError(SourceLoc{name_, line, col},
                       std::string("XML syntax error: ") + XML_ErrorString(XML_GetErrorCode(parser)),
                       line_text(line));
    }
    if (platform_.host_count() == 0)
      throw InputError(platform_loc_, "the platform has no host; declare <host> or <cluster> elements",
                       line_text(platform_loc_.line));
    platform_.set_source(name_);
    return std::move(platform_);
  }

 private:
  // ---- expat glue: exceptions never cross expat's C frames.
  static void on_start_cb(void* self, const XML_Char* name, const XML_Char** atts) {
    auto* b = static_cast<XmlBuilder*>(self);
    if (b->error_) return;
    try {
      Attrs a;
      for (int i = 0; atts[i]; i += 2) a.list.emplace_back(atts[i], atts[i + 1]);
      b->on_start(name, a);
    } catch (...) {
      b->error_ = std::current_exception();
      XML_StopParser(b->parser_, XML_FALSE);
    }
  }
  static void on_end_cb(void* self, const XML_Char* name) {
    auto* b = static_cast<XmlBuilder*>(self);
    if (b->error_) return;
    try {
      b->on_end(name);
    } catch (...) {
      b->error_ = std::current_exception();
      XML_StopParser(b->parser_, XML_FALSE);
    }
  }

  std::string line_text(int line) const {
    if (line <= 0) return {};
    size_t b = 0;
    for (int l = 1; l < line; ++l) {
      b = text_.find('\n', b);
      if (b == std::string_view::npos) return {};
      ++b;
    }
    size_t e = text_.find('\n', b);
    std::string s(text_.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }

  SourceLoc here() const {
    if (loc_override_) return *loc_override_;
    return SourceLoc{name_, static_cast<int>(XML_GetCurrentLineNumber(parser_)),
                     static_cast<int>(XML_GetCurrentColumnNumber(parser_)) + 1};
  }
  static std::string where(const SourceLoc& l) {
    return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
  }
  InputError error_at(const SourceLoc& loc, const std::string& msg) const {
    return InputError(loc, msg, line_text(loc.line));
  }
  InputError error(const std::string& msg) const { return error_at(here(), msg); }

  // ---- attributes
  void check_attrs(std::string_view el, const Attrs& a, std::initializer_list<std::string_view> valid) const {
    for (const auto& [k, v] : a.list) {
      if (std::find(valid.begin(), valid.end(), k) != valid.end()) continue;
      std::string names;
      for (std::string_view s : valid) names += (names.empty() ? "" : ", ") + std::string(s);
      throw error("unknown attribute '" + k + "' of <" + std::string(el) + ">; valid attributes: " + names);
    }
  }
  const std::string& require(std::string_view el, const Attrs& a, std::string_view key, std::string_view hint) const {
    if (const std::string* v = a.get(key)) return *v;
    throw error("<" + std::string(el) + "> needs the attribute '" + std::string(key) + "' (" + std::string(hint) + ")");
  }
  const std::string& require_id(std::string_view el, const Attrs& a) const {
    const std::string& id = require(el, a, "id", "a unique name");
    if (id.empty()) throw error("<" + std::string(el) + "> has an empty 'id'");
    return id;
  }
  double quantity(std::string_view el, std::string_view key, const std::string& value,
                  const std::vector<XmlUnit>& units, std::string_view what, bool positive) const {
    auto v = parse_with(value, units);
    if (!v || (positive && *v <= 0))
      throw error("bad " + std::string(what) + " '" + value + "' for '" + std::string(key) + "' of <" +
                  std::string(el) + ">; expected a " + (positive ? "positive" : "non-negative") +
                  " number with a unit: " + unit_list(units));
    return *v;
  }
  double speed(std::string_view el, std::string_view key, const std::string& v) const {
    return quantity(el, key, v, kSpeedUnits, "speed", true);
  }
  double bandwidth(std::string_view el, std::string_view key, const std::string& v) const {
    return quantity(el, key, v, kBandwidthUnits, "bandwidth", true);
  }
  SimTime latency(std::string_view el, std::string_view key, const std::string& v) const {
    return SimTime::from_seconds(quantity(el, key, v, kTimeUnits, "latency", false));
  }
  int cores(std::string_view el, const Attrs& a) const {
    const std::string* c = a.get("core");
    if (!c) return 1;
    char* end = nullptr;
    long v = std::strtol(c->c_str(), &end, 10);
    if (c->empty() || *end != '\0' || v < 1 || v > 2147483647)
      throw error("bad 'core' '" + *c + "' of <" + std::string(el) + ">; expected an integer >= 1");
    return static_cast<int>(v);
  }
  Policy policy(std::string_view el, const Attrs& a, std::string_view key, bool split_ok) const {
    const std::string* s = a.get(key);
    if (!s || *s == "SHARED") return Policy::kShared;
    if (*s == "FATPIPE") return Policy::kFatpipe;
    if (*s == "SPLITDUPLEX" && split_ok) return Policy::kSplitDuplex;
    throw error("'" + std::string(key) + "' of <" + std::string(el) + "> must be " +
                (split_ok ? "SHARED, FATPIPE or SPLITDUPLEX" : "SHARED or FATPIPE") + ", got '" + *s + "'" +
                (*s == "WIFI" ? " (WIFI links are not supported by simfab)" : ""));
  }

  // The bandwidth `key` of <cluster id>: nullopt when absent or 0 (then `lat_key`, if any, must be
  // absent or 0 too).
  std::optional<double> optional_bandwidth(const Attrs& a, std::string_view key, std::string_view lat_key,
                                           const std::string& id) const {
    const std::string* v = a.get(key);
    double bw = v ? quantity("cluster", key, *v, kBandwidthUnits, "bandwidth", false) : 0;
    if (bw > 0) return bw;
    const std::string* lat = lat_key.empty() ? nullptr : a.get(lat_key);
    if (lat && latency("cluster", lat_key, *lat) > SimTime::zero())
      throw error("<cluster id='" + id + "'> has '" + std::string(lat_key) + "' but no positive '" +
                  std::string(key) + "'; give both");
    return std::nullopt;
  }

  // ---- element dispatch
  void expect_parent(const std::string& el, std::initializer_list<std::string_view> parents) const {
    const std::string& p = stack_.back();
    if (std::find(parents.begin(), parents.end(), p) != parents.end()) return;
    std::string names;
    for (std::string_view s : parents) names += (names.empty() ? "<" : ", <") + std::string(s) + ">";
    throw error("element <" + el + "> cannot appear inside <" + p + ">; it belongs in " + names);
  }

  void on_start(const std::string& el, const Attrs& a) {
    if (stack_.empty()) {
      if (el != "platform") throw error("the root element must be <platform>, got <" + el + ">");
      read_platform(a);
    } else if (el == "platform") {
      throw error("<platform> may only be the root element");
    } else if (el == "config") {
      expect_parent(el, {"platform"});
      check_attrs(el, a, {"id"});
    } else if (el == "prop") {
      expect_parent(el, {"platform", "config", "zone", "AS", "host", "link", "cluster"});
      check_attrs(el, a, {"id", "value"});
      const std::string& id = require_id(el, a);
      const std::string& value = require(el, a, "value", "the property's value");
      if (stack_.back() == "platform" || stack_.back() == "config")
        platform_.add_setting(PlatformSetting{id, value, here()});
    } else if (el == "zone" || el == "AS") {
      expect_parent(el, {"platform", "zone", "AS"});
      read_zone(el, a);
    } else if (el == "host") {
      expect_parent(el, {"zone", "AS"});
      read_host(a);
    } else if (el == "link") {
      expect_parent(el, {"zone", "AS"});
      read_link(a);
    } else if (el == "cluster") {
      expect_parent(el, {"platform", "zone", "AS"});
      read_cluster(a);
    } else if (el == "route") {
      expect_parent(el, {"zone", "AS"});
      read_route(a);
    } else if (el == "link_ctn") {
      expect_parent(el, {"route"});
      read_link_ctn(a);
    } else if (el == "zoneRoute" || el == "ASroute" || el == "bypassRoute" || el == "bypassZoneRoute" ||
               el == "bypassASroute") {
      throw error("element <" + el + "> is not supported yet by simfab (only host-to-host <route>s are)");
    } else {
      throw error("element <" + el + "> is not supported by simfab");
    }
    stack_.push_back(el);
  }

  void on_end(const std::string& el) {
    stack_.pop_back();
    if (el == "route") finish_route();
  }

  void read_platform(const Attrs& a) {
    platform_loc_ = here();
    check_attrs("platform", a, {"version"});
    const std::string& v = require("platform", a, "version", "4.1");
    if (v != "4.1" && v != "4.0" && v != "4")
      throw error("unsupported platform version '" + v +
                  "'; simfab reads SimGrid platform XML version 4.0 and 4.1 (upgrade older files with "
                  "simgrid_update_xml)");
  }

  void claim_network_name(const std::string& el, const std::string& id) {
    auto [it, fresh] = network_names_.emplace(id, where(here()));
    if (!fresh) throw error("duplicate id '" + id + "' of <" + el + ">; a zone or cluster with that id is declared at " + it->second);
  }

  void read_zone(const std::string& el, const Attrs& a) {
    check_attrs(el, a, {"id", "routing"});
    const std::string& id = require_id(el, a);
    const std::string& r = require(el, a, "routing", "Full, Floyd, Dijkstra, DijkstraCache, Cluster or None");
    static const std::set<std::string, std::less<>> kRoutings = {"Full", "Floyd", "Dijkstra", "DijkstraCache",
                                                                  "Cluster", "None"};
    if (!kRoutings.count(r))
      throw error("routing '" + r + "' of <" + el + " id='" + id +
                  "'> is not supported by simfab; supported: Full, Floyd, Dijkstra, DijkstraCache, Cluster, None");
    claim_network_name(el, id);
  }

  void check_host_name(const std::string& name, const std::string& what) const {
    if (auto h = platform_.find_host(name)) {
      auto it = decl_.find("h:" + name);
      throw error(what + " '" + name + "' is already " +
                  (it != decl_.end() ? it->second : std::string("generated by a cluster")));
    }
    if (platform_.find_switch(name)) throw error(what + " '" + name + "' is already the name of a switch");
  }

  void read_host(const Attrs& a) {
    check_attrs("host", a, {"id", "speed", "core", "pstate"});
    Host h;
    h.name = require_id("host", a);
    check_host_name(h.name, "duplicate host id");
    const std::vector<std::string> pstates = split_fields(require("host", a, "speed", "e.g. 1Gf, or pstates 1Gf,500Mf"), ',');
    std::vector<double> speeds;
    for (const std::string& s : pstates) speeds.push_back(speed("host", "speed", s));
    size_t pstate = 0;
    if (const std::string* p = a.get("pstate")) {
      char* end = nullptr;
      long v = std::strtol(p->c_str(), &end, 10);
      if (p->empty() || *end != '\0' || v < 0 || static_cast<size_t>(v) >= speeds.size())
        throw error("bad 'pstate' '" + *p + "' of <host id='" + h.name + "'>; expected an index from 0 to " +
                    std::to_string(speeds.size() - 1) + " into its speed list");
      pstate = static_cast<size_t>(v);
    }
    h.speed_flops = speeds[pstate];
    h.cores = cores("host", a);
    if (auto it = prescan_.self_routes.find(h.name); it != prescan_.self_routes.end()) {
      // Its loopback: <route src=h dst=h> with one link; build that link now if it comes later.
      std::optional<LinkId> l = platform_.find_link(it->second);
      if (!l) {
        if (auto d = prescan_.links.find(it->second); d != prescan_.links.end()) {
          loc_override_ = SourceLoc{name_, d->second.line, d->second.column};
          read_link(d->second.attrs);
          loc_override_.reset();
          early_links_.insert(it->second);
          l = platform_.find_link(it->second);
        }
      }
      if (l) {
        h.loopback = *l;
        if (platform_.link(*l).from == kNoNode) platform_.join(*l, host_node(platform_.host_count()), host_node(platform_.host_count()));
      }
    }
    if (platform_.host_count() >= kMaxPlatformHosts) throw error("too many hosts; at most " + std::to_string(kMaxPlatformHosts));
    decl_.emplace("h:" + h.name, "declared at " + where(here()));
    platform_.add_host(std::move(h));
  }


  void check_link_name(const std::string& name, const std::string& what) const {
    if (!platform_.find_link(name) && !platform_.find_split_duplex(name)) return;
    auto it = decl_.find("l:" + name);
    throw error(what + " '" + name + "' is already " +
                (it != decl_.end() ? it->second : std::string("generated by a cluster or declared")));
  }

  LinkId add_link(Link l, const std::string& what) {
    check_link_name(l.name, what);
    return platform_.add_link(std::move(l));
  }

  Duplex add_duplex(Link l, bool split, const std::string& what) {
    if (!split) {
      LinkId id = add_link(std::move(l), what);
      return Duplex{id, id};
    }
    const std::string name = std::move(l.name);
    check_link_name(name, what);
    l.name = name + "_UP";
    LinkId up = add_link(l, what);
    l.name = name + "_DOWN";
    LinkId down = add_link(std::move(l), what);
    platform_.set_twins(up, down);
    return Duplex{up, down};
  }

  void read_link(const Attrs& a) {
    if (const std::string* id = a.get("id"); id && !loc_override_ && early_links_.erase(*id)) return;  // built
    check_attrs("link", a, {"id", "bandwidth", "latency", "sharing_policy"});
    Link l;
    l.name = require_id("link", a);
    l.bandwidth_Bps = bandwidth("link", "bandwidth", require("link", a, "bandwidth", "e.g. 10Gbps"));
    const std::string* lat = a.get("latency");
    l.latency = lat ? latency("link", "latency", *lat) : SimTime::zero();
    const Policy p = policy("link", a, "sharing_policy", true);
    l.sharing = p == Policy::kFatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared;
    const std::string name = l.name;
    add_duplex(std::move(l), p == Policy::kSplitDuplex, "duplicate link id");
    decl_.emplace("l:" + name, "declared at " + where(here()));
  }

  // ---- routes
  struct PendingRoute {
    HostId src;
    HostId dst;
    bool symmetric;
    std::vector<LinkId> links;
    SourceLoc loc;
  };

  HostId route_host(const Attrs& a, std::string_view key) const {
    const std::string& name = require("route", a, key, "a host name");
    if (auto h = platform_.find_host(name)) return *h;
    throw error("unknown host '" + name + "' as '" + std::string(key) +
                "' of <route>; routes join hosts declared (or generated by a <cluster>) before them");
  }

  void read_route(const Attrs& a) {
    check_attrs("route", a, {"src", "dst", "symmetrical"});
    PendingRoute r;
    r.src = route_host(a, "src");
    r.dst = route_host(a, "dst");
    r.symmetric = true;
    if (const std::string* s = a.get("symmetrical")) {
      if (*s == "YES" || *s == "yes") r.symmetric = true;
      else if (*s == "NO" || *s == "no") r.symmetric = false;
      else throw error("'symmetrical' of <route> must be YES or NO, got '" + *s + "'");
    }
    r.loc = here();
    claim_route(r.src, r.dst);
    if (r.symmetric && r.src != r.dst) claim_route(r.dst, r.src);
    route_ = std::move(r);
  }

  void claim_route(HostId a, HostId b) {
    auto [it, fresh] = route_locs_.emplace(std::make_pair(a, b), where(here()));
    if (!fresh)
      throw error("route " + platform_.host(a).name + " -> " + platform_.host(b).name + " is already declared at " +
                  it->second);
  }

  void read_link_ctn(const Attrs& a) {
    check_attrs("link_ctn", a, {"id", "direction"});
    const std::string& id = require_id("link_ctn", a);
    std::string name = id;
    const std::string* dir = a.get("direction");
    if (dir && *dir == "UP") name += "_UP";
    else if (dir && *dir == "DOWN") name += "_DOWN";
    else if (dir && *dir != "NONE")
      throw error("'direction' of <link_ctn id='" + id + "'> must be UP, DOWN or NONE, got '" + *dir + "'");
    auto l = platform_.find_link(name);
    if (!l) {
      if (platform_.find_split_duplex(id))
        throw error("link '" + id + "' is SPLITDUPLEX: give <link_ctn id='" + id +
                    "'> a direction=\"UP\" or \"DOWN\"");
      throw error("unknown link '" + name + "' in <route>" +
                  (name != id && platform_.find_link(id) ? " (link '" + id + "' is not SPLITDUPLEX: drop 'direction')"
                                                         : std::string()) +
                  "; links must be declared (or generated by a <cluster>) before the route");
    }
    if (std::find(route_->links.begin(), route_->links.end(), *l) != route_->links.end())
      throw error("link '" + name + "' appears twice in the route; a route crosses each link at most once");
    route_->links.push_back(*l);
  }

  void finish_route() {
    PendingRoute r = std::move(*route_);
    route_.reset();
    if (r.links.empty()) throw error_at(r.loc, "<route> has no <link_ctn>; list the links from src to dst");
    if (r.src == r.dst) {
      // Set as the host's loopback when the host was added (Prescan); anything else cannot be.
      if (r.links.size() != 1 || platform_.host(r.src).loopback != r.links[0])
        throw error_at(r.loc, "a <route> from host '" + platform_.host(r.src).name +
                                  "' to itself must list exactly one link (its loopback), declared in the file");
      return;
    }
    platform_.add_route(r.src, r.dst, std::move(r.links), !r.symmetric);
  }

  // ---- clusters
  void read_cluster(const Attrs& a);
  void cluster_flat(const Attrs& a, const std::string& id, const std::string& prefix, const std::string& suffix,
                    const Radical& radical, Host proto, Link priv, Policy priv_policy);
  void cluster_topology(const Attrs& a, const std::string& id, const std::string& kind, const std::string& prefix,
                        const std::string& suffix, const Radical& radical, const Host& proto, const Link& priv);

  std::string_view text_;
  std::string name_;
  Platform platform_;
  XML_Parser parser_ = nullptr;
  std::exception_ptr error_;
  std::vector<std::string> stack_;
  SourceLoc platform_loc_;
  std::optional<PendingRoute> route_;
  std::map<std::string, std::string, std::less<>> network_names_;  // zone/cluster id -> "f:l:c"
  std::unordered_map<std::string, std::string> decl_;              // "h:"/"l:" + name -> origin
  std::map<std::pair<HostId, HostId>, std::string> route_locs_;
  Prescan prescan_;
  std::optional<SourceLoc> loc_override_;  // where read_link reports errors of an early-built link
  std::set<std::string> early_links_;      // links built early as a loopback, skipped when declared
};

void XmlBuilder::read_cluster(const Attrs& a) {
  check_attrs("cluster", a,
              {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "bb_bw", "bb_lat",
               "bb_sharing_policy", "loopback_bw", "loopback_lat", "limiter_link", "topology", "topo_parameters"});
  const std::string& id = require_id("cluster", a);
  const std::string& prefix = require("cluster", a, "prefix", "host names are prefix + index + suffix");
  const std::string* suffix_p = a.get("suffix");
  const std::string suffix = suffix_p ? *suffix_p : "";
  const std::string& radical_text = require("cluster", a, "radical", "the host indices, e.g. \"0-15\"");
  Host proto;
  proto.speed_flops = speed("cluster", "speed", split_fields(require("cluster", a, "speed", "e.g. 1Gf"), ',').front());
  proto.cores = cores("cluster", a);
  Link priv;
  priv.bandwidth_Bps = bandwidth("cluster", "bw", require("cluster", a, "bw", "each host's private link, e.g. 10Gbps"));
  priv.latency = latency("cluster", "lat", require("cluster", a, "lat", "each host's private link, e.g. 1us"));
  const Policy priv_policy = policy("cluster", a, "sharing_policy", true);
  priv.sharing = priv_policy == Policy::kFatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared;
  auto parsed = parse_radical(radical_text, kMaxPlatformHosts);
  if (auto* why = std::get_if<std::string>(&parsed)) throw error("bad 'radical' of <cluster id='" + id + "'>: " + *why);
  const Radical radical = std::get<Radical>(std::move(parsed));
  if (platform_.host_count() + radical.count > kMaxPlatformHosts)
    throw error("<cluster id='" + id + "'> brings the platform to more than " + std::to_string(kMaxPlatformHosts) + " hosts");
  const std::string* topo = a.get("topology");
  const std::string kind = topo ? *topo : "FLAT";
  if (kind != "FLAT" && kind != "FAT_TREE" && kind != "TORUS" && kind != "DRAGONFLY")
    throw error("'topology' of <cluster id='" + id + "'> must be FLAT, FAT_TREE, TORUS or DRAGONFLY, got '" + kind + "'");
  if (kind == "DRAGONFLY")
    throw error("topology=\"DRAGONFLY\" of <cluster id='" + id +
                "'> is not supported yet by simfab (SimGrid's chassis level differs from simfab's dragonfly)");
  claim_network_name("cluster", id);
  if (kind == "FLAT") {
    if (a.get("topo_parameters"))
      throw error("'topo_parameters' of <cluster id='" + id + "'> needs topology=\"FAT_TREE\" or \"TORUS\"");
    cluster_flat(a, id, prefix, suffix, radical, proto, priv, priv_policy);
  } else {
    if (priv_policy == Policy::kSplitDuplex) priv.sharing = LinkSharing::kShared;  // cables are full duplex
    cluster_topology(a, id, kind, prefix, suffix, radical, proto, priv);
  }
}

void XmlBuilder::cluster_flat(const Attrs& a, const std::string& id, const std::string& prefix,
                              const std::string& suffix, const Radical& radical, Host proto, Link priv,
                              Policy priv_policy) {
  // As SimGrid: a backbone, loopback or limiter exists when its bandwidth is given and > 0 (a
  // latency alone, which SimGrid would pair with a zero bandwidth, is an error here).
  std::optional<Link> backbone;
  if (auto bw = optional_bandwidth(a, "bb_bw", "bb_lat", id)) {
    const std::string* lat = a.get("bb_lat");
    backbone = Link{id + "_backbone", *bw, lat ? latency("cluster", "bb_lat", *lat) : SimTime::zero(),
                    policy("cluster", a, "bb_sharing_policy", false) == Policy::kFatpipe ? LinkSharing::kFatpipe
                                                                                        : LinkSharing::kShared};
  }
  std::optional<Link> loopback;
  if (auto bw = optional_bandwidth(a, "loopback_bw", "loopback_lat", id)) {
    const std::string* lat = a.get("loopback_lat");
    loopback = Link{"", *bw, lat ? latency("cluster", "loopback_lat", *lat) : SimTime::zero(), LinkSharing::kFatpipe};
  }
  std::optional<Link> limiter;
  if (auto bw = optional_bandwidth(a, "limiter_link", "", id)) limiter = Link{"", *bw, SimTime::zero()};
  const int64_t per_host = 2 + (limiter ? 1 : 0) + (loopback ? 1 : 0) + 1;
  if (platform_.element_count() + radical.count * per_host > platform_.element_limit())
    throw error("<cluster id='" + id + "'> needs more elements than the platform limit of " +
                std::to_string(platform_.element_limit()));
  const std::string what = "<cluster id='" + id + "'> generates link";
  const std::string origin = "generated by <cluster id='" + id + "'> at " + where(here());
  if (platform_.find_switch(id + "_switch") || platform_.find_host(id + "_switch"))
    throw error("<cluster id='" + id + "'> generates switch '" + id + "_switch', whose name is taken");
  const NodeId core = switch_node(platform_.add_switch(id + "_switch"));
  Cluster c;
  c.name = id;
  if (backbone) {
    c.backbone = add_link(std::move(*backbone), what);
    platform_.join(c.backbone, core, core);
  }
  proto.cluster = platform_.add_cluster(std::move(c));
  for (const IndexRange& r : radical.ranges) {
    for (int64_t i = r.first; i <= r.last; ++i) {
      const std::string link_id = id + "_link_" + std::to_string(i);
      priv.name = link_id;
      Duplex d = add_duplex(priv, priv_policy == Policy::kSplitDuplex, what);
      proto.up = d.up;
      proto.down = d.down;
      const NodeId self = host_node(platform_.host_count());
      if (limiter) {
        limiter->name = link_id + "_limiter";
        proto.limiter = add_link(*limiter, what);
        platform_.join(proto.limiter, self, self);
      }
      if (loopback) {
        loopback->name = link_id + "_loopback";
        proto.loopback = add_link(*loopback, what);
        platform_.join(proto.loopback, self, self);
      }
      platform_.join(d.up, self, core);
      if (d.down != d.up) platform_.join(d.down, core, self);
      proto.name = prefix + std::to_string(i) + suffix;
      check_host_name(proto.name, "<cluster id='" + id + "'> generates host");
      decl_.emplace("h:" + proto.name, origin);
      platform_.add_host(proto);
    }
  }
}

void XmlBuilder::cluster_topology(const Attrs& a, const std::string& id, const std::string& kind,
                                  const std::string& prefix, const std::string& suffix, const Radical& radical,
                                  const Host& proto, const Link& priv) {
  const std::string tag = "<cluster id='" + id + "' topology=\"" + kind + "\">";
  if (optional_bandwidth(a, "limiter_link", "", id))
    throw error("'limiter_link' of " + tag + " is not supported yet by simfab");
  const std::string& params = require("cluster", a, "topo_parameters",
                                      kind == "FAT_TREE" ? "\"levels;down;up;link-count\", e.g. \"2;4,4;1,2;1,2\""
                                                         : "the torus dimensions, e.g. \"4,4,4\"");
  TopoCommon common;
  common.name = id;
  common.hosts.prefix = prefix;
  common.hosts.suffix = suffix;
  common.hosts.speed_flops = proto.speed_flops;
  common.hosts.cores = proto.cores;
  common.host_link = LinkSpec{priv.bandwidth_Bps, priv.latency, priv.sharing};
  common.link = common.host_link;
  if (auto bw = optional_bandwidth(a, "loopback_bw", "loopback_lat", id)) {
    const std::string* lat = a.get("loopback_lat");
    common.hosts.loopback =
        LinkSpec{*bw, lat ? latency("cluster", "loopback_lat", *lat) : SimTime::zero(), LinkSharing::kFatpipe};
  }
  auto check_radical = [&](int64_t n) {
    if (radical.count != n || radical.ranges.size() != 1 || radical.ranges[0].first != 0)
      throw error("'radical' of " + tag + " must be \"0-" + std::to_string(n - 1) + "\": topo_parameters \"" +
                  params + "\" give " + std::to_string(n) + " hosts, numbered from 0");
  };
  int t = -1;
  try {
    if (kind == "FAT_TREE") {
      auto parsed = parse_simgrid_fat_tree(params);
      if (auto* why = std::get_if<std::string>(&parsed))
        throw error("bad 'topo_parameters' \"" + params + "\" of " + tag + ": " + *why);
      const XgftParams& x = std::get<XgftParams>(parsed);
      check_radical(xgft_counts(x).hosts);
      t = add_fat_tree(platform_, common, x, FatTreeRouting::kDModK);
    } else {
      TorusParams tp;
      int64_t n = 1;
      for (const std::string& d : split_fields(params, ',')) {
        char* end = nullptr;
        long v = std::strtol(d.c_str(), &end, 10);
        if (d.empty() || *end != '\0' || v < 1 || v > kMaxPlatformHosts)
          throw error("bad 'topo_parameters' \"" + params + "\" of " + tag +
                      ": expected comma-separated dimension sizes >= 1, e.g. \"4,4,4\"; got '" + d + "'");
        tp.dims.push_back(static_cast<int>(v));
        n *= v;
        if (n > kMaxPlatformHosts) throw error("'topo_parameters' \"" + params + "\" of " + tag + " give too many hosts");
      }
      tp.wrap.assign(tp.dims.size(), true);
      tp.hosts_per_router = 1;
      check_radical(n);
      t = add_torus(platform_, common, tp);
    }
  } catch (const TopologyError& e) {
    throw error(tag + ": " + e.what());
  }
  platform_.set_topology_name(t, id);
}

}  // namespace

Platform parse_platform_xml(std::string_view text, const std::string& name) {
  return XmlBuilder(text, name).build();
}

Platform load_platform_xml(const std::string& path) {
  MappedFile file(path);
  return parse_platform_xml(file.text(), path);
}

}  // namespace simfab
