// CaptureRun: loading, the rank checks (step 2) and the queries (see capture_run.hpp).
#include "capture/capture_run.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "capture/capture_aligner.hpp"
#include "core/error.hpp"

namespace simfab {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `<anything>-<number>.txt` or `.txt.part`: the number, or -1.
int64_t rank_number(std::string_view name, bool& part) {
  part = ends_with(name, ".txt.part");
  if (part) name.remove_suffix(5);
  if (!ends_with(name, ".txt")) return -1;
  name.remove_suffix(4);
  size_t b = name.size();
  while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9') --b;
  if (b == name.size() || b == 0 || name[b - 1] != '-' || name.size() - b > 9) return -1;
  return std::stoll(std::string(name.substr(b)));
}

InputError unfinished(const std::string& path) {
  return InputError(SourceLoc{path, 0, 0},
                    "an unfinished capture (a .part file: the run did not reach MPI_Finalize); convert it with "
                    "--salvage to keep what was recorded");
}

int count_nodes(const std::vector<RankCapture>& ranks) {
  std::vector<std::string_view> hosts;
  for (const RankCapture& rc : ranks) {
    if (rc.header.hostname.empty()) return 0;
    hosts.push_back(rc.header.hostname);
  }
  std::sort(hosts.begin(), hosts.end());
  return static_cast<int>(std::unique(hosts.begin(), hosts.end()) - hosts.begin());
}

}  // namespace

std::vector<std::string> expand_capture_inputs(const std::vector<std::string>& inputs, bool salvage) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& in : inputs) {
    std::error_code ec;
    const fs::file_status st = fs::status(in, ec);
    if (ec || !fs::exists(st)) throw InputError(SourceLoc{in, 0, 0}, "no such file or directory");
    if (!fs::is_directory(st)) {
      if (ends_with(in, ".part") && !salvage) throw unfinished(in);
      out.push_back(in);
      continue;
    }
    struct Entry {
      int64_t number;
      bool part;
      std::string path;
    };
    std::vector<Entry> found;
    for (const fs::directory_entry& e : fs::directory_iterator(in, ec)) {
      bool part = false;
      const std::string name = e.path().filename().string();
      const int64_t n = rank_number(name, part);
      if (n < 0 || !e.is_regular_file()) continue;
      found.push_back(Entry{n, part, e.path().string()});
    }
    if (ec) throw InputError(SourceLoc{in, 0, 0}, "cannot list the directory: " + ec.message());
    std::sort(found.begin(), found.end(), [](const Entry& a, const Entry& b) {
      return a.number != b.number ? a.number < b.number : a.path < b.path;
    });
    size_t taken = 0;
    for (size_t i = 0; i < found.size(); ++i) {
      const Entry& e = found[i];
      // rank-R.txt wins over rank-R.txt.part (sorted first: ".txt" < ".txt.part").
      const bool finished_twin = e.part && i > 0 && found[i - 1].number == e.number && !found[i - 1].part &&
                                 found[i - 1].path + ".part" == e.path;
      if (finished_twin) continue;
      if (e.part && !salvage) throw unfinished(e.path);
      out.push_back(e.path);
      ++taken;
    }
    if (taken == 0)
      throw InputError(SourceLoc{in, 0, 0}, "no capture files in this directory; expected files named rank-<R>.txt "
                                            "(simfab's capture) or <name>-<R>.txt (liballprof)");
  }
  return out;
}

std::string ps_as_seconds(int64_t ps) {
  SIMFAB_CHECK(ps >= 0, "ps_as_seconds: negative time");
  constexpr int64_t kPerSecond = 1000000000000;
  std::string out = std::to_string(ps / kPerSecond);
  int64_t frac = ps % kPerSecond;
  if (frac == 0) return out;
  std::string digits = std::to_string(frac);
  digits.insert(0, 12 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

CaptureRun CaptureRun::load(const std::vector<std::string>& paths, const Options& options) {
  if (paths.empty()) throw InputError(SourceLoc{"command line", 0, 0}, "no capture files given");
  ReadOptions ro;
  ro.salvage = options.salvage;
  ro.world_size = static_cast<int32_t>(paths.size());
  std::vector<RankCapture> ranks;
  ranks.reserve(paths.size());
  for (const std::string& p : paths) ranks.push_back(read_capture_file(p, ro));
  return align(std::move(ranks), options);
}

CaptureRun CaptureRun::align(std::vector<RankCapture> ranks, const Options& options) {
  CaptureRun run;
  run.ranks_ = std::move(ranks);
  CaptureAligner(run, options.salvage).align();
  run.nodes_ = count_nodes(run.ranks_);
  return run;
}

bool CaptureRun::ends_with_finalize(RankId r) const {
  const RankCapture& rc = rank(r);
  return kept(r) == rc.records.size() && rc.finalized();
}

RankId CaptureRun::world_rank(int32_t comm_id, int32_t local) const {
  if (comm_id == 0) return local;
  return comm(comm_id).members[static_cast<size_t>(local)];
}

int32_t CaptureRun::local_rank(int32_t comm_id, RankId w) const {
  if (comm_id == 0) return w;
  const auto& v = by_world_[static_cast<size_t>(comm_id)];
  auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(w, INT32_MIN));
  return it != v.end() && it->first == w ? it->second : -1;
}

uint32_t CaptureRun::collective_record(int32_t comm_id, uint32_t coll_index, int32_t local) const {
  const auto& lists = colls_[static_cast<size_t>(comm_id)];
  if (local < 0 || static_cast<size_t>(local) >= lists.size()) return UINT32_MAX;
  const auto& list = lists[static_cast<size_t>(local)];
  return coll_index < list.size() ? list[coll_index] : UINT32_MAX;
}



CapStep CaptureRun::step(RankId r, uint32_t i) const {
  const RankCapture& rc = rank(r);
  const CapRecord& rec = rc.records[i];
  const bool local = rec.has_comm && rec.comm_id == kCapLocalComm;
  switch (cap_class(rec.func)) {
    case CapClass::kInit: return CapStep::kInit;
    case CapClass::kFinalize: return CapStep::kFinalize;
    case CapClass::kIgnored: return CapStep::kSkip;
    case CapClass::kSend:
    case CapClass::kIsend: return local || rec.s_peer == kCapProcNull ? CapStep::kSkip : CapStep::kOp;
    case CapClass::kRecv:
      if (rec.func == CapFunc::kImprobe && !rec.flag) return CapStep::kSkip;  // found nothing: like Iprobe
      [[fallthrough]];
    case CapClass::kIrecv:
    case CapClass::kProbe: return local || rec.r_peer == kCapProcNull ? CapStep::kSkip : CapStep::kOp;
    case CapClass::kTaken: return CapStep::kOp;
    case CapClass::kSendrecv:
      return local || (rec.s_peer == kCapProcNull && rec.r_peer == kCapProcNull) ? CapStep::kSkip : CapStep::kOp;
    case CapClass::kCompletion:
      for (uint32_t d = 0; d < rec.done_count; ++d)
        if (rc.done[rec.done_begin + d].op != CapDone::kNullRequest) return CapStep::kOp;
      return CapStep::kSkip;
    case CapClass::kCollective:
    case CapClass::kCreation: return local ? CapStep::kSkip : CapStep::kOp;
    case CapClass::kFree: return local ? CapStep::kSkip : CapStep::kMarker;
  }
  return CapStep::kSkip;
}

// ---- CaptureAligner: drivers, step 2, problems ---------------------------------------------

void CaptureAligner::align() {
  check_ranks();
  const size_t n = run_.ranks_.size();
  limit_.resize(n);
  why_.assign(n, std::string());
  for (size_t r = 0; r < n; ++r) {
    const RankCapture& rc = run_.ranks_[r];
    limit_[r] = static_cast<uint32_t>(rc.records.size());
    if (rc.damage_line != 0) why_[r] = rc.damage;
  }
  assign_comms();
  for (size_t r = 0; r < n; ++r) resolve_requests(static_cast<RankId>(r));
  check_members();
  index_collectives();
  agree();
  run_.kept_ = limit_;
  make_warnings();
}

void CaptureAligner::check_ranks() {
  std::vector<RankCapture>& ranks = run_.ranks_;
  const RankCapture& first = ranks.front();
  const auto two = [](const RankCapture& a, const RankCapture& b, const std::string& what) {
    return InputError(SourceLoc{b.path, 0, 0}, what + " (" + a.path + " and " + b.path + ")");
  };
  for (const RankCapture& rc : ranks) {
    if (rc.header.dialect != first.header.dialect)
      throw two(first, rc, "traces of different runs mixed together: a simfab capture and a liballprof trace");
    if (rc.header.run != first.header.run)
      throw two(first, rc, "traces of different runs mixed together: run " + first.header.run + " and run " +
                               rc.header.run);
    if (rc.header.size != first.header.size)
      throw two(first, rc, "traces of different runs mixed together: world size " +
                               std::to_string(first.header.size) + " and " + std::to_string(rc.header.size));
  }
  const int32_t size = first.header.size;
  if (first.header.dialect == CapDialect::kLiballprof && size != static_cast<int32_t>(ranks.size()))
    throw InputError(SourceLoc{first.path, 0, 0},
                     "this liballprof trace's MPI_COMM_WORLD has " + std::to_string(size) + " ranks, but " +
                         std::to_string(ranks.size()) + " trace files were given (one per rank is expected)");
  std::vector<int32_t> owner(static_cast<size_t>(size), -1);
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int32_t r = ranks[i].header.rank;
    if (r < 0 || r >= size)
      throw InputError(SourceLoc{ranks[i].path, 0, 0},
                       "rank " + std::to_string(r) + " is outside MPI_COMM_WORLD's " + std::to_string(size) + " ranks");
    if (owner[static_cast<size_t>(r)] >= 0)
      throw two(ranks[static_cast<size_t>(owner[static_cast<size_t>(r)])], ranks[i],
                "two files claim rank " + std::to_string(r));
    owner[static_cast<size_t>(r)] = static_cast<int32_t>(i);
  }
  for (int32_t r = 0; r < size; ++r)
    if (owner[static_cast<size_t>(r)] < 0)
      throw InputError(SourceLoc{first.path, 0, 0},
                       "no file for rank " + std::to_string(r) + ": the run had " + std::to_string(size) +
                           " ranks (MPI_COMM_WORLD's size in " + first.path + ") but " + std::to_string(ranks.size()) +
                           " file(s) were given");
  std::sort(ranks.begin(), ranks.end(),
            [](const RankCapture& a, const RankCapture& b) { return a.header.rank < b.header.rank; });
  for (const RankCapture& rc : ranks)
    if (rc.header.speed > 0) {
      run_.speed_ = rc.header.speed;
      break;
    }
}

std::string CaptureAligner::where(RankId r, uint32_t i) const {
  const RankCapture& rc = run_.rank(r);
  return rc.path + ":" + std::to_string(i < rc.records.size() ? rc.records[i].line : rc.damage_line);
}

std::string CaptureAligner::comm_name(int32_t id) const {
  if (id == 0) return "MPI_COMM_WORLD";
  const CapCommInfo& c = run_.comm(id);
  return "communicator " + std::to_string(id) + " (made by " + std::string(cap_func_name(c.how)) + " #" +
         std::to_string(c.creation) + " on " + (c.parent == 0 ? std::string("MPI_COMM_WORLD") : "communicator " + std::to_string(c.parent)) +
         (cap_split_form(c.how) ? ", colour " + std::to_string(c.color) : std::string()) + ")";
}

void CaptureAligner::fail_at(RankId r, uint32_t i, const std::string& what) const {
  const RankCapture& rc = run_.rank(r);
  const uint32_t line = i < rc.records.size() ? rc.records[i].line : 0;
  std::string text;
  if (line > 0) {
    std::ifstream in(rc.path);
    std::string l;
    for (uint32_t n = 1; n <= line && std::getline(in, l); ++n)
      if (n == line) text = l.size() > 200 ? l.substr(0, 200) + "..." : l;
  }
  throw InputError(SourceLoc{rc.path, static_cast<int>(line), 0}, what, text);
}

bool CaptureAligner::cut(RankId r, uint32_t i, const std::string& why) {
  uint32_t& lim = limit_[static_cast<size_t>(r)];
  if (i >= lim) return false;
  lim = i;
  why_[static_cast<size_t>(r)] = why;
  return true;
}

void CaptureAligner::problem(RankId r, uint32_t i, const std::string& what) {
  if (!salvage_) fail_at(r, i, what);
  cut(r, i, what);
}

void CaptureAligner::make_warnings() {
  for (int r = 0; r < run_.num_ranks(); ++r) {
    const RankCapture& rc = run_.rank(r);
    const uint32_t kept = run_.kept(r);
    if (kept == rc.records.size() && rc.damage_line == 0) continue;
    const uint32_t line = kept < rc.records.size() ? rc.records[kept].line : rc.damage_line;
    run_.warnings_.push_back(rc.path + ":" + std::to_string(line) + ": warning: rank " + std::to_string(r) +
                             " cut here (" + why_[static_cast<size_t>(r)] + "); kept " + std::to_string(kept) +
                             " of " + std::to_string(rc.record_lines) + " records");
  }
}

}  // namespace simfab
