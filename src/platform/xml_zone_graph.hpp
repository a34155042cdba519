// ZoneGraph: the shortest paths of a SimGrid zone with routing="Floyd", "Dijkstra" or
// "DijkstraCache", computed with SimGrid 3.32's edge weights and tie-breaking so that simfab
// picks the very path SimGrid does (src/kernel/routing/FloydZone.cpp, DijkstraZone.cpp).
//
// The graph. Vertices are the zone's members, numbered 0..n-1 in declaration order (SimGrid's
// netpoint ids: the hosts and routers of a leaf zone, or the child zones and clusters of a zone
// of zones). Every declared route src -> dst is one directed edge, a symmetric route two (the way
// back added right after the way there). An edge's weight is its number of links, not its
// latency ("count of links, old model assume 1" in SimGrid). At most one edge per ordered pair;
// no self-loops (a host's route to itself is its loopback, never a way through).
//
// Floyd. seal() runs Floyd-Warshall exactly as FloydZone::do_seal: for k, then a, then b, each
// increasing, cost[a][b] takes cost[a][k] + cost[k][b] when that is finite and strictly smaller
// (or cost[a][b] is infinite), and then pred[a][b] = pred[k][b]. A path is read back from
// pred[s][.] starting at d. Ties therefore go to the path through the lowest-numbered vertex
// that improves first: with a -> r1 -> b and a -> r2 -> b equally long, the lower of r1, r2 wins.
// O(n^3) time and 12 n^2 bytes at seal (pred kept, 4 n^2 bytes); n <= kMaxFloydVertices.
//
// Dijkstra. Vertices get a second number, their graph number, in order of first appearance in
// the declared routes (src, then dst: DijkstraZone::new_edge), and each keeps its out-edges in
// declaration order. From source s, a priority queue ordered by (cost, graph number) settles
// vertices; relaxing v -> u replaces pred[u] only on a strictly smaller cost. Since weights are
// >= 1, vertices are settled in increasing (cost, graph number), so pred[u] is the first vertex
// so settled that reaches u at its final cost (through its earliest-declared edge).
// O((n + e) log n) per source. "DijkstraCache" only tells SimGrid to keep the per-source
// predecessors; simfab keeps them for both (same answers), within a bound: at most
// max(1, 16 Mi / n) sources (64 MiB), evicted first-in first-out.
// (SimGrid's DijkstraZone also lists each edge's links reversed; simfab lists paths in path
// order: xml_zone_tree.hpp.)
//
// Thread-safety: path() fills the Dijkstra cache and a scratch vector: one thread at a time.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "core/function_ref.hpp"

namespace simfab {

// Floyd's n^3 work and n^2 tables: 2048 members take ~10 s and 48 MiB at load, as in SimGrid.
constexpr int kMaxFloydVertices = 2048;

class ZoneGraph {
 public:
  enum class Kind : uint8_t { kFloyd, kDijkstra };

  explicit ZoneGraph(Kind kind) : kind_(kind) {}
  Kind kind() const { return kind_; }

  // The edge u -> v of `weight` >= 1 links. REQUIRES: u != v, u, v >= 0, no edge u -> v yet, not
  // sealed (and for Floyd, u, v < kMaxFloydVertices).
  void add_edge(int u, int v, int64_t weight);
  // After the last edge; `vertices` > every vertex used. Floyd computes its tables here.
  void seal(int vertices);

  // Calls fn(x, y) for every edge x -> y of the path from s to d, in order from s; false (and no
  // call) when d cannot be reached. REQUIRES: s != d, sealed. Reentrant only for other graphs
  // (fn may query other ZoneGraphs, not this one).
  bool path(int s, int d, FunctionRef<void(int, int)> fn) const;
  // The same over the edges x -> y that `usable` accepts: a fresh Dijkstra (no cache) in either
  // kind, ties to the lower index (graph number; a Floyd zone's vertex number). Used to route
  // around links that are off (availability state profiles): rare, so O((n + e) log n) each.
  bool path_avoiding(int s, int d, FunctionRef<bool(int, int)> usable, FunctionRef<void(int, int)> fn) const;

 private:
  struct Edge {
    int32_t to;  // a graph number (Dijkstra) or a vertex (Floyd)
    int64_t weight;
  };
  // Fills scratch_ with the vertices of the path, from d back to s; false if unreachable.
  bool floyd_walk(int s, int d) const;
  bool dijkstra_walk(int s, int d) const;
  const std::vector<int32_t>& dijkstra_preds(int32_t source) const;
  // out_'s index of vertex v (-1: in no edge) and back.
  int32_t index_of(int v) const;
  int vertex_at(int32_t i) const;
  // Dijkstra from out_ index `source` over the usable edges: pred[i], the index before i, or -1.
  void shortest_preds(int32_t source, FunctionRef<bool(int32_t, int32_t)> usable, std::vector<int32_t>& pred) const;
  // Fills scratch_ with the vertices from gd back to gs along pred; false if gd is unreached.
  bool walk_back(const std::vector<int32_t>& pred, int32_t gs, int32_t gd) const;

  Kind kind_;
  int vertices_ = 0;
  std::vector<std::vector<Edge>> out_;  // Floyd: by vertex; Dijkstra: by graph number (kept after
                                        // seal for path_avoiding: O(e))
  // Floyd: pred_[s * n + d], the vertex before d on the path from s, or -1.
  std::vector<int32_t> pred_;
  // Dijkstra: vertex <-> graph number (-1: not in any route), and the cached predecessors.
  std::vector<int32_t> graph_number_;
  std::vector<int32_t> vertex_of_;
  mutable std::unordered_map<int32_t, std::vector<int32_t>> cache_;
  mutable std::deque<int32_t> cache_order_;
  mutable std::vector<int32_t> scratch_;
};

}  // namespace simfab
