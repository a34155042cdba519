// XmlBuilder: the state of one SimGrid platform XML read (the format is in xml_platform.hpp).
// Internal to the reader, whose parts share it:
//   xml_builder.cpp   expat glue, locations and errors, attributes and quantities, names
//   xml_platform.cpp  the entry points, the element dispatch with the DTD's content model, and
//                     <platform>, <config>, <prop>, <zone>, <host>, <router>, <link>
//   xml_routes.cpp    <route>, <zoneRoute> / <ASroute>, their bypass forms, their <link_ctn>
//   xml_cluster.cpp   <cluster>, and <cabinet>, <host_link>, <backbone> of routing="Cluster" zones
//   xml_power.cpp     pstates and energy <prop>s of hosts, clusters and links
//   xml_profiles.cpp  availability profiles (speed_file, ..., <trace>, <trace_connect>) and <disk>
// Elements are built in document order as expat reports them. Every error is an InputError at
// the file:line:column of the offending start tag (or of the element a late check is about),
// thrown from a handler, carried across expat's C frames as an exception_ptr and rethrown by
// build().
#pragma once

#include <expat.h>

#include <exception>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "platform/platform.hpp"
#include "platform/radical.hpp"
#include "platform/xml_fat_tree.hpp"
#include "platform/xml_prescan.hpp"
#include "platform/xml_units.hpp"
#include "platform/xml_zone_tree.hpp"

namespace simfab {

class XmlBuilder {
 public:
  XmlBuilder(std::string_view text, std::string name);
  Platform build();

 private:
  enum class Policy { kShared, kFatpipe, kSplitDuplex };
  struct Duplex {
    LinkId up;
    LinkId down;
  };
  // An open <zone> and where its content is in the DTD's content model: prop*, then either
  // (zone | cluster | link | backbone)* (zoneRoute | ASroute)*, or
  // (host | router | cabinet | host_link | link | backbone)* (route)*.
  struct ZoneFrame {
    enum class Holds { kUnknown, kZones, kNodes };
    enum class Phase { kProps, kContent, kRoutes };
    int zone = -1;  // in tree_
    Holds holds = Holds::kUnknown;
    Phase phase = Phase::kProps;
    bool has_backbone = false;
  };
  // A <route> or <zoneRoute> between its start and end tags.
  struct PendingRoute {
    std::string el;
    int zone = -1;
    int src = -1;  // member numbers in the zone
    int dst = -1;
    NodeId src_node = kNoNode;  // <route>: the nodes; <zoneRoute>: kNoNode
    NodeId dst_node = kNoNode;
    NodeId gw_src = kNoNode;  // <zoneRoute>: the gateways
    NodeId gw_dst = kNoNode;
    std::string src_name, dst_name;
    bool symmetric = true;
    bool bypass = false;  // a bypass route: src, dst are zone indices for a bypassZoneRoute
    std::vector<LinkId> links;
    SourceLoc loc;
  };

  // ---- expat glue (xml_builder.cpp): exceptions never cross expat's C frames
  static void on_start_cb(void* self, const XML_Char* name, const XML_Char** atts);
  static void on_end_cb(void* self, const XML_Char* name);
  static void on_text_cb(void* self, const XML_Char* s, int len);

  // ---- locations and errors
  std::string line_text(int line) const;
  SourceLoc here() const;
  static std::string where(const SourceLoc& l);
  InputError error_at(const SourceLoc& loc, const std::string& msg) const;
  InputError error(const std::string& msg) const { return error_at(here(), msg); }

  // ---- attributes and quantities
  void check_attrs(std::string_view el, const XmlAttrs& a, std::initializer_list<std::string_view> valid) const;
  const std::string& require(std::string_view el, const XmlAttrs& a, std::string_view key, std::string_view hint) const;
  const std::string& require_id(std::string_view el, const XmlAttrs& a) const;
  double quantity(std::string_view el, std::string_view key, const std::string& value,
                  const std::vector<XmlUnit>& units, std::string_view what, bool positive) const;
  double speed(std::string_view el, std::string_view key, const std::string& v) const;
  double bandwidth(std::string_view el, std::string_view key, const std::string& v) const;
  SimTime latency(std::string_view el, std::string_view key, const std::string& v) const;
  int cores(std::string_view el, const XmlAttrs& a) const;
  // `key`'s sharing policy; `fallback` when absent (SimGrid's DTD: SHARED for links,
  // SPLITDUPLEX for clusters).
  Policy policy(std::string_view el, const XmlAttrs& a, std::string_view key, bool split_ok, Policy fallback) const;
  // The bandwidth `key` of <cluster id>: nullopt when absent or 0 (then `lat_key`, if any, must be
  // absent or 0 too).
  std::optional<double> optional_bandwidth(const XmlAttrs& a, std::string_view key, std::string_view lat_key,
                                           const std::string& id) const;

  // ---- names: hosts, routers (switches) and zones share SimGrid's netpoint namespace
  void check_node_name(const std::string& name, const std::string& what) const;
  void claim_zone_name(const std::string& el, const std::string& id);
  void check_link_name(const std::string& name, const std::string& what) const;
  LinkId add_link(Link l, const std::string& what);
  Duplex add_duplex(Link l, bool split, const std::string& what);
  // A host or router named `name` (the error names `role`, e.g. "'src' of <route>").
  NodeId find_node(const std::string& name, const std::string& role) const;
  std::string node_name(NodeId n) const { return platform_.node_name(n); }
  std::string zone_tag(int zone) const { return "<zone id='" + tree_.name(zone) + "'>"; }

  // ---- document structure and plain elements (xml_platform.cpp)
  void on_start(const std::string& el, const XmlAttrs& a);
  void on_end(const std::string& el);
  void expect_parent(const std::string& el, std::initializer_list<std::string_view> parents) const;
  // Checks that `el` may come next in the innermost open zone and moves its frame on.
  void zone_content(const std::string& el);
  ZoneFrame& frame() { return zones_.back(); }
  void read_platform(const XmlAttrs& a);
  void read_zone(const std::string& el, const XmlAttrs& a);
  void end_zone();
  void read_host(const XmlAttrs& a);
  void read_router(const XmlAttrs& a);
  void read_link(const XmlAttrs& a);
  // Adds a host to the platform and the current zone (or `zone`), recording where it comes from.
  HostId add_host(Host h, int zone, const std::string& origin);

  // ---- energy (xml_power.cpp): <prop>s of <host>, <cluster> and <link>, applied at the end tag
  // The open <host> or <cluster> whose hosts [first, end) take one CPU profile.
  struct PendingCpu {
    std::string owner;  // "<host id='a'>", "<cluster id='c'>"
    SourceLoc loc;      // its start tag
    HostId first = 0;
    HostId end = 0;
    CpuProfile profile;  // speeds and initial pstate; power and power_off from the props below
    struct Prop {
      std::string key;  // as written: wattage_per_state or watt_per_state, ...
      SourceLoc loc;
    };
    std::optional<Prop> power, off;
    std::optional<Prop> on_off;  // the first of boot_*, shutdown_*, cstates
    std::string noise_class;     // <prop id="noise_class">: every host's (Host::noise_class); "" none
  };
  // The open <link> (the link and, when split-duplex, its twin) and its wattage_range.
  struct PendingLink {
    LinkId link = -1;
    std::string owner;  // "<link id='l'>"
    std::optional<std::pair<double, double>> range;
    std::optional<PendingCpu::Prop> prop;
  };
  // `speed` of a <host> or <cluster>: its pstates (comma-separated speeds).
  std::vector<double> pstate_speeds(std::string_view el, const std::string& value) const;
  void open_cpu(std::string owner, std::vector<double> speeds, int initial_pstate);
  void read_energy_prop(const std::string& id, const std::string& value);
  void finish_cpu();
  void finish_link_power();

  // ---- availability profiles and disks (xml_profiles.cpp)
  struct PendingTrace {  // an open <trace>
    std::string id, file, text;
    double periodicity = 0;
    SourceLoc loc;
  };
  struct PendingConnect {  // a <trace_connect>, resolved at </platform>
    std::string kind, trace, element;
    SourceLoc loc;
  };
  std::string base_dir() const;  // the platform file's directory ("" for a bare name)
  void attach_profile(Platform::ProfileKind kind, int32_t element, int profile, const SourceLoc& loc);
  // speed_file / state_file of a <host>, bandwidth_file / latency_file / state_file of a <link>.
  void read_profile_files(const XmlAttrs& a, std::string_view el, int32_t element);
  void read_trace(const XmlAttrs& a);
  void end_trace();
  // Adds a profile read at `loc`; its note, if any, becomes a platform warning there.
  int add_profile(Availability av, const SourceLoc& loc);
  void on_text(std::string_view s);
  void read_trace_connect(const XmlAttrs& a);
  void finish_trace_connects();
  void read_disk(const XmlAttrs& a);

  // ---- routes (xml_routes.cpp)
  void read_route(const std::string& el, const XmlAttrs& a);  // <route>, <bypassRoute>
  void read_zone_route(const std::string& el, const XmlAttrs& a);  // <zoneRoute>, <ASroute>, their bypasses
  bool read_symmetrical(const std::string& el, const XmlAttrs& a) const;
  void claim_route(const PendingRoute& r, int src, int dst, const std::string& from, const std::string& to);
  void read_link_ctn(const XmlAttrs& a);
  void finish_route();

  // ---- clusters (xml_cluster.cpp)
  void read_cluster(const XmlAttrs& a);
  void cluster_flat(const XmlAttrs& a, int zone, const std::string& id, const std::string& prefix,
                    const std::string& suffix, const Radical& radical, Host proto, Link priv, Policy priv_policy);
  void cluster_topology(const XmlAttrs& a, int zone, const std::string& id, const std::string& kind,
                        const std::string& prefix, const std::string& suffix, const Radical& radical,
                        const Host& proto, const Link& priv, Policy priv_policy);
  // routing="Cluster" zones
  void require_cluster_zone(const std::string& el) const;
  void read_cabinet(const XmlAttrs& a);
  void read_host_link(const XmlAttrs& a);
  void read_backbone(const XmlAttrs& a);

  std::string_view text_;
  std::string name_;
  Platform platform_;
  std::unique_ptr<ZoneTree> tree_owner_ = std::make_unique<ZoneTree>();
  ZoneTree& tree_ = *tree_owner_;
  XML_Parser parser_ = nullptr;
  std::exception_ptr error_;
  std::vector<std::string> stack_;  // open elements
  std::vector<ZoneFrame> zones_;    // open zones
  SourceLoc platform_loc_;
  bool root_done_ = false;          // the root zone (or cluster) is declared
  std::optional<PendingRoute> route_;
  std::unordered_map<std::string, int> zone_index_;           // zone/cluster id -> tree_ zone
  std::unordered_map<std::string, std::string> zone_decl_;    // zone/cluster id -> "f:l:c"
  std::unordered_map<std::string, std::string> decl_;         // "h:"/"l:"/"r:" + name -> origin
  std::map<std::tuple<int, int, int, bool>, std::string> route_locs_;  // (zone, src, dst, bypass) -> "f:l:c"
  std::set<std::pair<int, int>> host_links_;                     // (zone, member) given a <host_link>
  XmlPrescan prescan_;
  std::optional<SourceLoc> loc_override_;  // where read_link reports errors of an early-built link
  std::set<std::string> early_links_;      // links built early as a loopback, skipped when declared
  int64_t dragonfly_links_ = 0;            // SimGrid's uniqueId: DRAGONFLY links made so far
  SimgridFatTreeCounters fat_tree_counters_;  // SimGrid's static FAT_TREE position and link counters
  std::optional<PendingCpu> cpu_;          // the open <host> or <cluster>
  std::optional<PendingLink> link_power_;  // the open <link>
  std::optional<PendingTrace> trace_;      // the open <trace>
  std::unordered_map<std::string, int> traces_;  // <trace> id -> Platform::availability index
  std::vector<PendingConnect> connects_;
};

}  // namespace simfab
