#include "topo/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "topo/hash.hpp"

namespace simfab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Uniform draws from a splitmix64 stream (modulo bias < n / 2^64: negligible).
class SampleStream {
 public:
  explicit SampleStream(uint64_t seed) : state_(seed) {}
  uint64_t below(uint64_t n) {
    state_ += 0x9E3779B97F4A7C15ULL;
    return mix64(state_) % n;
  }

 private:
  uint64_t state_;
};

// Dinic's max flow over doubles (see the header). Arcs come in pairs: arc e and its residual
// twin e ^ 1.
class MaxFlow {
 public:
  int add_node() { return nodes_++; }
  // u -> v with capacity cap, and v -> u with back_cap (0: a directed arc; cap: an undirected edge).
  void add_arc(int u, int v, double cap, double back_cap = 0) {
    head_.push_back(v);
    res_.push_back(cap);
    head_.push_back(u);
    res_.push_back(back_cap);
  }

  double run(int s, int t) {
    build_csr();
    if (infinite_path(s, t)) return kInf;
    double largest = 0;
    for (double c : res_)
      if (c < kInf) largest = std::max(largest, c);
    eps_ = 1e-12 * largest;
    double total = 0;
    std::vector<int32_t> path;
    while (levels(s, t)) {
      std::copy(first_.begin(), first_.end() - 1, it_.begin());
      int u = s;
      path.clear();
      while (true) {
        if (u == t) {
          double f = kInf;
          for (int32_t e : path) f = std::min(f, res_[static_cast<size_t>(e)]);
          for (int32_t e : path) {
            res_[static_cast<size_t>(e)] -= f;
            res_[static_cast<size_t>(e ^ 1)] += f;
          }
          total += f;
          size_t k = 0;  // retreat to the tail of the first saturated arc
          while (k < path.size() && res_[static_cast<size_t>(path[k])] > eps_) ++k;
          path.resize(k);
          u = k == 0 ? s : head_[static_cast<size_t>(path[k - 1])];
          continue;
        }
        int32_t& i = it_[static_cast<size_t>(u)];
        const int32_t end = first_[static_cast<size_t>(u) + 1];
        for (; i < end; ++i) {
          const int32_t e = arcs_[static_cast<size_t>(i)];
          if (res_[static_cast<size_t>(e)] > eps_ && level_[static_cast<size_t>(head_[static_cast<size_t>(e)])] ==
                                                         level_[static_cast<size_t>(u)] + 1)
            break;
        }
        if (i < end) {
          const int32_t e = arcs_[static_cast<size_t>(i)];
          path.push_back(e);
          u = head_[static_cast<size_t>(e)];
          continue;
        }
        level_[static_cast<size_t>(u)] = -1;  // dead end for this phase
        if (path.empty()) break;
        const int32_t e = path.back();
        path.pop_back();
        u = head_[static_cast<size_t>(e ^ 1)];
        ++it_[static_cast<size_t>(u)];
      }
    }
    return total;
  }

 private:
  void build_csr() {
    first_.assign(static_cast<size_t>(nodes_) + 1, 0);
    for (size_t e = 0; e < head_.size(); ++e) ++first_[static_cast<size_t>(head_[e ^ 1]) + 1];
    for (size_t u = 0; u < static_cast<size_t>(nodes_); ++u) first_[u + 1] += first_[u];
    arcs_.resize(head_.size());
    std::vector<int32_t> fill(first_.begin(), first_.end() - 1);
    for (size_t e = 0; e < head_.size(); ++e)
      arcs_[static_cast<size_t>(fill[static_cast<size_t>(head_[e ^ 1])]++)] = static_cast<int32_t>(e);
    it_.resize(static_cast<size_t>(nodes_));
    level_.resize(static_cast<size_t>(nodes_));
    queue_.resize(static_cast<size_t>(nodes_));
  }

  // BFS over arcs with residual > eps from s; true when t is reached.
  bool levels(int s, int t) {
    return bfs(s, t, [&](int32_t e) { return res_[static_cast<size_t>(e)] > eps_; });
  }

  // True when an s-t path of infinite arcs exists (the max flow is then infinite).
  bool infinite_path(int s, int t) {
    return bfs(s, t, [&](int32_t e) { return res_[static_cast<size_t>(e)] == kInf; });
  }

  // BFS from s over the arcs `usable` accepts, numbering level_; true when t is reached.
  template <class Usable>
  bool bfs(int s, int t, Usable usable) {
    std::fill(level_.begin(), level_.end(), -1);
    size_t head = 0;
    size_t tail = 0;
    level_[static_cast<size_t>(s)] = 0;
    queue_[tail++] = s;
    while (head < tail) {
      const int32_t u = queue_[head++];
      for (int32_t i = first_[static_cast<size_t>(u)]; i < first_[static_cast<size_t>(u) + 1]; ++i) {
        const int32_t e = arcs_[static_cast<size_t>(i)];
        const int32_t v = head_[static_cast<size_t>(e)];
        if (usable(e) && level_[static_cast<size_t>(v)] < 0) {
          level_[static_cast<size_t>(v)] = level_[static_cast<size_t>(u)] + 1;
          queue_[tail++] = v;
        }
      }
    }
    return level_[static_cast<size_t>(t)] >= 0;
  }

  int nodes_ = 0;
  std::vector<int32_t> head_;  // per arc: its head; the tail is head_[e ^ 1]
  std::vector<double> res_;    // per arc: residual capacity
  std::vector<int32_t> first_, arcs_, it_, level_, queue_;
  double eps_ = 0;
};

// An aggregate capacity: a fatpipe bounds each flow only.
double capacity(const Link& l) { return l.sharing == LinkSharing::kFatpipe ? kInf : l.bandwidth_Bps; }

}  // namespace

RouteStats route_stats(const Platform& p, uint64_t max_pairs) {
  RouteStats st;
  const uint64_t hosts = static_cast<uint64_t>(p.host_count());
  const uint64_t all = hosts < 2 ? 0 : hosts * (hosts - 1);
  uint64_t hop_sum = 0;
  auto measure = [&](HostId a, HostId b) {
    ++st.pairs;
    const auto s = p.route_summary(a, b);
    if (!s) {
      ++st.unrouted;
      return;
    }
    hop_sum += static_cast<uint64_t>(s->hops);
    st.diameter = std::max(st.diameter, s->hops);
  };
  if (all <= max_pairs) {
    for (HostId b = 0; b < p.host_count(); ++b)
      for (HostId a = 0; a < p.host_count(); ++a)
        if (a != b) measure(a, b);
  } else {
    st.exact = false;
    SampleStream rng(0x51AB'FAB0'0D15'EA5EULL);
    const uint64_t batches = std::min<uint64_t>(hosts, static_cast<uint64_t>(std::ceil(std::sqrt(static_cast<double>(max_pairs)))));
    const uint64_t per_batch = batches == 0 ? 0 : (max_pairs + batches - 1) / batches;
    uint64_t left = max_pairs;
    for (uint64_t k = 0; k < batches && left > 0; ++k) {
      const HostId b = static_cast<HostId>(rng.below(hosts));
      const uint64_t n = std::min(per_batch, left);
      for (uint64_t j = 0; j < n; ++j) {
        HostId a = static_cast<HostId>(rng.below(hosts - 1));
        if (a >= b) ++a;
        measure(a, b);
      }
      left -= n;
    }
  }
  const uint64_t routed = st.pairs - st.unrouted;
  st.avg_hops = routed == 0 ? 0 : static_cast<double>(hop_sum) / static_cast<double>(routed);
  return st;
}

double bisection_bandwidth(const Platform& p) {
  const int hosts = p.host_count();
  if (hosts < 2) return 0;
  const int half = hosts / 2;
  const int switches = p.switch_count();
  const std::vector<Link>& links = p.links();
  const LinkId link_count = static_cast<LinkId>(links.size());

  // Node numbering: s, t, hosts, switches (their `in` copy), then split copies and gadgets.
  MaxFlow g;
  const int s = g.add_node();
  const int t = g.add_node();
  for (int i = 0; i < hosts + switches; ++i) g.add_node();
  auto base = [&](NodeId n) { return is_switch(n) ? 2 + hosts + switch_of(n) : 2 + n; };
  auto valid = [&](NodeId n) { return is_switch(n) ? switch_of(n) < switches : n >= 0 && n < hosts; };

  // Internal links with their own treatment: loopbacks (ignored) and cabinet limiters (gates).
  std::vector<uint8_t> special(static_cast<size_t>(link_count), 0);
  std::vector<int32_t> gate_of(static_cast<size_t>(link_count), -1);  // a cabinet's up/down -> gates[i]
  for (const Host& h : p.hosts())
    if (h.loopback >= 0) special[static_cast<size_t>(h.loopback)] = 1;
  struct Gate {
    NodeId cabinet_switch;
    int node;
    double cap;
  };
  std::vector<Gate> gates;
  for (const Cluster& c : p.clusters())
    for (const Cabinet& k : c.cabinets) {
      if (k.limiter < 0) continue;
      const Link& lim = links[static_cast<size_t>(k.limiter)];
      const Link& up = links[static_cast<size_t>(k.up)];
      const Link& down = links[static_cast<size_t>(k.down)];
      // Only the layout the route rule describes: limiter in the cabinet switch, which the up link
      // leaves and the down link enters. Anything else stays a plain node capacity.
      if (lim.from == kNoNode || lim.from != lim.to || !valid(lim.from) || up.from != lim.from || down.to != lim.from)
        continue;
      const int gate = g.add_node();
      special[static_cast<size_t>(k.limiter)] = 1;
      gate_of[static_cast<size_t>(k.up)] = static_cast<int32_t>(gates.size());
      gate_of[static_cast<size_t>(k.down)] = static_cast<int32_t>(gates.size());
      gates.push_back(Gate{lim.from, gate, capacity(lim)});
    }

  // Node capacities: the minimum of the remaining internal links.
  std::vector<double> node_cap(static_cast<size_t>(hosts + switches), kInf);
  for (LinkId l = 0; l < link_count; ++l) {
    const Link& k = links[static_cast<size_t>(l)];
    if (k.from == kNoNode || k.from != k.to || special[static_cast<size_t>(l)] || !valid(k.from)) continue;
    double& cap = node_cap[static_cast<size_t>(base(k.from) - 2)];
    cap = std::min(cap, capacity(k));
  }
  std::vector<int32_t> out_of(static_cast<size_t>(switches));
  for (SwitchId sw = 0; sw < switches; ++sw) {
    const int in = base(switch_node(sw));
    const double cap = node_cap[static_cast<size_t>(in - 2)];
    out_of[static_cast<size_t>(sw)] = in;
    if (cap < kInf) {
      out_of[static_cast<size_t>(sw)] = g.add_node();
      g.add_arc(in, out_of[static_cast<size_t>(sw)], cap);
    }
  }
  for (HostId h = 0; h < hosts; ++h) {
    const double cap = node_cap[static_cast<size_t>(h)];
    if (h < half) g.add_arc(s, base(h), cap);
    else g.add_arc(base(h), t, cap);
  }
  auto in_node = [&](int node) { return node; };  // hosts, gates and switch `in` copies
  auto out_node = [&](int node) {
    const int sw = node - 2 - hosts;
    return sw >= 0 && sw < switches ? out_of[static_cast<size_t>(sw)] : node;
  };
  // Source-side hosts only send, sink-side hosts only receive (hosts never forward).
  auto is_host = [&](int node) { return node - 2 < hosts; };
  auto may_send = [&](int node) { return !is_host(node) || node - 2 < half; };
  auto may_receive = [&](int node) { return !is_host(node) || node - 2 >= half; };

  // An undirected edge {u, v} of capacity cap (u, v: base nodes or gates).
  auto add_undirected = [&](int u, int v, double cap) {
    const bool uv = may_send(u) && may_receive(v);
    const bool vu = may_send(v) && may_receive(u);
    if (uv && vu) {
      if (in_node(u) == out_node(u) && in_node(v) == out_node(v)) {
        g.add_arc(u, v, cap, cap);
      } else {
        const int x = g.add_node();
        const int y = g.add_node();
        g.add_arc(out_node(u), x, kInf);
        g.add_arc(out_node(v), x, kInf);
        g.add_arc(x, y, cap);
        g.add_arc(y, in_node(u), kInf);
        g.add_arc(y, in_node(v), kInf);
      }
    } else if (uv) {
      g.add_arc(out_node(u), in_node(v), cap);
    } else if (vu) {
      g.add_arc(out_node(v), in_node(u), cap);
    }
  };
  for (const Gate& gate : gates) add_undirected(base(gate.cabinet_switch), gate.node, gate.cap);

  for (LinkId l = 0; l < link_count; ++l) {
    const Link& k = links[static_cast<size_t>(l)];
    if (k.from == kNoNode || k.to == kNoNode || k.from == k.to || !valid(k.from) || !valid(k.to)) continue;
    int u = base(k.from);
    int v = base(k.to);
    if (const int32_t gi = gate_of[static_cast<size_t>(l)]; gi >= 0) {
      // The cabinet's up link now leaves its gate, its down link enters it.
      const Gate& gate = gates[static_cast<size_t>(gi)];
      if (k.from == gate.cabinet_switch) u = gate.node;
      else v = gate.node;
    }
    const double cap = capacity(k);
    if (k.twin >= 0) {
      if (may_send(u) && may_receive(v)) g.add_arc(out_node(u), in_node(v), cap);
    } else {
      add_undirected(u, v, cap);
    }
  }
  return g.run(s, t);
}

}  // namespace simfab
