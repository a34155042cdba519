// gen_schedule: writes the benchmark inputs of bench/run.sh and bench/flow_bench.sh to standard
// output, fast enough that generating a million-rank trace costs seconds, not minutes (one big
// buffer, std::to_chars, one fwrite per 4 MiB; no iostream and no printf per line).
//
//   gen_schedule goal-dissemination N BYTES
//       GOAL: Schedgen's dissemination allreduce. Rounds k = 0, 1, ... while 2^k < N: rank r sends
//       BYTES to (r + 2^k) mod N and receives from (r - 2^k) mod N, tag 0; send k requires recv k-1.
//   gen_schedule goal-stencil3d N ITERS BYTES CALC_PS
//       GOAL: 3-D periodic halo exchange on the most cubic px*py*pz = N grid. Per iteration i:
//       c<i> (calc CALC_PS), 6 sends s<i>_<d> that require c<i>, 6 recvs r<i>_<d> that irequire
//       c<i> (posted as the calc starts, like an Irecv issued before the compute of the TI
//       version, so halos rarely land in the unexpected queue), and c<i+1> requires all 12.
//   gen_schedule ti-allreduce N BYTES ITERS
//       SimGrid TI, grouped by rank: init, ITERS x (compute 1e6, allreduce BYTES 0 6), finalize.
//       (allreduce <count> <comp_flops> <dtype>; dtype 6 = MPI_BYTE, so count = BYTES.)
//   gen_schedule ti-stencil3d N ITERS BYTES FLOPS
//       SimGrid TI, grouped by rank: init, ITERS x (compute FLOPS, 6 irecv, 6 isend, waitall),
//       finalize. Same grid and tags as goal-stencil3d.
//   gen_schedule platform N
//       simfab YAML platform: one cluster of N hosts (10Gf, 1 core, 100Gbps/1us links, a
//       10Tbps/500ns backbone), the same as bench/peer_simgrid.sh gives SimGrid.
//   gen_schedule grid N
//       prints "px py pz", the grid the stencil modes use (for the report).
//   gen_schedule ti-alltoall N BYTES
//       SimGrid TI, grouped by rank: init, then for k = 1..N-1: irecv from (r-k) mod N and isend
//       to (r+k) mod N of BYTES (tag 0), then one waitall, finalize. An all-to-all written as
//       explicit point-to-point, so every simulator replays the same N(N-1) messages.
//   gen_schedule ti-random-flows N FLOWS BYTES SEED
//       SimGrid TI, grouped by rank: FLOWS concurrent flows of BYTES between random distinct ranks.
//       A seeded shuffle (splitmix64, Fisher-Yates) of 0..N-1 gives senders s_i = perm[2i] and
//       receivers d_i = perm[2i+1] (so 2 FLOWS <= N and no rank is in two flows). Sender: init,
//       isend d_i 0 BYTES, waitall, finalize; receiver: init, irecv s_i 0 BYTES, waitall,
//       finalize; the other ranks: init, finalize. The same SEED gives the same file everywhere.
//   gen_schedule platform-xml N
//       the SimGrid 3.32 XML twin of `platform N`: bench/peer_simgrid.sh's cluster with
//       sharing_policy="SHARED" written out, since SimGrid's <cluster> defaults to SPLITDUPLEX
//       private links and simfab's cluster link is one link shared by both directions.
//   gen_schedule platform-2level N PER_SWITCH
//       simfab YAML platform, 2-level fat-tree-like: N hosts (10Gf, 1 core) in N/PER_SWITCH
//       cabinets (leaf switches) of PER_SWITCH consecutive hosts. Each host has a split-duplex
//       10Gbps/1us private link to its leaf, each leaf one split-duplex 40Gbps/500ns uplink, and
//       the leaves meet on one shared 1Tbps/500ns backbone. Route between hosts of different
//       cabinets: up(a), cabinet_up(A), backbone, cabinet_down(B), down(b); within a cabinet:
//       up(a), down(b). N must be a multiple of PER_SWITCH.
//   gen_schedule platform-2level-xml N PER_SWITCH
//       the SimGrid 3.32 XML twin of `platform-2level`: a Full-routed zone holding one backbone-less
//       <cluster> per leaf (SPLITDUPLEX private links, its router as gateway), one SPLITDUPLEX
//       <link> per leaf uplink and a SHARED backbone <link>, and one <zoneRoute> per ordered pair
//       of leaves: [uplink(A) UP, backbone, uplink(B) DOWN]. SimGrid's route host a -> host b is
//       then priv(a)_UP, uplink(A)_UP, backbone, uplink(B)_DOWN, priv(b)_DOWN, the simfab route.
//   gen_schedule hostfile N
//       node0 .. node<N-1>, one a line (smpirun -hostfile: rank r on node r).
//
// Directions: d = 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z. A send in direction d goes to the neighbour
// in direction d with tag d; it is matched by that neighbour's receive tagged d, posted from its
// neighbour in direction d^1 (the opposite one).
// Exit status: 0 success, 2 bad arguments, 1 write error.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Appends text to a 4 MiB buffer and writes it out with fwrite when it fills up.
class Out {
 public:
  Out() : buf_(static_cast<char*>(std::malloc(kSize))) {
    if (!buf_) fail("out of memory");
  }
  ~Out() { std::free(buf_); }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  Out& operator<<(std::string_view s) {
    if (len_ + s.size() > kSize) flush();
    if (s.size() > kSize) {
      write(s.data(), s.size());
      return *this;
    }
    std::memcpy(buf_ + len_, s.data(), s.size());
    len_ += s.size();
    return *this;
  }
  Out& operator<<(char c) {
    if (len_ + 1 > kSize) flush();
    buf_[len_++] = c;
    return *this;
  }
  Out& operator<<(uint64_t v) {
    if (len_ + 24 > kSize) flush();
    len_ = static_cast<size_t>(std::to_chars(buf_ + len_, buf_ + kSize, v).ptr - buf_);
    return *this;
  }
  Out& operator<<(int64_t v) {
    if (len_ + 24 > kSize) flush();
    len_ = static_cast<size_t>(std::to_chars(buf_ + len_, buf_ + kSize, v).ptr - buf_);
    return *this;
  }
  Out& operator<<(int v) { return *this << static_cast<int64_t>(v); }
  void flush() {
    write(buf_, len_);
    len_ = 0;
  }

 private:
  static constexpr size_t kSize = size_t{4} << 20;
  [[noreturn]] static void fail(const char* what) {
    std::fprintf(stderr, "gen_schedule: %s\n", what);
    std::exit(1);
  }
  static void write(const char* p, size_t n) {
    if (n && std::fwrite(p, 1, n, stdout) != n) fail("write error on standard output");
  }
  char* buf_;
  size_t len_ = 0;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "gen_schedule: %s\nusage:\n"
               "  gen_schedule goal-dissemination N BYTES\n"
               "  gen_schedule goal-stencil3d N ITERS BYTES CALC_PS\n"
               "  gen_schedule ti-allreduce N BYTES ITERS\n"
               "  gen_schedule ti-stencil3d N ITERS BYTES FLOPS\n"
               "  gen_schedule platform N\n"
               "  gen_schedule grid N\n"
               "  gen_schedule ti-alltoall N BYTES\n"
               "  gen_schedule ti-random-flows N FLOWS BYTES SEED\n"
               "  gen_schedule platform-xml N\n"
               "  gen_schedule platform-2level N PER_SWITCH\n"
               "  gen_schedule platform-2level-xml N PER_SWITCH\n"
               "  gen_schedule hostfile N\n",
               why);
  std::exit(2);
}

int64_t parse_int(const char* s, int64_t lo, int64_t hi, const char* what) {
  int64_t v = 0;
  const char* end = s + std::strlen(s);
  auto [p, ec] = std::from_chars(s, end, v);
  if (ec != std::errc() || p != end || v < lo || v > hi) {
    static char msg[256];
    std::snprintf(msg, sizeof msg, "%s must be an integer in [%lld, %lld], got '%s'", what,
                  static_cast<long long>(lo), static_cast<long long>(hi), s);
    usage(msg);
  }
  return v;
}

// A flop count is copied verbatim into the trace once it is known to be a non-negative number.
std::string_view parse_flops(const char* s) {
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || !(v >= 0) || !std::isfinite(v)) usage("FLOPS must be a non-negative number");
  return s;
}

// The most cubic px <= py <= pz with px*py*pz = n: the one with the least surface px*py+py*pz+pz*px.
struct Grid {
  int64_t px = 1, py = 1, pz = 1;
  int64_t rank(int64_t x, int64_t y, int64_t z) const { return x + px * (y + py * z); }
  // Neighbour of r in direction d (periodic).
  int64_t neighbour(int64_t r, int d) const {
    int64_t x = r % px, y = (r / px) % py, z = r / (px * py);
    const int64_t step = (d & 1) ? -1 : 1;
    switch (d >> 1) {
      case 0: x = (x + step + px) % px; break;
      case 1: y = (y + step + py) % py; break;
      default: z = (z + step + pz) % pz; break;
    }
    return rank(x, y, z);
  }
};

Grid cubic_grid(int64_t n) {
  Grid best{1, 1, n};
  int64_t best_surface = INT64_MAX;
  for (int64_t a = 1; a * a * a <= n; ++a) {
    if (n % a) continue;
    const int64_t m = n / a;
    for (int64_t b = a; b * b <= m; ++b) {
      if (m % b) continue;
      const int64_t c = m / b;
      const int64_t surface = a * b + b * c + c * a;
      if (surface < best_surface) {
        best_surface = surface;
        best = Grid{a, b, c};
      }
    }
  }
  return best;
}

constexpr int64_t kMaxRanks = int64_t{1} << 30;

void goal_dissemination(Out& o, int64_t n, uint64_t bytes) {
  o << "// dissemination allreduce (Schedgen), " << n << " ranks, " << bytes << " B per message\n";
  o << "num_ranks " << n << '\n';
  for (int64_t r = 0; r < n; ++r) {
    o << "rank " << r << " {\n";
    int k = 0;
    for (int64_t dist = 1; dist < n; dist *= 2, ++k) {
      o << 's' << k << ": send " << bytes << "b to " << (r + dist) % n << " tag 0\n";
      o << 'r' << k << ": recv " << bytes << "b from " << (r - dist % n + n) % n << " tag 0\n";
      if (k > 0) o << 's' << k << " requires r" << (k - 1) << '\n';
    }
    o << "}\n";
  }
}

void goal_stencil3d(Out& o, int64_t n, int64_t iters, uint64_t bytes, uint64_t calc_ps) {
  const Grid g = cubic_grid(n);
  o << "// 3-D periodic halo exchange on a " << g.px << 'x' << g.py << 'x' << g.pz << " grid, " << iters
    << " iterations, " << bytes << " B halos, calc " << calc_ps << " ps\n";
  o << "num_ranks " << n << '\n';
  std::array<int64_t, 6> nb{};
  for (int64_t r = 0; r < n; ++r) {
    for (int d = 0; d < 6; ++d) nb[static_cast<size_t>(d)] = g.neighbour(r, d);
    o << "rank " << r << " {\n";
    for (int64_t i = 0; i < iters; ++i) {
      o << 'c' << i << ": calc " << calc_ps << '\n';
      if (i > 0)
        for (int d = 0; d < 6; ++d) {
          o << 'c' << i << " requires s" << (i - 1) << '_' << d << '\n';
          o << 'c' << i << " requires r" << (i - 1) << '_' << d << '\n';
        }
      for (int d = 0; d < 6; ++d) {
        o << 'r' << i << '_' << d << ": recv " << bytes << "b from " << nb[static_cast<size_t>(d ^ 1)]
          << " tag " << d << '\n';
        o << 'r' << i << '_' << d << " irequires c" << i << '\n';
      }
      for (int d = 0; d < 6; ++d) {
        o << 's' << i << '_' << d << ": send " << bytes << "b to " << nb[static_cast<size_t>(d)] << " tag "
          << d << '\n';
        o << 's' << i << '_' << d << " requires c" << i << '\n';
      }
    }
    o << "}\n";
  }
}

void ti_allreduce(Out& o, int64_t n, uint64_t bytes, int64_t iters) {
  for (int64_t r = 0; r < n; ++r) {
    o << r << " init\n";
    for (int64_t i = 0; i < iters; ++i) {
      o << r << " compute 1e6\n";
      o << r << " allreduce " << bytes << " 0 6\n";
    }
    o << r << " finalize\n";
  }
}

void ti_stencil3d(Out& o, int64_t n, int64_t iters, uint64_t bytes, std::string_view flops) {
  const Grid g = cubic_grid(n);
  std::array<int64_t, 6> nb{};
  for (int64_t r = 0; r < n; ++r) {
    for (int d = 0; d < 6; ++d) nb[static_cast<size_t>(d)] = g.neighbour(r, d);
    o << r << " init\n";
    for (int64_t i = 0; i < iters; ++i) {
      o << r << " compute " << flops << '\n';
      for (int d = 0; d < 6; ++d)
        o << r << " irecv " << nb[static_cast<size_t>(d ^ 1)] << ' ' << d << ' ' << bytes << '\n';
      for (int d = 0; d < 6; ++d) o << r << " isend " << nb[static_cast<size_t>(d)] << ' ' << d << ' ' << bytes << '\n';
      o << r << " waitall\n";
    }
    o << r << " finalize\n";
  }
}

void platform(Out& o, int64_t n) {
  o << "# bench platform: one cluster of " << n << " single-core hosts behind one backbone\n"
    << "clusters:\n"
       "  - name: c\n"
       "    prefix: node\n"
       "    count: "
    << n
    << "\n"
       "    speed: 10Gf\n"
       "    cores: 1\n"
       "    bandwidth: 100Gbps\n"
       "    latency: 1us\n"
       "    backbone: {bandwidth: 10Tbps, latency: 500ns}\n";
}

void ti_alltoall(Out& o, int64_t n, uint64_t bytes) {
  for (int64_t r = 0; r < n; ++r) {
    o << r << " init\n";
    for (int64_t k = 1; k < n; ++k) {
      o << r << " irecv " << (r - k + n) % n << " 0 " << bytes << '\n';
      o << r << " isend " << (r + k) % n << " 0 " << bytes << '\n';
    }
    o << r << " waitall\n";
    o << r << " finalize\n";
  }
}

// splitmix64: a tiny, fully specified PRNG, so a seed means the same flows on every machine.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void ti_random_flows(Out& o, int64_t n, int64_t flows, uint64_t bytes, uint64_t seed) {
  if (2 * flows > n) usage("ti-random-flows needs 2 * FLOWS <= N (every rank is in at most one flow)");
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  uint64_t state = seed;
  for (int64_t i = n - 1; i > 0; --i) {  // Fisher-Yates; the modulo bias is irrelevant here
    const auto j = static_cast<int64_t>(splitmix64(state) % static_cast<uint64_t>(i + 1));
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  }
  // peer[r] = the other end of r's flow, or -1; send[r] = whether r sends.
  std::vector<int64_t> peer(static_cast<size_t>(n), -1);
  std::vector<char> sends(static_cast<size_t>(n), 0);
  for (int64_t f = 0; f < flows; ++f) {
    const int64_t s = perm[static_cast<size_t>(2 * f)], d = perm[static_cast<size_t>(2 * f + 1)];
    peer[static_cast<size_t>(s)] = d;
    peer[static_cast<size_t>(d)] = s;
    sends[static_cast<size_t>(s)] = 1;
  }
  for (int64_t r = 0; r < n; ++r) {
    o << r << " init\n";
    const int64_t p = peer[static_cast<size_t>(r)];
    if (p >= 0) {
      o << r << (sends[static_cast<size_t>(r)] ? " isend " : " irecv ") << p << " 0 " << bytes << '\n';
      o << r << " waitall\n";
    }
    o << r << " finalize\n";
  }
}

// The SimGrid XML twin of platform(): SHARED private links like simfab's (SimGrid's default would
// be SPLITDUPLEX), a SHARED backbone (SimGrid's default bb_sharing_policy).
void platform_xml(Out& o, int64_t n) {
  o << "<?xml version='1.0'?>\n"
       "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
       "<platform version=\"4.1\">\n"
       "  <!-- the same cluster as 'gen_schedule platform "
    << n
    << "' gives simfab -->\n"
       "  <cluster id=\"c\" prefix=\"node\" suffix=\"\" radical=\"0-"
    << (n - 1)
    << "\" speed=\"10Gf\" core=\"1\"\n"
       "           bw=\"100Gbps\" lat=\"1us\" bb_bw=\"10Tbps\" bb_lat=\"500ns\"\n"
       "           sharing_policy=\"SHARED\" bb_sharing_policy=\"SHARED\"/>\n"
       "</platform>\n";
}

// Parameters of the 2-level platform (both formats).
constexpr std::string_view k2lHostBw = "10Gbps", k2lHostLat = "1us";
constexpr std::string_view k2lCabBw = "40Gbps", k2lCabLat = "500ns";
constexpr std::string_view k2lBbBw = "1Tbps", k2lBbLat = "500ns";

int64_t cabinets_of(int64_t n, int64_t per_switch) {
  if (n % per_switch != 0) usage("N must be a multiple of PER_SWITCH");
  return n / per_switch;
}

void platform_2level(Out& o, int64_t n, int64_t per_switch) {
  const int64_t cabs = cabinets_of(n, per_switch);
  o << "# bench platform: " << n << " hosts, 2-level fat-tree-like: " << cabs << " leaf switches of "
    << per_switch << " hosts, one uplink each, one backbone\n"
    << "clusters:\n"
       "  - name: c\n"
       "    prefix: node\n"
       "    count: "
    << n
    << "\n"
       "    speed: 10Gf\n"
       "    cores: 1\n"
       "    bandwidth: "
    << k2lHostBw << "\n    latency: " << k2lHostLat
    << "\n"
       "    sharing: splitduplex\n"
       "    cabinets: {count: "
    << cabs << ", bandwidth: " << k2lCabBw << ", latency: " << k2lCabLat << "}\n"
    << "    backbone: {bandwidth: " << k2lBbBw << ", latency: " << k2lBbLat << "}\n";
}

void platform_2level_xml(Out& o, int64_t n, int64_t per_switch) {
  const int64_t cabs = cabinets_of(n, per_switch);
  o << "<?xml version='1.0'?>\n"
       "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
       "<platform version=\"4.1\">\n"
       "  <!-- the same platform as 'gen_schedule platform-2level "
    << n << ' ' << per_switch
    << "' gives simfab -->\n"
       "  <zone id=\"world\" routing=\"Full\">\n";
  for (int64_t c = 0; c < cabs; ++c)
    o << "    <cluster id=\"cab" << c << "\" prefix=\"node\" suffix=\"\" radical=\"" << c * per_switch << '-'
      << (c + 1) * per_switch - 1 << "\" speed=\"10Gf\" core=\"1\" bw=\"" << k2lHostBw << "\" lat=\""
      << k2lHostLat << "\" sharing_policy=\"SPLITDUPLEX\" router_id=\"cab" << c << "_router\"/>\n";
  for (int64_t c = 0; c < cabs; ++c)
    o << "    <link id=\"cab" << c << "_uplink\" bandwidth=\"" << k2lCabBw << "\" latency=\"" << k2lCabLat
      << "\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  o << "    <link id=\"backbone\" bandwidth=\"" << k2lBbBw << "\" latency=\"" << k2lBbLat
    << "\" sharing_policy=\"SHARED\"/>\n";
  for (int64_t a = 0; a < cabs; ++a)
    for (int64_t b = 0; b < cabs; ++b) {
      if (a == b) continue;
      o << "    <zoneRoute src=\"cab" << a << "\" dst=\"cab" << b << "\" gw_src=\"cab" << a
        << "_router\" gw_dst=\"cab" << b << "_router\" symmetrical=\"NO\"><link_ctn id=\"cab" << a
        << "_uplink\" direction=\"UP\"/><link_ctn id=\"backbone\"/><link_ctn id=\"cab" << b
        << "_uplink\" direction=\"DOWN\"/></zoneRoute>\n";
    }
  o << "  </zone>\n</platform>\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage("missing arguments");
  const std::string_view mode = argv[1];
  auto want = [&](int count) {
    if (argc != count + 2) usage("wrong number of arguments for this mode");
  };
  const int64_t n = parse_int(argv[2], 1, kMaxRanks, "N");
  Out o;
  if (mode == "goal-dissemination") {
    want(2);
    goal_dissemination(o, n, static_cast<uint64_t>(parse_int(argv[3], 0, INT64_MAX, "BYTES")));
  } else if (mode == "goal-stencil3d") {
    want(4);
    goal_stencil3d(o, n, parse_int(argv[3], 1, INT32_MAX, "ITERS"),
                   static_cast<uint64_t>(parse_int(argv[4], 0, INT64_MAX, "BYTES")),
                   static_cast<uint64_t>(parse_int(argv[5], 0, INT64_MAX, "CALC_PS")));
  } else if (mode == "ti-allreduce") {
    want(3);
    ti_allreduce(o, n, static_cast<uint64_t>(parse_int(argv[3], 1, INT64_MAX, "BYTES")),
                 parse_int(argv[4], 0, INT32_MAX, "ITERS"));
  } else if (mode == "ti-stencil3d") {
    want(4);
    ti_stencil3d(o, n, parse_int(argv[3], 1, INT32_MAX, "ITERS"),
                 static_cast<uint64_t>(parse_int(argv[4], 0, INT64_MAX, "BYTES")), parse_flops(argv[5]));
  } else if (mode == "platform") {
    want(1);
    platform(o, n);
  } else if (mode == "grid") {
    want(1);
    const Grid g = cubic_grid(n);
    o << g.px << ' ' << g.py << ' ' << g.pz << '\n';
  } else if (mode == "ti-alltoall") {
    want(2);
    ti_alltoall(o, n, static_cast<uint64_t>(parse_int(argv[3], 0, INT64_MAX, "BYTES")));
  } else if (mode == "ti-random-flows") {
    want(4);
    ti_random_flows(o, n, parse_int(argv[3], 0, n, "FLOWS"),
                    static_cast<uint64_t>(parse_int(argv[4], 0, INT64_MAX, "BYTES")),
                    static_cast<uint64_t>(parse_int(argv[5], 0, INT64_MAX, "SEED")));
  } else if (mode == "platform-xml") {
    want(1);
    platform_xml(o, n);
  } else if (mode == "platform-2level") {
    want(2);
    platform_2level(o, n, parse_int(argv[3], 1, n, "PER_SWITCH"));
  } else if (mode == "platform-2level-xml") {
    want(2);
    platform_2level_xml(o, n, parse_int(argv[3], 1, n, "PER_SWITCH"));
  } else if (mode == "hostfile") {
    want(1);
    for (int64_t r = 0; r < n; ++r) o << "node" << r << '\n';
  } else {
    usage("unknown mode; valid: goal-dissemination, goal-stencil3d, ti-allreduce, ti-stencil3d, platform, grid, "
          "ti-alltoall, ti-random-flows, platform-xml, platform-2level, platform-2level-xml, hostfile");
  }
  o.flush();
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "gen_schedule: write error on standard output\n");
    return 1;
  }
  return 0;
}
