// Fuzz target: the TI trace reader and replay. The input is written to a private temporary file
// (TI traces are read through a memory map) and replayed on a 64-host cluster under LogGOPS.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/engine.hpp"
#include "cpu/host_cpus.hpp"
#include "cpu/host_power.hpp"
#include "energy/energy_meter.hpp"
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
    // Even hosts have two pstates, power, boot/shutdown costs and C-states (set_pstate, shared
    // cores, energy, host_off/host_on); every host is modelled dynamically and migrate points
    // balance every second time (load balancing); the meter counts waiting as idle (C-states).
    Platform platform;
    CpuProfile prof;
    prof.speeds = {1e9, 5e8};
    prof.power = {{10, 20, 30}, {5, 10, 15}};
    prof.power_off_w = 1;
    prof.boot = {0.5, 20};
    prof.shutdown = {0.25, 5};
    prof.cstates = {{"C1", 8, 2e-6}, {"C6", 4, 3e-4}};
    const int pi = platform.add_cpu_profile(prof);
    for (int i = 0; i < 64; ++i) {
      Host h{"h" + std::to_string(i), 1, 1e9, -1, -1};
      if (i % 2 == 0) h.cpu_profile = pi;
      platform.add_host(std::move(h));
    }
    auto trace = open_ti_trace(path);
    int n = ti_num_ranks(*trace);
    if (n > 64) return 0;
    std::vector<HostId> rank_host(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) rank_host[static_cast<size_t>(r)] = r;
    Engine engine;
    LogGOPSNetwork net(engine, platform, LogGOPSParams{});
    OpPool ops;
    auto prog = make_ti_program(*trace, ops, platform, rank_host, {}, energy::LbOptions{true, 2, 1024});
    Executor ex(engine, net, ops, *prog, rank_host);
    std::vector<int> per_host(64, 0);
    for (HostId h : rank_host) ++per_host[static_cast<size_t>(h)];
    cpu::HostCpus cpus(engine, platform, per_host, true);
    energy::EnergyMeter meter(platform, cpus, ex.rank_hosts(), energy::MiddleValue::kOneCore, false,
                              energy::CStateIdle(energy::CStateRule::kMenu, 2, 64));
    cpus.add_observer(&meter);
    ex.set_cpus(&cpus);
    cpu::HostPower power(platform);
    ex.set_host_power(&power);
    meter.set_host_power(&power);
    const ExecutionResult res = ex.run();
    meter.finish(res.makespan, res.finish, NetworkStats{});
  } catch (const InputError&) {
  }
  return 0;
}
