// gen_schedule: writes the benchmark inputs of bench/run.sh to standard output, fast enough that
// generating a million-rank trace costs seconds, not minutes (one big buffer, std::to_chars, one
// fwrite per 4 MiB; no iostream and no printf per line).
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
               "  gen_schedule grid N\n",
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
  } else {
    usage("unknown mode; valid: goal-dissemination, goal-stencil3d, ti-allreduce, ti-stencil3d, platform, grid");
  }
  o.flush();
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "gen_schedule: write error on standard output\n");
    return 1;
  }
  return 0;
}
