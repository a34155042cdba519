// write_capture_otf2 (see otf2_capture_writer.hpp).
#include "otf2/otf2_capture_writer.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "capture/capture_convert.hpp"
#include "otf2/otf2_archive_writer.hpp"
#include "otf2/otf2_defs.hpp"
#include "otf2/otf2_sizes.hpp"

namespace simfab {

namespace {

constexpr uint64_t kWorldRef = 0, kSelfRef = 1;

uint64_t comm_ref(int32_t id) {
  if (id == kCapLocalComm || id < 0) return kSelfRef;
  return id == 0 ? kWorldRef : static_cast<uint64_t>(id) + 1;
}

uint32_t tag_of(int32_t t) { return t >= 0 ? static_cast<uint32_t>(t) : 0; }

std::optional<OTF2_CollectiveOp> collective_op(TiKind k) {
  switch (k) {
    case TiKind::kBarrier: return OTF2_COLLECTIVE_OP_BARRIER;
    case TiKind::kBcast: return OTF2_COLLECTIVE_OP_BCAST;
    case TiKind::kReduce: return OTF2_COLLECTIVE_OP_REDUCE;
    case TiKind::kAllreduce: return OTF2_COLLECTIVE_OP_ALLREDUCE;
    case TiKind::kAlltoall: return OTF2_COLLECTIVE_OP_ALLTOALL;
    case TiKind::kAlltoallv: return OTF2_COLLECTIVE_OP_ALLTOALLV;
    case TiKind::kGather: return OTF2_COLLECTIVE_OP_GATHER;
    case TiKind::kGatherv: return OTF2_COLLECTIVE_OP_GATHERV;
    case TiKind::kAllgather: return OTF2_COLLECTIVE_OP_ALLGATHER;
    case TiKind::kAllgatherv: return OTF2_COLLECTIVE_OP_ALLGATHERV;
    case TiKind::kScatter: return OTF2_COLLECTIVE_OP_SCATTER;
    case TiKind::kScatterv: return OTF2_COLLECTIVE_OP_SCATTERV;
    case TiKind::kReducescatter: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
    case TiKind::kScan: return OTF2_COLLECTIVE_OP_SCAN;
    case TiKind::kExscan: return OTF2_COLLECTIVE_OP_EXSCAN;
    default: return std::nullopt;
  }
}

uint64_t sum(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); }

// The (b, b2) of scorep_totals for collective record i of rank r.
std::pair<uint64_t, uint64_t> amounts(const CapCollArgs& a) {
  const uint64_t s = a.s_count * a.s_dt, rv = a.r_count * a.r_dt;
  const bool root = a.local == a.root;
  switch (a.kind) {
    case TiKind::kGather:
    case TiKind::kScatter:
    case TiKind::kAllgather:
    case TiKind::kAlltoall: return {s, rv};
    case TiKind::kGatherv: return {s, root ? sum(a.r_counts) * a.r_dt : 0};
    case TiKind::kScatterv: return {root ? sum(a.s_counts) * a.s_dt : 0, rv};
    case TiKind::kAllgatherv: return {s, sum(a.r_counts) * a.r_dt};
    case TiKind::kAlltoallv: return {sum(a.s_counts) * a.s_dt, sum(a.r_counts) * a.r_dt};
    case TiKind::kReducescatter: {
      const auto me = static_cast<size_t>(a.local);
      return {sum(a.r_counts) * a.r_dt, me < a.r_counts.size() ? a.r_counts[me] * a.r_dt : 0};
    }
    default: return {s, 0};
  }
}

class RankWriter {
 public:
  RankWriter(const CaptureRun& run, RankId r, Otf2ArchiveWriter& out, int64_t zero)
      : run_(run), r_(r), rc_(run.rank(r)), out_(out), w_(out.open_events(static_cast<size_t>(r))), zero_(zero) {}

  // Writes the rank's kept records; returns its last tick.
  uint64_t write();

 private:
  uint64_t tick(int64_t t) const {
    const int64_t ps = (t - zero_) * rc_.header.ps_per_unit;
    return ps > 0 ? static_cast<uint64_t>(ps) : 0;
  }
  void record(uint32_t i, uint64_t t0, uint64_t t1);
  void completion(const CapRecord& rec, uint64_t t);

  const CaptureRun& run_;
  RankId r_;
  const RankCapture& rc_;
  Otf2ArchiveWriter& out_;
  OTF2_EvtWriter* w_;
  int64_t zero_;
};

uint64_t RankWriter::write() {
  uint64_t last = 0;
  for (uint32_t i = 0; i < run_.kept(r_); ++i) {
    const CapRecord& rec = rc_.records[i];
    const int64_t call = rec.call == kCapNoTime ? rec.ret : rec.call;
    const int64_t ret = rec.ret == kCapNoTime ? call : rec.ret;
    const uint64_t t0 = std::max(last, tick(call)), t1 = std::max(t0, tick(ret));
    const bool site = rec.site != 0 && rec.site <= rc_.sites.size();
    const uint32_t site_ref = site ? out_.region(rc_.sites[rec.site - 1]) : 0;
    if (site) out_.check(OTF2_EvtWriter_Enter(w_, nullptr, t0, site_ref), "Enter");
    const uint32_t ref = out_.region(std::string(cap_func_name(rec.func)));
    out_.check(OTF2_EvtWriter_Enter(w_, nullptr, t0, ref), "Enter");
    record(i, t0, t1);
    out_.check(OTF2_EvtWriter_Leave(w_, nullptr, t1, ref), "Leave");
    if (site) out_.check(OTF2_EvtWriter_Leave(w_, nullptr, t1, site_ref), "Leave");
    last = t1;
  }
  if (!run_.ends_with_finalize(r_)) {  // cut by --salvage
    const uint32_t ref = out_.region("MPI_Finalize");
    out_.check(OTF2_EvtWriter_Enter(w_, nullptr, last, ref), "Enter");
    out_.check(OTF2_EvtWriter_Leave(w_, nullptr, last, ref), "Leave");
  }
  out_.close_events(static_cast<size_t>(r_), w_);
  return last;
}

void RankWriter::completion(const CapRecord& rec, uint64_t t) {
  for (uint32_t j = 0; j < rec.done_count; ++j) {
    const CapDone& d = rc_.done[rec.done_begin + j];
    if (d.src == kCapCancelled) {
      out_.check(OTF2_EvtWriter_MpiRequestCancelled(w_, nullptr, t, d.req), "MpiRequestCancelled");
      continue;
    }
    if (d.op == CapDone::kNullRequest) continue;
    const CapRecord& op = rc_.records[d.op];
    if (cap_nonblocking_coll(op.func)) continue;  // written as a collective at its call (record())
    if (cap_class(op.func) == CapClass::kIsend) {
      out_.check(OTF2_EvtWriter_MpiIsendComplete(w_, nullptr, t, d.req), "MpiIsendComplete");
    } else {
      const uint64_t bytes = d.bytes > 0 || op.r_count == 0 ? d.bytes : op.r_count * op.r_dt;
      out_.check(OTF2_EvtWriter_MpiIrecv(w_, nullptr, t, static_cast<uint32_t>(op.r_peer), comm_ref(op.comm_id),
                                         tag_of(op.r_tag), bytes, d.req),
                 "MpiIrecv");
    }
  }
}

void RankWriter::record(uint32_t i, uint64_t t0, uint64_t t1) {
  const CapRecord& rec = rc_.records[i];
  if (run_.step(r_, i) == CapStep::kSkip && cap_class(rec.func) != CapClass::kCompletion) return;
  const uint64_t comm = comm_ref(rec.comm_id);
  const auto send = [&](bool nonblocking) {
    if (rec.s_peer == kCapProcNull) return;
    const uint64_t bytes = rec.s_count * rec.s_dt;
    if (nonblocking)
      out_.check(OTF2_EvtWriter_MpiIsend(w_, nullptr, t0, static_cast<uint32_t>(rec.s_peer), comm, tag_of(rec.s_tag),
                                         bytes, rec.req),
                 "MpiIsend");
    else
      out_.check(OTF2_EvtWriter_MpiSend(w_, nullptr, t0, static_cast<uint32_t>(rec.s_peer), comm, tag_of(rec.s_tag), bytes),
                 "MpiSend");
  };
  const auto recv = [&] {
    if (rec.r_peer == kCapProcNull || rec.r_peer < 0) return;
    const uint64_t bytes = rec.has_status ? rec.st_bytes : rec.r_count * rec.r_dt;
    out_.check(OTF2_EvtWriter_MpiRecv(w_, nullptr, t1, static_cast<uint32_t>(rec.r_peer), comm, tag_of(rec.r_tag), bytes),
               "MpiRecv");
  };
  switch (cap_class(rec.func)) {
    case CapClass::kSend: send(false); break;
    case CapClass::kIsend: send(true); break;
    case CapClass::kRecv: recv(); break;
    case CapClass::kIrecv:
      if (rec.r_peer != kCapProcNull) out_.check(OTF2_EvtWriter_MpiIrecvRequest(w_, nullptr, t0, rec.req), "MpiIrecvRequest");
      break;
    case CapClass::kSendrecv:
      send(false);
      recv();
      break;
    case CapClass::kCompletion: completion(rec, t1); break;
    case CapClass::kCollective: {
      const CapCollArgs a = collective_args(run_, r_, i);
      const auto op = collective_op(a.kind);
      if (!op) break;
      const auto [b, b2] = amounts(a);
      const auto [sent, received] = scorep_totals(*op, a.size, a.local, cap_rooted(rec.func) ? a.root : -1, b, b2);
      out_.check(OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, t0), "MpiCollectiveBegin");
      out_.check(OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, t1, *op, comm,
                                                 cap_rooted(rec.func) ? static_cast<uint32_t>(a.root) : OTF2_UNDEFINED_UINT32,
                                                 sent, received),
                 "MpiCollectiveEnd");
      break;
    }
    case CapClass::kCreation:
      out_.check(OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, t0), "MpiCollectiveBegin");
      if (rec.new_id >= 0 && run_.local_rank(rec.new_id, r_) >= 0)
        out_.check(OTF2_EvtWriter_CommCreate(w_, nullptr, t0, comm_ref(rec.new_id)), "CommCreate");
      out_.check(OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, t1, OTF2_COLLECTIVE_OP_CREATE_HANDLE, comm,
                                                 OTF2_UNDEFINED_UINT32, 0, 0),
                 "MpiCollectiveEnd");
      break;
    case CapClass::kFree:
      out_.check(OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, t0), "MpiCollectiveBegin");
      out_.check(OTF2_EvtWriter_CommDestroy(w_, nullptr, t0, comm), "CommDestroy");
      out_.check(OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, t1, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, comm,
                                                 OTF2_UNDEFINED_UINT32, 0, 0),
                 "MpiCollectiveEnd");
      break;
    default: break;
  }
}

}  // namespace

void write_capture_otf2(const CaptureRun& run, const std::string& dir) {
  // Time zero: the earliest time any rank recorded (all ranks' files share the unit).
  int64_t zero = INT64_MAX;
  for (RankId r = 0; r < run.num_ranks(); ++r)
    for (const CapRecord& rec : run.rank(r).records) {
      const int64_t t = rec.call == kCapNoTime ? rec.ret : rec.call;
      if (t != kCapNoTime) {
        zero = std::min(zero, t);
        break;
      }
    }
  if (zero == INT64_MAX) zero = 0;
  Otf2ArchiveWriter out(dir, "simfab " SIMFAB_VERSION " convert", static_cast<size_t>(run.num_ranks()));
  uint64_t length = 0;
  std::vector<std::string> hosts;
  for (RankId r = 0; r < run.num_ranks(); ++r) {
    length = std::max(length, RankWriter(run, r, out, zero).write());
    hosts.push_back(run.rank(r).header.hostname);
  }
  std::vector<Otf2ArchiveWriter::Comm> comms(run.num_comms() + 1);
  comms[kWorldRef].name = "MPI_COMM_WORLD";
  comms[kWorldRef].members.resize(static_cast<size_t>(run.num_ranks()));
  std::iota(comms[kWorldRef].members.begin(), comms[kWorldRef].members.end(), 0);
  comms[kSelfRef].name = "MPI_COMM_SELF";
  comms[kSelfRef].self = true;
  for (size_t id = 1; id < run.num_comms(); ++id) {
    const CapCommInfo& info = run.comm(static_cast<int32_t>(id));
    Otf2ArchiveWriter::Comm& c = comms[comm_ref(static_cast<int32_t>(id))];
    c.name = "communicator " + std::to_string(id) + " (" + std::string(cap_func_name(info.how)) + ")";
    c.parent = comm_ref(info.parent);
    for (RankId m : info.members)
      if (m >= 0) c.members.push_back(m);  // --salvage may leave members unknown
    c.created = true;
  }
  if (!run.rank(0).header.library.empty()) out.property(kOtf2LibraryProperty, run.rank(0).header.library);
  out.close(hosts, comms, 0, length);
  out.commit();
}

}  // namespace simfab
