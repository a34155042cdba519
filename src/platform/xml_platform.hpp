// Loading SimGrid platform files (XML, DTD version 4.0 / 4.1, as SimGrid 3.32 writes them) into a
// simfab Platform. Parsed with expat; elements are built in document order (so a route may only
// name hosts, routers and links declared before it, as in SimGrid), which is also the host (rank)
// order. The reader's parts are listed in xml_builder.hpp; routes between zones are answered by
// the platform's ZoneTree (xml_zone_tree.hpp), checked against SimGrid 3.32's Host::route_to.
//
// Structure (SimGrid's DTD, enforced): <platform> holds <config>s, then one root <zone> (or
// <cluster>). A zone holds its <prop>s first, then either zones of zones (<zone>, <cluster>,
// <link>, <backbone>, then <zoneRoute>s) or nodes (<host>, <router>, <link>, <cabinet>,
// <host_link>, <backbone>, then <route>s). Hosts, routers and zones share one namespace.
//
// Supported subset, element -> what simfab builds:
//
//   <platform version>        version must be 4.0 or 4.1 (else an error naming it). Root only.
//   <config> / <prop id value> under <platform> or <config>: Platform::add_setting(id, value)
//                             (they are --cfg settings; checked by the configuration, not here).
//   <zone id routing> / <AS>  a zone of the ZoneTree. routing: Full (declared routes only),
//                             Floyd, Dijkstra, DijkstraCache (shortest paths over the declared
//                             routes, SimGrid's weights and tie-breaking: xml_zone_graph.hpp),
//                             Cluster (a star of <host_link>s and a <backbone>), None (no route).
//                             Floyd zones hold at most kMaxFloydVertices members (its O(n^3)
//                             work); zones nest at most kMaxZoneDepth deep. <prop>s are ignored.
//   <host id speed core pstate>  Host{name, speed, cores}. speed may be a comma list of pstates:
//                             the host starts at speed[pstate] (pstate defaults to 0, the first).
//                             Energy <prop> children (xml_power.cpp): wattage_per_state (older:
//                             watt_per_state) "Idle:OneCore:AllCores, ..." one triple per pstate
//                             (or SimGrid's older "Idle:AllCores"), wattage_off (watt_off) watts
//                             when off; noise_class (the host's OS-noise class, Host::noise_class;
//                             also in <cluster>); other props are ignored. Several speeds or a power give
//                             the host a CpuProfile (platform/cpu_profile.hpp); one speed and no
//                             power give none (Host::cpu_profile = -1).
//   <router id coordinates>   a Platform switch, a node of its zone (coordinates: ignored).
//   <link id bandwidth latency sharing_policy>  SHARED (default) -> one kShared link; FATPIPE ->
//                             kFatpipe; SPLITDUPLEX -> "<id>_UP" and "<id>_DOWN", twins.
//                             latency defaults to 0, as in the DTD. <prop id="wattage_range"
//                             value="Idle:Busy"/> (older: watt_range) sets Link::idle_w, busy_w
//                             (both directions of a SPLITDUPLEX link); other props are ignored.
//   <route src dst symmetrical> with <link_ctn id direction="UP|DOWN|NONE"/> children: a declared
//                             route between two hosts or routers of its own zone (symmetrical
//                             default YES; the way back is reversed, split-duplex directions
//                             swapped). A split-duplex link must be given a direction (or named
//                             "<id>_UP"/"<id>_DOWN"). <route src="h" dst="h"> with exactly one
//                             link (SimGrid's way to give a host a loopback, small_platform.xml)
//                             sets Host::loopback; the link may be declared after the host (a
//                             first pass, xml_prescan.hpp, finds these routes).
//   <zoneRoute src dst gw_src gw_dst symmetrical> / <ASroute>: a declared route between two
//                             zones (or clusters) directly inside the current zone, through
//                             gateways: gw_src a host or router inside src (at any depth), gw_dst
//                             inside dst. Host routes across zones are composed from them as
//                             SimGrid does (xml_zone_tree.hpp).
//   <cluster id prefix suffix radical speed core bw lat sharing_policy bb_bw bb_lat
//            bb_sharing_policy router_id loopback_bw loopback_lat limiter_link topology
//            topo_parameters>  a zone of its own (the root, or a member of a zone of zones)
//     sharing_policy defaults to SPLITDUPLEX, as in SimGrid's DTD. speed may be a comma list of
//     pstates (every host starts in pstate 0); the cluster's wattage_per_state / wattage_off
//     <prop>s apply to all its hosts, which share one CpuProfile (SimGrid's energy_cluster.xml).
//     topology FLAT (default), with SimGrid's names and routes:
//       router router_id, default prefix + id + "_router" + suffix (the switch every private
//       link joins, and the cluster's gateway); "<id>_backbone" when bb_bw is given (bb_lat
//       default 0, bb_sharing_policy SHARED|FATPIPE); per radical index i, in radical order:
//       "<id>_link_<i>" (or "_UP"/"_DOWN" when SPLITDUPLEX), "<id>_link_<i>_limiter" (limiter_link
//       bandwidth, latency 0, shared), "<id>_link_<i>_loopback" (loopback_bw / loopback_lat,
//       fatpipe), then host prefix+i+suffix.
//       As in SimGrid, bb_bw, loopback_bw and limiter_link of 0 (or absent) mean "no such link";
//       bb_lat / loopback_lat > 0 without a positive bandwidth is an error. Route a -> b is
//       limiter(a), up(a), backbone, down(b), limiter(b) (SimGrid's order; not a Platform
//       cluster: the ZoneTree routes it).
//     topology FAT_TREE: topo_parameters "levels;down;up;link-count" (parse_simgrid_fat_tree),
//       SimGrid's FatTreeZone: its link names and routes, including the parallel cable chosen by
//       the source on the way down and a host's route to itself up and down its cable
//       (xml_fat_tree.hpp); the radical must be 0..N-1.
//     topology TORUS: topo_parameters "x,y,z,..." -> SimGrid's TorusZone: every host is its own
//       router, its names and dimension-order routes (xml_torus.hpp); the radical must be 0..N-1.
//     topology DRAGONFLY: SimGrid's DragonflyZone, chassis level included (xml_dragonfly.hpp).
//     For FAT_TREE/TORUS/DRAGONFLY, cables are full duplex (two links) when SPLITDUPLEX, else one
//     shared (or fatpipe) link; loopback_bw gives each host "<id>_link_<i>_loopback" (a message to
//     itself takes it; without one it goes through the network as in SimGrid); limiter_link gives
//     FAT_TREE hosts and switches, TORUS hosts and DRAGONFLY hosts and routers
//     "<id>_link_<n>_limiter" (SimGrid's numbering and order in the route; a shared link of
//     latency 0); bb_* are ignored (SimGrid has no
//     backbone in them); they have no router (SimGrid 3.32 ignores router_id there), so
//     zoneRoutes use one of their hosts as gateway.
//   In a routing="Cluster" zone (SimGrid's StarZone):
//   <host_link id up down>    host id's private links (link names, "X_UP" for a split-duplex X).
//   <backbone id bandwidth latency>  a shared link, the zone's backbone (one per zone).
//   <cabinet id prefix suffix radical speed bw lat>  hosts prefix+i+suffix, each with the
//                             split-duplex link "link_<host>" as its <host_link>.
//
//   <bypassRoute src dst> (zone of nodes) and <bypassZoneRoute src dst gw_src gw_dst> /
//                             <bypassASroute> (zone of zones): one-way routes tried before the
//                             routing, as SimGrid's get_bypass_route (xml_zone_tree.hpp). A bypass
//                             zone route joins zones anywhere below its zone, in two different
//                             children; its gateways lie inside them.
//
//   <host speed_file state_file>, <link bandwidth_file latency_file state_file>, <trace>,
//                             <trace_connect>: availability profiles (xml_profiles.cpp,
//                             platform/availability.hpp); <disk id read_bw write_bw> in a <host>.
//
// Not supported (InputError at the element): every other element (storage, actor, process, peer,
// include, ...): "element <x> is not supported by simfab".
// Routings Vivaldi and Wifi.
//
// Differences from SimGrid 3.32 (deliberate): a pair of hosts without declared route has no route
// (SimGrid: an empty, free route in a Full zone); Dijkstra routes are listed in path order
// (xml_zone_tree.hpp); a Dijkstra zone of zones whose routes change gateway inside a zone is
// composed as Floyd does (SimGrid crashes); a <route> must join nodes of its own zone and a
// <zoneRoute> zones of its own zone (SimGrid indexes the wrong table); the files SimGrid's parser
// rejects for a <link> before a <zone> (an ambiguity of its DTD) are accepted.
//
// Quantities (SimGrid's units, case-sensitive):
//   speed      f kf Mf Gf Tf Pf Ef Zf Yf, also flops kflops Mflops ... Yflops; bare = flop/s
//   bandwidth  Bps kBps MBps GBps TBps KiBps MiBps GiBps TiBps (bytes/s); bps kbps Mbps Gbps Tbps
//              Kibps Mibps Gibps Tibps (bits/s, divided by 8); bare = bytes/s
//   latency    ps ns us ms s m h d w; bare = SECONDS (SimGrid's default, unlike simfab's YAML)
//
// Errors (all InputError at file:line:column of the element's start tag, the line echoed): XML
// syntax (expat's message), elements out of the DTD's order or in the wrong kind of zone, unknown
// attributes (listing the valid ones), missing required attributes, bad values or units (quoting
// the value and the accepted units), duplicate host / router / link / zone / cluster ids,
// duplicate routes, undefined hosts, routers, links, zones or gateways in routes, unsupported
// elements, and bad energy properties (at the <prop>, naming the host, cluster or link and the
// property, with check_cpu_profile's or check_link_power's text: malformed watts, negative
// values, AllCores below OneCore, a triple count that is not the speed count, a pstate out of
// range, wattage_off without wattage_per_state, busy below idle, a property given twice under
// its two names). Never aborts on bad input.
#pragma once

#include <string>
#include <string_view>

#include "platform/platform.hpp"

namespace simfab {

// `name` is the file name used in error locations and Platform::source().
Platform parse_platform_xml(std::string_view text, const std::string& name);
Platform load_platform_xml(const std::string& path);

}  // namespace simfab
