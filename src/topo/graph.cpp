#include "topo/graph.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "topo/hash.hpp"

namespace simfab {

namespace {

constexpr int kMaxCachedDestinations = 1 << 20;
constexpr size_t kCacheBudgetBytes = size_t{64} << 20;

std::string edge_label(const GraphEdge& e, size_t i) {
  return e.name.empty() ? "link " + std::to_string(i) : "link '" + e.name + "'";
}

bool known_node(const Platform& p, NodeId n) {
  if (is_switch(n)) return switch_of(n) < p.switch_count();
  return n >= 0 && n < p.host_count();
}

// Edge checks that do not depend on the other edges (see add_graph's contract).
void check_edge(const Platform& p, const GraphEdge& e, size_t i) {
  for (NodeId n : {e.a, e.b})
    if (!known_node(p, n))
      throw TopologyError("links", edge_label(e, i) + " names node " + std::to_string(n) +
                                       ", neither a host nor a switch of the platform");
  if (e.a == e.b)
    throw TopologyError("links", edge_label(e, i) + " joins '" + p.node_name(e.a) + "' to itself; a cable joins two nodes");
  if (!(e.spec.bandwidth_Bps > 0))
    throw TopologyError("links", edge_label(e, i) + " has bandwidth " + std::to_string(e.spec.bandwidth_Bps) +
                                     " B/s; it must be positive");
  for (NodeId n : {e.a, e.b}) {
    if (is_switch(n)) continue;
    const Host& h = p.host(n);
    if (h.cluster >= 0)
      throw TopologyError("links", edge_label(e, i) + " names host '" + h.name + "' of cluster '" +
                                       p.clusters()[static_cast<size_t>(h.cluster)].name +
                                       "'; a graph's hosts must be standalone hosts");
    if (h.topology >= 0)
      throw TopologyError("links", edge_label(e, i) + " names host '" + h.name +
                                       "', which already belongs to another topology; a graph's hosts must be standalone hosts");
  }
}

// Union-find over switch locals (index s - H), path halving.
int find_root(std::vector<int32_t>& parent, int x) {
  while (parent[static_cast<size_t>(x)] != x) {
    parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    x = parent[static_cast<size_t>(x)];
  }
  return x;
}

// Returns a pair of local hosts that are not connected (the rule in the header), or {-1, -1}.
std::pair<int, int> disconnected_pair(int hosts, const std::vector<int32_t>& off,
                                      const std::vector<std::pair<int32_t, LinkId>>& adj) {
  const int nodes = static_cast<int>(off.size()) - 1;
  const int switches = nodes - hosts;
  std::vector<int32_t> parent(static_cast<size_t>(switches));
  std::iota(parent.begin(), parent.end(), 0);
  for (int s = 0; s < switches; ++s)
    for (int32_t e = off[static_cast<size_t>(hosts + s)]; e < off[static_cast<size_t>(hosts + s + 1)]; ++e) {
      const int w = adj[static_cast<size_t>(e)].first;
      if (w < hosts) continue;
      const int rs = find_root(parent, s);
      const int rw = find_root(parent, w - hosts);
      if (rs != rw) parent[static_cast<size_t>(std::max(rs, rw))] = std::min(rs, rw);
    }
  // comps[off_c[h] .. off_c[h+1]): the distinct switch components host h attaches to.
  std::vector<int32_t> comp_off(static_cast<size_t>(hosts) + 1, 0);
  std::vector<int32_t> comps;
  std::vector<int32_t> members(static_cast<size_t>(switches), 0);  // hosts attached, per root
  for (int h = 0; h < hosts; ++h) {
    const size_t first = comps.size();
    for (int32_t e = off[static_cast<size_t>(h)]; e < off[static_cast<size_t>(h) + 1]; ++e) {
      const int w = adj[static_cast<size_t>(e)].first;
      if (w >= hosts) comps.push_back(find_root(parent, w - hosts));
    }
    std::sort(comps.begin() + static_cast<ptrdiff_t>(first), comps.end());
    comps.erase(std::unique(comps.begin() + static_cast<ptrdiff_t>(first), comps.end()), comps.end());
    for (size_t k = first; k < comps.size(); ++k) ++members[static_cast<size_t>(comps[k])];
    comp_off[static_cast<size_t>(h) + 1] = static_cast<int32_t>(comps.size());
  }
  if (hosts <= 1 || std::find(members.begin(), members.end(), hosts) != members.end()) return {-1, -1};

  // The general case: each host marks what it reaches. Members of each component, as CSR.
  std::vector<int32_t> member_off(static_cast<size_t>(switches) + 1, 0);
  for (int c = 0; c < switches; ++c) member_off[static_cast<size_t>(c) + 1] = member_off[static_cast<size_t>(c)] + members[static_cast<size_t>(c)];
  std::vector<int32_t> member_list(static_cast<size_t>(member_off.back()));
  std::vector<int32_t> fill(member_off.begin(), member_off.end() - 1);
  for (int h = 0; h < hosts; ++h)
    for (int32_t k = comp_off[static_cast<size_t>(h)]; k < comp_off[static_cast<size_t>(h) + 1]; ++k)
      member_list[static_cast<size_t>(fill[static_cast<size_t>(comps[static_cast<size_t>(k)])]++)] = h;
  std::vector<int32_t> mark(static_cast<size_t>(hosts), -1);
  for (int x = 0; x < hosts; ++x) {
    mark[static_cast<size_t>(x)] = x;
    for (int32_t k = comp_off[static_cast<size_t>(x)]; k < comp_off[static_cast<size_t>(x) + 1]; ++k) {
      const int c = comps[static_cast<size_t>(k)];
      for (int32_t m = member_off[static_cast<size_t>(c)]; m < member_off[static_cast<size_t>(c) + 1]; ++m)
        mark[static_cast<size_t>(member_list[static_cast<size_t>(m)])] = x;
    }
    for (int32_t e = off[static_cast<size_t>(x)]; e < off[static_cast<size_t>(x) + 1]; ++e) {
      const int w = adj[static_cast<size_t>(e)].first;
      if (w < hosts) mark[static_cast<size_t>(w)] = x;
    }
    for (int y = 0; y < hosts; ++y)
      if (mark[static_cast<size_t>(y)] != x) return {std::min(x, y), std::max(x, y)};
  }
  return {-1, -1};
}

}  // namespace

int add_graph(Platform& p, const TopoCommon& common, const GraphParams& params, GraphRouting routing) {
  const std::vector<GraphEdge>& edges = params.edges;
  for (size_t i = 0; i < edges.size(); ++i) check_edge(p, edges[i], i);

  // Local numbering: hosts by HostId, then switches by SwitchId.
  std::vector<NodeId> host_ids;
  std::vector<SwitchId> switch_ids;
  for (const GraphEdge& e : edges)
    for (NodeId n : {e.a, e.b}) {
      if (is_switch(n)) switch_ids.push_back(switch_of(n));
      else host_ids.push_back(n);
    }
  std::sort(host_ids.begin(), host_ids.end());
  host_ids.erase(std::unique(host_ids.begin(), host_ids.end()), host_ids.end());
  std::sort(switch_ids.begin(), switch_ids.end());
  switch_ids.erase(std::unique(switch_ids.begin(), switch_ids.end()), switch_ids.end());
  if (host_ids.empty())
    throw TopologyError("links", "graph '" + common.name + "' has no link to a host; join its hosts to its switches");
  const int hosts = static_cast<int>(host_ids.size());
  const int nodes = hosts + static_cast<int>(switch_ids.size());
  auto local = [&](NodeId n) -> int32_t {
    if (is_switch(n))
      return hosts + static_cast<int32_t>(std::lower_bound(switch_ids.begin(), switch_ids.end(), switch_of(n)) -
                                          switch_ids.begin());
    return static_cast<int32_t>(std::lower_bound(host_ids.begin(), host_ids.end(), n) - host_ids.begin());
  };

  // CSR over (neighbour, edge index) first: the connectivity check runs before the platform is
  // touched. Edge indices become link ids below; both increase together, so the order holds.
  std::vector<int32_t> off(static_cast<size_t>(nodes) + 1, 0);
  std::vector<std::pair<int32_t, int32_t>> ends(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    ends[i] = {local(edges[i].a), local(edges[i].b)};
    ++off[static_cast<size_t>(ends[i].first) + 1];
    ++off[static_cast<size_t>(ends[i].second) + 1];
  }
  std::partial_sum(off.begin(), off.end(), off.begin());
  std::vector<std::pair<int32_t, LinkId>> adj(2 * edges.size());
  std::vector<int32_t> fill(off.begin(), off.end() - 1);
  for (size_t i = 0; i < edges.size(); ++i) {  // edge i: entry 2 fills in a's list, b's list
    adj[static_cast<size_t>(fill[static_cast<size_t>(ends[i].first)]++)] = {ends[i].second, static_cast<LinkId>(2 * i)};
    adj[static_cast<size_t>(fill[static_cast<size_t>(ends[i].second)]++)] = {ends[i].first, static_cast<LinkId>(2 * i + 1)};
  }
  for (int u = 0; u < nodes; ++u)
    std::sort(adj.begin() + off[static_cast<size_t>(u)], adj.begin() + off[static_cast<size_t>(u) + 1]);

  const auto [x, y] = disconnected_pair(hosts, off, adj);
  if (x >= 0)
    throw TopologyError("links", "hosts '" + p.host(host_ids[static_cast<size_t>(x)]).name + "' and '" +
                                     p.host(host_ids[static_cast<size_t>(y)]).name + "' of graph '" + common.name +
                                     "' are not connected; routes never pass through a host, so join them "
                                     "through switches (or by a direct cable)");

  // The cables; entry 2i is a -> b (the cable's up link), 2i + 1 is b -> a (its down link).
  std::vector<LinkId> link_of(2 * edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    const GraphEdge& e = edges[i];
    const std::string name = e.name.empty() ? common.name + "_" + p.node_name(e.a) + "_" + p.node_name(e.b) : e.name;
    const Cable c = add_cable(p, name, e.a, e.b, e.spec, common.full_duplex);
    link_of[2 * i] = c.up;
    link_of[2 * i + 1] = c.down;
  }
  for (auto& entry : adj) entry.second = link_of[static_cast<size_t>(entry.second)];
  // Links were added in edge order, so (neighbour, link id) is still sorted; parallel half-duplex
  // cables between the same pair stay in edge order.

  std::vector<NodeId> node_ids(host_ids.begin(), host_ids.end());
  for (SwitchId s : switch_ids) node_ids.push_back(switch_node(s));
  auto topo = std::make_unique<GraphTopology>(routing, hosts, std::move(node_ids), std::move(off), std::move(adj),
                                              params.cache_destinations);
  return p.add_topology(std::move(topo), std::move(host_ids));
}

GraphTopology::GraphTopology(GraphRouting routing, int hosts, std::vector<NodeId> nodes, std::vector<int32_t> off,
                             std::vector<std::pair<int32_t, LinkId>> adj, int cache_destinations)
    : routing_(routing),
      hosts_count_(hosts),
      nodes_(std::move(nodes)),
      off_(std::move(off)),
      adj_(std::move(adj)) {
  SIMFAB_CHECK(hosts >= 0 && hosts <= static_cast<int>(nodes_.size()) && off_.size() == nodes_.size() + 1,
               "graph topology: inconsistent CSR");
  for (size_t i = static_cast<size_t>(hosts); i < nodes_.size(); ++i) switches_.push_back(switch_of(nodes_[i]));
  SIMFAB_CHECK(std::is_sorted(switches_.begin(), switches_.end()), "graph topology: switches not sorted");
  const size_t per_slot = std::max<size_t>(1, words_per_slot()) * sizeof(uint64_t);
  capacity_ = cache_destinations > 0
                  ? cache_destinations
                  : static_cast<int>(std::clamp<size_t>(kCacheBudgetBytes / per_slot, 1, kMaxCachedDestinations));
  slot_of_.assign(static_cast<size_t>(hosts), -1);
  queue_.resize(nodes_.size());
  dist_.resize(nodes_.size());
}

const uint64_t* GraphTopology::dag_to(int b) const {
  const size_t words = words_per_slot();
  if (const int32_t slot = slot_of_[static_cast<size_t>(b)]; slot >= 0) return pool_.data() + static_cast<size_t>(slot) * words;
  int slot;
  if (used_slots_ < capacity_) {
    slot = used_slots_++;
    pool_.resize(static_cast<size_t>(used_slots_) * words);
    dest_of_.push_back(b);
  } else {  // FIFO: the oldest destination leaves
    slot = next_victim_;
    next_victim_ = (next_victim_ + 1) % capacity_;
    slot_of_[static_cast<size_t>(dest_of_[static_cast<size_t>(slot)])] = -1;
    dest_of_[static_cast<size_t>(slot)] = b;
  }
  slot_of_[static_cast<size_t>(b)] = slot;
  ++bfs_runs_;

  // BFS from b; b and switches are expanded, other hosts only reached.
  std::vector<int32_t>& d = dist_;
  std::fill(d.begin(), d.end(), -1);
  d[static_cast<size_t>(b)] = 0;
  size_t head = 0;
  size_t tail = 0;
  queue_[tail++] = b;
  while (head < tail) {
    const int32_t v = queue_[head++];
    for (int32_t e = off_[static_cast<size_t>(v)]; e < off_[static_cast<size_t>(v) + 1]; ++e) {
      const int32_t w = adj_[static_cast<size_t>(e)].first;
      if (d[static_cast<size_t>(w)] >= 0) continue;
      d[static_cast<size_t>(w)] = d[static_cast<size_t>(v)] + 1;
      if (w >= hosts_count_) queue_[tail++] = w;
    }
  }
  // The DAG: entry u -> w leads towards b when d(w) = d(u) - 1 and w is b or a switch.
  uint64_t* bits = pool_.data() + static_cast<size_t>(slot) * words;
  std::fill(bits, bits + words, uint64_t{0});
  for (size_t u = 0; u < nodes_.size(); ++u) {
    const int32_t du = d[u];
    if (du <= 0) continue;
    for (int32_t e = off_[u]; e < off_[u + 1]; ++e) {
      const int32_t w = adj_[static_cast<size_t>(e)].first;
      if (d[static_cast<size_t>(w)] == du - 1 && (w == b || w >= hosts_count_))
        bits[static_cast<size_t>(e) >> 6] |= uint64_t{1} << (e & 63);
    }
  }
  return bits;
}

int32_t GraphTopology::next_hop(int a, int b, int u, const uint64_t* dag) const {
  const int32_t first = off_[static_cast<size_t>(u)];
  const int32_t last = off_[static_cast<size_t>(u) + 1];
  if (first == last) return -1;
  // The set bits of [first, last), one word at a time.
  auto word = [&](int32_t i) {
    uint64_t w = dag[i];
    if (i == first >> 6) w &= ~uint64_t{0} << (first & 63);
    if (i == (last - 1) >> 6 && ((last & 63) != 0)) w &= ~(~uint64_t{0} << (last & 63));
    return w;
  };
  if (routing_ == GraphRouting::kShortestPath) {
    for (int32_t i = first >> 6; i <= (last - 1) >> 6; ++i)
      if (const uint64_t w = word(i)) return i * 64 + std::countr_zero(w);
    return -1;
  }
  uint64_t count = 0;
  for (int32_t i = first >> 6; i <= (last - 1) >> 6; ++i) count += static_cast<uint64_t>(std::popcount(word(i)));
  if (count == 0) return -1;
  const uint64_t pair = (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  uint64_t k = pick(mix(pair, static_cast<uint64_t>(u)), count);  // mix64(mix64(pair) ^ u) mod count
  for (int32_t i = first >> 6;; ++i) {
    uint64_t w = word(i);
    const uint64_t n = static_cast<uint64_t>(std::popcount(w));
    if (k >= n) {
      k -= n;
      continue;
    }
    for (; k > 0; --k) w &= w - 1;  // drop the k lowest set bits
    return i * 64 + std::countr_zero(w);
  }
}

void GraphTopology::route(int a, int b, const RouteRequest& request, LinkSink sink) const {
  (void)request;  // ECMP hashes the pair only: one flow, one path
  SIMFAB_CHECK(a != b && a >= 0 && b >= 0 && a < hosts_count_ && b < hosts_count_, "graph route: bad host pair");
  const uint64_t* dag = dag_to(b);
  int u = a;
  while (u != b) {
    const int32_t e = next_hop(a, b, u, dag);
    SIMFAB_CHECK(e >= 0, "graph route: no next hop (the connectivity check should have refused the graph)");
    sink(adj_[static_cast<size_t>(e)].second);
    u = adj_[static_cast<size_t>(e)].first;
  }
}

std::optional<LinkId> GraphTopology::forward(SwitchId at, int dst) const {
  if (routing_ != GraphRouting::kShortestPath || dst < 0 || dst >= hosts_count_) return std::nullopt;
  const auto it = std::lower_bound(switches_.begin(), switches_.end(), at);
  if (it == switches_.end() || *it != at) return std::nullopt;
  const int u = hosts_count_ + static_cast<int>(it - switches_.begin());
  const int32_t e = next_hop(-1, dst, u, dag_to(dst));
  if (e < 0) return std::nullopt;
  return adj_[static_cast<size_t>(e)].second;
}

}  // namespace simfab
