// The SimGrid XML reader's machinery: expat, locations and errors, attributes, quantities and
// names (xml_builder.hpp).
#include "platform/xml_builder.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "platform/yaml_platform.hpp"  // kPlatformElementLimit

namespace simfab {

XmlBuilder::XmlBuilder(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {
  platform_.set_element_limit(kPlatformElementLimit);
}

Platform XmlBuilder::build() {
  prescan_.run(text_);
  XML_Parser parser = XML_ParserCreate(nullptr);
  if (!parser) throw InputError(SourceLoc{name_, 0, 0}, "cannot create an XML parser (out of memory)");
  parser_ = parser;
  XML_SetUserData(parser, this);
  XML_SetElementHandler(parser, &XmlBuilder::on_start_cb, &XmlBuilder::on_end_cb);
  XML_SetCharacterDataHandler(parser, &XmlBuilder::on_text_cb);
  struct Free {
    XML_Parser p;
    ~Free() { XML_ParserFree(p); }
  } guard{parser};
  constexpr size_t kChunk = size_t{1} << 30;
  bool ok = true;
  for (std::string_view rest = text_;;) {
    const size_t n = std::min(rest.size(), kChunk);
    const bool last = n == rest.size();
    ok = XML_Parse(parser, rest.data(), static_cast<int>(n), last ? XML_TRUE : XML_FALSE) == XML_STATUS_OK;
    rest.remove_prefix(n);
    if (!ok || last) break;
  }
  if (error_) std::rethrow_exception(error_);
  if (!ok) {
    const int line = static_cast<int>(XML_GetCurrentLineNumber(parser));
    const int col = static_cast<int>(XML_GetCurrentColumnNumber(parser)) + 1;
    throw InputError(SourceLoc{name_, line, col},
                     std::string("XML syntax error: ") + XML_ErrorString(XML_GetErrorCode(parser)), line_text(line));
  }
  if (platform_.host_count() == 0)
    throw InputError(platform_loc_, "the platform has no host; declare <host> or <cluster> elements",
                     line_text(platform_loc_.line));
  platform_.set_source(name_);
  platform_.set_route_provider(std::move(tree_owner_));
  return std::move(platform_);
}

void XmlBuilder::on_start_cb(void* self, const XML_Char* name, const XML_Char** atts) {
  auto* b = static_cast<XmlBuilder*>(self);
  if (b->error_) return;
  try {
    XmlAttrs a;
    for (int i = 0; atts[i]; i += 2) a.list.emplace_back(atts[i], atts[i + 1]);
    b->on_start(name, a);
  } catch (...) {
    b->error_ = std::current_exception();
    XML_StopParser(b->parser_, XML_FALSE);
  }
}

void XmlBuilder::on_end_cb(void* self, const XML_Char* name) {
  auto* b = static_cast<XmlBuilder*>(self);
  if (b->error_) return;
  try {
    b->on_end(name);
  } catch (...) {
    b->error_ = std::current_exception();
    XML_StopParser(b->parser_, XML_FALSE);
  }
}

void XmlBuilder::on_text_cb(void* self, const XML_Char* s, int len) {
  auto* b = static_cast<XmlBuilder*>(self);
  if (b->error_) return;
  b->on_text(std::string_view(s, static_cast<size_t>(len)));  // appends only; cannot throw but bad_alloc
}

// ---- locations and errors

std::string XmlBuilder::line_text(int line) const {
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

SourceLoc XmlBuilder::here() const {
  if (loc_override_) return *loc_override_;
  return SourceLoc{name_, static_cast<int>(XML_GetCurrentLineNumber(parser_)),
                   static_cast<int>(XML_GetCurrentColumnNumber(parser_)) + 1};
}

std::string XmlBuilder::where(const SourceLoc& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

InputError XmlBuilder::error_at(const SourceLoc& loc, const std::string& msg) const {
  return InputError(loc, msg, line_text(loc.line));
}

// ---- attributes and quantities

void XmlBuilder::check_attrs(std::string_view el, const XmlAttrs& a, std::initializer_list<std::string_view> valid) const {
  for (const auto& [k, v] : a.list) {
    if (std::find(valid.begin(), valid.end(), k) != valid.end()) continue;
    std::string names;
    for (std::string_view s : valid) names += (names.empty() ? "" : ", ") + std::string(s);
    throw error("unknown attribute '" + k + "' of <" + std::string(el) + ">; valid attributes: " + names);
  }
}

const std::string& XmlBuilder::require(std::string_view el, const XmlAttrs& a, std::string_view key,
                                       std::string_view hint) const {
  if (const std::string* v = a.get(key)) return *v;
  throw error("<" + std::string(el) + "> needs the attribute '" + std::string(key) + "' (" + std::string(hint) + ")");
}

const std::string& XmlBuilder::require_id(std::string_view el, const XmlAttrs& a) const {
  const std::string& id = require(el, a, "id", "a unique name");
  if (id.empty()) throw error("<" + std::string(el) + "> has an empty 'id'");
  return id;
}

double XmlBuilder::quantity(std::string_view el, std::string_view key, const std::string& value,
                            const std::vector<XmlUnit>& units, std::string_view what, bool positive) const {
  auto v = parse_with(value, units);
  if (!v || (positive && *v <= 0))
    throw error("bad " + std::string(what) + " '" + value + "' for '" + std::string(key) + "' of <" + std::string(el) +
                ">; expected a " + (positive ? "positive" : "non-negative") + " number with a unit: " + unit_list(units));
  return *v;
}

double XmlBuilder::speed(std::string_view el, std::string_view key, const std::string& v) const {
  return quantity(el, key, v, kSpeedUnits, "speed", true);
}

double XmlBuilder::bandwidth(std::string_view el, std::string_view key, const std::string& v) const {
  return quantity(el, key, v, kBandwidthUnits, "bandwidth", true);
}

SimTime XmlBuilder::latency(std::string_view el, std::string_view key, const std::string& v) const {
  return SimTime::from_seconds(quantity(el, key, v, kTimeUnits, "latency", false));
}

int XmlBuilder::cores(std::string_view el, const XmlAttrs& a) const {
  const std::string* c = a.get("core");
  if (!c) return 1;
  char* end = nullptr;
  long v = std::strtol(c->c_str(), &end, 10);
  if (c->empty() || *end != '\0' || v < 1 || v > 2147483647)
    throw error("bad 'core' '" + *c + "' of <" + std::string(el) + ">; expected an integer >= 1");
  return static_cast<int>(v);
}

XmlBuilder::Policy XmlBuilder::policy(std::string_view el, const XmlAttrs& a, std::string_view key, bool split_ok,
                                      Policy fallback) const {
  const std::string* s = a.get(key);
  if (!s) return fallback;
  if (*s == "SHARED") return Policy::kShared;
  if (*s == "FATPIPE") return Policy::kFatpipe;
  if (*s == "SPLITDUPLEX" && split_ok) return Policy::kSplitDuplex;
  throw error("'" + std::string(key) + "' of <" + std::string(el) + "> must be " +
              (split_ok ? "SHARED, FATPIPE or SPLITDUPLEX" : "SHARED or FATPIPE") + ", got '" + *s + "'" +
              (*s == "WIFI" ? " (WIFI links are not supported by simfab)" : ""));
}

std::optional<double> XmlBuilder::optional_bandwidth(const XmlAttrs& a, std::string_view key, std::string_view lat_key,
                                                     const std::string& id) const {
  const std::string* v = a.get(key);
  double bw = v ? quantity("cluster", key, *v, kBandwidthUnits, "bandwidth", false) : 0;
  if (bw > 0) return bw;
  const std::string* lat = lat_key.empty() ? nullptr : a.get(lat_key);
  if (lat && latency("cluster", lat_key, *lat) > SimTime::zero())
    throw error("<cluster id='" + id + "'> has '" + std::string(lat_key) + "' but no positive '" + std::string(key) +
                "'; give both");
  return std::nullopt;
}

// ---- names

void XmlBuilder::check_node_name(const std::string& name, const std::string& what) const {
  const bool host = platform_.find_host(name).has_value();
  if (host || platform_.find_switch(name)) {
    auto it = decl_.find((host ? "h:" : "r:") + name);
    throw error(what + " '" + name + "' is already " +
                (it != decl_.end() ? it->second
                                   : std::string(host ? "generated by a cluster" : "the name of a switch")));
  }
  if (auto it = zone_decl_.find(name); it != zone_decl_.end())
    throw error(what + " '" + name + "' is already the id of a zone or cluster declared at " + it->second +
                " (hosts, routers and zones share one namespace)");
}

void XmlBuilder::claim_zone_name(const std::string& el, const std::string& id) {
  if (auto it = zone_decl_.find(id); it != zone_decl_.end())
    throw error("duplicate id '" + id + "' of <" + el + ">; a zone or cluster with that id is declared at " + it->second);
  if (platform_.find_host(id) || platform_.find_switch(id))
    throw error("id '" + id + "' of <" + el + "> is already the name of a host or router (hosts, routers and zones "
                "share one namespace)");
  zone_decl_.emplace(id, where(here()));
}

void XmlBuilder::check_link_name(const std::string& name, const std::string& what) const {
  if (!platform_.find_link(name) && !platform_.find_split_duplex(name)) return;
  auto it = decl_.find("l:" + name);
  throw error(what + " '" + name + "' is already " +
              (it != decl_.end() ? it->second : std::string("generated by a cluster or declared")));
}

LinkId XmlBuilder::add_link(Link l, const std::string& what) {
  check_link_name(l.name, what);
  return platform_.add_link(std::move(l));
}

XmlBuilder::Duplex XmlBuilder::add_duplex(Link l, bool split, const std::string& what) {
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

NodeId XmlBuilder::find_node(const std::string& name, const std::string& role) const {
  if (auto h = platform_.find_host(name)) return host_node(*h);
  if (auto s = platform_.find_switch(name); s && tree_.zone_of(switch_node(*s)) >= 0) return switch_node(*s);
  throw error("unknown host or router '" + name + "' as " + role +
              "; name a host or router declared (or generated by a <cluster>) before it");
}

}  // namespace simfab
