// goal_read_bench: how fast simfab reads a GOAL schedule, as text (issue 29: >= 1 GB/s per core is
// the target) or compiled (`simfab goal --compile`; the form is recognised by its first bytes).
//
//   goal_read_bench FILE.goal [REPEATS]      (default 1 repeat; the best one is printed)
//
// Reads the file with load_goal_file (mapped, as `simfab run --goal` does) and prints one line:
//   file  form  bytes  ranks  ops  edges  seconds  MB/s  peak-RSS-MiB
// The first repeat also pays the page cache; the best of several shows the parser alone.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "replay/goal_binary.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: goal_read_bench FILE.goal [REPEATS]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  const auto bytes = std::filesystem::file_size(argv[1]);
  double best = 1e300;
  size_t ops = 0, edges = 0;
  int ranks = 0;
  bool compiled = false;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      simfab::GoalSchedule g = simfab::load_goal_file(argv[1], compiled);
      ops = g.op_count();
      edges = g.succ.size();
      ranks = g.num_ranks;
    } catch (const simfab::InputError& e) {
      std::fprintf(stderr, "%s\n", simfab::format_error(e).c_str());
      return 2;
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("%s %s %llu %d %zu %zu %.3f %.0f %.1f\n", argv[1], compiled ? "compiled" : "text", static_cast<unsigned long long>(bytes), ranks, ops, edges,
              best, static_cast<double>(bytes) / best / 1e6, static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}
