#include "replay/goal_binary.hpp"

#include <cstring>

#include "core/error.hpp"
#include "core/mapped_file.hpp"

namespace simfab {

namespace {

constexpr std::string_view kMagic = "SIMFAB-GOAL-BIN\n";
constexpr uint32_t kVersion = 1;
constexpr uint32_t kEndian = 0x01020304;

template <class T>
void put(std::ostream& out, T v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}
template <class T>
void put_array(std::ostream& out, const std::vector<T>& v) {
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

// A cursor over the mapped bytes; every read is bounds-checked against the file's length.
class Reader {
 public:
  Reader(std::string_view text, const std::string& path) : text_(text), path_(path) {}
  template <class T>
  T get(const char* what) {
    T v;
    std::memcpy(&v, take(sizeof v, what), sizeof v);
    return v;
  }
  template <class T>
  void get_array(std::vector<T>& v, uint64_t n, const char* what) {
    if (n > (text_.size() - pos_) / sizeof(T)) fail(std::string("the file ends inside ") + what);
    v.resize(n);
    const char* src = take(n * sizeof(T), what);
    if (n > 0) std::memcpy(v.data(), src, n * sizeof(T));  // an empty vector's data() may be null
  }
  std::string_view bytes(uint64_t n, const char* what) { return {take(n, what), n}; }
  // n records of T, in place (not copied); their offset in the file goes to `offset`.
  template <class T>
  const char* records(uint64_t n, const char* what, size_t& offset) {
    if (n > (text_.size() - pos_) / sizeof(T)) fail(std::string("the file ends inside ") + what);
    offset = pos_;
    return take(n * sizeof(T), what);
  }
  bool at_end() const { return pos_ == text_.size(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(SourceLoc{path_, 0, 0}, "not a valid compiled GOAL schedule: " + what +
                                                 " (compile it again: simfab goal --compile FILE.goal -o FILE.sgb)");
  }

 private:
  const char* take(uint64_t n, const char* what) {
    if (n > text_.size() - pos_) fail(std::string("the file ends inside ") + what);
    const char* p = text_.data() + pos_;
    pos_ += n;
    return p;
  }
  std::string_view text_;
  const std::string& path_;
  size_t pos_ = 0;
};

struct PackedOp {  // the 24-byte record of the layout
  uint64_t amount;
  int32_t peer;
  int32_t tag;
  uint32_t user;
  uint8_t kind, cpu, nic, zero;
};
static_assert(sizeof(PackedOp) == 24, "the compiled form's op record is 24 bytes");

}  // namespace

bool is_compiled_goal(std::string_view text) { return text.substr(0, kMagic.size()) == kMagic; }

void write_compiled_goal(const GoalSchedule& g, std::ostream& out) {
  out.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
  put(out, kVersion);
  put(out, kEndian);
  for (uint32_t v : {static_cast<uint32_t>(g.num_ranks), static_cast<uint32_t>(g.num_cpus),
                     static_cast<uint32_t>(g.num_nics), static_cast<uint32_t>(g.switches.size())})
    put(out, v);
  put(out, static_cast<uint64_t>(g.op_count()));
  put(out, static_cast<uint64_t>(g.succ.size()));
  put(out, static_cast<uint32_t>(g.path.size()));
  out << g.path;
  for (const std::string& s : g.switches) {
    put(out, static_cast<uint32_t>(s.size()));
    out << s;
  }
  put_array(out, g.rank_begin);
  std::vector<PackedOp> chunk;
  chunk.reserve(4096);
  for (size_t i = 0; i < g.op_count(); ++i) {
    const Op& o = g.ops[static_cast<OpId>(i)];
    chunk.push_back({o.amount, o.peer, o.tag, o.user, static_cast<uint8_t>(o.kind), o.cpu, o.nic, 0});
    if (chunk.size() == chunk.capacity() || i + 1 == g.op_count()) {
      put_array(out, chunk);
      chunk.clear();
    }
  }
  put_array(out, g.succ_begin);
  put_array(out, g.succ);
  put_array(out, g.line);
}

GoalSchedule read_compiled_goal(std::string_view text, const std::string& path, MappedFile* file) {
  Reader in(text, path);
  if (!is_compiled_goal(text)) in.fail("it does not start with " + std::string("SIMFAB-GOAL-BIN"));
  in.bytes(kMagic.size(), "the magic");
  if (const auto v = in.get<uint32_t>("the version"); v != kVersion)
    in.fail("version " + std::to_string(v) + ", this simfab reads version " + std::to_string(kVersion));
  if (in.get<uint32_t>("the endian mark") != kEndian) in.fail("it was written on a machine of the other byte order");
  GoalSchedule g;
  const uint32_t ranks = in.get<uint32_t>("the header"), cpus = in.get<uint32_t>("the header"),
                 nics = in.get<uint32_t>("the header"), switches = in.get<uint32_t>("the header");
  const uint64_t ops = in.get<uint64_t>("the header"), edges = in.get<uint64_t>("the header");
  if (ranks < 1 || ranks > (1u << 24)) in.fail("num_ranks " + std::to_string(ranks) + " is not 1 to 16,777,216");
  if (cpus < 1 || cpus > 256 || nics < 1 || nics > 256) in.fail("cpus and nics per rank must be 1 to 256");
  if (ops >= UINT32_MAX || edges >= UINT32_MAX) in.fail("more than 2^32 - 1 ops or edges");
  g.num_ranks = static_cast<int>(ranks);
  g.num_cpus = static_cast<int>(cpus);
  g.num_nics = static_cast<int>(nics);
  g.path = std::string(in.bytes(in.get<uint32_t>("the source name"), "the source name"));
  for (uint32_t i = 0; i < switches; ++i)
    g.switches.emplace_back(in.bytes(in.get<uint32_t>("a switch"), "a switch"));
  in.get_array(g.rank_begin, uint64_t{ranks} + 1, "rank_begin");
  if (g.rank_begin.front() != 0 || g.rank_begin.back() != ops) in.fail("rank_begin does not span the ops");
  size_t ops_offset = 0;
  const char* packed = in.records<PackedOp>(ops, "the ops", ops_offset);
  in.get_array(g.succ_begin, ops + 1, "succ_begin");
  in.get_array(g.succ, edges, "the edges");
  in.get_array(g.line, ops, "the line numbers");
  if (!in.at_end()) in.fail("bytes after the line numbers");
  if (g.succ_begin.front() != 0 || g.succ_begin.back() != edges) in.fail("succ_begin does not span the edges");
  for (uint32_t r = 0; r < ranks; ++r) {
    const uint32_t b = g.rank_begin[r], e = g.rank_begin[r + 1];
    if (e < b || e > ops) in.fail("rank_begin decreases or passes the op count at rank " + std::to_string(r));
    if (file) file->done_before(ops_offset + size_t{b} * sizeof(PackedOp));  // decoded ops leave memory
    for (uint32_t i = b; i < e; ++i) {
      PackedOp p;
      std::memcpy(&p, packed + size_t{i} * sizeof(PackedOp), sizeof p);
      const OpId id = g.ops.alloc();
      Op& o = g.ops[id];
      auto at = [&] { return "op " + std::to_string(i) + " (line " + std::to_string(g.line[i]) + ")"; };
      if (p.kind > static_cast<uint8_t>(OpKind::kRecv) || p.cpu >= cpus || p.nic >= nics || p.zero != 0)
        in.fail(at() + " has a bad kind, cpu or nic");
      o.kind = static_cast<OpKind>(p.kind);
      o.rank = static_cast<RankId>(r);
      o.amount = p.amount;
      o.peer = p.peer;
      o.tag = p.tag;
      o.user = p.user;
      o.cpu = p.cpu;
      o.nic = p.nic;
      if (o.kind == OpKind::kCalc ? (p.user > switches || p.peer != 0 || p.tag != 0 || p.amount > INT64_MAX / 4)
                                  : (p.peer < (o.kind == OpKind::kRecv ? kAnySource : 0) ||
                                     p.peer >= static_cast<int32_t>(ranks) ||
                                     p.tag < (o.kind == OpKind::kRecv ? kAnyTag : 0) || p.user != 0))
        in.fail(at() + " has a peer, tag or switch index outside the header's ranges");
      if (g.succ_begin[i + 1] < g.succ_begin[i]) in.fail("succ_begin decreases at " + at());
    }
  }
  for (uint32_t r = 0; r < ranks; ++r)
    for (uint32_t i = g.rank_begin[r]; i < g.rank_begin[r + 1]; ++i)
      for (uint32_t e = g.succ_begin[i]; e < g.succ_begin[i + 1]; ++e) {
        const uint32_t s = g.succ[e] & ~GoalSchedule::kImmediate;
        if (s < g.rank_begin[r] || s >= g.rank_begin[r + 1] || s == i)
          in.fail("an edge of op " + std::to_string(i) + " leaves its rank's block");
        ++g.ops[s].pending;
      }
  return g;
}

GoalSchedule load_goal_file(const std::string& path, bool& compiled) {
  {
    MappedFile f(path);
    compiled = is_compiled_goal(f.text());
    if (compiled) return read_compiled_goal(f.text(), path, &f);
  }
  return parse_goal_file(path);
}

}  // namespace simfab
