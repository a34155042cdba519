// Helpers shared by unit tests: run a GOAL schedule given as text under LogGOPS, and generate the
// standard schedules of the seed-004 acceptance tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/goal_program.hpp"
#include "replay/goal_schedule.hpp"

namespace simfab::testing {

// Writes `content` to a fresh file private to the running test and returns its path.
// Expects `parse()` to throw an InputError at `line` whose message contains `words`.
template <typename Parse>
void expect_input_error_at(const Parse& parse, int line, const std::string& words, const std::string& input) {
  try {
    parse();
    ADD_FAILURE() << "no error for: " << input;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, line) << e.message();
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
  }
}

inline std::string write_test_file(const std::string& name, const std::string& content) {
  namespace fs = std::filesystem;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("simfab_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                  std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p) << content;
  return p.string();
}

inline LogGOPSParams params(int64_t L, int64_t o, int64_t g, double G, double O, Bytes S = 65535) {
  return LogGOPSParams{SimTime::ps(L), SimTime::ps(o), SimTime::ps(g), G, O, S};
}

// A GOAL text under LogGOPS on ideal hosts; `noise` (optional) stretches every CPU interval.
inline ExecutionResult run_goal(const std::string& text, const LogGOPSParams& p, noise::NoiseModel* noise = nullptr) {
  GoalSchedule g = parse_goal_text(text, "test.goal");
  Platform platform = Platform::ideal(g.num_ranks);
  Engine engine;
  LogGOPSNetwork net(engine, platform, p);
  GoalProgram prog(g);
  std::vector<HostId> rank_host(static_cast<size_t>(g.num_ranks));
  for (int r = 0; r < g.num_ranks; ++r) rank_host[static_cast<size_t>(r)] = r;
  Executor ex(engine, net, g.ops, prog, rank_host);
  ex.set_noise(noise);
  return ex.run();
}

// Schedgen's dissemination (seed 004 §2.5): round k sends to r+2^k, receives from r-2^k;
// send_{k+1} requires recv_k.
inline std::string dissemination_goal(int ranks, Bytes size) {
  std::string s = "num_ranks " + std::to_string(ranks) + "\n";
  for (int r = 0; r < ranks; ++r) {
    s += "rank " + std::to_string(r) + " {\n";
    int k = 0;
    for (int dist = 1; dist < ranks; dist *= 2, ++k) {
      s += "s" + std::to_string(k) + ": send " + std::to_string(size) + "b to " + std::to_string((r + dist) % ranks) + " tag 0\n";
      s += "r" + std::to_string(k) + ": recv " + std::to_string(size) + "b from " + std::to_string((r - dist + ranks) % ranks) + " tag 0\n";
      if (k > 0) s += "s" + std::to_string(k) + " requires r" + std::to_string(k - 1) + "\n";
    }
    s += "}\n";
  }
  return s;
}

}  // namespace simfab::testing
