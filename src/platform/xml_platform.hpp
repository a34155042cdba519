// Loading SimGrid platform files (XML, DTD version 4.0 / 4.1, as SimGrid 3.32 writes them) into a
// simfab Platform. Parsed with expat; elements are built in document order (so a route may only
// name hosts and links declared before it, as in SimGrid), which is also the host (rank) order.
//
// Supported subset, element -> what simfab builds:
//
//   <platform version>        version must be 4.0 or 4.1 (else an error naming it). Root only.
//   <config> / <prop id value> under <platform> or <config>: Platform::add_setting(id, value)
//                             (they are --cfg settings; checked by the configuration, not here).
//   <zone id routing> / <AS>  a namespace only (routing: Full, Floyd, Dijkstra, DijkstraCache,
//                             Cluster, None). Zone ids must be unique (clusters share the namespace).
//                             Floyd/Dijkstra do not compose multi-hop routes here: only the
//                             explicit host-to-host routes are used. <prop> inside is ignored.
//   <host id speed core pstate>  Host{name, speed, cores}. speed may be a comma list of pstates:
//                             simfab takes speed[pstate] (pstate defaults to 0, the first).
//                             <prop> children (e.g. wattage) are accepted and ignored.
//   <link id bandwidth latency sharing_policy>  SHARED (default) -> one kShared link; FATPIPE ->
//                             kFatpipe; SPLITDUPLEX -> "<id>_UP" and "<id>_DOWN", twins.
//                             latency defaults to 0, as in the DTD.
//   <route src dst symmetrical> with <link_ctn id direction="UP|DOWN|NONE"/> children:
//                             Platform::add_route between two hosts (symmetrical default YES; the
//                             reverse route swaps split-duplex directions). A split-duplex link
//                             must be given a direction (or named "<id>_UP"/"<id>_DOWN").
//                             <route src="h" dst="h"> with exactly one link (SimGrid's way to give a
//                             host a loopback, e.g. small_platform.xml) sets Host::loopback; the
//                             link may be declared after the host (a first expat pass finds these
//                             routes and the link is then built when the host is added).
//                             Routes between zones, or via routers, need <zoneRoute>: unsupported.
//   <cluster id prefix suffix radical speed core bw lat sharing_policy bb_bw bb_lat
//            bb_sharing_policy loopback_bw loopback_lat limiter_link topology topo_parameters>
//     topology FLAT (default), as yaml_platform.cpp's clusters, with SimGrid's link names:
//       switch "<id>_switch"; "<id>_backbone" when bb_bw is given (bb_lat default 0,
//       bb_sharing_policy SHARED|FATPIPE); per radical index i, in radical order:
//       "<id>_link_<i>" (or "_UP"/"_DOWN" when sharing_policy=SPLITDUPLEX),
//       "<id>_link_<i>_limiter" (limiter_link bandwidth, latency 0, shared),
//       "<id>_link_<i>_loopback" (loopback_bw / loopback_lat, fatpipe), then host prefix+i+suffix.
//       (simfab's YAML names the last two "<id>_limiter_<i>" / "<id>_loopback_<i>"; routes equal.)
//       As in SimGrid, bb_bw, loopback_bw and limiter_link of 0 (or absent) mean "no such link";
//       bb_lat / loopback_lat > 0 without a positive bandwidth is an error. Route a -> b is
//       simfab's cluster rule up(a), lim(a), backbone, lim(b), down(b): SimGrid's links, with
//       lim(a) after up(a) rather than before (the same set, so the same latency and bottleneck).
//     topology FAT_TREE: topo_parameters "levels;down;up;link-count" (parse_simgrid_fat_tree),
//       add_fat_tree(D-mod-K) with host_link = link = bw/lat; the radical must be 0..N-1.
//     topology TORUS: topo_parameters "x,y,z,..." -> add_torus (all dimensions wrap,
//       hosts_per_router 1); the radical must be 0..N-1. NOTE: in SimGrid a torus host is its own
//       router; simfab adds one router per host, so every route is 2 links (the host cables)
//       longer than SimGrid's.
//     For FAT_TREE/TORUS, loopback_bw gives each host "<host>_loopback"; bb_* are ignored (SimGrid
//     has no backbone in them); limiter_link is an error (not supported yet).
//     topology DRAGONFLY: error, not supported yet (SimGrid's chassis level differs).
//
// Not supported (InputError at the element): zoneRoute / ASroute / bypassRoute ("not supported
// yet"), and every other element (router, backbone, cabinet, disk, storage, trace, trace_connect,
// actor, process, peer, include, ...): "element <x> is not supported by simfab".
//
// Quantities (SimGrid's units, case-sensitive):
//   speed      f kf Mf Gf Tf Pf Ef Zf Yf, also flops kflops Mflops ... Yflops; bare = flop/s
//   bandwidth  Bps kBps MBps GBps TBps KiBps MiBps GiBps TiBps (bytes/s); bps kbps Mbps Gbps Tbps
//              Kibps Mibps Gibps Tibps (bits/s, divided by 8); bare = bytes/s
//   latency    ps ns us ms s m h d w; bare = SECONDS (SimGrid's default, unlike simfab's YAML)
//
// Errors (all InputError at file:line:column of the element's start tag, the line echoed): XML
// syntax (expat's message), unknown attributes (listing the valid ones), missing required
// attributes, bad values or units (quoting the value and the accepted units), duplicate host /
// link / zone / cluster ids, duplicate routes, undefined hosts or links in routes, elements in the
// wrong place, and unsupported elements. Never aborts on bad input.
#pragma once

#include <string>
#include <string_view>

#include "platform/platform.hpp"

namespace simfab {

// `name` is the file name used in error locations and Platform::source().
Platform parse_platform_xml(std::string_view text, const std::string& name);
Platform load_platform_xml(const std::string& path);

}  // namespace simfab
