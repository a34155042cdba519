// Fuzz target: the GOAL parser and, when the input parses, a replay under LogGOPS (bounded size so
// one input stays fast). Any input must end in a result or an InputError: never a crash or hang.
// An input whose first byte is 0xB1 is the rest of a compiled schedule (replay/goal_binary.hpp)
// after its 16-byte magic, so the fuzzer need not find the magic to reach the binary reader.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "replay/goal_binary.hpp"
#include "replay/goal_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  std::string text(reinterpret_cast<const char*>(data), size);
  const bool compiled = size > 0 && data[0] == 0xB1;
  if (compiled) text = "SIMFAB-GOAL-BIN\n" + text.substr(1);
  try {
    GoalSchedule g = compiled ? read_compiled_goal(text, "fuzz.sgb") : parse_goal_text(text, "fuzz.goal");
    if (g.num_ranks > 4096 || g.op_count() > 100000) return 0;
    Platform platform = Platform::ideal(g.num_ranks);
    Engine engine;
    LogGOPSNetwork net(engine, platform, LogGOPSParams{});
    GoalProgram prog(g);
    std::vector<HostId> rank_host(static_cast<size_t>(g.num_ranks));
    for (int r = 0; r < g.num_ranks; ++r) rank_host[static_cast<size_t>(r)] = r;
    Executor ex(engine, net, g.ops, prog, rank_host);
    ex.run();
  } catch (const InputError&) {
  }
  return 0;
}
