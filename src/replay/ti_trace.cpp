// TiTrace: the files of a TI trace (detection, list resolution, rank count), the mapping cache,
// and the per-rank line cursor. See ti_trace.hpp.
#include "replay/ti_trace.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "core/text_locator.hpp"
#include "replay/ti_action.hpp"

namespace simfab {

namespace {

bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Finds the next significant line (not blank, not a `#` comment) at or after `pos`. On success
// [b, e) is the line without leading and trailing separators and `pos` is the start of the next
// line. memchr finds the newline, so skipping a line costs one vectorised scan.
bool next_significant(std::string_view text, size_t& pos, size_t& b, size_t& e) {
  const size_t n = text.size();
  while (pos < n) {
    const void* nl = std::memchr(text.data() + pos, '\n', n - pos);
    size_t le = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : n;
    size_t lb = pos;
    pos = nl ? le + 1 : n;
    while (lb < le && is_sep(text[lb])) ++lb;
    while (le > lb && is_sep(text[le - 1])) --le;
    if (lb == le || text[lb] == '#') continue;
    b = lb;
    e = le;
    return true;
  }
  return false;
}

size_t token_end(std::string_view text, size_t b, size_t e) {
  while (b < e && !is_sep(text[b])) ++b;
  return b;
}

// The first token of [b, e) as a rank number, or -1 when it is not a plain non-negative integer.
// Values saturate above 2^40 (far beyond kMaxRanks), so a long digit string cannot overflow.
int64_t rank_token(std::string_view text, size_t b, size_t e) {
  const size_t te = token_end(text, b, e);
  if (te == b) return -1;
  int64_t v = 0;
  for (size_t i = b; i < te; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return -1;
    if (v < (int64_t{1} << 40)) v = v * 10 + (c - '0');
  }
  return v;
}

std::string_view second_token(std::string_view text, size_t b, size_t e) {
  size_t i = token_end(text, b, e);
  while (i < e && is_sep(text[i])) ++i;
  return text.substr(i, token_end(text, i, e) - i);
}

bool is_action_line(std::string_view text, size_t b, size_t e) {
  return rank_token(text, b, e) >= 0 && is_ti_action_name(second_token(text, b, e));
}

std::string in_quotes(std::string_view s) {
  if (s.size() > 60) return "'" + std::string(s.substr(0, 60)) + "...'";
  return "'" + std::string(s) + "'";
}

}  // namespace

std::unique_ptr<TiTrace> open_ti_trace(const std::string& path) { return TiTrace::open(path); }

int ti_num_ranks(const TiTrace& trace) { return trace.num_ranks(); }

TiOrigin ti_origin(const TiTrace& trace) {
  TiOrigin out;
  if (trace.streaming() || trace.file_count() == 0) return out;
  static constexpr std::string_view kLibrary = "# mpi-library:", kNodes = "# mpi-nodes:";
  const std::string_view text = trace.text(0);
  const auto value_of = [](std::string_view l, std::string_view key) {
    l.remove_prefix(key.size());
    while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
    return l;
  };
  size_t pos = 0;
  for (int line = 1; pos < text.size() && text[pos] == '#'; ++line) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(pos, end - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const SourceLoc at{std::string(trace.file_name(0)), line, 0};
    if (l.substr(0, kLibrary.size()) == kLibrary) {
      out.library = std::string(value_of(l, kLibrary));
      out.library_at = at;
    } else if (l.substr(0, kNodes.size()) == kNodes) {
      const std::string_view v = value_of(l, kNodes);
      int n = 0;
      const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (v.empty() || ec != std::errc() || p != v.data() + v.size() || n < 1)
        throw InputError(at, "expected '# mpi-nodes: <the number of nodes the traced run used, 1 or more>'",
                         std::string(l));
      out.nodes = n;
      out.nodes_at = at;
    }
    pos = end + 1;
  }
  return out;
}

std::unique_ptr<TiTrace> TiTrace::open(const std::string& path) {
  auto file = std::make_unique<MappedFile>(path);
  const std::string_view text = file->text();
  size_t pos = 0, b = 0, e = 0;
  if (!next_significant(text, pos, b, e))
    throw InputError(SourceLoc{path, 0, 0},
                     "empty TI trace: expected lines '<rank> <action> [arguments]', or a list of trace "
                     "files with one path per line");
  std::unique_ptr<TiTrace> t(new TiTrace);
  if (is_action_line(text, b, e)) {
    t->shared_ = true;
    t->add_file(path);
    t->slot_of_.assign(1, 0);
    t->maps_.resize(1);
    t->slot_file_.assign(1, 0);
    t->last_use_.assign(1, 0);
    t->maps_[0] = std::move(file);
    t->used_slots_ = 1;
    t->scan_ranks(0);
  } else {
    t->list_path_ = path;
    t->read_list(text);
  }
  return t;
}

std::unique_ptr<TiTrace> TiTrace::open_stream(int num_ranks, const std::string& name,
                                               std::function<void(RankId)> more) {
  if (num_ranks < 1 || num_ranks > kMaxRanks)
    throw InputError(SourceLoc{name, 0, 0}, "a stream needs 1 to " + std::to_string(kMaxRanks) + " ranks");
  std::unique_ptr<TiTrace> t(new TiTrace);
  for (int r = 0; r < num_ranks; ++r) t->add_file(name + " rank " + std::to_string(r));
  t->num_ranks_ = num_ranks;
  t->more_ = std::move(more);
  t->streams_.resize(static_cast<size_t>(num_ranks));
  t->ended_.assign(static_cast<size_t>(num_ranks), 0);
  return t;
}

void TiTrace::append(RankId r, std::string_view lines) const {
  SIMFAB_CHECK(more_ && !ended_[static_cast<size_t>(r)], "TiTrace::append: not an open stream");
  streams_[static_cast<size_t>(r)].append(lines);
}

void TiTrace::end_stream(RankId r) const {
  SIMFAB_CHECK(more_, "TiTrace::end_stream: not a stream");
  ended_[static_cast<size_t>(r)] = 1;
}

void TiTrace::add_file(std::string_view path) {
  paths_.append(path);
  path_end_.push_back(paths_.size());
}

std::string_view TiTrace::file_name(uint32_t file) const {
  const size_t begin = file == 0 ? 0 : path_end_[file - 1];
  return std::string_view(paths_).substr(begin, path_end_[file] - begin);
}

void TiTrace::read_list(std::string_view text) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(list_path_).parent_path();
  size_t pos = 0, b = 0, e = 0;
  while (next_significant(text, pos, b, e)) {
    const std::string_view entry = text.substr(b, e - b);
    const fs::path p{std::string(entry)};
    std::error_code ec;
    std::string resolved;
    std::string tried;
    if (p.is_absolute() || dir.empty()) {
      if (fs::exists(p, ec)) resolved = p.string();
      tried = in_quotes(p.string());
    } else {
      const fs::path near = dir / p;
      if (fs::exists(near, ec)) resolved = near.string();
      else if (fs::exists(p, ec)) resolved = p.string();
      tried = in_quotes(near.string()) + " (next to the list file) and " + in_quotes(p.string()) +
              " (relative to the current directory)";
    }
    if (resolved.empty()) {
      std::string what = "trace file " + in_quotes(entry) + " not found: tried " + tried +
                         ". This file was read as a list of trace files (one path per line) because its "
                         "first line is not a trace line '<rank> <action> [arguments]'";
      const std::string_view second = second_token(text, b, e);
      if (path_end_.empty() && rank_token(text, b, e) >= 0 && !second.empty())
        what += "; if it is a trace, " + in_quotes(second) + " is not an action (valid: " + ti_action_list() + ")";
      throw error_at(list_path_, text, b, std::move(what));
    }
    if (path_end_.size() >= static_cast<size_t>(kMaxRanks))
      throw error_at(list_path_, text, b,
                     "too many trace files: simfab replays at most " + std::to_string(kMaxRanks) + " ranks");
    add_file(resolved);
  }
  const size_t files = path_end_.size();
  const size_t slots = files <= kKeepAllMapped ? files : kCacheSlots;
  slot_of_.assign(files, -1);
  maps_.resize(slots);
  slot_file_.assign(slots, 0);
  last_use_.assign(slots, 0);
  if (files > 1) {
    num_ranks_ = static_cast<int>(files);
    return;
  }
  // One path: a trace shared by every rank.
  shared_ = true;
  const std::string_view trace = this->text(0);
  size_t tpos = 0;
  if (!next_significant(trace, tpos, b, e))
    throw InputError(SourceLoc{std::string(file_name(0)), 0, 0},
                     "empty TI trace (named by " + list_path_ + "): expected lines '<rank> <action> [arguments]'");
  if (!is_action_line(trace, b, e))
    throw error_at(std::string(file_name(0)), trace, b,
                   "expected a trace line '<rank> <action> [arguments]' (this file is named by the list " +
                       list_path_ + "; valid actions: " + ti_action_list() + ")");
  scan_ranks(0);
}

void TiTrace::scan_ranks(uint32_t file) {
  const std::string_view text = this->text(file);
  int64_t max_rank = -1;
  size_t pos = 0, b = 0, e = 0;
  while (next_significant(text, pos, b, e)) {
    const int64_t r = rank_token(text, b, e);
    if (r < 0)
      throw error_at(std::string(file_name(file)), text, b,
                     "expected a rank (an integer, 0 or more) as the first token of the line, got " +
                         in_quotes(text.substr(b, token_end(text, b, e) - b)));
    if (r >= kMaxRanks)
      throw error_at(std::string(file_name(file)), text, b,
                     "rank " + std::string(text.substr(b, token_end(text, b, e) - b)) +
                         " is too large: simfab replays at most " + std::to_string(kMaxRanks) + " ranks");
    const auto i = static_cast<size_t>(r);
    if (i >= span_.size() / 2) span_.resize(2 * (i + 1), kUnseen);
    if (span_[2 * i] == kUnseen) span_[2 * i] = b;
    span_[2 * i + 1] = pos;
    max_rank = std::max(max_rank, r);
  }
  num_ranks_ = static_cast<int>(max_rank + 1);
  for (size_t i = 0; i < span_.size(); i += 2)
    if (span_[i] == kUnseen) span_[i] = span_[i + 1] = 0;  // a rank without lines: empty span
  span_.shrink_to_fit();
}

std::string_view TiTrace::text(uint32_t file) const {
  if (more_) return streams_[file];
  int32_t s = slot_of_[file];
  if (s >= 0) {
    last_use_[static_cast<size_t>(s)] = ++clock_;
    return maps_[static_cast<size_t>(s)]->text();
  }
  size_t slot = 0;
  if (used_slots_ < maps_.size()) {
    slot = used_slots_++;
  } else {
    slot = static_cast<size_t>(std::min_element(last_use_.begin(), last_use_.end()) - last_use_.begin());
    slot_of_[slot_file_[slot]] = -1;
    maps_[slot].reset();
  }
  maps_[slot] = std::make_unique<MappedFile>(std::string(file_name(file)));
  slot_file_[slot] = file;
  slot_of_[file] = static_cast<int32_t>(slot);
  last_use_[slot] = ++clock_;
  return maps_[slot]->text();
}

bool TiTrace::next_line(RankId r, uint64_t& pos, TiLine& line) const {
  if (more_) {  // a stream: wait for rank r's next line, or its end
    const std::string& s = streams_[static_cast<size_t>(r)];
    size_t p = static_cast<size_t>(pos), b = 0, e = 0;
    for (;;) {
      const size_t had = s.size();
      if (next_significant(s, p, b, e)) break;
      if (ended_[static_cast<size_t>(r)]) {
        pos = p;
        return false;
      }
      while (s.size() == had && !ended_[static_cast<size_t>(r)]) more_(r);
    }
    if (rank_token(s, b, e) != r)
      throw error_at(std::string(file_name(static_cast<uint32_t>(r))), s, b,
                     "expected rank " + std::to_string(r) + "'s own line");
    pos = p;
    line = TiLine{s, b, e, static_cast<uint32_t>(r)};
    return true;
  }
  const uint32_t file = file_of(r);
  const std::string_view text = this->text(file);
  size_t p = static_cast<size_t>(pos), b = 0, e = 0;
  std::string_view scan = text;
  if (shared_) {
    // Only [first line, end of last line) of this rank can hold its lines (found at open).
    const auto i = 2 * static_cast<size_t>(r);
    p = std::max(p, static_cast<size_t>(span_[i]));
    scan = text.substr(0, std::max(p, static_cast<size_t>(span_[i + 1])));
  }
  while (next_significant(scan, p, b, e)) {
    const int64_t owner = rank_token(text, b, e);
    if (owner == r) {
      pos = p;
      line = TiLine{text, b, e, file};
      return true;
    }
    if (shared_ && owner >= 0) continue;  // another rank's line (validated by scan_ranks)
    const std::string_view tok = text.substr(b, token_end(text, b, e) - b);
    if (owner < 0)
      throw error_at(std::string(file_name(file)), text, b,
                     "expected this file's rank " + std::to_string(r) +
                         " (an integer) as the first token of the line, got " + in_quotes(tok));
    throw error_at(std::string(file_name(file)), text, b,
                   "this line is for rank " + std::string(tok) + ", but this file is the trace of rank " +
                       std::to_string(r) + " (entry " + std::to_string(r + 1) + " of the list " + list_path_ +
                       "); every line of a per-rank trace must start with that rank");
  }
  pos = p;
  return false;
}

size_t TiTrace::memory_bytes() const {
  return sizeof(*this) + paths_.capacity() + path_end_.capacity() * sizeof(uint64_t) +
         span_.capacity() * sizeof(uint64_t) +
         slot_of_.capacity() * sizeof(int32_t) +
         maps_.capacity() * (sizeof(std::unique_ptr<MappedFile>) + sizeof(MappedFile) + sizeof(uint32_t) +
                             sizeof(uint64_t));
}

void TiTrace::rank_extent(RankId r, uint64_t& first, uint64_t& size) const {
  if (more_) {  // unknown until the stream ends
    first = size = 0;
    return;
  }
  if (shared_) {
    first = span_[2 * static_cast<size_t>(r)];
    const uint64_t end = span_[2 * static_cast<size_t>(r) + 1];
    if (first == kUnseen || end == kUnseen) first = 0, size = 0;
    else size = end - first;
    return;
  }
  if (file_size_.empty()) {
    file_size_.resize(file_count());
    for (uint32_t f = 0; f < file_count(); ++f) {
      std::error_code ec;
      const auto n = std::filesystem::file_size(std::string(file_name(f)), ec);
      file_size_[f] = ec ? 0 : static_cast<uint64_t>(n);
    }
  }
  first = 0;
  size = file_size_[file_of(r)];
}

}  // namespace simfab
