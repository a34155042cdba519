// GOAL text parser: see goal_schedule.hpp for the grammar. One pass over the text, one block at a
// time: ops are appended to the pool, a block's dependency lines are kept until its closing brace,
// then labels are resolved, the block is checked for cycles and its edges appended in CSR form.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "core/mapped_file.hpp"
#include "core/text_locator.hpp"
#include "replay/goal_schedule.hpp"

namespace simfab {

namespace {

// Character classes, one table lookup per byte: word characters, and the blanks and newlines the
// lexer skips.
struct CharClasses {
  bool word[256] = {};
  CharClasses() {
    for (int c = 'a'; c <= 'z'; ++c) word[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) word[c] = true;
    for (int c = '0'; c <= '9'; ++c) word[c] = true;
    for (char c : {'_', '-', '+', '.'}) word[static_cast<unsigned char>(c)] = true;
  }
};
const CharClasses kClasses;

inline bool is_word_char(char c) { return kClasses.word[static_cast<unsigned char>(c)]; }

// w == lit, with the literal's length known to the compiler (a few integer compares, no memcmp call).
template <size_t N>
[[gnu::always_inline]] inline bool is(std::string_view w, const char (&lit)[N]) {
  return w.size() == N - 1 && std::memcmp(w.data(), lit, N - 1) == 0;
}

struct Token {
  std::string_view text;  // empty at end of input
  size_t pos = 0;
  uint32_t line = 0;  // 1-based line of pos
};

// The lexer keeps the line number as it skips newlines (no second pass over the text) and one
// token of look-ahead (peek() then next() lexes once).
class Lexer {
 public:
  Lexer(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  Token next() {
    if (peeked_) {
      peeked_ = false;
      return ahead_;
    }
    return lex();
  }
  const Token& peek() {
    if (!peeked_) {
      ahead_ = lex();
      peeked_ = true;
    }
    return ahead_;
  }
  // The next whitespace-delimited run of printable characters other than braces (a switch's
  // key=value list, whose keys hold '/').
  Token raw() {
    SIMFAB_CHECK(!peeked_, "raw() after peek()");
    skip_space();
    Token t{{}, pos_, line_};
    size_t b = pos_;
    while (pos_ < text_.size() && text_[pos_] > ' ' && text_[pos_] < 0x7f && text_[pos_] != '{' && text_[pos_] != '}')
      ++pos_;
    t.text = text_.substr(b, pos_ - b);
    return t;
  }
  InputError error(size_t pos, std::string what) const { return error_at(name_, text_, pos, std::move(what)); }
  size_t pos() const { return pos_; }

  // For GoalParser's statement-shaped fast path: the raw cursor after the blanks, the line there,
  // and a jump past what the fast path consumed (never across a newline, so the line stands).
  // Only without a pending peek().
  bool has_peeked() const { return peeked_; }
  const char* skip_to_token() {
    skip_space();
    return text_.data() + pos_;
  }
  const char* end() const { return text_.data() + text_.size(); }
  uint32_t line() const { return line_; }
  size_t offset(const char* p) const { return static_cast<size_t>(p - text_.data()); }
  void jump_to(const char* p) { pos_ = offset(p); }

 private:
  [[gnu::always_inline]] Token lex() {
    skip_space();
    Token t{{}, pos_, line_};
    if (pos_ >= text_.size()) return t;
    const char c = text_[pos_];
    if (c == ':' || c == '{' || c == '}') {
      t.text = text_.substr(pos_++, 1);
      return t;
    }
    if (!is_word_char(c)) throw error(pos_, std::string("unexpected character '") + printable(c) + "'");
    const char* p = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    const char* q = p + 1;
    while (q < end && is_word_char(*q)) ++q;
    t.text = std::string_view(p, static_cast<size_t>(q - p));
    pos_ += t.text.size();
    return t;
  }
  static std::string printable(char c) {
    if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
  }
  [[gnu::always_inline]] void skip_space() {
    const char* p = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    while (p < end) {
      const char c = *p;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p;
      } else if (c == '\n') {
        ++p;
        ++line_;
      } else if (c == '#' || (c == '/' && p + 1 < end && p[1] == '/')) {
        const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
        p = nl ? static_cast<const char*>(nl) : end;
      } else {
        break;
      }
    }
    pos_ = static_cast<size_t>(p - text_.data());
  }
  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  Token ahead_;
  bool peeked_ = false;
};

// A block's labels: open addressing over a power-of-two table, emptied in O(1) per block by a
// generation stamp (a block's table is reused by the next, so no allocation per block or label).
class LabelTable {
 public:
  // Inserts `label` -> op; false when the label is already there.
  bool insert(std::string_view label, uint32_t op) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    Slot& s = find(label);
    if (s.stamp == stamp_) return false;
    s = {label, op, stamp_};
    ++count_;
    return true;
  }
  // The op of `label`, or nullopt.
  const uint32_t* lookup(std::string_view label) {
    if (slots_.empty()) return nullptr;
    Slot& s = find(label);
    return s.stamp == stamp_ ? &s.op : nullptr;
  }
  void clear() {
    count_ = 0;
    if (++stamp_ == 0) {  // wrapped: really empty the table once every 2^32 blocks
      for (Slot& s : slots_) s.stamp = 0;
      stamp_ = 1;
    }
  }

 private:
  struct Slot {
    std::string_view key;
    uint32_t op = 0;
    uint32_t stamp = 0;  // live when equal to stamp_
  };
  static uint64_t hash(std::string_view k) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : k) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h ^ (h >> 29);
  }
  Slot& find(std::string_view k) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(k) & mask;; i = (i + 1) & mask)
      if (slots_[i].stamp != stamp_ || slots_[i].key == k) return slots_[i];
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
    const uint32_t live = stamp_;
    for (const Slot& s : old)
      if (s.stamp == live) find(s.key) = s;
  }
  std::vector<Slot> slots_;
  size_t count_ = 0;
  uint32_t stamp_ = 1;
};

struct PendingDep {
  Token succ;  // the op that waits
  Token pred;  // the op it waits for
  bool immediate;
};

class GoalParser {
 public:
  static constexpr int kMaxRanks = 1 << 24;  // 16,777,216 ranks

  GoalParser(std::string_view text, const std::string& name, MappedFile* file)
      : lex_(text, name), name_(name), text_(text), file_(file) {
    g_.path = name;
  }

  GoalSchedule parse() {
    expect_word("num_ranks", "'num_ranks N' at the start of a GOAL file");
    g_.num_ranks = static_cast<int>(integer(1, kMaxRanks, "a rank count from 1 to " + std::to_string(kMaxRanks)));
    peer_what_ = "a rank below num_ranks " + std::to_string(g_.num_ranks);
    block_what_ = "a rank number below num_ranks " + std::to_string(g_.num_ranks);
    // Per-rank tables are built only after every block has been read, so their size follows the
    // file's content, not a (possibly corrupt) num_ranks.
    struct Block {
      uint32_t rank, begin, end;
      size_t pos;
    };
    std::vector<Block> blocks;
    g_.succ_begin.push_back(0);
    for (Token t = lex_.next(); !t.text.empty(); t = lex_.next()) {
      if (t.text != "rank") throw lex_.error(t.pos, "expected 'rank N {', found '" + std::string(t.text) + "'");
      const Token rt = lex_.peek();
      auto r = static_cast<uint32_t>(integer(0, g_.num_ranks - 1, block_what_));
      expect_word("{", "'{' after 'rank N'");
      const auto first = static_cast<uint32_t>(g_.ops.size());
      parse_block(static_cast<RankId>(r));
      blocks.push_back({r, first, static_cast<uint32_t>(g_.ops.size()), rt.pos});
      if (file_) file_->done_before(lex_.pos());
    }
    std::stable_sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.rank < b.rank; });
    for (size_t i = 1; i < blocks.size(); ++i)
      if (blocks[i].rank == blocks[i - 1].rank)
        throw lex_.error(blocks[i].pos, "rank " + std::to_string(blocks[i].rank) + " has a second block");
    for (size_t r = 0; r < static_cast<size_t>(g_.num_ranks); ++r) {
      if (r < blocks.size() && blocks[r].rank == r) continue;
      throw InputError(SourceLoc{name_, 0, 0}, "rank " + std::to_string(r) + " has no 'rank " +
                                                   std::to_string(r) + " { ... }' block (num_ranks is " +
                                                   std::to_string(g_.num_ranks) + ")");
    }
    std::vector<uint32_t> begin(blocks.size()), end(blocks.size());
    for (size_t r = 0; r < blocks.size(); ++r) begin[r] = blocks[r].begin, end[r] = blocks[r].end;
    g_.rank_begin.assign(static_cast<size_t>(g_.num_ranks) + 1, 0);
    reorder_by_rank(begin, end);
    return std::move(g_);
  }

 private:
  // The value of 1 to 19 decimal digits (below 10^19, so no overflow), else nullopt.
  [[gnu::always_inline]] static std::optional<uint64_t> digits(std::string_view s) {
    if (s.empty() || s.size() > 19) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
      const unsigned d = static_cast<unsigned char>(c) - '0';
      if (d > 9) return std::nullopt;
      v = v * 10 + d;
    }
    return v;
  }
  int64_t integer(int64_t lo, int64_t hi, std::string_view what) {
    Token t = lex_.next();
    return to_int(t, lo, hi, what);
  }
  int64_t to_int(const Token& t, int64_t lo, int64_t hi, std::string_view what) {
    int64_t v = 0;
    if (const auto d = digits(t.text); d && lo >= 0) {  // the common case: plain decimal digits
      if (*d <= static_cast<uint64_t>(hi) && static_cast<int64_t>(*d) >= lo) return static_cast<int64_t>(*d);
    }
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (t.text.empty() || ec != std::errc() || p != t.text.data() + t.text.size() || v < lo || v > hi)
      throw lex_.error(t.pos, "expected " + std::string(what) + ", found '" + std::string(t.text.empty() ? "end of file" : t.text) + "'");
    return v;
  }
  void expect_word(std::string_view w, std::string_view what) {
    Token t = lex_.next();
    if (t.text != w) throw lex_.error(t.pos, "expected " + std::string(what) + ", found '" + std::string(t.text.empty() ? "end of file" : t.text) + "'");
  }

  uint64_t size_arg() {
    Token t = lex_.next();
    std::string_view s = t.text;
    if (!s.empty() && (s.back() == 'b' || s.back() == 'B')) s.remove_suffix(1);
    const auto v = digits(s);
    if (!v) throw lex_.error(t.pos, "expected a message size in bytes such as 10b, found '" + std::string(t.text) + "'");
    return *v;
  }

  void parse_block(RankId rank) {
    labels_.clear();
    deps_.clear();
    const uint32_t first = static_cast<uint32_t>(g_.ops.size());
    for (;;) {
      if (fast_statement(rank)) continue;
      Token t = lex_.next();
      if (t.text.empty()) throw lex_.error(t.pos, "expected '}' closing the block of rank " + std::to_string(rank) + ", found end of file");
      if (t.text == "}") break;
      Token sep = lex_.next();
      if (sep.text == ":") {
        if (!labels_.insert(t.text, static_cast<uint32_t>(g_.ops.size())))
          throw lex_.error(t.pos, "label '" + std::string(t.text) + "' defined twice in the block of rank " + std::to_string(rank));
        parse_op(rank, t);
      } else if (sep.text == "requires" || sep.text == "irequires") {
        Token pred = lex_.next();
        if (pred.text.empty() || pred.text == "}" || pred.text == ":" || pred.text == "{")
          throw lex_.error(pred.pos, "expected a label after '" + std::string(sep.text) + "'");
        deps_.push_back({t, pred, sep.text == "irequires"});
      } else {
        throw lex_.error(sep.pos, "expected ':' (label: operation) or 'requires'/'irequires' after '" +
                                      std::string(t.text) + "', found '" + std::string(sep.text.empty() ? "end of file" : sep.text) + "'");
      }
    }
    resolve_block(first);
  }

  // The statements Schedgen and simfab write, each alone on its line:
  //     LABEL: send SIZE[b] to RANK tag TAG      LABEL: recv SIZE[b] from RANK|any tag TAG|any
  //     LABEL: calc PS                            LABEL requires|irequires LABEL
  // read straight from the text, without tokens. Anything else (comments, cpu/nic modifiers,
  // several statements on a line, switch, a value out of range, a label defined twice) returns
  // false having consumed nothing, and the token path reads it, with its exact error messages.
  // Both paths give the same ops, edges and line numbers.
  bool fast_statement(RankId rank) {
    if (lex_.has_peeked()) return false;
    const char* p = lex_.skip_to_token();
    const char* const end = lex_.end();
    auto word = [&](const char*& q) __attribute__((always_inline)) {
      const char* b = q;
      while (q < end && is_word_char(*q)) ++q;
      return std::string_view(b, static_cast<size_t>(q - b));
    };
    auto blanks = [&](const char*& q) __attribute__((always_inline)) {
      while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    };
    auto next_word = [&](const char*& q) __attribute__((always_inline)) {
      blanks(q);
      return word(q);
    };
    auto at_eol = [&](const char* q) { return q == end || *q == '\n'; };
    const char* label_at = p;
    const std::string_view label = word(p);
    if (label.empty()) return false;
    blanks(p);
    if (p < end && *p == ':') {
      ++p;
      const std::string_view kind = next_word(p);
      Op op;
      op.rank = rank;
      if (is(kind, "calc")) {
        const auto v = digits(next_word(p));
        if (!v || *v > static_cast<uint64_t>(INT64_MAX / 4)) return false;
        op.amount = *v;
      } else if (is(kind, "send") || is(kind, "recv")) {
        const bool send = is(kind, "send");
        op.kind = send ? OpKind::kSend : OpKind::kRecv;
        std::string_view size = next_word(p);
        if (!size.empty() && (size.back() == 'b' || size.back() == 'B')) size.remove_suffix(1);
        const auto bytes = digits(size);
        if (!bytes) return false;
        if (const std::string_view w = next_word(p); send ? !is(w, "to") : !is(w, "from")) return false;
        const std::string_view peer = next_word(p);
        const auto peer_v = digits(peer);
        if (!send && is(peer, "any")) op.peer = kAnySource;
        else if (peer_v && *peer_v < static_cast<uint64_t>(g_.num_ranks)) op.peer = static_cast<int32_t>(*peer_v);
        else return false;
        if (!is(next_word(p), "tag")) return false;
        const std::string_view tag = next_word(p);
        const auto tag_v = digits(tag);
        if (!send && is(tag, "any")) op.tag = kAnyTag;
        else if (tag_v && *tag_v <= static_cast<uint64_t>(INT32_MAX)) op.tag = static_cast<int32_t>(*tag_v);
        else return false;
        op.amount = *bytes;
      } else {
        return false;
      }
      blanks(p);
      if (!at_eol(p) || !labels_.insert(label, static_cast<uint32_t>(g_.ops.size()))) return false;
      g_.ops[g_.ops.alloc()] = op;
      g_.line.push_back(lex_.line());
      lex_.jump_to(p);
      return true;
    }
    const std::string_view how = word(p);
    const bool immediate = is(how, "irequires");
    if (!immediate && !is(how, "requires")) return false;
    blanks(p);
    const char* pred_at = p;
    const std::string_view pred = word(p);
    blanks(p);
    if (pred.empty() || !at_eol(p)) return false;
    deps_.push_back({Token{label, lex_.offset(label_at), lex_.line()}, Token{pred, lex_.offset(pred_at), lex_.line()},
                     immediate});
    lex_.jump_to(p);
    return true;
  }

  void parse_op(RankId rank, const Token& label) {
    Token kind = lex_.next();
    OpId id = g_.ops.alloc();
    g_.line.push_back(label.line);
    Op op;
    op.rank = rank;
    if (kind.text == "calc") {
      op.kind = OpKind::kCalc;
      op.amount = static_cast<uint64_t>(integer(0, INT64_MAX / 4, "a calc duration in picoseconds"));
    } else if (kind.text == "send" || kind.text == "recv") {
      const bool send = kind.text == "send";
      op.kind = send ? OpKind::kSend : OpKind::kRecv;
      op.amount = size_arg();
      if (send) expect_word("to", "'to' after the send size");
      else expect_word("from", "'from' after the recv size");
      Token peer = lex_.next();
      if (!send && peer.text == "any") op.peer = kAnySource;
      else op.peer = static_cast<int32_t>(to_int(peer, 0, g_.num_ranks - 1, peer_what_));
      expect_word("tag", "'tag N'");
      Token tag = lex_.next();
      if (!send && tag.text == "any") op.tag = kAnyTag;
      else op.tag = static_cast<int32_t>(to_int(tag, 0, INT32_MAX, "a tag (0 or more)"));
    } else if (kind.text == "switch") {  // simfab's: a model switch, as a zero calc (goal_schedule.hpp)
      const Token changes = lex_.raw();
      size_t item = 0;
      for (;;) {  // key=value[,key=value...]
        const size_t comma = std::min(changes.text.find(',', item), changes.text.size());
        const std::string_view kv = changes.text.substr(item, comma - item);
        const size_t eq = kv.find('=');
        if (eq == std::string_view::npos || eq == 0 || eq + 1 == kv.size())
          throw lex_.error(changes.pos + item, "expected key=value[,key=value...] after 'switch' (e.g. "
                                               "network/model=packet), got '" + std::string(kv) + "'");
        if (comma == changes.text.size()) break;
        item = comma + 1;
      }
      op.kind = OpKind::kCalc;
      g_.switches.emplace_back(std::string(changes.text));
      op.user = static_cast<uint32_t>(g_.switches.size());
    } else {
      throw lex_.error(kind.pos, "unknown operation '" + std::string(kind.text) + "'; expected calc, send, recv or switch");
    }
    for (;;) {
      Token m = lex_.peek();
      if (m.text == "cpu") {
        lex_.next();
        op.cpu = static_cast<uint8_t>(integer(0, 255, "a cpu index (0-255)"));
        if (op.cpu + 1 > g_.num_cpus) g_.num_cpus = op.cpu + 1;
      } else if (m.text == "nic" && op.kind != OpKind::kCalc) {
        lex_.next();
        op.nic = static_cast<uint8_t>(integer(0, 255, "a nic index (0-255)"));
        if (op.nic + 1 > g_.num_nics) g_.num_nics = op.nic + 1;
      } else {
        break;
      }
    }
    g_.ops[id] = op;
  }

  // Resolves the block's labels, checks it is acyclic and appends its edges in CSR form.
  void resolve_block(uint32_t first) {
    const uint32_t n = static_cast<uint32_t>(g_.ops.size()) - first;
    std::vector<uint32_t>& count = count_;
    count.assign(n + 1, 0);
    edges_.clear();
    for (const PendingDep& d : deps_) {
      uint32_t s = lookup(d.succ), p = lookup(d.pred);
      edges_.push_back({p - first, (s - first) | (d.immediate ? GoalSchedule::kImmediate : 0)});
      ++count[p - first];
      ++g_.ops[s].pending;
    }
    // CSR: prefix sums over the block's ops (counting sort by predecessor; stable).
    const uint32_t base = g_.succ_begin.back();
    std::vector<uint32_t>& offset = offset_;
    offset.assign(n, 0);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; ++i) {
      offset[i] = acc;
      acc += count[i];
      g_.succ_begin.push_back(base + acc);
    }
    g_.succ.resize(base + acc);
    for (const auto& [p, s] : edges_) {
      uint32_t flag = s & GoalSchedule::kImmediate;
      g_.succ[base + offset[p]++] = ((s & ~GoalSchedule::kImmediate) + first) | flag;
    }
    check_acyclic(first, n);
  }

  uint32_t lookup(const Token& t) {
    const uint32_t* op = labels_.lookup(t.text);
    if (!op) throw lex_.error(t.pos, "unknown label '" + std::string(t.text) + "' (labels are local to their rank block)");
    return *op;
  }

  void check_acyclic(uint32_t first, uint32_t n) {
    std::vector<uint32_t>& indeg = count_;  // resolve_block is done with its counts
    std::vector<uint32_t>& stack = offset_;
    indeg.assign(n, 0);
    stack.clear();
    for (uint32_t i = 0; i < n; ++i) {
      indeg[i] = g_.ops[first + i].pending;
      if (indeg[i] == 0) stack.push_back(i);
    }
    uint32_t seen = 0;
    while (!stack.empty()) {
      uint32_t i = stack.back();
      stack.pop_back();
      ++seen;
      for (uint32_t e = g_.succ_begin[first + i] ; e < g_.succ_begin[first + i + 1]; ++e) {
        uint32_t s = (g_.succ[e] & ~GoalSchedule::kImmediate) - first;
        if (--indeg[s] == 0) stack.push_back(s);
      }
    }
    if (seen == n) return;
    for (const PendingDep& d : deps_) {
      if (indeg[lookup(d.succ) - first] > 0 && indeg[lookup(d.pred) - first] > 0)
        throw lex_.error(d.succ.pos, "dependency cycle: '" + std::string(d.succ.text) + "' and '" +
                                         std::string(d.pred.text) + "' wait for each other (directly or through other operations)");
    }
    SIMFAB_CHECK(false, "cycle detected but no edge on it found");
  }

  // Blocks may appear in any rank order; ops must be contiguous in rank order for per-rank ranges.
  void reorder_by_rank(const std::vector<uint32_t>& begin, const std::vector<uint32_t>& end) {
    bool sorted = true;
    for (size_t r = 1; r < begin.size(); ++r) sorted &= begin[r] == end[r - 1];
    if (sorted) {
      for (size_t r = 0; r < begin.size(); ++r) g_.rank_begin[r] = begin[r];
      g_.rank_begin.back() = static_cast<uint32_t>(g_.ops.size());
      return;
    }
    const size_t total = g_.ops.size();
    std::vector<uint32_t> new_id(total);
    uint32_t next = 0;
    for (size_t r = 0; r < begin.size(); ++r) {
      g_.rank_begin[r] = next;
      for (uint32_t o = begin[r]; o < end[r]; ++o) new_id[o] = next++;
    }
    g_.rank_begin.back() = next;
    OpPool ops;
    std::vector<uint32_t> line(total), sb(total + 1), succ;
    succ.reserve(g_.succ.size());
    std::vector<uint32_t> old_of(total);
    for (uint32_t o = 0; o < total; ++o) old_of[new_id[o]] = o;
    for (uint32_t n = 0; n < total; ++n) {
      uint32_t o = old_of[n];
      ops[ops.alloc()] = g_.ops[o];
      line[n] = g_.line[o];
      sb[n] = static_cast<uint32_t>(succ.size());
      for (uint32_t e = g_.succ_begin[o]; e < g_.succ_begin[o + 1]; ++e)
        succ.push_back(new_id[g_.succ[e] & ~GoalSchedule::kImmediate] | (g_.succ[e] & GoalSchedule::kImmediate));
    }
    sb[total] = static_cast<uint32_t>(succ.size());
    g_.ops = std::move(ops);
    g_.line = std::move(line);
    g_.succ_begin = std::move(sb);
    g_.succ = std::move(succ);
  }

  Lexer lex_;
  const std::string& name_;
  std::string_view text_;
  MappedFile* file_;  // the text's mapping, if any: read blocks are given back (done_before)
  GoalSchedule g_;
  std::string peer_what_, block_what_;  // built once: what a rank number must be, for errors
  LabelTable labels_;
  std::vector<uint32_t> count_, offset_;  // resolve_block's and check_acyclic's scratch, reused
  std::vector<PendingDep> deps_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
};

}  // namespace

GoalSchedule parse_goal_text(std::string_view text, const std::string& name) {
  return GoalParser(text, name, nullptr).parse();
}

GoalSchedule parse_goal_file(const std::string& path) {
  MappedFile f(path);
  return GoalParser(f.text(), path, &f).parse();
}

}  // namespace simfab
