// TiUndefinedSources (ti_undefined_sources.hpp): the counting pass and its answers.
#include "replay/ti_undefined_sources.hpp"

#include <string_view>
#include <vector>

#include "mpi/op.hpp"

namespace simfab {

TiUndefinedSources TiUndefinedSources::scan(const TiTrace& trace) {
  TiUndefinedSources out;
  if (trace.streaming()) return out;
  bool found = false;
  for (uint32_t f = 0; f < trace.file_count() && !found; ++f) found = trace.text(f).find("-333") != std::string_view::npos;
  if (!found) return out;

  const int p = trace.num_ranks();
  std::unordered_map<RankId, int64_t> any_tag;  // receives of any tag that cannot be MPI_PROC_NULL
  const auto sent = [&](RankId to, int32_t tag) {
    if (to >= 0) ++out.free_[key(to, tag)];
  };
  const auto taken = [&](RankId r, int32_t tag) {
    if (tag == kAnyTag)
      ++any_tag[r];
    else
      --out.free_[key(r, tag)];
  };
  std::vector<Bytes> counts;
  TiLine line;
  for (RankId r = 0; r < p; ++r) {
    uint64_t pos = 0;
    bool default_double = false;
    while (trace.next_line(r, pos, line)) {
      const std::string_view file = trace.file_name(line.file);
      if (ti_line_comm(file, line) != 0) continue;
      const TiAction a = parse_ti_action(file, line, p, default_double, counts);
      switch (a.kind) {
        case TiKind::kInit:
          default_double = default_double || a.has_arg;
          break;
        case TiKind::kSend:
        case TiKind::kIsend:
        case TiKind::kSsend:
        case TiKind::kIssend:
        case TiKind::kBsend:
        case TiKind::kIbsend:
        case TiKind::kRsend:
        case TiKind::kIrsend:
          sent(a.peer, a.tag);
          break;
        case TiKind::kRecv:
        case TiKind::kIrecv:
          if (a.peer != kProcNull && !a.undefined_source) taken(r, a.tag);
          break;
        case TiKind::kSendrecv:
          sent(a.peer, a.tag);
          if (a.peer2 != kProcNull) taken(r, a.tag2);
          break;
        default:
          break;
      }
    }
  }
  for (const auto& [k, n] : out.free_)
    if (n > 0) out.free_total_[static_cast<RankId>(k >> 32)] += n;
  for (const auto& [r, n] : any_tag) out.free_total_[r] -= n;
  return out;
}

bool TiUndefinedSources::proc_null(RankId r, int32_t tag) const {
  const auto total = free_total_.find(r);
  if (total == free_total_.end() || total->second <= 0) return true;
  if (tag == kAnyTag) return false;
  const auto it = free_.find(key(r, tag));
  return it == free_.end() || it->second <= 0;
}

void TiUndefinedSources::resolve(TiAction& a, RankId r) const {
  if (!a.undefined_source || a.comm != 0 || !proc_null(r, a.tag)) return;
  a.peer = kProcNull;
  a.undefined_source = false;
}

}  // namespace simfab
