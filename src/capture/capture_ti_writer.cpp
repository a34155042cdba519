// Capture -> TI trace lines (see capture_ti_writer.hpp).
#include "capture/capture_ti_writer.hpp"

#include <charconv>
#include <filesystem>
#include <set>
#include <system_error>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace simfab {

namespace {

constexpr int kByte = 6;
constexpr int32_t kTiAnySourceOut = -555;
constexpr int32_t kTiUndefinedOut = -333;
// A wait's tag below -1 (not -444) waits for the rank's oldest nonblocking collective on the wait's
// communicator (ti_trace.hpp).
constexpr int32_t kTiCollectiveWaitTag = -2;

// A SimGrid datatype id of `size` bytes, or -1.
int dt_id(uint64_t size) {
  switch (size) {
    case 1: return 6;
    case 2: return 3;
    case 4: return 1;
    case 8: return 0;
    case 16: return 14;
    case 32: return 27;
    default: return -1;
  }
}

class RankWriter {
 public:
  RankWriter(const CaptureRun& run, RankId r, const ConvertOptions& options, std::ostream& out)
      : run_(run), r_(r), rc_(run.rank(r)), options_(options), out_(out) {}

  void write();

 private:
  void begin(std::string_view action) {
    line_.clear();
    line_ += std::to_string(r_);
    line_ += ' ';
    line_ += action;
  }
  void arg(std::string_view s) {
    line_ += ' ';
    line_ += s;
  }
  void arg(int64_t v) { arg(std::string_view(std::to_string(v))); }
  // `count` elements of `size` bytes: the count and, last, the datatype (count_dt writes both).
  void count_dt(uint64_t count, uint64_t size) {
    const int id = dt_id(size);
    arg(static_cast<int64_t>(id >= 0 ? count : count * size));
    arg(id >= 0 ? id : kByte);
  }
  // A list of counts of one datatype: the counts (the caller writes dt_of(size) where it belongs).
  void counts(const std::vector<uint64_t>& v, uint64_t size) {
    const bool bytes = dt_id(size) < 0;
    for (uint64_t c : v) arg(static_cast<int64_t>(bytes ? c * size : c));
  }
  void count_only(uint64_t count, uint64_t size) { arg(static_cast<int64_t>(dt_id(size) >= 0 ? count : count * size)); }
  static int dt_of(uint64_t size) { return dt_id(size) >= 0 ? dt_id(size) : kByte; }
  void end(int32_t comm) {
    if (comm > 0) line_ += " comm=" + std::to_string(comm);
    line_ += '\n';
    out_ << line_;
  }
  void gap(int64_t ps, double flops);
  void sleep(int64_t ps);
  // SimGrid's `location <site> 0` before the computation that ends at record i, when its call site
  // differs from the last one written (the per-task governors' tasks; replay/ti_trace.hpp).
  void location(uint32_t i) {
    if (i >= rc_.records.size()) return;
    const uint32_t site = rc_.records[i].site;
    if (site == 0 || site == last_site_) return;
    begin("location");
    arg(rc_.sites[site - 1]);
    arg(int64_t{0});
    end(0);
    last_site_ = site;
  }
  // The flops argument of a reduction over `elements` elements (ConvertOptions::reduce_flops).
  std::string reduce_flops(uint64_t elements) const {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, options_.reduce_flops * static_cast<double>(elements));
    return std::string(buf, static_cast<size_t>(res.ptr - buf));
  }
  void op(uint32_t i);
  void point_to_point(const CapRecord& rec, uint32_t i);
  void completion(const CapRecord& rec);
  void collective(uint32_t i);
  void creation(const CapRecord& rec);
  int32_t src_of(const CapRecord& rec) const { return rec.r_peer == kCapAnySource ? kTiAnySourceOut : rec.r_peer; }

  const CaptureRun& run_;
  RankId r_;
  const RankCapture& rc_;
  const ConvertOptions& options_;
  std::ostream& out_;
  std::string line_;
  std::set<uint32_t> open_;  // records of open (non-null) requests
  uint32_t last_site_ = 0;
};

void RankWriter::sleep(int64_t ps) {
  begin("sleep");
  arg(ps_as_seconds(ps));
  end(0);
}

void RankWriter::gap(int64_t ps, double counted) {
  if (counted < 0 && ps <= 0) return;
  if (counted < 0 && options_.speed <= 0) return sleep(ps);
  if (counted == 0) return;
  const double flops = counted >= 0 ? counted : static_cast<double>(ps) * 1e-12 * options_.speed;
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, flops);
  begin("compute");
  arg(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
  end(0);
}

void RankWriter::point_to_point(const CapRecord& rec, uint32_t i) {
  const auto send_name = [](CapFunc f) -> std::string_view {
    switch (f) {
      case CapFunc::kBsend: return "bsend";
      case CapFunc::kSsend: return "ssend";
      case CapFunc::kIsend:
      case CapFunc::kIrsend: return "isend";
      case CapFunc::kIbsend: return "ibsend";
      case CapFunc::kIssend: return "issend";
      default: return "send";
    }
  };
  switch (cap_class(rec.func)) {
    case CapClass::kSend:
    case CapClass::kIsend:
      begin(send_name(rec.func));
      arg(rec.s_peer);
      arg(rec.s_tag);
      count_dt(rec.s_count, rec.s_dt);
      break;
    case CapClass::kRecv:
    case CapClass::kIrecv:
      begin(cap_class(rec.func) == CapClass::kRecv ? "recv" : "irecv");  // MPI_Mprobe too: it matches
      arg(src_of(rec));
      arg(rec.r_tag);
      count_dt(rec.r_count, rec.r_dt);
      break;
    case CapClass::kProbe:
      begin("probe");
      arg(src_of(rec));
      arg(rec.r_tag);
      break;
    default:  // sendrecv
      if (rec.s_peer == kCapProcNull || rec.r_peer == kCapProcNull) {
        const bool send = rec.r_peer == kCapProcNull;
        begin(send ? "send" : "recv");
        arg(send ? rec.s_peer : src_of(rec));
        arg(send ? rec.s_tag : rec.r_tag);
        if (send) count_dt(rec.s_count, rec.s_dt);
        else count_dt(rec.r_count, rec.r_dt);
        break;
      }
      begin("sendrecv");
      arg(rec.s_peer);
      arg(rec.s_tag);
      count_only(rec.s_count, rec.s_dt);
      arg(src_of(rec));
      arg(rec.r_tag);
      count_only(rec.r_count, rec.r_dt);
      arg(dt_of(rec.s_dt));
      arg(dt_of(rec.r_dt));
      break;
  }
  end(rec.comm_id);
  const CapClass cls = cap_class(rec.func);
  if (cls == CapClass::kIsend || cls == CapClass::kIrecv) open_.insert(i);
}

void RankWriter::completion(const CapRecord& rec) {
  std::vector<uint32_t> ops;
  for (uint32_t d = 0; d < rec.done_count; ++d) {
    const uint32_t op = rc_.done[rec.done_begin + d].op;
    if (op != CapDone::kNullRequest) ops.push_back(op);
  }
  if (ops.size() >= 2 && ops.size() == open_.size()) {
    begin("waitall");
    end(0);
    open_.clear();
    return;
  }
  for (uint32_t op : ops) {
    open_.erase(op);
    const CapRecord& o = rc_.records[op];
    begin("wait");
    if (cap_nonblocking_coll(o.func)) {  // a collective tag: the oldest nonblocking collective on its comm
      arg(-1);
      arg(-1);
      arg(kTiCollectiveWaitTag);
      end(o.comm_id);
      continue;
    }
    if (cap_class(o.func) == CapClass::kIsend) {
      arg(o.comm.rank);
      arg(o.s_peer);
      arg(o.s_tag);
    } else {
      arg(src_of(o));
      arg(o.comm.rank);
      arg(o.r_tag);
    }
    end(o.comm_id);
  }
}

void RankWriter::collective(uint32_t i) {
  const CapRecord& rec = rc_.records[i];
  const CapCollArgs a = collective_args(run_, r_, i);
  const bool nonblocking = cap_nonblocking_coll(rec.func);
  begin(nonblocking ? ti_nonblocking_name(a.kind) : ti_action_name(a.kind));
  switch (a.kind) {
    case TiKind::kBarrier: break;
    case TiKind::kBcast:
      count_only(a.s_count, a.s_dt);
      arg(a.root);
      arg(dt_of(a.s_dt));
      break;
    case TiKind::kReduce:
      count_only(a.s_count, a.s_dt);
      arg(reduce_flops(a.s_count));
      arg(a.root);
      arg(dt_of(a.s_dt));
      break;
    case TiKind::kAllreduce:
    case TiKind::kScan:
    case TiKind::kExscan:
      count_only(a.s_count, a.s_dt);
      arg(reduce_flops(a.s_count));
      arg(dt_of(a.s_dt));
      break;
    case TiKind::kReducescatter: {
      uint64_t total = 0;
      for (uint64_t c : a.r_counts) total += c;
      counts(a.r_counts, a.r_dt);
      arg(reduce_flops(total));
      arg(dt_of(a.r_dt));
      break;
    }
    case TiKind::kGather:
    case TiKind::kScatter:
      count_only(a.s_count, a.s_dt);
      count_only(a.r_count, a.r_dt);
      arg(a.root);
      arg(dt_of(a.s_dt));
      arg(dt_of(a.r_dt));
      break;
    case TiKind::kAllgather:
    case TiKind::kAlltoall:
      count_only(a.s_count, a.s_dt);
      count_only(a.r_count, a.r_dt);
      arg(dt_of(a.s_dt));
      arg(dt_of(a.r_dt));
      break;
    case TiKind::kGatherv:
      count_only(a.s_count, a.s_dt);
      counts(a.r_counts, a.r_dt);
      arg(a.root);
      arg(dt_of(a.s_dt));
      arg(dt_of(a.r_dt));
      break;
    case TiKind::kScatterv:
      counts(a.s_counts, a.s_dt);
      count_only(a.r_count, a.r_dt);
      arg(a.root);
      arg(dt_of(a.s_dt));
      arg(dt_of(a.r_dt));
      break;
    case TiKind::kAllgatherv:
      if (a.s_dt == a.r_dt) {
        count_only(a.s_count, a.s_dt);
        counts(a.r_counts, a.r_dt);
        arg(dt_of(a.r_dt));
      } else {  // one datatype for both sides: bytes
        arg(static_cast<int64_t>(a.s_count * a.s_dt));
        for (uint64_t c : a.r_counts) arg(static_cast<int64_t>(c * a.r_dt));
        arg(kByte);
      }
      break;
    case TiKind::kAlltoallv: {
      uint64_t ssum = 0, rsum = 0;
      for (uint64_t c : a.s_counts) ssum += c;
      for (uint64_t c : a.r_counts) rsum += c;
      count_only(ssum, a.s_dt);
      counts(a.s_counts, a.s_dt);
      count_only(rsum, a.r_dt);
      counts(a.r_counts, a.r_dt);
      arg(dt_of(a.s_dt));
      arg(dt_of(a.r_dt));
      break;
    }
    default: SIMFAB_CHECK(false, "capture TI writer: not a collective");
  }
  end(rec.comm_id);
  if (nonblocking) open_.insert(i);
}

void RankWriter::creation(const CapRecord& rec) {
  switch (cap_dup_form(rec.func) ? 0 : cap_split_form(rec.func) ? 1 : 2) {
    case 0:
      begin("comm_dup");
      arg(rec.new_id);
      break;
    case 1:  // MPI_Comm_split and the constructors written in its form
      begin("comm_split");
      if (rec.color == kCapUndefined) {
        arg(kTiUndefinedOut);
        arg(rec.key);
        arg(-1);
      } else {
        arg(rec.color);
        arg(rec.key);
        arg(rec.new_id);
      }
      break;
    default: {  // comm_create: the group as ranks of the parent
      begin("comm_create");
      arg(rec.has_newcomm ? rec.new_id : -1);
      if (rec.new_id < 0) {
        arg(0);
        break;
      }
      const std::vector<RankId>& members = run_.comm(rec.new_id).members;
      arg(static_cast<int64_t>(members.size()));
      for (RankId w : members) arg(run_.local_rank(rec.comm_id, w));
      break;
    }
  }
  end(rec.comm_id);
}

void RankWriter::op(uint32_t i) {
  const CapRecord& rec = rc_.records[i];
  switch (cap_class(rec.func)) {
    case CapClass::kCompletion:
    case CapClass::kTaken: return completion(rec);  // Mrecv/Imrecv: completes nothing, writes nothing
    case CapClass::kCollective: return collective(i);
    case CapClass::kCreation: return creation(rec);
    default: return point_to_point(rec, i);
  }
}

void RankWriter::write() {
  // The MPI library that ran the capture: the replay picks that library's collective algorithms
  // by default (replay/ti_trace.hpp ti_mpi_library).
  if (const std::string& lib = rc_.header.library; !lib.empty()) out_ << "# mpi-library: " << lib << "\n";
  if (const int nodes = run_.node_count(); nodes > 0) out_ << "# mpi-nodes: " << nodes << "\n";
  walk_rank(run_, r_, options_, [&](const CapVisit& v) {
    switch (v.step) {
      case CapStep::kInit:
        begin("init");
        end(0);
        break;
      case CapStep::kMarker:
        begin("comm_free");
        arg(rc_.records[v.index].comm_id);
        end(0);
        break;
      case CapStep::kOp:
        location(v.index);
        gap(v.gap_ps, v.gap_flops);
        if (v.pin_ps > 0) sleep(v.pin_ps);
        if (options_.measured_creation && cap_class(rc_.records[v.index].func) == CapClass::kCreation) {
          const int64_t cost = creation_cost_ps(run_, r_, v.index);
          if (cost > 0) sleep(cost);
        }
        op(v.index);
        break;
      case CapStep::kFinalize:
        location(v.index);
        gap(v.gap_ps, v.gap_flops);
        begin("finalize");
        end(0);
        break;
      case CapStep::kSkip: break;
    }
  });
}

}  // namespace

void write_capture_ti_rank(const CaptureRun& run, RankId r, const ConvertOptions& options, std::ostream& out) {
  RankWriter(run, r, options, out).write();
}

void write_capture_ti(const CaptureRun& run, const std::string& list_path, const ConvertOptions& options) {
  namespace fs = std::filesystem;
  const fs::path list(list_path);
  const std::string dir_name = list.filename().string() + "_files";
  const fs::path dir = list.parent_path() / dir_name;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(SourceLoc{dir.string(), 0, 0}, "cannot create the directory for the per-rank TI files: " + ec.message());
  for (int r = 0; r < run.num_ranks(); ++r) {
    const std::string path = (dir / ("rank-" + std::to_string(r) + ".ti")).string();
    write_file_atomically(path, "a TI output file",
                          [&](std::ostream& out) { write_capture_ti_rank(run, r, options, out); });
  }
  write_file_atomically(list_path, "the TI list file", [&](std::ostream& out) {
    for (int r = 0; r < run.num_ranks(); ++r) out << dir_name << "/rank-" << r << ".ti\n";
  });
}

}  // namespace simfab
