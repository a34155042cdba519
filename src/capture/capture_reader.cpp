// One capture trace file -> records (see capture_reader.hpp).
#include "capture/capture_reader.hpp"

#include <charconv>
#include <string>
#include <unordered_map>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/text_locator.hpp"

namespace simfab {

namespace {

constexpr std::string_view kSimfabMagic = "# simfab-capture 1";
constexpr std::string_view kLiballprofMagic = "# htor's PMPI Tracer";
constexpr uint64_t kMaxBytes = uint64_t{1} << 40;  // TI's largest count; bytes of one transfer
constexpr uint64_t kMaxTypeSize = uint64_t{1} << 20;

// Field kinds, one character each (layouts below):
//   b/B  send/receive buffer address     c/C  send/receive count     d/D  send/receive datatype
//   p    destination (a rank)            P    source (a rank, -1 any, -2 MPI_PROC_NULL)
//   t/T  send/receive tag                r    root                       m    communicator
//   q    request number                  s    status src,tag,bytes (or -)
//   v/V  send/receive counts list        x    done list                  n    array length
//   f    flag                            o    reduction op               k/K  split colour / key
//   N    new communicator (or -)         _    a pointer (or -), unused
//   S    a status pointer (liballprof)   a    a request address (liballprof)
std::string_view kind_name(char k) {
  switch (k) {
    case 'b': return "buf";
    case 'B': return "rbuf";
    case 'c': return "count";
    case 'C': return "rcount";
    case 'd': return "dt";
    case 'D': return "rdt";
    case 'p': return "dest";
    case 'P': return "source";
    case 't': return "tag";
    case 'T': return "rtag";
    case 'r': return "root";
    case 'm': return "comm";
    case 'q': return "req";
    case 's': return "status";
    case 'v': return "counts";
    case 'V': return "rcounts";
    case 'x': return "done";
    case 'n': return "n";
    case 'f': return "flag";
    case 'o': return "op";
    case 'k': return "color";
    case 'K': return "key";
    case 'N': return "newcomm";
    case 'S': return "status_ptr";
    case 'a': return "req_ptr";
    default: return "ptr";
  }
}

constexpr const char* kAny = "*";  // any fields: a call Schedgen skips (liballprof only)

// The fields of `f` between its two times, or nullptr when the dialect does not record it.
const char* layout(CapFunc f, CapDialect d) {
  const bool lap = d == CapDialect::kLiballprof;
  switch (f) {
    case CapFunc::kInit: return "__";
    case CapFunc::kInitThread: return lap ? "____" : "__";
    case CapFunc::kFinalize: return "";
    case CapFunc::kCommRank:
    case CapFunc::kCommSize: return "m_";
    case CapFunc::kSend:
    case CapFunc::kBsend:
    case CapFunc::kSsend:
    case CapFunc::kRsend: return "bcdptm";
    case CapFunc::kIsend:
    case CapFunc::kIbsend:
    case CapFunc::kIssend:
    case CapFunc::kIrsend: return "bcdptmq";
    case CapFunc::kRecv: return lap ? "BCDPTmS" : "BCDPTms";
    case CapFunc::kIrecv: return "BCDPTmq";
    case CapFunc::kSendrecv: return lap ? "bcdptBCDPTmS" : "bcdptBCDPTms";
    case CapFunc::kSendrecvReplace: return lap ? "bcdptPTmS" : "bcdptPTms";
    case CapFunc::kWait: return lap ? "aS" : "x";
    case CapFunc::kWaitall: return lap ? "naS" : "nx";
    case CapFunc::kWaitany:
    case CapFunc::kWaitsome: return lap ? nullptr : "nx";
    case CapFunc::kTest: return lap ? kAny : "fx";
    case CapFunc::kTestall:
    case CapFunc::kTestany:
    case CapFunc::kTestsome: return lap ? kAny : "nfx";
    case CapFunc::kProbe: return lap ? "PTmS" : "PTms";
    case CapFunc::kIprobe: return lap ? kAny : "PTmfs";
    case CapFunc::kBarrier: return "m";
    case CapFunc::kBcast: return "bcdrm";
    case CapFunc::kReduce: return "bBcdorm";
    case CapFunc::kAllreduce:
    case CapFunc::kScan:
    case CapFunc::kExscan: return "bBcdom";
    case CapFunc::kReduceScatterBlock: return "bBCdom";
    case CapFunc::kReduceScatter: return lap ? nullptr : "bBVdom";
    case CapFunc::kGather:
    case CapFunc::kScatter: return "bcdBCDrm";
    case CapFunc::kAllgather:
    case CapFunc::kAlltoall: return "bcdBCDm";
    case CapFunc::kGatherv: return lap ? nullptr : "bcdBVDrm";
    case CapFunc::kScatterv: return lap ? nullptr : "bvdBCDrm";
    case CapFunc::kAllgatherv: return lap ? nullptr : "bcdBVDm";
    case CapFunc::kAlltoallv: return lap ? nullptr : "bvdBVDm";
    case CapFunc::kCommDup:
    case CapFunc::kCommCreate: return lap ? nullptr : "mN";
    case CapFunc::kCommSplit:
    case CapFunc::kCartCreate:
    case CapFunc::kCartSub:
    case CapFunc::kCommSplitType:
    case CapFunc::kGraphCreate:
    case CapFunc::kDistGraphCreate:
    case CapFunc::kDistGraphCreateAdjacent: return lap ? nullptr : "mkKN";
    case CapFunc::kCommFree: return lap ? nullptr : "m";
    case CapFunc::kMprobe: return lap ? nullptr : "PTms";
    case CapFunc::kImprobe: return lap ? nullptr : "PTmfs";
    case CapFunc::kMrecv: return lap ? nullptr : "BCDs";
    case CapFunc::kImrecv: return lap ? nullptr : "BCDq";
    // Nonblocking collectives: the blocking layout, then the request.
    case CapFunc::kIbarrier: return lap ? nullptr : "mq";
    case CapFunc::kIbcast: return lap ? nullptr : "bcdrmq";
    case CapFunc::kIreduce: return lap ? nullptr : "bBcdormq";
    case CapFunc::kIallreduce:
    case CapFunc::kIscan:
    case CapFunc::kIexscan: return lap ? nullptr : "bBcdomq";
    case CapFunc::kIreduceScatterBlock: return lap ? nullptr : "bBCdomq";
    case CapFunc::kIreduceScatter: return lap ? nullptr : "bBVdomq";
    case CapFunc::kIgather:
    case CapFunc::kIscatter: return lap ? nullptr : "bcdBCDrmq";
    case CapFunc::kIallgather:
    case CapFunc::kIalltoall: return lap ? nullptr : "bcdBCDmq";
    case CapFunc::kIgatherv: return lap ? nullptr : "bcdBVDrmq";
    case CapFunc::kIscatterv: return lap ? nullptr : "bvdBCDrmq";
    case CapFunc::kIallgatherv: return lap ? nullptr : "bcdBVDmq";
    case CapFunc::kIalltoallv: return lap ? nullptr : "bvdBVDmq";
    case CapFunc::kCommIdup: return lap ? nullptr : "mNq";
    case CapFunc::kCount: break;
  }
  return nullptr;
}

std::string layout_text(const char* l) {
  std::string out;
  for (const char* c = l; *c; ++c) {
    if (!out.empty()) out += ':';
    out += kind_name(*c);
  }
  return out.empty() ? "(none)" : out;
}

bool find_func(std::string_view name, CapFunc& f) {
  for (size_t i = 0; i < static_cast<size_t>(CapFunc::kCount); ++i)
    if (cap_func_name(static_cast<CapFunc>(i)) == name) {
      f = static_cast<CapFunc>(i);
      return true;
    }
  return false;
}

// Calls liballprof may record that Schedgen (and so simfab) skips entirely.
bool liballprof_skipped(std::string_view name) { return name == "MPI_Get_count" || name == "MPI_Wtime"; }

template <typename T>
bool to_int(std::string_view s, T& v) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// Splits `s` at `sep` into `out` (cleared first).
void split(std::string_view s, char sep, std::vector<std::string_view>& out) {
  out.clear();
  size_t b = 0;
  while (true) {
    const size_t e = s.find(sep, b);
    if (e == std::string_view::npos) {
      out.push_back(s.substr(b));
      return;
    }
    out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
}

// Where a problem with a record was found: the position in the text (for the caret) and why.
struct RecordError {
  size_t pos;
  std::string what;
};

class Reader {
 public:
  Reader(const std::string& path, std::string_view text, const ReadOptions& options, RankCapture& out)
      : path_(path), text_(text), options_(options), out_(out) {}

  void run();

 private:
  [[noreturn]] void fail(size_t pos, std::string what) const { throw error_at(path_, text_, pos, std::move(what)); }
  [[noreturn]] void bad(size_t pos, std::string what) const { throw RecordError{pos, std::move(what)}; }
  void header_line(std::string_view line, size_t pos);
  void record_line(std::string_view line, size_t pos, uint32_t line_no);
  void site_line(std::string_view line, size_t pos);
  void field(char kind, std::string_view tok, size_t pos, CapRecord& rec, int index);
  void check_record(CapRecord& rec, size_t pos);
  void check_times(CapRecord& rec, size_t pos, std::string_view call_tok, std::string_view ret_tok);
  int64_t integer(std::string_view tok, size_t pos, int64_t lo, int64_t hi, const char* what);
  uint64_t count(std::string_view tok, size_t pos, const char* what);
  CapComm comm(std::string_view tok, size_t pos, const char* what);
  uint32_t counts_list(std::string_view tok, size_t pos);
  void done_list(std::string_view tok, size_t pos, CapRecord& rec);
  void check_header(size_t pos) const;  // the simfab headers every file needs (InputError)
  void finish(size_t end_pos);
  void liballprof_rank();

  const std::string& path_;
  std::string_view text_;
  const ReadOptions& options_;
  RankCapture& out_;
  bool records_started_ = false;
  bool ended_ = false;         // `# end` seen
  std::string field_ctx_;      // "field 4 (peer) of MPI_Send" while a field is parsed
  std::vector<std::string_view> toks_, parts_, entries_;
  bool negative_[2] = {false, false};  // the record's send/receive count was negative
  int64_t prev_ret_ = kCapNoTime;
  uint32_t prev_line_ = 0;
  uint32_t site_ = 0;  // the site of the next records (index + 1 into out_.sites; 0: none)
  std::unordered_map<std::string, uint32_t> site_ids_;
};

int64_t Reader::integer(std::string_view tok, size_t pos, int64_t lo, int64_t hi, const char* what) {
  int64_t v = 0;
  if (!to_int(tok, v)) bad(pos, field_ctx_ + ": expected " + what + ", got '" + std::string(tok) + "'");
  if (v < lo || v > hi) bad(pos, field_ctx_ + ": " + std::to_string(v) + " is out of range; expected " + what);
  return v;
}

uint64_t Reader::count(std::string_view tok, size_t pos, const char* what) {
  uint64_t v = 0;
  if (!to_int(tok, v)) bad(pos, field_ctx_ + ": expected " + what + " (a non-negative integer), got '" + std::string(tok) + "'");
  if (v > kMaxBytes) bad(pos, field_ctx_ + ": " + std::to_string(v) + " is larger than simfab's limit of 2^40");
  return v;
}

CapComm Reader::comm(std::string_view tok, size_t pos, const char* what) {
  split(tok, ',', parts_);
  CapComm c;
  if (parts_.size() != 3 || !to_int(parts_[0], c.handle) || !to_int(parts_[1], c.rank) || !to_int(parts_[2], c.size))
    bad(pos, field_ctx_ + ": expected " + what + " 'id,rank,size' (three integers), got '" + std::string(tok) + "'");
  if (c.size < 1 || c.rank < 0 || c.rank >= c.size)
    bad(pos, field_ctx_ + ": rank " + std::to_string(c.rank) + " of a communicator of size " + std::to_string(c.size) +
                 "; expected 0 <= rank < size, size >= 1");
  return c;
}

uint32_t Reader::counts_list(std::string_view tok, size_t pos) {
  if (tok == "-") return kCapNoList;
  split(tok, ',', entries_);
  const uint32_t begin = static_cast<uint32_t>(out_.counts.size());
  out_.counts.push_back(entries_.size());
  for (std::string_view e : entries_) out_.counts.push_back(count(e, pos, "a count in the list"));
  return begin;
}

void Reader::done_list(std::string_view tok, size_t pos, CapRecord& rec) {
  rec.done_begin = static_cast<uint32_t>(out_.done.size());
  rec.done_count = 0;
  if (tok == "-") return;
  split(tok, ',', entries_);
  for (std::string_view e : entries_) {
    split(e, '/', parts_);
    CapDone d;
    if (parts_.size() != 4 || !to_int(parts_[0], d.req) || !to_int(parts_[1], d.src) || !to_int(parts_[2], d.tag) ||
        !to_int(parts_[3], d.bytes))
      bad(pos, field_ctx_ + ": expected done entries 'req/src/tag/bytes' separated by ',' (or '-'), got '" +
                   std::string(e) + "'");
    out_.done.push_back(d);
    ++rec.done_count;
  }
}

void Reader::field(char kind, std::string_view tok, size_t pos, CapRecord& rec, int index) {
  field_ctx_ = "field " + std::to_string(index) + " (" + std::string(kind_name(kind)) + ") of " +
               std::string(cap_func_name(rec.func));
  const auto buffer = [&]() -> uint64_t {
    if (tok == "-1") return kCapInPlace;
    uint64_t v = 0;
    if (!to_int(tok, v)) bad(pos, field_ctx_ + ": expected a buffer address (decimal, -1 for MPI_IN_PLACE), got '" + std::string(tok) + "'");
    return v;
  };
  const auto datatype = [&]() -> uint64_t {
    split(tok, ',', parts_);
    int64_t id = 0, extent = 0;
    uint64_t size = 0;
    if (parts_.size() != 3 || !to_int(parts_[0], id) || !to_int(parts_[1], size) || !to_int(parts_[2], extent))
      bad(pos, field_ctx_ + ": expected a datatype 'id,size,extent' (three integers), got '" + std::string(tok) + "'");
    if (size > kMaxTypeSize) bad(pos, field_ctx_ + ": a datatype of " + std::to_string(size) + " bytes (simfab's limit: 2^20)");
    return size;
  };
  switch (kind) {
    case 'b': rec.s_buf = buffer(); break;
    case 'B': rec.r_buf = buffer(); break;
    case 'c':
    case 'C': {
      // An element count; where MPI ignores it (its datatype is then 0,0,0) it is whatever the caller
      // passed, possibly negative: check_record decides.
      const int64_t v = integer(tok, pos, INT32_MIN, static_cast<int64_t>(kMaxBytes), "an element count (an integer)");
      (kind == 'c' ? rec.s_count : rec.r_count) = v < 0 ? 0 : static_cast<uint64_t>(v);
      (kind == 'c' ? negative_[0] : negative_[1]) = v < 0;
      break;
    }
    case 'd': rec.s_dt = datatype(); break;
    case 'D': rec.r_dt = datatype(); break;
    case 'p': rec.s_peer = static_cast<int32_t>(integer(tok, pos, kCapProcNull, INT32_MAX, "a destination rank (or -2, MPI_PROC_NULL)")); break;
    case 'P': rec.r_peer = static_cast<int32_t>(integer(tok, pos, kCapProcNull, INT32_MAX, "a source rank (or -1 any, -2 MPI_PROC_NULL)")); break;
    case 't': rec.s_tag = static_cast<int32_t>(integer(tok, pos, 0, INT32_MAX, "a tag (0 or more)")); break;
    case 'T': rec.r_tag = static_cast<int32_t>(integer(tok, pos, kCapAnyTag, INT32_MAX, "a tag (0 or more, -1 any)")); break;
    case 'r': rec.root = static_cast<int32_t>(integer(tok, pos, 0, INT32_MAX, "a root rank")); break;
    case 'm':
      rec.comm = comm(tok, pos, "a communicator");
      rec.has_comm = true;
      break;
    case 'N':
      if (tok != "-") {
        rec.newcomm = comm(tok, pos, "the new communicator");
        rec.has_newcomm = true;
      }
      break;
    case 'q':
    case 'a':
      if (!to_int(tok, rec.req)) bad(pos, field_ctx_ + ": expected a request number, got '" + std::string(tok) + "'");
      break;
    case 's':
      if (tok == "-") break;
      split(tok, ',', parts_);
      if (parts_.size() != 3 || !to_int(parts_[0], rec.st_src) || !to_int(parts_[1], rec.st_tag) ||
          !to_int(parts_[2], rec.st_bytes))
        bad(pos, field_ctx_ + ": expected a status 'src,tag,bytes' (or '-'), got '" + std::string(tok) + "'");
      rec.has_status = true;
      break;
    case 'v': rec.s_counts = counts_list(tok, pos); break;
    case 'V': rec.r_counts = counts_list(tok, pos); break;
    case 'x': done_list(tok, pos, rec); break;
    case 'n': rec.n = count(tok, pos, "an array length"); break;
    case 'f': rec.flag = integer(tok, pos, 0, 1, "a flag (0 or 1)") == 1; break;
    case 'o': integer(tok, pos, INT64_MIN, INT64_MAX, "an op handle (an integer)"); break;
    case 'k': rec.color = static_cast<int32_t>(integer(tok, pos, INT32_MIN, INT32_MAX, "a colour (an integer)")); break;
    case 'K': rec.key = static_cast<int32_t>(integer(tok, pos, INT32_MIN, INT32_MAX, "a key (an integer)")); break;
    default: {  // '_' and 'S': a pointer or '-', unused
      uint64_t v = 0;
      if (tok != "-" && !to_int(tok, v)) bad(pos, field_ctx_ + ": expected an address or '-', got '" + std::string(tok) + "'");
      break;
    }
  }
}

void Reader::check_times(CapRecord& rec, size_t pos, std::string_view call_tok, std::string_view ret_tok) {
  const std::string name(cap_func_name(rec.func));
  const bool init = cap_class(rec.func) == CapClass::kInit, fin = rec.func == CapFunc::kFinalize;
  field_ctx_ = "the call time of " + name;
  if (call_tok == "-") {
    if (!init) bad(pos, name + " has no call time ('-'); only MPI_Init's call time may be '-'");
  } else {
    rec.call = integer(call_tok, pos, INT64_MIN, INT64_MAX, "a time (an integer)");
  }
  field_ctx_ = "the return time of " + name;
  if (ret_tok == "-") {
    if (!fin) bad(pos, name + " has no return time ('-'); only MPI_Finalize's may be '-' (a record cut short?)");
  } else {
    rec.ret = integer(ret_tok, pos, INT64_MIN, INT64_MAX, "a time (an integer)");
  }
  if (rec.call != kCapNoTime && rec.ret != kCapNoTime && rec.ret < rec.call)
    bad(pos, "times go backwards: " + name + " returns at " + std::to_string(rec.ret) + ", before its call at " +
                 std::to_string(rec.call));
  if (rec.call != kCapNoTime && prev_ret_ != kCapNoTime && rec.call < prev_ret_)
    bad(pos, "times go backwards: " + name + " is called at " + std::to_string(rec.call) +
                 ", before the previous record (line " + std::to_string(prev_line_) + ") returned at " +
                 std::to_string(prev_ret_));
}

void Reader::check_record(CapRecord& rec, size_t pos) {
  const std::string name(cap_func_name(rec.func));
  const CaptureHeader& h = out_.header;
  if (rec.has_comm) {
    if (h.dialect == CapDialect::kLiballprof && !out_.header.has_world && rec.func != CapFunc::kCommFree &&
        (options_.world_size == 0 || rec.comm.size == options_.world_size)) {
      out_.header.has_world = true;
      out_.header.world = rec.comm.handle;
      out_.header.rank = rec.comm.rank;
      out_.header.size = rec.comm.size;
    }
    if (h.has_world && rec.comm.handle == h.world && (rec.comm.rank != h.rank || rec.comm.size != h.size))
      bad(pos, name + " on MPI_COMM_WORLD (handle " + std::to_string(h.world) + ") says rank " +
                   std::to_string(rec.comm.rank) + " of " + std::to_string(rec.comm.size) + ", but this file is rank " +
                   std::to_string(h.rank) + " of " + std::to_string(h.size) +
                   " (are the lines of two ranks interleaved in one file?)");
    const int32_t size = rec.comm.size;
    const auto peer = [&](int32_t p, bool src, const char* what) {
      if (p >= size || (p == kCapAnySource && !src))
        bad(pos, name + ": " + what + " " + std::to_string(p) + " is not a rank of its communicator (size " +
                     std::to_string(size) + ")");
    };
    const CapClass cls = cap_class(rec.func);
    if (cls == CapClass::kSend || cls == CapClass::kIsend || cls == CapClass::kSendrecv) peer(rec.s_peer, false, "destination");
    if (cls == CapClass::kRecv || cls == CapClass::kIrecv || cls == CapClass::kSendrecv || cls == CapClass::kProbe)
      peer(rec.r_peer, true, "source");
    if (cap_rooted(rec.func) && rec.root >= size)
      bad(pos, name + ": root " + std::to_string(rec.root) + " is not a rank of its communicator (size " +
                   std::to_string(size) + ")");
    for (uint32_t list : {rec.s_counts, rec.r_counts})
      if (list != kCapNoList && out_.counts[list] != static_cast<uint64_t>(size))
        bad(pos, name + ": a counts list of " + std::to_string(out_.counts[list]) + " entries; expected " +
                     std::to_string(size) + " (the communicator's size)");
    const bool root = rec.comm.rank == rec.root;
    const CapFunc blocking = cap_blocking(rec.func);
    if (blocking == CapFunc::kGatherv && root && rec.r_counts == kCapNoList)
      bad(pos, "MPI_Gatherv at its root needs the receive counts (got '-')");
    if (blocking == CapFunc::kScatterv && root && rec.s_counts == kCapNoList)
      bad(pos, "MPI_Scatterv at its root needs the send counts (got '-')");
    if ((blocking == CapFunc::kAllgatherv || blocking == CapFunc::kReduceScatter) && rec.r_counts == kCapNoList)
      bad(pos, name + " needs its receive counts (got '-')");
    if (blocking == CapFunc::kAlltoallv && (rec.r_counts == kCapNoList || rec.s_counts == kCapNoList))
      bad(pos, "MPI_Alltoallv needs both counts lists (got '-')");
  }
  if (cap_split_form(rec.func) && rec.color != kCapUndefined && rec.color < 0)
    bad(pos, name + ": colour " + std::to_string(rec.color) + "; expected 0 or more, or -32766 (MPI_UNDEFINED)");
  if (cap_split_form(rec.func) && (rec.color == kCapUndefined) == rec.has_newcomm)
    bad(pos, name + ": " +
                 (rec.has_newcomm ? "a new communicator for colour MPI_UNDEFINED; expected '-'"
                                  : "no new communicator ('-') for a defined colour"));
  if (cap_dup_form(rec.func) && !rec.has_newcomm) bad(pos, name + ": expected the new communicator, got '-'");
  if (rec.done_count > 0 && rec.n != 0 && rec.done_count > rec.n)
    bad(pos, name + ": " + std::to_string(rec.done_count) + " completed requests, more than the " + std::to_string(rec.n) +
                 " it was given");
  // Sendrecv_replace has one buffer for both directions; Bcast, Reduce, ... one count.
  if (rec.func == CapFunc::kSendrecvReplace) {
    rec.r_buf = rec.s_buf;
    rec.r_count = rec.s_count;
    rec.r_dt = rec.s_dt;
  }
  // A matched probe that found a message receives it: its status gives the bytes.
  if ((rec.func == CapFunc::kMprobe || rec.func == CapFunc::kImprobe) && rec.has_status) {
    rec.r_count = rec.st_bytes;
    rec.r_dt = 1;
  }
  switch (cap_blocking(rec.func)) {
    case CapFunc::kBcast:
    case CapFunc::kReduce:
    case CapFunc::kAllreduce:
    case CapFunc::kScan:
    case CapFunc::kExscan:
      rec.r_count = rec.s_count;
      rec.r_dt = rec.s_dt;
      break;
    case CapFunc::kReduceScatterBlock:
    case CapFunc::kReduceScatter: rec.r_dt = rec.s_dt; break;
    default: break;
  }
  if ((negative_[0] && rec.s_dt != 0) || (negative_[1] && rec.r_dt != 0))
    bad(pos, name + ": a negative count for a datatype of " + std::to_string(negative_[0] ? rec.s_dt : rec.r_dt) +
                 " bytes; expected 0 or more (a count may be anything only where its datatype is 0,0,0)");
  if (rec.s_count * rec.s_dt > kMaxBytes || rec.r_count * rec.r_dt > kMaxBytes)
    bad(pos, name + ": a transfer of more than 2^40 bytes (simfab's limit)");
}

void Reader::record_line(std::string_view line, size_t pos, uint32_t line_no) {
  if (ended_) bad(pos, "a record after '# end' (expected nothing after the end marker)");
  split(line, ':', toks_);
  const std::string_view fname = toks_[0];
  CapRecord rec;
  rec.line = line_no;
  negative_[0] = negative_[1] = false;
  if (!find_func(fname, rec.func)) {
    if (out_.header.dialect == CapDialect::kLiballprof && liballprof_skipped(fname)) return;
    bad(pos, "unknown function '" + std::string(fname) +
                 "'; expected an MPI function of docs/capture-format.md's table (MPI_Send, MPI_Irecv, MPI_Wait, "
                 "MPI_Allreduce, ...)");
  }
  const std::string name(fname);
  const char* lay = layout(rec.func, out_.header.dialect);
  if (lay == nullptr)
    bad(pos, name + (out_.header.dialect == CapDialect::kLiballprof
                         ? " in a liballprof trace: simfab reads only the liballprof records Schedgen reads"
                         : " is not recorded by simfab's capture library"));
  if (out_.records.empty() && cap_class(rec.func) != CapClass::kInit)
    bad(pos, name + " before MPI_Init; expected MPI_Init (or MPI_Init_thread) as the first record");
  if (!out_.records.empty() && out_.records.back().func == CapFunc::kFinalize)
    bad(pos, name + " after MPI_Finalize; expected MPI_Finalize to be the last record");
  if (!out_.records.empty() && cap_class(rec.func) == CapClass::kInit)
    bad(pos, name + " a second time; expected it only as the first record");
  if (toks_.size() < 3)
    bad(pos, "a record needs at least 'FUNC:calltime:returntime'; this one has " + std::to_string(toks_.size()) +
                 " field(s) (was it cut short?)");
  const size_t nfields = toks_.size() - 3;
  if (std::string_view(lay) == kAny) {
    check_times(rec, pos, toks_[1], toks_.back());
    prev_ret_ = rec.ret;
    prev_line_ = line_no;
    return;  // skipped: its time belongs to the gap
  }
  const size_t want = std::string_view(lay).size();
  if (nfields != want)
    bad(pos, "wrong number of fields: " + name + " has " + std::to_string(want) + " field(s) between its times (" +
                 layout_text(lay) + "), this record has " + std::to_string(nfields));
  size_t off = pos + toks_[0].size() + 1 + toks_[1].size() + 1;
  for (size_t i = 0; i < want; ++i) {
    field(lay[i], toks_[i + 2], off, rec, static_cast<int>(i + 1));
    off += toks_[i + 2].size() + 1;
  }
  check_times(rec, pos, toks_[1], toks_.back());
  check_record(rec, pos);
  if (rec.ret != kCapNoTime) {
    prev_ret_ = rec.ret;
    prev_line_ = line_no;
  }
  rec.site = site_;
  out_.records.push_back(rec);
}

void Reader::site_line(std::string_view line, size_t pos) {
  const std::string_view name = line.substr(1);
  if (name.empty() || name.find_first_of(" \t") != std::string_view::npos)
    fail(pos, "expected '@<object>+0x<offset>' (the call site of the next record), got '" + std::string(line) + "'");
  auto [it, added] = site_ids_.try_emplace(std::string(name), static_cast<uint32_t>(out_.sites.size() + 1));
  if (added) out_.sites.emplace_back(name);
  site_ = it->second;
}

void Reader::header_line(std::string_view line, size_t pos) {
  CaptureHeader& h = out_.header;
  if (line == "# end") {
    if (!out_.finalized()) fail(pos, "'# end' before MPI_Finalize; expected the MPI_Finalize record first");
    ended_ = true;
    return;
  }
  if (h.dialect != CapDialect::kSimfab || records_started_) return;  // a comment
  const size_t colon = line.find(':');
  if (line.size() < 2 || line[1] != ' ' || colon == std::string_view::npos) return;
  const std::string_view key = line.substr(2, colon - 2);
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  const auto number = [&](const char* what) {
    int64_t v = 0;
    if (!to_int(value, v)) fail(pos, "header '" + std::string(key) + "': expected " + what + ", got '" + std::string(value) + "'");
    return v;
  };
  if (key == "run") {
    if (value.empty() || value.find(' ') != std::string_view::npos)
      fail(pos, "header 'run': expected the run id (16 hex digits), got '" + std::string(value) + "'");
    h.run = std::string(value);
  } else if (key == "rank") {
    const int64_t v = number("this file's MPI_COMM_WORLD rank");
    if (v < 0 || v >= (int64_t{1} << 24)) fail(pos, "header 'rank': expected 0 .. 2^24-1, got " + std::to_string(v));
    h.rank = static_cast<int32_t>(v);
  } else if (key == "size") {
    const int64_t v = number("MPI_COMM_WORLD's size");
    if (v < 1 || v > (int64_t{1} << 24)) fail(pos, "header 'size': expected 1 .. 2^24, got " + std::to_string(v));
    h.size = static_cast<int32_t>(v);
  } else if (key == "world") {
    h.world = number("MPI_COMM_WORLD's handle id");
    h.has_world = true;
  } else if (key == "self") {
    h.self = number("MPI_COMM_SELF's handle id");
    h.has_self = true;
  } else if (key == "time-unit") {
    if (value == "ps") h.ps_per_unit = 1;
    else if (value == "ns") h.ps_per_unit = 1000;
    else if (value == "us") h.ps_per_unit = 1000000;
    else if (value == "ms") h.ps_per_unit = 1000000000;
    else fail(pos, "header 'time-unit': expected ps, ns, us or ms, got '" + std::string(value) + "'");
  } else if (key == "speed") {
    double v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !(v > 0) || v > 1e30)
      fail(pos, "header 'speed': expected a positive number of flop/s (e.g. 2e9), got '" + std::string(value) + "'");
    h.speed = v;
  } else if (key == "hostname") {
    h.hostname = std::string(value);
  } else if (key == "library") {
    h.library = std::string(value);
  }
}

void Reader::liballprof_rank() {
  CaptureHeader& h = out_.header;
  if (h.has_world) return;
  // No communicator of the world's size: the rank is the last number in the file name.
  const size_t slash = path_.find_last_of('/');
  const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  size_t e = base.size();
  while (e > 0 && !(base[e - 1] >= '0' && base[e - 1] <= '9')) --e;
  size_t b = e;
  while (b > 0 && base[b - 1] >= '0' && base[b - 1] <= '9') --b;
  int32_t r = 0;
  if (b == e || e - b > 7 || !to_int(std::string_view(base).substr(b, e - b), r))
    fail(0, "cannot tell the rank of this liballprof trace: no communicator of the world's size in its records and "
            "no number in its file name");
  h.rank = r;
  h.size = options_.world_size;
}

void Reader::check_header(size_t pos) const {
  const CaptureHeader& h = out_.header;
  if (h.dialect != CapDialect::kSimfab) return;
  if (h.rank < 0) fail(pos, "missing header '# rank: R' before the first record");
  if (h.size < 1) fail(pos, "missing header '# size: N' before the first record");
  if (!h.has_world) fail(pos, "missing header '# world: ID' (MPI_COMM_WORLD's handle) before the first record");
  if (h.run.empty()) fail(pos, "missing header '# run: ID' before the first record");
  if (h.rank >= h.size)
    fail(pos, "header rank " + std::to_string(h.rank) + " is not below the header size " + std::to_string(h.size));
}

void Reader::finish(size_t end_pos) {
  const CaptureHeader& h = out_.header;
  if (!records_started_) check_header(end_pos);  // even a file without records must say whose it is
  if (out_.records.empty())
    throw RecordError{end_pos, "truncated: the file has no records; expected MPI_Init first and MPI_Finalize last"};
  if (!out_.finalized())
    throw RecordError{end_pos, "truncated: the file ends without an MPI_Finalize record (did the run crash?)"};
  if (h.dialect == CapDialect::kSimfab && !ended_)
    throw RecordError{end_pos, "truncated: no '# end' line after MPI_Finalize (the file was not written to its end)"};
}

void Reader::run() {
  CaptureHeader& h = out_.header;
  if (!detect_capture_dialect(text_, h.dialect))
    fail(0, "not a capture trace: expected the first line '# simfab-capture 1' (simfab's capture library) or "
            "'# htor's PMPI Tracer 0.9 Output File' (liballprof)");
  if (h.dialect == CapDialect::kLiballprof) h.ps_per_unit = 1000000;
  size_t pos = 0;
  uint32_t line_no = 0;
  try {
    while (pos < text_.size()) {
      size_t e = text_.find('\n', pos);
      const bool has_newline = e != std::string_view::npos;
      if (!has_newline) e = text_.size();
      ++line_no;
      std::string_view line = text_.substr(pos, e - pos);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
      if (line.empty()) {
      } else if (line.front() == '#') {
        header_line(line, pos);
      } else if (line.front() == '@') {
        if (!records_started_) fail(pos, "a call site ('@...') before the first record (MPI_Init)");
        site_line(line, pos);
      } else {
        if (!records_started_) {
          records_started_ = true;
          check_header(pos);
        }
        ++out_.record_lines;
        if (!has_newline)
          throw RecordError{pos, "the file ends inside a record (no newline after it): the record was cut mid-line"};
        record_line(line, pos, line_no);
      }
      pos = has_newline ? e + 1 : e;
    }
    finish(text_.size());
  } catch (const RecordError& err) {
    const InputError ie = error_at(path_, text_, err.pos, err.what);
    if (!options_.salvage) throw ie;
    out_.damage_line = static_cast<uint32_t>(ie.loc().line);
    out_.damage = err.what;
  }
  if (h.dialect == CapDialect::kLiballprof) liballprof_rank();
}

}  // namespace

bool detect_capture_dialect(std::string_view text, CapDialect& dialect) {
  std::string_view first = text.substr(0, text.find('\n'));
  while (!first.empty() && (first.back() == '\r' || first.back() == ' ')) first.remove_suffix(1);
  if (first == kSimfabMagic) {
    dialect = CapDialect::kSimfab;
    return true;
  }
  if (first.substr(0, kLiballprofMagic.size()) == kLiballprofMagic) {
    dialect = CapDialect::kLiballprof;
    return true;
  }
  return false;
}

RankCapture read_capture(const std::string& path, std::string_view text, const ReadOptions& options) {
  RankCapture out;
  out.path = path;
  Reader(path, text, options, out).run();
  return out;
}

RankCapture read_capture_file(const std::string& path, const ReadOptions& options) {
  MappedFile file(path);
  return read_capture(path, file.text(), options);
}

}  // namespace simfab
