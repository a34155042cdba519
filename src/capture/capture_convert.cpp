// The rank walk and collective arguments shared by the converters (see capture_convert.hpp).
#include "capture/capture_convert.hpp"

#include <cmath>

#include "capture/pinned_intervals.hpp"
#include "core/error.hpp"

namespace simfab {

namespace {

uint64_t list_sum(const std::vector<uint64_t>& v) {
  uint64_t s = 0;
  for (uint64_t x : v) s += x;
  return s;
}

// The list at `at` of rank r's count pool (empty for kCapNoList).
std::vector<uint64_t> pool_list(const RankCapture& rc, uint32_t at) {
  if (at == kCapNoList) return {};
  const uint64_t n = rc.counts[at];
  return std::vector<uint64_t>(rc.counts.begin() + at + 1, rc.counts.begin() + at + 1 + static_cast<std::ptrdiff_t>(n));
}

// New bytes of one buffer (0 for none, MPI_IN_PLACE or NULL).
uint64_t pin(PinnedIntervals& pins, uint64_t addr, uint64_t bytes) {
  if (addr == 0 || addr == kCapInPlace || bytes == 0) return 0;
  const uint64_t end = addr + bytes < addr ? UINT64_MAX : addr + bytes;
  return pins.insert(addr, end);
}

uint64_t new_bytes(const CaptureRun& run, RankId r, uint32_t i, PinnedIntervals& pins) {
  const CapRecord& rec = run.rank(r).records[i];
  switch (cap_class(rec.func)) {
    case CapClass::kSend:
    case CapClass::kIsend: return pin(pins, rec.s_buf, rec.s_count * rec.s_dt);
    case CapClass::kRecv:
    case CapClass::kIrecv: return pin(pins, rec.r_buf, rec.r_count * rec.r_dt);
    case CapClass::kSendrecv: {
      uint64_t n = 0;
      if (rec.s_peer != kCapProcNull) n += pin(pins, rec.s_buf, rec.s_count * rec.s_dt);
      if (rec.r_peer != kCapProcNull) n += pin(pins, rec.r_buf, rec.r_count * rec.r_dt);
      return n;
    }
    case CapClass::kCollective: {
      if (cap_blocking(rec.func) == CapFunc::kBarrier) return 0;
      const CapCollArgs a = collective_args(run, r, i);
      const uint64_t sb = (a.s_counts.empty() ? a.s_count : list_sum(a.s_counts)) * a.s_dt;
      const uint64_t rb = (a.r_counts.empty() ? a.r_count : list_sum(a.r_counts)) * a.r_dt;
      return pin(pins, rec.s_buf, sb) + (cap_blocking(rec.func) == CapFunc::kBcast ? 0 : pin(pins, rec.r_buf, rb));
    }
    default: return 0;
  }
}

}  // namespace

void walk_rank(const CaptureRun& run, RankId r, const ConvertOptions& options,
               const std::function<void(const CapVisit&)>& visit) {
  const RankCapture& rc = run.rank(r);
  const uint32_t kept = run.kept(r);
  PinnedIntervals pins;
  int64_t last_ret = kCapNoTime;
  uint64_t last_count = RankCapture::kNoCounter;
  const auto counter = [&](uint32_t i, bool ret) {
    if (i >= rc.counters.size()) return RankCapture::kNoCounter;
    return ret ? rc.counters[i].second : rc.counters[i].first;
  };
  for (uint32_t i = 0; i < kept; ++i) {
    const CapRecord& rec = rc.records[i];
    CapVisit v;
    v.index = i;
    v.step = run.step(r, i);
    switch (v.step) {
      case CapStep::kSkip: continue;
      case CapStep::kInit:
        last_ret = rec.ret;
        last_count = counter(i, true);
        break;
      case CapStep::kMarker: break;
      case CapStep::kOp:
      case CapStep::kFinalize:
        v.gap_ps = run.ps_between(r, last_ret, rec.call);
        if (const uint64_t c = counter(i, false);
            c != RankCapture::kNoCounter && last_count != RankCapture::kNoCounter && c >= last_count)
          v.gap_flops = static_cast<double>(c - last_count);
        if (v.step == CapStep::kOp) {
          last_ret = rec.ret;
          last_count = counter(i, true);
          if (options.pinning) {
            const uint64_t n = new_bytes(run, r, i, pins);
            if (n > 0)
              v.pin_ps = std::llround((options.pin_a_us + options.pin_b_us * static_cast<double>(n)) * 1e6);
          }
        }
        break;
    }
    visit(v);
  }
  if (!run.ends_with_finalize(r)) {
    CapVisit v;
    v.index = kept;
    v.step = CapStep::kFinalize;
    visit(v);
  }
}

CapCollArgs collective_args(const CaptureRun& run, RankId r, uint32_t i) {
  const RankCapture& rc = run.rank(r);
  const CapRecord& rec = rc.records[i];
  CapCollArgs a;
  a.root = rec.root;
  a.local = rec.comm.rank;
  a.size = rec.comm.size;
  a.s_count = rec.s_count;
  a.s_dt = rec.s_dt;
  a.r_count = rec.r_count;
  a.r_dt = rec.r_dt;
  a.s_counts = pool_list(rc, rec.s_counts);
  a.r_counts = pool_list(rc, rec.r_counts);
  const bool in_place = rec.s_buf == kCapInPlace;
  const bool root = a.local == a.root;
  // The root's record of the same collective (gatherv/scatterv counts).
  const auto root_list = [&](bool send) {
    const uint32_t j = run.collective_record(rec.comm_id, run.coll_index(r, i), a.root);
    SIMFAB_CHECK(j != UINT32_MAX, "collective_args: the root's record is missing");
    const RankId wr = run.world_rank(rec.comm_id, a.root);
    const CapRecord& rr = run.rank(wr).records[j];
    return std::make_pair(pool_list(run.rank(wr), send ? rr.s_counts : rr.r_counts), send ? rr.s_dt : rr.r_dt);
  };
  switch (cap_blocking(rec.func)) {
    case CapFunc::kBarrier: a.kind = TiKind::kBarrier; break;
    case CapFunc::kBcast: a.kind = TiKind::kBcast; break;
    case CapFunc::kReduce: a.kind = TiKind::kReduce; break;
    case CapFunc::kAllreduce: a.kind = TiKind::kAllreduce; break;
    case CapFunc::kScan: a.kind = TiKind::kScan; break;
    case CapFunc::kExscan: a.kind = TiKind::kExscan; break;
    case CapFunc::kReduceScatterBlock:
      a.kind = TiKind::kReducescatter;
      a.r_counts.assign(static_cast<size_t>(a.size), a.r_count);
      break;
    case CapFunc::kReduceScatter: a.kind = TiKind::kReducescatter; break;
    case CapFunc::kGather:
      a.kind = TiKind::kGather;
      if (in_place && root) {
        a.s_count = a.r_count;
        a.s_dt = a.r_dt;
      }
      break;
    case CapFunc::kScatter:
      a.kind = TiKind::kScatter;
      if (rec.r_buf == kCapInPlace && root) {
        a.r_count = a.s_count;
        a.r_dt = a.s_dt;
      }
      break;
    case CapFunc::kAllgather:
    case CapFunc::kAlltoall:
      a.kind = cap_blocking(rec.func) == CapFunc::kAllgather ? TiKind::kAllgather : TiKind::kAlltoall;
      if (in_place) {
        a.s_count = a.r_count;
        a.s_dt = a.r_dt;
      }
      break;
    case CapFunc::kGatherv: {
      a.kind = TiKind::kGatherv;
      auto [counts, dt] = root_list(false);
      a.r_counts = std::move(counts);
      a.r_dt = dt;
      if (in_place && root) {
        a.s_count = a.r_counts[static_cast<size_t>(a.root)];
        a.s_dt = a.r_dt;
      }
      break;
    }
    case CapFunc::kScatterv: {
      a.kind = TiKind::kScatterv;
      auto [counts, dt] = root_list(true);
      a.s_counts = std::move(counts);
      a.s_dt = dt;
      if (rec.r_buf == kCapInPlace && root) {
        a.r_count = a.s_counts[static_cast<size_t>(a.root)];
        a.r_dt = a.s_dt;
      }
      break;
    }
    case CapFunc::kAllgatherv:
      a.kind = TiKind::kAllgatherv;
      if (in_place) {
        a.s_count = a.r_counts[static_cast<size_t>(a.local)];
        a.s_dt = a.r_dt;
      }
      break;
    case CapFunc::kAlltoallv:
      a.kind = TiKind::kAlltoallv;
      if (in_place) {
        a.s_counts = a.r_counts;
        a.s_dt = a.r_dt;
      }
      break;
    default: SIMFAB_CHECK(false, "collective_args: not a collective");
  }
  return a;
}

}  // namespace simfab

namespace simfab {

int64_t creation_cost_ps(const CaptureRun& run, RankId r, uint32_t i) {
  const CapRecord& rec = run.rank(r).records[i];
  const uint32_t ordinal = run.coll_index(r, i);
  int64_t best = -1;
  for (int32_t local = 0; local < rec.comm.size; ++local) {
    const uint32_t j = run.collective_record(rec.comm_id, ordinal, local);
    const RankId w = run.world_rank(rec.comm_id, local);
    if (j == UINT32_MAX || w < 0 || j >= run.kept(w)) continue;
    const CapRecord& m = run.rank(w).records[j];
    if (m.call == kCapNoTime || m.ret == kCapNoTime) continue;
    const int64_t d = run.ps_between(w, m.call, m.ret);
    if (best < 0 || d < best) best = d;
  }
  return best < 0 ? 0 : best;
}

}  // namespace simfab
