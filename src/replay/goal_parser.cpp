// GOAL text parser: see goal_schedule.hpp for the grammar. One pass over the text, one block at a
// time: ops are appended to the pool, a block's dependency lines are kept until its closing brace,
// then labels are resolved, the block is checked for cycles and its edges appended in CSR form.
#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "core/mapped_file.hpp"
#include "core/text_locator.hpp"
#include "replay/goal_schedule.hpp"

namespace simfab {

namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '+' || c == '.';
}

struct Token {
  std::string_view text;  // empty at end of input
  size_t pos = 0;
};

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  Token next() {
    skip_space();
    Token t{{}, pos_};
    if (pos_ >= text_.size()) return t;
    char c = text_[pos_];
    if (c == ':' || c == '{' || c == '}') {
      t.text = text_.substr(pos_++, 1);
      return t;
    }
    if (!is_word_char(c)) throw error(pos_, std::string("unexpected character '") + printable(c) + "'");
    size_t b = pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    t.text = text_.substr(b, pos_ - b);
    return t;
  }
  // The next whitespace-delimited run of printable characters other than braces (a switch's
  // key=value list, whose keys hold '/').
  Token raw() {
    skip_space();
    Token t{{}, pos_};
    size_t b = pos_;
    while (pos_ < text_.size() && text_[pos_] > ' ' && text_[pos_] < 0x7f && text_[pos_] != '{' && text_[pos_] != '}')
      ++pos_;
    t.text = text_.substr(b, pos_ - b);
    return t;
  }
  Token peek() {
    size_t save = pos_;
    Token t = next();
    pos_ = save;
    return t;
  }
  InputError error(size_t pos, std::string what) const { return error_at(name_, text_, pos, std::move(what)); }

  // 1-based line of `pos`. Amortised O(1) for non-decreasing positions (counts newlines since the
  // previous call), which is how the parser asks: never rescan from the start of the file.
  uint32_t line_of(size_t pos) {
    if (pos < line_pos_) line_pos_ = 0, line_ = 1;
    for (; line_pos_ < pos; ++line_pos_) line_ += text_[line_pos_] == '\n';
    return line_;
  }

 private:
  static std::string printable(char c) {
    if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
  }
  void skip_space() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '#' || (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/')) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
  size_t line_pos_ = 0;
  uint32_t line_ = 1;
};

struct PendingDep {
  Token succ;  // the op that waits
  Token pred;  // the op it waits for
  bool immediate;
};

class GoalParser {
 public:
  static constexpr int kMaxRanks = 1 << 24;  // 16,777,216 ranks

  GoalParser(std::string_view text, const std::string& name) : lex_(text, name), name_(name), text_(text) {
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
      Token rt = lex_.peek();
      auto r = static_cast<uint32_t>(integer(0, g_.num_ranks - 1, block_what_));
      expect_word("{", "'{' after 'rank N'");
      const auto first = static_cast<uint32_t>(g_.ops.size());
      parse_block(static_cast<RankId>(r));
      blocks.push_back({r, first, static_cast<uint32_t>(g_.ops.size()), rt.pos});
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
  int64_t integer(int64_t lo, int64_t hi, std::string_view what) {
    Token t = lex_.next();
    return to_int(t, lo, hi, what);
  }
  int64_t to_int(const Token& t, int64_t lo, int64_t hi, std::string_view what) {
    int64_t v = 0;
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
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
      throw lex_.error(t.pos, "expected a message size in bytes such as 10b, found '" + std::string(t.text) + "'");
    return v;
  }

  void parse_block(RankId rank) {
    labels_.clear();
    deps_.clear();
    const uint32_t first = static_cast<uint32_t>(g_.ops.size());
    for (;;) {
      Token t = lex_.next();
      if (t.text.empty()) throw lex_.error(t.pos, "expected '}' closing the block of rank " + std::to_string(rank) + ", found end of file");
      if (t.text == "}") break;
      Token sep = lex_.next();
      if (sep.text == ":") {
        if (!labels_.emplace(t.text, static_cast<uint32_t>(g_.ops.size())).second)
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

  void parse_op(RankId rank, const Token& label) {
    Token kind = lex_.next();
    OpId id = g_.ops.alloc();
    g_.line.push_back(lex_.line_of(label.pos));
    Op op;
    op.rank = rank;
    if (kind.text == "calc") {
      op.kind = OpKind::kCalc;
      op.amount = static_cast<uint64_t>(integer(0, INT64_MAX / 4, "a calc duration in picoseconds"));
    } else if (kind.text == "send" || kind.text == "recv") {
      const bool send = kind.text == "send";
      op.kind = send ? OpKind::kSend : OpKind::kRecv;
      op.amount = size_arg();
      expect_word(send ? "to" : "from", send ? "'to' after the send size" : "'from' after the recv size");
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
    std::vector<uint32_t> count(n + 1, 0);
    edges_.clear();
    for (const PendingDep& d : deps_) {
      uint32_t s = lookup(d.succ), p = lookup(d.pred);
      edges_.push_back({p - first, (s - first) | (d.immediate ? GoalSchedule::kImmediate : 0)});
      ++count[p - first];
      ++g_.ops[s].pending;
    }
    // CSR: prefix sums over the block's ops (counting sort by predecessor; stable).
    const uint32_t base = g_.succ_begin.back();
    std::vector<uint32_t> offset(n, 0);
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
    auto it = labels_.find(t.text);
    if (it == labels_.end()) throw lex_.error(t.pos, "unknown label '" + std::string(t.text) + "' (labels are local to their rank block)");
    return it->second;
  }

  void check_acyclic(uint32_t first, uint32_t n) {
    std::vector<uint32_t> indeg(n);
    std::vector<uint32_t> stack;
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
  GoalSchedule g_;
  std::string peer_what_, block_what_;  // built once: what a rank number must be, for errors
  std::unordered_map<std::string_view, uint32_t> labels_;
  std::vector<PendingDep> deps_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
};

}  // namespace

GoalSchedule parse_goal_text(std::string_view text, const std::string& name) {
  return GoalParser(text, name).parse();
}

GoalSchedule parse_goal_file(const std::string& path) {
  MappedFile f(path);
  return parse_goal_text(f.text(), path);
}

}  // namespace simfab
