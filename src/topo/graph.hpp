// Arbitrary graphs of hosts, switches and cables, routed by shortest paths (hop count), either the
// lowest next hop (shortest-path) or a deterministic per-flow choice among equal ones (ECMP).
//
// The graph. Nodes are the hosts and switches the edges name; each edge is one cable (add_cable:
// a full-duplex cable is two directed links, a half-duplex one a shared link crossed both ways).
// Local numbering: the H hosts first, in increasing HostId (this is the topology's local host
// order, 0..H-1), then the S switches in increasing SwitchId (H..H+S-1). The adjacency is CSR,
// built once: the neighbours of local node u are adj_[off_[u] .. off_[u+1]), each a (neighbour,
// directed link u -> neighbour) pair, sorted by (neighbour, link id), so parallel cables are
// distinct entries (ECMP spreads over them).
//
// Hosts are endpoints, never routers. A route a -> b is a walk a = v_0, v_1, ..., v_k = b whose
// inner nodes v_1..v_{k-1} are all switches (a direct host-host cable is a one-hop route). The
// distance used is therefore the hop count through switches only:
//   d_b(b) = 0,   d_b(v) = 1 + min { d_b(w) : w ~ v, w = b or w a switch }      (v != b)
// computed by one BFS from b in which b and switches are expanded and other hosts are reached but
// never expanded (a host's distance is right, it is just never a way through). The next hop from
// v is any neighbour w with d_b(w) = d_b(v) - 1 and (w = b or w a switch):
//   shortest-path  the first such entry of v's sorted adjacency (lowest local index, then lowest
//                  link id); it depends on (v, b) only, so it is destination-based and forward()
//                  answers it (InfiniBand's linear forwarding table);
//   ecmp           entry number mix64(mix64(a << 32 | b) ^ v) mod (number of such entries), with
//                  a, b the local host indices and v the local node (topo/hash.hpp): like
//                  per-flow 5-tuple hashing, one pair always takes the same path while different
//                  pairs spread over parallel paths; request.salt is ignored (flows stay in order).
// Invariants: every route has exactly d_b(a) hops and ends at b (each step lowers d_b by one);
// routes never cross a host; the same (a, b) always gives the same route.
//
// Connectivity (checked by add_graph). Hosts x != y are connected when a cable joins them or a
// switch path does: let the switch components be the connected components of the switch-switch
// cables (union-find); x and y are connected iff they are adjacent or attach to a common switch
// component. When one component is attached to every host (the usual case: one fabric, or every
// rail of a multi-rail network) all pairs are connected: O(cables). Otherwise each host marks the
// hosts it reaches (the members of its components and its host neighbours) and the first unmarked
// one is reported; this costs the sum over hosts of those member counts, up to O(H^2) for
// fragmented multi-homed graphs only.
//
// Next-hop DAGs are cached. For destination b, one BFS (O(N + E), N nodes, E adjacency entries)
// gives d_b, then one pass over the adjacency marks the entries that are next hops towards b: a
// bitset of E bits, the shortest-path DAG towards b. A route then reads, at each node, the set
// bits of its adjacency range: the lowest (shortest-path), or the k-th by the hash (ECMP): two
// popcounts per 64 neighbours, never a scan of distances: a cached route costs
// O(hops * (1 + degree / 64)). A DAG for every destination would grow
// with H * E, so at most C are kept, C = GraphParams::cache_destinations or by default
// max(1, 64 MiB / (E / 8 bytes)), grown on demand and evicted first-in first-out (a 4,096-host
// leaf-spine keeps every destination in 8 MiB).
// Memory: O(N + E) for the graph, C * E / 8 bytes of DAGs, O(H) for the cache index.
// Destination-major query orders (route_stats, a collective towards one root) hit the cache; an
// all-to-all over more than C destinations costs one BFS per route.
// Thread-safety: route()/forward() update the mutable cache: one thread at a time (the simulator
// is single-threaded).
// Seed: ../shared/spec/seed-004-loggopsim-ib.md §3.2 (the H8_S1/S2/S4/S6 verification graphs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

struct GraphEdge {
  NodeId a = kNoNode;  // a host (not in another cluster/topology) or a switch of this graph
  NodeId b = kNoNode;
  std::string name;    // the cable's name (add_cable naming); empty: "<T>_<a's name>_<b's name>"
                       // (so parallel cables need names)
  LinkSpec spec;
};

struct GraphParams {
  std::vector<GraphEdge> edges;  // switches already added to the platform (add_topo_switch)
  int cache_destinations = 0;    // destinations whose next-hop DAG is kept (0: the default bound)
};

enum class GraphRouting { kShortestPath, kEcmp };

// Adds the cables and the topology over the hosts the edges name (in host id order); returns
// its index. Throws TopologyError("links") for an edge whose end is not a host or switch of the
// platform, joins a node to itself, has no positive bandwidth, or names a host of a cluster or
// another topology; for a graph without hosts; and when two of its hosts are not connected
// (naming them). Cable names taken: TopologyError("name"), as add_cable says.
// REQUIRES: the switches the edges name belong to no other topology or cluster.
int add_graph(Platform& p, const TopoCommon& common, const GraphParams& params, GraphRouting routing);

class GraphTopology final : public Topology {
 public:
  // Built by add_graph. `nodes` maps local index -> NodeId (hosts first, then switches, each
  // increasing); `off`/`adj` are the CSR adjacency described above.
  GraphTopology(GraphRouting routing, int hosts, std::vector<NodeId> nodes, std::vector<int32_t> off,
                std::vector<std::pair<int32_t, LinkId>> adj, int cache_destinations);

  std::string_view kind() const override { return "graph"; }
  std::string_view routing() const override {
    return routing_ == GraphRouting::kEcmp ? "ecmp" : "shortest-path";
  }
  void route(int a, int b, const RouteRequest& request, LinkSink sink) const override;
  // kShortestPath only (ECMP depends on the source): the link switch `at` forwards packets for
  // local host dst on; nullopt for a switch outside the graph or one that cannot reach dst.
  std::optional<LinkId> forward(SwitchId at, int dst) const override;

  int node_count() const { return static_cast<int>(nodes_.size()); }
  // The DAG cache: its bound, the destinations held now (<= the bound), BFS runs so far.
  int cache_capacity() const { return capacity_; }
  int cached_destinations() const { return used_slots_; }
  uint64_t bfs_runs() const { return bfs_runs_; }

 private:
  // The DAG towards local host b: bit e set when adjacency entry e is a next hop towards b.
  // Valid until the next call.
  const uint64_t* dag_to(int b) const;
  size_t words_per_slot() const { return (adj_.size() + 63) / 64; }
  // The adjacency index of the next hop from local node u towards host b (a: the route's source,
  // for ECMP); -1 when u cannot reach b.
  int32_t next_hop(int a, int b, int u, const uint64_t* dag) const;

  GraphRouting routing_;
  int hosts_count_;
  std::vector<NodeId> nodes_;                  // local -> NodeId
  std::vector<SwitchId> switches_;             // sorted: switches_[i] is local hosts_count_ + i
  std::vector<int32_t> off_;                   // CSR offsets, node_count() + 1
  std::vector<std::pair<int32_t, LinkId>> adj_;  // (neighbour, link towards it)

  int capacity_;
  mutable std::vector<uint64_t> pool_;    // used_slots_ * words_per_slot() DAG bits
  mutable std::vector<int32_t> slot_of_;  // local host -> slot, or -1
  mutable std::vector<int32_t> dest_of_;  // slot -> local host
  mutable std::vector<int32_t> queue_;    // BFS scratch
  mutable std::vector<int32_t> dist_;     // BFS scratch: d_b
  mutable int used_slots_ = 0;
  mutable int next_victim_ = 0;
  mutable uint64_t bfs_runs_ = 0;
};

}  // namespace simfab
