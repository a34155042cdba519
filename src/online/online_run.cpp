#include "online/online_run.hpp"

#include <malloc.h>

#include <limits>

#include <chrono>
#include <memory>

#include "core/units.hpp"
#include "mpi/coll/registry.hpp"
#include "online/crash_guard.hpp"
#include "online/memory_maps.hpp"
#include "online/mpi_io.hpp"
#include "online/online_program.hpp"
#include "online/program_image.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab::online {

void register_online_keys(Config& cfg) {
  cfg.declare({"online/compute", CfgType::kChoice, "measured",
               "simfab exec: measured charges the CPU time each rank spends between MPI calls (thread CPU "
               "clock, scaled by cpu/reference-speed); declared charges only simfab_compute / smpi_execute "
               "(reproducible runs)",
               {"measured", "declared"}});
  cfg.declare({"cpu/reference-speed", CfgType::kText, "0",
               "simfab exec: flop/s of this machine's core (e.g. 2Gf); measured time t then costs t * speed / "
               "the simulated host's speed; 0: t as measured", {}});
  cfg.declare({"online/stack-size", CfgType::kBytes, "256KiB",
               "simfab exec: each rank's stack (a guard region below it, or a canary when there are too many "
               "ranks for one memory mapping each)",
               {}});
  cfg.declare({"online/loader", CfgType::kChoice, "auto",
               "simfab exec: how each rank gets its private copy of the program. simfab: simfab's own loader "
               "(copies share the program's pages and few memory mappings; 65,536 ranks fit); dlopen: the "
               "system's dynamic linker, one file per copy (debuggers see the copies; ~9,000 ranks at most); "
               "auto: simfab, or dlopen when the program needs what simfab's loader lacks (thread-local "
               "storage, text relocations, not x86-64)",
               {"auto", "simfab", "dlopen"}});
  cfg.declare({"online/cpu-threshold", CfgType::kTime, "1us",
               "simfab exec, measured mode: computation bursts shorter than this (this machine's CPU time, "
               "before scaling) are not charged, as SMPI's smpi/cpu-threshold: they are mostly the MPI "
               "library's own work around a call",
               {}});
  cfg.declare({"online/poll-cost", CfgType::kTime, "100ns",
               "simfab exec: simulated time an MPI_Test* or MPI_Iprobe that finds nothing costs", {}});
  cfg.declare({"io/latency", CfgType::kTime, "50us",
               "simfab exec, MPI-IO: the simulated time every file read or write (and open, close, sync) "
               "costs on top of its bytes",
               {}});
  cfg.declare({"io/read-bandwidth", CfgType::kPerByte, "8Gbps",
               "simfab exec, MPI-IO: the rate at which a rank reads a file (each read: io/latency + bytes / "
               "this; no contention); a host's <disk read_bw> in the platform replaces it unless it is given",
               {}});
  cfg.declare({"io/write-bandwidth", CfgType::kPerByte, "8Gbps",
               "simfab exec, MPI-IO: the rate at which a rank writes a file; a host's <disk write_bw> replaces it "
               "unless it is given",
               {}});
  cfg.declare({"smpi/test", CfgType::kTime, "100us",
               "simfab exec under network/model=smpi: SMPI's time injected before each MPI_Test / MPI_Testany "
               "poll (SimGrid's smpi/test), times the polls failed since the last success",
               {}});
  cfg.declare({"smpi/iprobe", CfgType::kTime, "100us",
               "simfab exec under network/model=smpi: SMPI's computation before each MPI_Iprobe (and each poll "
               "of MPI_Probe), as smpi/test",
               {}});
  cfg.declare({"smpi/grow-injected-times", CfgType::kBool, "yes",
               "simfab exec under network/model=smpi: each failed poll makes the next one cost one more "
               "smpi/test or smpi/iprobe (SimGrid's default)",
               {}});
  cfg.declare({"online/virtual-clocks", CfgType::kChoice, "yes",
               "simfab exec: yes makes gettimeofday, clock_gettime, time, clock and C++'s steady_clock / "
               "system_clock read the rank's simulated time, and sleep, usleep, nanosleep advance it (programs "
               "built with simfab-cc/-cxx); no leaves them to the host",
               {"yes", "no"}});
}

Platform default_cluster(int n) {
  const std::string yaml = "clusters:\n  - {name: default, prefix: node-, count: " + std::to_string(n) +
                           ", speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n";
  return parse_platform_yaml(yaml, "<default cluster>");
}

double reference_speed(const Config& cfg) {
  const std::string& speed = cfg.text("cpu/reference-speed");
  if (speed == "0") return 0;
  const auto s = units::parse_speed(speed);
  if (!s || !(*s > 0))
    throw InputError(SourceLoc{"cpu/reference-speed", 0, 0},
                     "expected a speed such as 2Gf (flop/s), or 0; got '" + speed + "'");
  return *s;
}

// The ranks share the C library's heap, so their allocations interleave in it: the default
// thresholds would hand the space one rank frees back to the kernel (trim) or serve large blocks
// with fresh mappings, and the next rank's allocation would page-fault it back in, system time
// charged to that rank as computation. Keeping freed pages (as each rank's own heap would, in a
// separate process) halves the page faults of bench/memory_churn.c on 8 ranks.
namespace {
void keep_heap_pages() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);           // glibc's largest: blocks up to 32 MiB from the heap
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());  // never give the heap's top back
}
}  // namespace

RunResult run_online(const SimulationInput& in, Config& cfg, const RunHooks& hooks) {
  const auto t0 = std::chrono::steady_clock::now();
  if (in.num_ranks < 1)
    throw InputError(SourceLoc{"command line", 0, 0}, "-np must be at least 1, got " + std::to_string(in.num_ranks));
  RunResult out;
  Platform platform = load_run_platform(in, cfg);
  if (in.platform_path.empty()) platform = default_cluster(in.num_ranks);
  out.model = cfg.choice("network/model");
  out.application = in.program.front();
  out.application_format = "online";
  std::vector<HostId> rank_host = map_ranks(in, platform, in.num_ranks, in.program.front());

  OnlineOptions opt;
  opt.argv = in.program;
  opt.stack_bytes = static_cast<size_t>(cfg.bytes("online/stack-size"));
  opt.measured = cfg.choice("online/compute") == "measured";
  if (const double s = reference_speed(cfg); s > 0) opt.reference_speed = s;
  opt.poll_cost = cfg.time("online/poll-cost");
  opt.cpu_threshold_s = cfg.time("online/cpu-threshold").seconds();
  opt.virtual_clocks = cfg.choice("online/virtual-clocks") == "yes";
  opt.tag_output = in.tag_output;
  if (cfg.choice("network/model") == "smpi")
    opt.smpi_polls = SmpiPolls(cfg.time("smpi/test"), cfg.time("smpi/iprobe"), cfg.boolean("smpi/grow-injected-times"));
  opt.lb = energy::lb_options(cfg);
  opt.first_call = coll::FirstCallCosts::from(cfg);

  MpiIo::instance().set_costs(io_costs(cfg, platform));
  keep_heap_pages();
  const std::string loader = cfg.choice("online/loader");
  ProgramImage image(in.program.front(), loader == "simfab"   ? ProgramImage::Loader::kSimfab
                                         : loader == "dlopen" ? ProgramImage::Loader::kDlopen
                                                              : ProgramImage::Loader::kAuto);
  const MappingPlan plan = plan_mappings(static_cast<size_t>(in.num_ranks), max_mappings() - std::min(max_mappings(), mappings_in_use()));
  image.prepare(static_cast<size_t>(in.num_ranks), plan.copies_per_mapping);
  opt.pooled_stacks = plan.pooled_stacks;
  install_crash_guard();
  OpPool ops;
  Engine engine;
  OnlineProgram program(image, ops, platform, rank_host, coll::CollChoice::from(cfg), opt);
  execute_program(platform, rank_host, program, ops, engine, cfg, out, hooks, in.switches);
  std::fflush(stdout);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace simfab::online
