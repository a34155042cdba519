// Fuzz target: the TI trace reader and replay. The input is written to a private temporary file
// (TI traces are read through a memory map) and replayed on a 64-host cluster under LogGOPS.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "replay/ti_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/simfab-fuzz-ti-" + std::to_string(::getpid()) + ".ti";
  }();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  try {
    Platform platform;
    for (int i = 0; i < 64; ++i) platform.add_host(Host{"h" + std::to_string(i), 1, 1e9, -1, -1});
    auto trace = open_ti_trace(path);
    int n = ti_num_ranks(*trace);
    if (n > 64) return 0;
    std::vector<HostId> rank_host(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) rank_host[static_cast<size_t>(r)] = r;
    Engine engine;
    LogGOPSNetwork net(engine, platform, LogGOPSParams{});
    OpPool ops;
    auto prog = make_ti_program(*trace, ops, platform, rank_host);
    Executor ex(engine, net, ops, *prog, rank_host);
    ex.run();
  } catch (const InputError&) {
  }
  return 0;
}
