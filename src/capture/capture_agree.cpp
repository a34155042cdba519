// CaptureAligner step 5: collectives agree across members, point-to-point channels balance; under
// salvage, the cuts to a consistent prefix (see capture_run.hpp).
#include <algorithm>
#include <map>
#include <tuple>

#include "capture/capture_aligner.hpp"
#include "core/error.hpp"

namespace simfab {

namespace {

struct Sig {
  CapFunc func = CapFunc::kInit;
  int32_t root = -1;
  uint64_t bytes = 0;
  bool has_bytes = false;
};

Sig signature(const CapRecord& rec) {
  Sig s;
  s.func = rec.func;
  if (cap_rooted(rec.func)) s.root = rec.root;
  switch (cap_blocking(rec.func)) {
    case CapFunc::kBcast:
    case CapFunc::kReduce:
    case CapFunc::kAllreduce:
    case CapFunc::kScan:
    case CapFunc::kExscan:
      s.bytes = rec.s_count * rec.s_dt;
      s.has_bytes = true;
      break;
    default: break;
  }
  return s;
}

bool same(const Sig& a, const Sig& b) {
  return a.func == b.func && a.root == b.root && a.has_bytes == b.has_bytes && a.bytes == b.bytes;
}

std::string describe(const Sig& s) {
  std::string out(cap_func_name(s.func));
  if (s.root >= 0 || s.has_bytes) {
    out += " (";
    if (s.root >= 0) out += "root " + std::to_string(s.root);
    if (s.root >= 0 && s.has_bytes) out += ", ";
    if (s.has_bytes) out += std::to_string(s.bytes) + " bytes";
    out += ")";
  }
  return out;
}

struct End {
  RankId rank;
  uint32_t idx;
};

}  // namespace

void CaptureAligner::agree() {
  if (!salvage_) {
    agree_collectives();
    agree_channels();
    return;
  }
  while (true) {
    bool changed = agree_collectives();
    changed = agree_channels() || changed;
    if (!changed) break;
  }
}

bool CaptureAligner::agree_collectives() {
  bool changed = false;
  constexpr uint32_t kNone = UINT32_MAX;
  for (size_t id = 0; id < run_.comms_.size(); ++id) {
    const auto& lists = run_.colls_[id];
    const auto& members = run_.comms_[id].members;
    size_t most = 0;
    for (const auto& l : lists) most = std::max(most, l.size());
    std::vector<uint32_t> at(members.size());
    for (size_t k = 0; k < most; ++k) {
      size_t alive_count = 0, first_alive = members.size(), first_dead = members.size();
      for (size_t m = 0; m < members.size(); ++m) {
        const RankId w = members[m];
        at[m] = w >= 0 && k < lists[m].size() && alive(w, lists[m][k]) ? lists[m][k] : kNone;
        if (at[m] != kNone) {
          ++alive_count;
          if (first_alive == members.size()) first_alive = m;
        } else if (first_dead == members.size()) {
          first_dead = m;
        }
      }
      if (alive_count == 0) break;
      const std::string ordinal = "collective #" + std::to_string(k) + " on " + comm_name(static_cast<int32_t>(id));
      std::string why;
      if (alive_count < members.size()) {
        const RankId wa = members[first_alive], wd = members[first_dead];
        if (!salvage_) {
          const size_t made = wd >= 0 ? std::count_if(lists[first_dead].begin(), lists[first_dead].end(),
                                                       [&](uint32_t i) { return alive(wd, i); })
                                      : 0;
          fail_at(wa, at[first_alive],
                  "collective mismatch: this " + std::string(cap_func_name(run_.rank(wa).records[at[first_alive]].func)) +
                      " is " + ordinal + ", but rank " + std::to_string(wd) + " (" + run_.rank(wd).path + ") makes only " +
                      std::to_string(made) + " collective(s) on it; expected every member to make the same collectives");
        }
        why = ordinal + " is not reached by rank " + std::to_string(members[first_dead]);
      } else {
        const Sig ref = signature(run_.rank(members[0]).records[at[0]]);
        for (size_t m = 1; m < members.size() && why.empty(); ++m) {
          const Sig s = signature(run_.rank(members[m]).records[at[m]]);
          if (same(ref, s)) continue;
          if (!salvage_)
            fail_at(members[m], at[m],
                    "collective mismatch: " + ordinal + " is " + describe(s) + " here, but " + describe(ref) + " at " +
                        where(members[0], at[0]) + " (rank " + std::to_string(members[0]) +
                        "); expected every member to make the same call with the same root");
          why = ordinal + " disagrees: " + describe(s) + " on rank " + std::to_string(members[m]) + ", " + describe(ref) +
                " on rank " + std::to_string(members[0]);
        }
        if (why.empty()) continue;
      }
      for (size_t m = 0; m < members.size(); ++m)
        if (at[m] != kNone) changed = cut(members[m], at[m], why) || changed;
    }
  }
  return changed;
}

bool CaptureAligner::agree_channels() {
  using Key = std::tuple<int32_t, RankId, RankId, int32_t>;  // comm, source, destination (world), tag
  std::map<Key, std::pair<std::vector<End>, std::vector<End>>> channels;
  std::map<std::pair<int32_t, RankId>, std::vector<End>> wild;  // (comm, destination): unresolved receives
  // Probes: the channel and how many of its receives came before (the message it waits for).
  std::vector<std::tuple<Key, size_t, End>> probes;
  for (int r = 0; r < run_.num_ranks(); ++r) {
    const RankCapture& rc = run_.rank(r);
    for (uint32_t i = 0; i < limit_[static_cast<size_t>(r)]; ++i) {
      if (run_.step(r, i) != CapStep::kOp) continue;
      const CapRecord& rec = rc.records[i];
      const CapClass cls = cap_class(rec.func);
      const bool sends = cls == CapClass::kSend || cls == CapClass::kIsend || cls == CapClass::kSendrecv;
      const bool recvs = cls == CapClass::kRecv || cls == CapClass::kIrecv || cls == CapClass::kSendrecv;
      if (cls == CapClass::kProbe && rec.r_peer >= 0 && rec.r_tag >= 0) {
        const Key key{rec.comm_id, run_.world_rank(rec.comm_id, rec.r_peer), r, rec.r_tag};
        probes.emplace_back(key, channels[key].second.size(), End{r, i});
      }
      if (sends && rec.s_peer >= 0)
        channels[Key{rec.comm_id, r, run_.world_rank(rec.comm_id, rec.s_peer), rec.s_tag}].first.push_back(End{r, i});
      if (recvs && rec.r_peer != kCapProcNull) {
        if (rec.r_peer >= 0 && rec.r_tag >= 0)
          channels[Key{rec.comm_id, run_.world_rank(rec.comm_id, rec.r_peer), r, rec.r_tag}].second.push_back(End{r, i});
        else
          wild[{rec.comm_id, r}].push_back(End{r, i});
      }
    }
  }
  const auto channel_name = [&](const Key& k) {
    const auto [comm, src, dst, tag] = k;
    return "channel (" + (comm == 0 ? std::string("MPI_COMM_WORLD") : "communicator " + std::to_string(comm)) +
           ", world rank " + std::to_string(src) + " -> world rank " + std::to_string(dst) + ", tag " +
           std::to_string(tag) + ")";
  };
  bool changed = false;
  for (const auto& [key, ends] : channels) {
    const auto& [sends, recvs] = ends;
    const size_t both = std::min(sends.size(), recvs.size());
    for (size_t k = 0; k < both; ++k) {
      const CapRecord& s = run_.rank(sends[k].rank).records[sends[k].idx];
      const CapRecord& rr = run_.rank(recvs[k].rank).records[recvs[k].idx];
      const uint64_t bytes = s.s_count * s.s_dt, room = rr.r_count * rr.r_dt;
      if (bytes <= room) continue;
      const std::string what = "message truncated on " + channel_name(key) + ": its send at " +
                               where(sends[k].rank, sends[k].idx) + " sends " + std::to_string(bytes) +
                               " bytes, this receive has room for " + std::to_string(room);
      if (!salvage_) fail_at(recvs[k].rank, recvs[k].idx, what);
      changed = cut(sends[k].rank, sends[k].idx, what) || changed;
      changed = cut(recvs[k].rank, recvs[k].idx, what) || changed;
      break;
    }
    if (sends.size() == recvs.size()) continue;
    const auto [comm, src, dst, tag] = key;
    if (wild.count({comm, dst})) continue;  // checked by totals below
    const bool more_sends = sends.size() > recvs.size();
    const End extra = more_sends ? sends[both] : recvs[both];
    const std::string what = "unmatched point-to-point messages on " + channel_name(key) + ": " +
                             std::to_string(sends.size()) + " send(s) but " + std::to_string(recvs.size()) +
                             " receive(s); this " + (more_sends ? "send has no matching receive" : "receive has no matching send");
    if (!salvage_) fail_at(extra.rank, extra.idx, what);
    changed = cut(extra.rank, extra.idx, "its partner was cut: " + channel_name(key)) || changed;
  }
  for (const auto& [key, before, probe] : probes) {
    if (channels[key].first.size() > before) continue;
    const std::string what = "MPI_Probe waits for a message that is never sent: " + channel_name(key) + " has " +
                             std::to_string(channels[key].first.size()) + " send(s), this probe waits for send #" +
                             std::to_string(before + 1);
    if (!salvage_) fail_at(probe.rank, probe.idx, what);
    changed = cut(probe.rank, probe.idx, "its message was cut: " + channel_name(key)) || changed;
  }
  if (salvage_) return changed;
  for (const auto& [cd, list] : wild) {
    size_t sent = 0, received = list.size();
    for (const auto& [key, ends] : channels) {
      if (std::get<0>(key) != cd.first || std::get<2>(key) != cd.second) continue;
      sent += ends.first.size();
      received += ends.second.size();
    }
    if (sent != received)
      fail_at(list.front().rank, list.front().idx,
              "unmatched point-to-point messages to world rank " + std::to_string(cd.second) + " on " +
                  comm_name(cd.first) + ": " + std::to_string(sent) + " send(s) but " + std::to_string(received) +
                  " receive(s) (counting " + std::to_string(list.size()) + " wildcard receive(s) whose source or tag "
                  "the trace does not record, like this one)");
  }
  return changed;
}

}  // namespace simfab
