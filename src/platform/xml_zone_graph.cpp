// Floyd and Dijkstra as SimGrid 3.32 runs them; the rules are in xml_zone_graph.hpp.
#include "platform/xml_zone_graph.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "core/error.hpp"

namespace simfab {
namespace {

constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max();
constexpr size_t kDijkstraCacheEntries = size_t{16} << 20;  // predecessors kept, all sources together

}  // namespace

void ZoneGraph::add_edge(int u, int v, int64_t weight) {
  SIMFAB_CHECK(u >= 0 && v >= 0 && u != v && weight >= 1 && pred_.empty() && cache_.empty(), "bad zone graph edge");
  if (kind_ == Kind::kFloyd) {
    SIMFAB_CHECK(u < kMaxFloydVertices && v < kMaxFloydVertices, "Floyd zone too large");
    const size_t need = static_cast<size_t>(std::max(u, v)) + 1;
    if (out_.size() < need) out_.resize(need);
    out_[static_cast<size_t>(u)].push_back(Edge{v, weight});
    return;
  }
  auto number = [&](int x) {
    if (graph_number_.size() <= static_cast<size_t>(x)) graph_number_.resize(static_cast<size_t>(x) + 1, -1);
    int32_t& g = graph_number_[static_cast<size_t>(x)];
    if (g < 0) {
      g = static_cast<int32_t>(vertex_of_.size());
      vertex_of_.push_back(x);
      out_.emplace_back();
    }
    return g;
  };
  const int32_t gu = number(u);
  const int32_t gv = number(v);
  out_[static_cast<size_t>(gu)].push_back(Edge{gv, weight});
}

void ZoneGraph::seal(int vertices) {
  vertices_ = vertices;
  if (kind_ != Kind::kFloyd) return;
  SIMFAB_CHECK(vertices <= kMaxFloydVertices && out_.size() <= static_cast<size_t>(vertices), "bad Floyd size");
  const size_t n = static_cast<size_t>(vertices);
  std::vector<int64_t> cost(n * n, kInfinite);
  pred_.assign(n * n, -1);
  for (size_t u = 0; u < out_.size(); ++u)
    for (const Edge& e : out_[u]) {
      cost[u * n + static_cast<size_t>(e.to)] = e.weight;
      pred_[u * n + static_cast<size_t>(e.to)] = static_cast<int32_t>(u);
    }
  for (size_t k = 0; k < n; ++k)
    for (size_t a = 0; a < n; ++a) {
      const int64_t ak = cost[a * n + k];
      if (ak == kInfinite) continue;
      for (size_t b = 0; b < n; ++b) {
        const int64_t kb = cost[k * n + b];
        if (kb == kInfinite) continue;
        int64_t& ab = cost[a * n + b];
        if (ab == kInfinite || ak + kb < ab) {
          ab = ak + kb;
          pred_[a * n + b] = pred_[k * n + b];
        }
      }
    }
}

bool ZoneGraph::floyd_walk(int s, int d) const {
  const size_t n = static_cast<size_t>(vertices_);
  if (static_cast<size_t>(std::max(s, d)) >= n) return false;
  scratch_.assign(1, d);
  for (int cur = d; cur != s;) {
    const int32_t p = pred_[static_cast<size_t>(s) * n + static_cast<size_t>(cur)];
    if (p < 0 || scratch_.size() > n) return false;  // no path (or, impossibly, a cycle)
    scratch_.push_back(p);
    cur = p;
  }
  return true;
}

int32_t ZoneGraph::index_of(int v) const {
  if (v < 0) return -1;
  if (kind_ == Kind::kFloyd) return v < vertices_ ? v : -1;
  return static_cast<size_t>(v) < graph_number_.size() ? graph_number_[static_cast<size_t>(v)] : -1;
}

int ZoneGraph::vertex_at(int32_t i) const { return kind_ == Kind::kFloyd ? i : vertex_of_[static_cast<size_t>(i)]; }

void ZoneGraph::shortest_preds(int32_t source, FunctionRef<bool(int32_t, int32_t)> usable,
                               std::vector<int32_t>& pred) const {
  const size_t g = kind_ == Kind::kFloyd ? static_cast<size_t>(vertices_) : vertex_of_.size();
  pred.assign(g, -1);
  std::vector<int64_t> cost(g, kInfinite);
  using Entry = std::pair<int64_t, int32_t>;  // (cost, index): SimGrid's queue order
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  cost[static_cast<size_t>(source)] = 0;
  queue.emplace(0, source);
  while (!queue.empty()) {
    const int32_t v = queue.top().second;
    queue.pop();
    if (static_cast<size_t>(v) >= out_.size()) continue;  // a Floyd vertex with no out-edge
    for (const Edge& e : out_[static_cast<size_t>(v)]) {
      const int64_t c = cost[static_cast<size_t>(v)] + e.weight;
      if (c < cost[static_cast<size_t>(e.to)] && usable(v, e.to)) {
        cost[static_cast<size_t>(e.to)] = c;
        pred[static_cast<size_t>(e.to)] = v;
        queue.emplace(c, e.to);
      }
    }
  }
}

const std::vector<int32_t>& ZoneGraph::dijkstra_preds(int32_t source) const {
  if (auto it = cache_.find(source); it != cache_.end()) return it->second;
  const size_t keep = std::max<size_t>(1, kDijkstraCacheEntries / std::max<size_t>(1, vertex_of_.size()));
  while (cache_order_.size() >= keep) {
    cache_.erase(cache_order_.front());
    cache_order_.pop_front();
  }
  std::vector<int32_t> pred;
  shortest_preds(source, [](int32_t, int32_t) { return true; }, pred);
  cache_order_.push_back(source);
  return cache_.emplace(source, std::move(pred)).first->second;
}

bool ZoneGraph::walk_back(const std::vector<int32_t>& pred, int32_t gs, int32_t gd) const {
  scratch_.assign(1, vertex_at(gd));
  for (int32_t cur = gd; cur != gs;) {
    const int32_t p = pred[static_cast<size_t>(cur)];
    if (p < 0) return false;
    scratch_.push_back(vertex_at(p));
    cur = p;
  }
  return true;
}

bool ZoneGraph::dijkstra_walk(int s, int d) const {
  const int32_t gs = index_of(s);
  const int32_t gd = index_of(d);
  return gs >= 0 && gd >= 0 && walk_back(dijkstra_preds(gs), gs, gd);
}

bool ZoneGraph::path(int s, int d, FunctionRef<void(int, int)> fn) const {
  if (s < 0 || d < 0 || s == d) return false;
  if (!(kind_ == Kind::kFloyd ? floyd_walk(s, d) : dijkstra_walk(s, d))) return false;
  // scratch_ holds d, ..., s; fn may not touch this graph, so scratch_ stays valid meanwhile.
  for (size_t i = scratch_.size() - 1; i > 0; --i) fn(scratch_[i], scratch_[i - 1]);
  return true;
}

bool ZoneGraph::path_avoiding(int s, int d, FunctionRef<bool(int, int)> usable, FunctionRef<void(int, int)> fn) const {
  if (s == d) return false;
  const int32_t gs = index_of(s);
  const int32_t gd = index_of(d);
  if (gs < 0 || gd < 0) return false;
  std::vector<int32_t> pred;
  shortest_preds(gs, [&](int32_t x, int32_t y) { return usable(vertex_at(x), vertex_at(y)); }, pred);
  if (!walk_back(pred, gs, gd)) return false;
  for (size_t i = scratch_.size() - 1; i > 0; --i) fn(scratch_[i], scratch_[i - 1]);
  return true;
}

}  // namespace simfab
