// Helpers shared by the TI replay tests: replay a trace given as text under LogGOPS with
// L = 10, o = 20, g = 30, G = 1 ps/B, O = 0, S = 65535 (rendezvous above), one rank per host.
#pragma once

#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"

#include "test_support.hpp"

namespace simfab::testing {

enum class TiHosts {
  kTeraflop,  // 1e12 flop/s: `compute N` lasts N ps
  kIdeal,     // Platform::ideal: compute is free
};

// Replays the trace (or list) at `path`.
inline ExecutionResult run_ti_file(const std::string& path, TiHosts kind = TiHosts::kTeraflop) {
  auto trace = open_ti_trace(path);
  const int n = ti_num_ranks(*trace);
  Platform platform = kind == TiHosts::kIdeal ? Platform::ideal(n) : Platform{};
  if (kind == TiHosts::kTeraflop)
    for (int i = 0; i < n; ++i) platform.add_host(Host{"h" + std::to_string(i), 1, 1e12, -1, -1});
  std::vector<HostId> hosts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hosts[static_cast<size_t>(i)] = i;
  Engine engine;
  LogGOPSNetwork net(engine, platform, params(10, 20, 30, 1, 0));
  OpPool ops;
  auto prog = make_ti_program(*trace, ops, platform, hosts);
  Executor ex(engine, net, ops, *prog, hosts);
  return ex.run();
}

inline ExecutionResult run_ti_text(const std::string& name, const std::string& text,
                                   TiHosts kind = TiHosts::kTeraflop) {
  return run_ti_file(write_test_file(name, text), kind);
}

// The InputError's message of replaying `text`, or "(no error)".
inline std::string ti_error_of(const std::string& name, const std::string& text, TiHosts kind = TiHosts::kTeraflop) {
  try {
    run_ti_text(name, text, kind);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace simfab::testing
