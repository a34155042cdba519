// SimGrid platform XML: availability profiles and disks (issue 37).
//   <host speed_file state_file>, <link bandwidth_file latency_file state_file>: a profile file,
//       relative to the platform file's directory (platform/availability.hpp has the format);
//   <trace id file periodicity>TEXT</trace>: a named profile, inline (TEXT) or from `file`,
//       repeating every `periodicity` seconds (required, as in SimGrid's DTD; 0: once);
//   <trace_connect kind trace element>: attaches a named profile; kind SPEED or HOST_AVAIL (of a
//       host), BANDWIDTH, LATENCY or LINK_AVAIL (of a link; a split-duplex link by its id). They
//       are resolved at </platform>, so they may come before or after the element;
//   <disk id read_bw write_bw> inside a <host>: Platform::add_disk (its <prop>s are ignored).
// Values are checked where the profile is attached: a speed scale >= 0, a bandwidth > 0, a
// latency >= 0 (a state may be any number: > 0 is on).
#include <cstdlib>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "platform/xml_builder.hpp"

namespace simfab {

namespace {

using Kind = Platform::ProfileKind;

// What a profile's values must be for `kind`; empty when they are fine.
std::string check_values(const Availability& a, Kind kind) {
  for (size_t i = 0; i < a.values.size(); ++i) {
    const double v = a.values[i];
    const bool ok = kind == Kind::kSpeed ? v >= 0 : kind == Kind::kBandwidth ? v > 0 : kind == Kind::kLatency ? v >= 0 : true;
    if (ok) continue;
    const char* want = kind == Kind::kSpeed ? "a speed scale >= 0 (1 = the host's speed)"
                       : kind == Kind::kBandwidth ? "a bandwidth > 0 in bytes/s"
                                                  : "a latency >= 0 in seconds";
    return "profile " + a.name + ": the value " + std::to_string(v) + " at " + std::to_string(a.dates[i].seconds()) +
           " s is not " + want;
  }
  return {};
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kSpeed: return "SPEED";
    case Kind::kHostState: return "HOST_AVAIL";
    case Kind::kBandwidth: return "BANDWIDTH";
    case Kind::kLatency: return "LATENCY";
    case Kind::kLinkState: return "LINK_AVAIL";
  }
  return "?";
}

}  // namespace

std::string XmlBuilder::base_dir() const {
  const size_t slash = name_.rfind('/');
  return slash == std::string::npos ? std::string() : name_.substr(0, slash);
}

void XmlBuilder::attach_profile(Kind kind, int32_t element, int profile, const SourceLoc& loc) {
  if (std::string bad = check_values(platform_.availability(profile), kind); !bad.empty())
    throw error_at(loc, bad);
  platform_.set_profile(kind, element, profile);
}

void XmlBuilder::read_profile_files(const XmlAttrs& a, std::string_view el, int32_t element) {
  struct Attr {
    const char* key;
    Kind kind;
  };
  static const Attr kHost[] = {{"speed_file", Kind::kSpeed}, {"state_file", Kind::kHostState}};
  static const Attr kLink[] = {
      {"bandwidth_file", Kind::kBandwidth}, {"latency_file", Kind::kLatency}, {"state_file", Kind::kLinkState}};
  for (const Attr& at : el == "host" ? std::span<const Attr>(kHost) : std::span<const Attr>(kLink)) {
    const std::string* path = a.get(at.key);
    if (!path) continue;
    if (path->empty()) throw error("empty '" + std::string(at.key) + "' of <" + std::string(el) + ">; expected a profile file");
    const int p = add_profile(load_availability(*path, base_dir(), here()), here());
    attach_profile(at.kind, element, p, here());
  }
}

void XmlBuilder::read_trace(const XmlAttrs& a) {
  check_attrs("trace", a, {"id", "file", "periodicity"});
  PendingTrace t;
  t.id = require_id("trace", a);
  if (traces_.count(t.id)) throw error("duplicate <trace id='" + t.id + "'>");
  t.loc = here();
  if (const std::string* f = a.get("file")) t.file = *f;
  {  // required by SimGrid's DTD
    const std::string* p = &require("trace", a, "periodicity", "seconds, the period of its events");
    char* end = nullptr;
    t.periodicity = std::strtod(p->c_str(), &end);
    if (p->empty() || *end != '\0' || !(t.periodicity >= 0) || t.periodicity > 9e6)
      throw error("bad 'periodicity' '" + *p + "' of <trace id='" + t.id + "'>; expected seconds >= 0");
  }
  trace_ = std::move(t);
}

void XmlBuilder::on_text(std::string_view s) {
  if (trace_) trace_->text.append(s);
}

void XmlBuilder::end_trace() {
  PendingTrace t = std::move(*trace_);
  trace_.reset();
  Availability av;
  if (!t.file.empty()) {
    if (t.text.find_first_not_of(" \t\r\n") != std::string::npos)
      throw error_at(t.loc, "<trace id='" + t.id + "'> has both a 'file' and inline events; give one of them");
    av = load_availability(t.file, base_dir(), t.loc, t.periodicity);
  } else {
    av = parse_availability(t.text, "<trace id='" + t.id + "'>", name_, t.loc.line, t.periodicity);
  }
  traces_.emplace(t.id, add_profile(std::move(av), t.loc));
}

int XmlBuilder::add_profile(Availability av, const SourceLoc& loc) {
  if (!av.note.empty()) platform_.add_warning(loc.file + ":" + std::to_string(loc.line) + ": warning: " + av.note);
  return platform_.add_availability(std::move(av));
}

void XmlBuilder::read_trace_connect(const XmlAttrs& a) {
  check_attrs("trace_connect", a, {"kind", "trace", "element"});
  PendingConnect c;
  c.kind = a.get("kind") ? *a.get("kind") : "HOST_AVAIL";  // SimGrid's DTD default
  c.trace = require("trace_connect", a, "trace", "the id of a <trace>");
  c.element = require("trace_connect", a, "element", "the id of a host or link");
  c.loc = here();
  if (c.kind != "SPEED" && c.kind != "HOST_AVAIL" && c.kind != "BANDWIDTH" && c.kind != "LATENCY" &&
      c.kind != "LINK_AVAIL")
    throw error("bad 'kind' '" + c.kind + "' of <trace_connect>; expected SPEED, HOST_AVAIL, BANDWIDTH, LATENCY or LINK_AVAIL");
  connects_.push_back(std::move(c));
}

void XmlBuilder::finish_trace_connects() {
  for (const PendingConnect& c : connects_) {
    auto t = traces_.find(c.trace);
    if (t == traces_.end())
      throw error_at(c.loc, "<trace_connect trace='" + c.trace + "'> names no <trace> of this platform");
    const Kind kind = c.kind == "SPEED"        ? Kind::kSpeed
                      : c.kind == "HOST_AVAIL" ? Kind::kHostState
                      : c.kind == "BANDWIDTH"  ? Kind::kBandwidth
                      : c.kind == "LATENCY"    ? Kind::kLatency
                                               : Kind::kLinkState;
    int32_t element = -1;
    if (kind == Kind::kSpeed || kind == Kind::kHostState) {
      if (auto h = platform_.find_host(c.element)) element = *h;
    } else if (auto l = platform_.find_link(c.element)) {
      element = *l;
    } else if (auto d = platform_.find_split_duplex(c.element)) {
      element = *d;
    }
    if (element < 0)
      throw error_at(c.loc, "<trace_connect kind='" + std::string(kind_name(kind)) + "' element='" + c.element +
                                "'> names no " + (kind == Kind::kSpeed || kind == Kind::kHostState ? "host" : "link") +
                                " of this platform");
    attach_profile(kind, element, t->second, c.loc);
  }
  connects_.clear();
}

void XmlBuilder::read_disk(const XmlAttrs& a) {
  check_attrs("disk", a, {"id", "read_bw", "write_bw"});
  Disk d;
  d.name = require_id("disk", a);
  d.host = platform_.host_count() - 1;  // the open <host>
  d.read_Bps = bandwidth("disk", "read_bw", require("disk", a, "read_bw", "e.g. 100MBps"));
  d.write_Bps = bandwidth("disk", "write_bw", require("disk", a, "write_bw", "e.g. 40MBps"));
  for (const Disk& o : platform_.disks())
    if (o.host == d.host && o.name == d.name)
      throw error("duplicate <disk id='" + d.name + "'> on host '" + platform_.host(d.host).name + "'");
  platform_.add_disk(std::move(d));
}

}  // namespace simfab
