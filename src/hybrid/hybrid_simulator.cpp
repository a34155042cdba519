#include "hybrid/hybrid_simulator.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "nic/nic_registry.hpp"
#include "online/online_run.hpp"

namespace simfab::hybrid {

namespace {

// The largest message the model `cfg` sends eagerly (its protocol is monotonic in the size):
// up to this size a simulated send completes without its receiver.
uint64_t eager_limit(const Platform& platform, const Config& cfg) {
  Engine engine;
  const auto net = nic::make_mpi_network(engine, platform, cfg, EventKinds{});
  const auto eager = [&](uint64_t b) {
    const Protocol p = net->protocol(b);
    return p == Protocol::kEager || p == Protocol::kDetached;
  };
  constexpr uint64_t kTop = uint64_t{1} << 40;
  if (eager(kTop)) return UINT64_MAX;
  if (!eager(0)) return 0;
  uint64_t lo = 0, hi = kTop;  // eager(lo), !eager(hi)
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (eager(mid) ? lo : hi) = mid;
  }
  return lo;
}

const char* state_name(int s) {
  switch (s) {
    case 0: return "running (computing between MPI calls)";
    case 1: return "blocked in ";
    case 2: return "waiting for MPI_Wtime's answer";
    default: return "finished";
  }
}

}  // namespace

HybridSettings hybrid_settings(const Platform& platform, const Config& cfg) {
  // Failures (state profiles) would have to stop the real MPI job: not done.
  if (platform.has_profiles(Platform::ProfileKind::kHostState) || platform.has_profiles(Platform::ProfileKind::kLinkState))
    throw InputError(SourceLoc{platform.source(), 0, 0},
                     "simfab hybrid does not simulate host or link failures (state profiles); use simfab run or exec");
  HybridSettings h;
  const std::string& scale = cfg.text("hybrid/compute-scale");
  char* end = nullptr;
  h.compute_scale = std::strtod(scale.c_str(), &end);
  if (scale.empty() || *end != '\0' || !(h.compute_scale > 0) || h.compute_scale > 1e12)
    throw InputError(SourceLoc{"hybrid/compute-scale", 0, 0},
                     "expected a positive number (2: a target CPU twice slower), got '" + scale + "'");
  h.reference_speed = online::reference_speed(cfg);
  h.measured = cfg.choice("hybrid/compute") == "measured";
  h.copy_above = cfg.bytes("hybrid/copy-above");
  h.copy_max = eager_limit(platform, cfg);
  h.stall_timeout_s = cfg.time("hybrid/stall-timeout").seconds();
  if (!(h.stall_timeout_s > 0))
    throw InputError(SourceLoc{"hybrid/stall-timeout", 0, 0}, "expected a positive time (e.g. 10s)");
  return h;
}

HybridSimulator::HybridSimulator(HybridTransport& transport, const Platform& platform,
                                 const std::vector<HostId>& rank_host, const Config& cfg)
    : transport_(transport),
      platform_(platform),
      rank_host_(rank_host),
      settings_(hybrid_settings(platform, cfg)),
      stall_timeout_(settings_.stall_timeout_s),
      ranks_(rank_host.size(), Rank::kRunning),
      blocked_in_(rank_host.size()) {
  trace_ = TiTrace::open_stream(static_cast<int>(rank_host.size()), "hybrid", [this](RankId r) { more(r); });
}

void HybridSimulator::send_setups() {
  for (size_t r = 0; r < rank_host_.size(); ++r) {
    Setup s;
    const HybridSettings& h = settings_;
    const double speed = h.reference_speed > 0 ? h.reference_speed : platform_.host(rank_host_[r]).speed_flops;
    s.flops_per_s = h.measured ? speed * h.compute_scale : 0;
    s.copy_above = h.copy_above;
    s.copy_max = h.copy_max;
    transport_.send_setup(static_cast<int>(r), s);
  }
}

void HybridSimulator::attach(TiProgram& program) {
  program.set_wtime_hook([this](RankId r, SimTime t) {
    ranks_[static_cast<size_t>(r)] = Rank::kRunning;
    transport_.send_wtime(r, t.seconds());
  });
}

void HybridSimulator::dispatch(HybridMessage& m) {
  const auto r = static_cast<size_t>(m.source);
  switch (m.tag) {
    case kLines:
    case kWtimeLines:
      trace_->append(static_cast<RankId>(r), m.data);
      ranks_[r] = m.tag == kWtimeLines ? Rank::kWtime : Rank::kRunning;
      break;
    case kBlocked: {  // lines, NUL, the call
      const size_t nul = m.data.find('\0');
      if (nul == std::string::npos)
        throw InputError(SourceLoc{"hybrid", 0, 0}, "rank " + std::to_string(r) + " sent a malformed blocked notice");
      if (nul > 0) trace_->append(static_cast<RankId>(r), std::string_view(m.data).substr(0, nul));
      ranks_[r] = Rank::kBlocked;
      blocked_in_[r] = m.data.substr(nul + 1);
      break;
    }
    case kEnd:
      trace_->end_stream(static_cast<RankId>(r));
      ranks_[r] = Rank::kEnded;
      break;
    default:
      throw InputError(SourceLoc{"hybrid", 0, 0},
                       "rank " + std::to_string(r) + " sent a message the simulator does not know (tag " +
                           std::to_string(m.tag) + "): is every rank running libsimfab-hybrid.so of this simfab?");
  }
}

bool HybridSimulator::stalled() const {
  return std::all_of(ranks_.begin(), ranks_.end(), [](Rank s) { return s != Rank::kRunning; });
}

void HybridSimulator::more(RankId r) {
  HybridMessage m;
  auto last = std::chrono::steady_clock::now();
  for (;;) {
    if (transport_.poll(m)) {
      dispatch(m);
      if (m.source == r) return;  // its stream may have grown (next_line asks again if not)
      last = std::chrono::steady_clock::now();
      continue;
    }
    if (stalled() && std::chrono::steady_clock::now() - last > stall_timeout_) fail_stalled(r);
    transport_.idle();
  }
}

void HybridSimulator::drain() {
  HybridMessage m;
  while (std::any_of(ranks_.begin(), ranks_.end(), [](Rank s) { return s != Rank::kEnded; })) {
    if (transport_.poll(m)) {
      if (m.tag == kLines || m.tag == kWtimeLines)
        throw InputError(SourceLoc{"hybrid", 0, 0}, "rank " + std::to_string(m.source) +
                                                        " made MPI calls after its stream ended");
      if (m.tag == kEnd) dispatch(m);  // (a blocked notice: nothing is left to replay)
    } else {
      transport_.idle();
    }
  }
}

void HybridSimulator::fail_stalled(RankId waiting_for) const {
  const bool wtime = std::any_of(ranks_.begin(), ranks_.end(), [](Rank s) { return s == Rank::kWtime; });
  std::string what =
      wtime ? "causality inversion: the simulation needs rank " + std::to_string(waiting_for) +
                  "'s next MPI call, but that rank waits in a real MPI call that waits (through the real MPI) for "
                  "a rank waiting for MPI_Wtime's virtual time, which needs rank " +
                  std::to_string(waiting_for) + "'s next call first"
            : "the application deadlocked in the real run: every rank waits in a real MPI call";
  what += " (nothing reached the simulator for " + std::to_string(stall_timeout_.count()) +
          " s, hybrid/stall-timeout):";
  for (size_t q = 0; q < ranks_.size() && q < 64; ++q)
    what += "\n  rank " + std::to_string(q) + ": " + state_name(static_cast<int>(ranks_[q])) +
            (ranks_[q] == Rank::kBlocked ? blocked_in_[q] : std::string());
  throw HybridStall(what);
}

}  // namespace simfab::hybrid
