// Parsing one TI trace line into a TiAction (see ti_action.hpp; layouts in ti_trace.hpp).
#include "replay/ti_action.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "core/text_locator.hpp"

namespace simfab {

namespace {

struct Layout {
  std::string_view name;
  TiKind kind;
  std::string_view args;  // the expected arguments, as documented in ti_trace.hpp
};

// In TiKind order.
constexpr Layout kLayouts[] = {
    {"init", TiKind::kInit, "[<x>]"},
    {"finalize", TiKind::kFinalize, "(no arguments)"},
    {"comm_size", TiKind::kCommSize, "[<n>]"},
    {"comm_split", TiKind::kCommSplit, "[<color> <key> <new_comm>]"},
    {"comm_dup", TiKind::kCommDup, "[<new_comm>]"},
    {"location", TiKind::kLocation, "<file> <line>"},
    {"compute", TiKind::kCompute, "<flops>"},
    {"sleep", TiKind::kSleep, "<seconds>"},
    {"send", TiKind::kSend, "<peer> <tag> <count> [<datatype>]"},
    {"isend", TiKind::kIsend, "<peer> <tag> <count> [<datatype>]"},
    {"recv", TiKind::kRecv, "<peer> <tag> <count> [<datatype>]"},
    {"irecv", TiKind::kIrecv, "<peer> <tag> <count> [<datatype>]"},
    {"wait", TiKind::kWait, "<src> <dst> <tag>"},
    {"waitall", TiKind::kWaitall, "[anything]"},
    {"test", TiKind::kTest, "[<src> <dst> <tag>]"},
    {"ssend", TiKind::kSsend, "<peer> <tag> <count> [<datatype>]"},
    {"issend", TiKind::kIssend, "<peer> <tag> <count> [<datatype>]"},
    {"bsend", TiKind::kBsend, "<peer> <tag> <count> [<datatype>]"},
    {"ibsend", TiKind::kIbsend, "<peer> <tag> <count> [<datatype>]"},
    {"rsend", TiKind::kRsend, "<peer> <tag> <count> [<datatype>]"},
    {"irsend", TiKind::kIrsend, "<peer> <tag> <count> [<datatype>]"},
    {"sendrecv", TiKind::kSendrecv,
     "<dst> <send_tag> <send_count> <src> <recv_tag> <recv_count> [<send_dt> [<recv_dt>]]"},
    {"probe", TiKind::kProbe, "<src> <tag>"},
    {"iprobe", TiKind::kIprobe, "<src> <tag>"},
    {"waitany", TiKind::kWaitany, "[<n> <src> <dst> <tag> (n keys)]"},
    {"waitsome", TiKind::kWaitsome, "[<n> <src> <dst> <tag> (n keys)]"},
    {"testany", TiKind::kTestany, "[anything]"},
    {"testsome", TiKind::kTestsome, "[anything]"},
    {"testall", TiKind::kTestall, "[anything]"},
    {"cancel", TiKind::kCancel, "<src> <dst> <tag>"},
    {"comm_create", TiKind::kCommCreate, "<new_comm> <n> <ranks x n>"},
    {"comm_free", TiKind::kCommFree, "<comm>"},
    {"barrier", TiKind::kBarrier, "(no arguments)"},
    {"bcast", TiKind::kBcast, "<count> [<root> [<datatype>]]"},
    {"reduce", TiKind::kReduce, "<count> <flops> [<root> [<datatype>]]"},
    {"allreduce", TiKind::kAllreduce, "<count> <flops> [<datatype>]"},
    {"alltoall", TiKind::kAlltoall, "<send_count> <recv_count> [<send_dt> [<recv_dt>]]"},
    {"alltoallv", TiKind::kAlltoallv,
     "<send_buf> <send_counts x P> <recv_buf> <recv_counts x P> [<send_dt> <recv_dt>]"},
    {"gather", TiKind::kGather, "<send_count> <recv_count> [<root> [<send_dt> [<recv_dt>]]]"},
    {"gatherv", TiKind::kGatherv, "<send_count> <recv_counts x P> [<root> [<send_dt> [<recv_dt>]]]"},
    {"allgather", TiKind::kAllgather, "<send_count> <recv_count> [<send_dt> [<recv_dt>]]"},
    {"allgatherv", TiKind::kAllgatherv, "<send_count> <recv_counts x P> [<datatype> [<displs>...]]"},
    {"scatter", TiKind::kScatter, "<send_count> <recv_count> [<root> [<send_dt> [<recv_dt>]]]"},
    {"scatterv", TiKind::kScatterv, "<send_counts x P> <recv_count> [<root> [<send_dt> <recv_dt>]]"},
    {"reducescatter", TiKind::kReducescatter, "<recv_counts x P> <flops> [<datatype>]"},
    {"scan", TiKind::kScan, "<count> <flops> [<datatype>]"},
    {"exscan", TiKind::kExscan, "<count> <flops> [<datatype>]"},
    {"set_pstate", TiKind::kSetPstate, "<pstate>"},
    {"migrate", TiKind::kMigrate, "(no arguments)"},
    {"switch", TiKind::kSwitch, "<key=value> [<key=value>...]"},
    {"wtime", TiKind::kWtime, "(no arguments)"},
    {"host_off", TiKind::kHostOff, "<host>"},
    {"host_on", TiKind::kHostOn, "<host>"},
};
static_assert(std::size(kLayouts) == static_cast<size_t>(TiKind::kCount));
constexpr bool layouts_in_kind_order() {
  for (size_t i = 0; i < std::size(kLayouts); ++i)
    if (static_cast<size_t>(kLayouts[i].kind) != i) return false;
  return true;
}
static_assert(layouts_in_kind_order());

// The names SMPI 3.32's TI writer (`smpirun -trace-ti`) gives actions simfab knows by another
// name (ti_trace.hpp, "WHAT SMPI 3.32 WRITES"). sendRecv and waitAny have their own argument
// layouts; Ssend and ISsend are ssend and issend.
constexpr Layout kSmpiNames[] = {
    {"Ssend", TiKind::kSsend, "<peer> <tag> <count> [<datatype>]"},
    {"ISsend", TiKind::kIssend, "<peer> <tag> <count> [<datatype>]"},
    {"sendRecv", TiKind::kSendrecv, "<send_count> <dst> <recv_count> <src> [<send_dt> [<recv_dt>]]"},
    {"waitAny", TiKind::kWaitany, "[<n>]"},
};

// Names SMPI 3.32 writes for calls its trace does not describe well enough to replay.
struct Unreplayable {
  std::string_view name;
  std::string_view why;
};
constexpr Unreplayable kUnreplayable[] = {
    {"Start", "SMPI 3.32 writes MPI_Start of a persistent request as 'Start <dst> <tag> <bytes> <dt>': a "
              "receive's source is missing and the byte count is written as an element count"},
    {"Startall", "SMPI 3.32 writes MPI_Startall as a bare 'Startall', without the requests it starts"},
};

// SimGrid's datatype ids (smpi_datatype.cpp, CREATE_MPI_DATATYPE) and sizes on x86-64; index =
// id + 1 (id -1 is MPI_DATATYPE_NULL).
constexpr int8_t kDatatypeSize[] = {
    0,                                   // -1 NULL
    8, 4, 1, 2, 8, 4, 1, 8,              // 0 DOUBLE .. 7 LONG_LONG
    1, 1, 2, 4, 8, 8, 16, 4, 1,          // 8 SIGNED_CHAR .. 16 C_BOOL
    1, 2, 4, 8, 1, 2, 4, 8,              // 17 INT8_T .. 24 UINT64_T
    8, 16, 32, 8, 8,                     // 25 C_FLOAT_COMPLEX .. 29 OFFSET
    8, 16, 16, 8, 8, 8, 16, 16,          // 30 FLOAT_INT .. 37 2LONG
    4, 4, 8, 16, 8, 16, 16,              // 38 REAL .. 44 COMPLEX32
    4, 2, 4, 8, 16, 32,                  // 45 INTEGER1 .. 50 LONG_DOUBLE_INT
    0, 0, 1, 8, 8,                       // 51 UB, 52 LB, 53 PACKED, 54 PTR, 55 COUNT
};
static_assert(std::size(kDatatypeSize) == 57);

constexpr std::string_view kDatatypeHint =
    "known ids: -1 to 55, e.g. 0 DOUBLE, 1 INT, 2 CHAR, 3 SHORT, 4 LONG, 5 FLOAT, 6 BYTE, 7 LONG_LONG "
    "(the full table is in replay/ti_trace.hpp)";

constexpr std::string_view kCommPrefix = "comm=";

bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct Tok {
  std::string_view s;
  size_t pos = 0;  // offset in the file text
};

std::string in_quotes(std::string_view s) {
  if (s.size() > 40) return "'" + std::string(s.substr(0, 40)) + "...'";
  return "'" + std::string(s) + "'";
}

class LineParser {
 public:
  LineParser(std::string_view file, const TiLine& line, int num_ranks, int comm_size, bool default_double,
             std::vector<Bytes>& counts)
      : file_(file), line_(line), world_(num_ranks), p_(comm_size), default_dt_(default_double ? 8 : 1),
        counts_(counts), cur_(line.begin), end_(line.end) {
    size_t last = line.end;
    for (size_t i = line.begin; i < line.end;) {
      while (i < line.end && is_sep(line.text[i])) ++i;
      if (i == line.end) break;
      ++ntok_;
      last = i;
      while (i < line.end && !is_sep(line.text[i])) ++i;
    }
    // A trailing `comm=<id>` names the communicator; it is not one of the action's arguments.
    if (ntok_ > 2 && line.text[last] == 'c' && line.text.substr(last, kCommPrefix.size()) == kCommPrefix) {
      const size_t b = last + kCommPrefix.size();
      const Tok id{line.text.substr(b, line.end - b), b};
      comm_ = static_cast<int32_t>(integer(id, 0, INT32_MAX, "a communicator id (0 or more) after 'comm='"));
      end_ = last;
      --ntok_;
    }
  }

  TiAction parse() {
    TiAction a;
    const Tok rank = next();
    int64_t rank_value = -1;
    if (!to_int(rank, rank_value) || rank_value < 0 || rank_value >= world_)
      fail(rank.pos, "expected a rank (0 to " + std::to_string(world_ - 1) + "), got " + in_quotes(rank.s));
    a.rank = static_cast<RankId>(rank_value);
    if (ntok_ < 2)
      fail(line_.end, "missing action after the rank; expected '<rank> <action> [arguments]'");
    const Tok act = next();
    const Layout* layout = find(act.s);
    if (!layout && act.s.size() > 1 && act.s[0] == 'i') {  // ibcast, iallreduce, ...: non-blocking
      layout = find(act.s.substr(1));
      if (layout && !ti_is_collective(layout->kind)) layout = nullptr;
      a.nonblocking = layout != nullptr;
    }
    if (!layout) {
      for (const Unreplayable& u : kUnreplayable)
        if (u.name == act.s)
          fail(act.pos, "cannot replay '" + std::string(u.name) + "': " + std::string(u.why) +
                            "; record the program without persistent requests (MPI_Send_init/MPI_Recv_init)");
      fail(act.pos, "unknown action " + in_quotes(act.s) + "; valid actions: " + ti_action_list());
    }
    layout_ = layout;
    act_ = act;
    a.kind = layout->kind;
    a.comm = comm_;
    const size_t n = ntok_ - 2;
    const size_t p = static_cast<size_t>(p_);
    switch (a.kind) {
      case TiKind::kInit:
        args(0, 1);
        a.has_arg = n == 1;
        break;
      case TiKind::kFinalize:
      case TiKind::kBarrier:
        args(0, 0);
        break;
      case TiKind::kCommSize:
        args(0, 1);
        if (n == 1) integer(next(), 0, INT32_MAX, "a communicator size");
        break;
      case TiKind::kCommSplit:
        if (n == 0) break;  // SimGrid's form: nothing to do
        args(3, 3);
        a.has_arg = true;
        a.peer = color(next());
        a.tag = static_cast<int32_t>(integer(next(), INT32_MIN, INT32_MAX, "a key (an integer)"));
        a.comm2 = new_comm(next(), a.peer == kTiUndefined);
        break;
      case TiKind::kCommDup:
        if (n == 0) break;  // SimGrid's form: nothing to do
        args(1, 1);
        a.has_arg = true;
        a.comm2 = new_comm(next(), false);
        break;
      case TiKind::kCommCreate: {
        args(2, SIZE_MAX);
        a.comm2 = new_comm(next(), true);
        const int64_t members = integer(next(), 0, p_, "a group size (0 to the communicator's size)");
        if (n != 2 + static_cast<size_t>(members)) bad_count(std::to_string(2 + members) + " (2 + the group size)");
        counts_.resize(static_cast<size_t>(members));
        for (Bytes& c : counts_) c = static_cast<Bytes>(rank_arg(next(), "group member"));
        break;
      }
      case TiKind::kCommFree:
        args(1, 1);
        a.comm2 = static_cast<int32_t>(integer(next(), 0, INT32_MAX, "a communicator id (1 or more)"));
        if (a.comm2 == 0) fail(act.pos, "MPI_COMM_WORLD (communicator 0) cannot be freed");
        break;
      case TiKind::kWaitall:
      case TiKind::kTestany:
      case TiKind::kTestsome:
      case TiKind::kTestall:
        break;
      case TiKind::kLocation: {
        args(1, SIZE_MAX);
        // `location <file> <line>`; the file name may hold blanks (all tokens but the last). SMPI
        // writes `location  0` (no file, line 0) for a program built without -trace-call-location:
        // an unknown place, kept as text "" and line 0.
        const Tok first = next();
        if (n == 1) {
          if (first.s != "0")
            fail(first.pos, "expected '<file> <line>' (the source file and line of the MPI call), got " +
                                in_quotes(first.s) + ": a location names its file; SMPI's '0' alone means unknown");
          break;
        }
        Tok last = first;
        for (size_t k = 1; k < n; ++k) last = next();
        const size_t file_end = line_.text.find_last_not_of(" \t\r", last.pos - 1) + 1;
        a.text = line_.text.substr(first.pos, file_end - first.pos);
        a.tag = static_cast<int32_t>(integer(last, 0, INT32_MAX, "a line number (0 or more) after the file name"));
        break;
      }
      case TiKind::kCompute:
        args(1, 1);
        a.amount = number(next(), "a flop amount");
        break;
      case TiKind::kSleep:
        args(1, 1);
        a.amount = number(next(), "a duration in seconds");
        break;
      case TiKind::kMigrate:
      case TiKind::kWtime:
        args(0, 0);
        break;
      case TiKind::kSwitch: {  // simfab's: from here on this rank's messages use these model keys
        args(1, SIZE_MAX);
        size_t first = SIZE_MAX;
        for (size_t k = 0; k < n; ++k) {
          const Tok t = next();
          const size_t eq = t.s.find('=');
          if (eq == std::string_view::npos || eq == 0 || eq + 1 == t.s.size())
            fail(t.pos, "expected key=value (a network model key, e.g. network/model=packet), got " + in_quotes(t.s));
          first = std::min(first, t.pos);
        }
        a.text = line_.text.substr(first, cur_ - first);
        break;
      }
      case TiKind::kHostOff:
      case TiKind::kHostOn:
        args(1, 1);
        a.text = next().s;
        break;
      case TiKind::kSetPstate:
        args(1, 1);
        a.peer = static_cast<RankId>(integer(next(), 0, INT32_MAX, "a pstate index (0 or more)"));
        break;
      case TiKind::kSend:
      case TiKind::kIsend:
      case TiKind::kRecv:
      case TiKind::kIrecv:
      case TiKind::kSsend:
      case TiKind::kIssend:
      case TiKind::kBsend:
      case TiKind::kIbsend:
      case TiKind::kRsend:
      case TiKind::kIrsend: {
        args(3, 4);
        const bool receive = a.kind == TiKind::kRecv || a.kind == TiKind::kIrecv;
        const Tok peer = next();
        a.peer = receive ? source_arg(peer) : dest_arg(peer);
        a.undefined_source = a.kind == TiKind::kIrecv && undefined(peer);
        a.tag = tag(next(), receive);
        const uint64_t c = count(next());
        a.bytes = c * dt(n == 4);
        break;
      }
      case TiKind::kSendrecv: {
        if (smpi_form()) {  // SMPI's sendRecv: no tags (SimGrid's replay uses tag 0 for both)
          args(4, 6);
          const uint64_t sc = count(next());
          a.peer = dest_arg(next());
          const uint64_t rc = count(next());
          a.peer2 = source_arg(next());
          a.bytes = sc * dt(n >= 5);
          a.bytes2 = rc * dt(n >= 6);
          break;
        }
        args(6, 8);
        a.peer = dest_arg(next());
        a.tag = tag(next(), false);
        const uint64_t sc = count(next());
        a.peer2 = source_arg(next());
        a.tag2 = tag(next(), true);
        const uint64_t rc = count(next());
        a.bytes = sc * dt(n >= 7);
        a.bytes2 = rc * dt(n >= 8);
        break;
      }
      case TiKind::kProbe:
      case TiKind::kIprobe:
        args(2, 2);
        a.peer = source_arg(next());
        a.tag = tag(next(), true);
        break;
      case TiKind::kWait:
      case TiKind::kCancel:
        args(3, 3);
        request_key(a, a.kind == TiKind::kWait);
        break;
      case TiKind::kWaitany:
      case TiKind::kWaitsome: {
        if (smpi_form()) {  // SMPI's `waitAny <n>`: the array's size, not which requests
          args(0, 1);
          if (n == 1) integer(next(), 0, INT32_MAX, "a number of requests");
          break;
        }
        if (n == 0) break;
        const int64_t keys = integer(next(), 1, 1 << 20, "a number of request keys (1 or more)");
        if (n != 1 + 3 * static_cast<size_t>(keys)) bad_count(std::to_string(1 + 3 * keys) + " (1 + 3 per key)");
        a.has_arg = true;
        counts_.resize(3 * static_cast<size_t>(keys));
        TiAction key;
        for (size_t i = 0; i < counts_.size(); i += 3) {
          request_key(key, false);
          counts_[i] = static_cast<uint32_t>(key.peer);
          counts_[i + 1] = static_cast<uint32_t>(key.peer2);
          counts_[i + 2] = static_cast<uint32_t>(key.tag);
        }
        break;
      }
      case TiKind::kTest:
        if (n != 0 && n != 3) bad_count("0 or 3");
        a.has_arg = n == 3;
        if (n == 3) request_key(a, true);
        break;
      case TiKind::kBcast: {
        args(1, 3);
        const uint64_t c = count(next());
        a.peer = n >= 2 ? rank_arg(next(), "root") : 0;
        a.bytes = c * dt(n >= 3);
        break;
      }
      case TiKind::kReduce: {
        args(2, 4);
        const uint64_t c = count(next());
        a.amount = number(next(), "a flop amount");
        a.peer = n >= 3 ? rank_arg(next(), "root") : 0;
        a.bytes = c * dt(n >= 4);
        break;
      }
      case TiKind::kScan:
      case TiKind::kExscan:
      case TiKind::kAllreduce: {
        args(2, 3);
        const uint64_t c = count(next());
        a.amount = number(next(), "a flop amount");
        a.bytes = c * dt(n >= 3);
        break;
      }
      case TiKind::kAlltoall:
      case TiKind::kAllgather: {
        args(2, 4);
        const uint64_t s = count(next());
        const uint64_t r = count(next());
        a.bytes = s * dt(n >= 3);
        a.bytes2 = r * dt(n >= 4);
        break;
      }
      case TiKind::kGather:
      case TiKind::kScatter: {
        args(2, 5);
        const uint64_t s = count(next());
        const uint64_t r = count(next());
        a.peer = n >= 3 ? rank_arg(next(), "root") : 0;
        a.bytes = s * dt(n >= 4);
        a.bytes2 = r * dt(n >= 5);
        break;
      }
      case TiKind::kAlltoallv: {
        args(2 * p + 2, 2 * p + 4);
        if (n == 2 * p + 3) bad_count(std::to_string(2 * p + 2) + " or " + std::to_string(2 * p + 4));
        counts_.resize(2 * p);
        count(next());  // send buffer size: checked, unused
        for (size_t i = 0; i < p; ++i) counts_[i] = count(next());
        count(next());  // receive buffer size
        for (size_t i = 0; i < p; ++i) counts_[p + i] = count(next());
        const Bytes sdt = dt(n == 2 * p + 4);
        const Bytes rdt = dt(n == 2 * p + 4);
        for (size_t i = 0; i < p; ++i) {
          counts_[i] *= sdt;
          counts_[p + i] *= rdt;
        }
        break;
      }
      case TiKind::kGatherv: {
        args(p + 1, p + 4);
        counts_.resize(p);
        const uint64_t s = count(next());
        for (size_t i = 0; i < p; ++i) counts_[i] = count(next());
        a.peer = n >= p + 2 ? rank_arg(next(), "root") : 0;
        a.bytes = s * dt(n >= p + 3);
        const Bytes rdt = dt(n >= p + 4);
        for (size_t i = 0; i < p; ++i) counts_[i] *= rdt;
        break;
      }
      case TiKind::kAllgatherv: {
        args(p + 1, 2 * p + 2);
        counts_.resize(p);
        const uint64_t s = count(next());
        for (size_t i = 0; i < p; ++i) counts_[i] = count(next());
        const Bytes d = dt(n >= p + 2);
        for (size_t i = p + 2; i < n; ++i) count(next(), "a displacement");
        a.bytes = s * d;
        for (size_t i = 0; i < p; ++i) counts_[i] *= d;
        break;
      }
      case TiKind::kScatterv: {
        args(p + 1, p + 4);
        if (n == p + 3) bad_count(std::to_string(p + 1) + ", " + std::to_string(p + 2) + " or " +
                                  std::to_string(p + 4));
        counts_.resize(p);
        for (size_t i = 0; i < p; ++i) counts_[i] = count(next());
        const uint64_t r = count(next());
        a.peer = n >= p + 2 ? rank_arg(next(), "root") : 0;
        const Bytes sdt = dt(n == p + 4);
        a.bytes2 = r * dt(n == p + 4);
        for (size_t i = 0; i < p; ++i) counts_[i] *= sdt;
        break;
      }
      case TiKind::kReducescatter: {
        if (n < p + 1 || n > p + 2)
          bad_count(std::to_string(p + 1) + " to " + std::to_string(p + 2),
                    " (SMPI 3.32 writes MPI_Reduce_scatter_block as a 'reducescatter' line of zeros that are not "
                    "its counts, of no fixed length: such a trace cannot be replayed)");
        counts_.resize(p);
        for (size_t i = 0; i < p; ++i) counts_[i] = count(next());
        a.amount = number(next(), "a flop amount");
        const Bytes d = dt(n == p + 2);
        Bytes total = 0;
        for (size_t i = 0; i < p; ++i) {
          counts_[i] *= d;
          if (__builtin_add_overflow(total, counts_[i], &total))
            fail(act.pos, "the receive counts of this reducescatter add up to more than 2^64 bytes");
        }
        a.bytes = total;
        break;
      }
      case TiKind::kCount:
        break;
    }
    a.dt_size = first_dt_ ? first_dt_ : default_dt_;
    return a;
  }

 private:
  static const Layout* find(std::string_view name) {
    if (name.empty()) return nullptr;
    for (const Layout& l : kLayouts)
      if (l.name.size() == name.size() && l.name[0] == name[0] && l.name == name) return &l;
    for (const Layout& l : kSmpiNames)
      if (l.name == name) return &l;
    return nullptr;
  }
  bool smpi_form() const { return layout_ >= std::begin(kSmpiNames) && layout_ < std::end(kSmpiNames); }

  Tok next() {
    size_t i = cur_;
    while (i < end_ && is_sep(line_.text[i])) ++i;
    size_t b = i;
    while (i < end_ && !is_sep(line_.text[i])) ++i;
    cur_ = i;
    return Tok{line_.text.substr(b, i - b), b};
  }

  [[noreturn]] void fail(size_t pos, std::string what) const {
    throw error_at(std::string(file_), line_.text, pos, std::move(what));
  }

  std::string layout_text() const {
    std::string text = "'" + std::string(layout_->name) + " " + std::string(layout_->args) + "'";
    if (layout_->args.find("x P") != std::string_view::npos) text += " (P = " + std::to_string(p_) + " ranks)";
    return text;
  }

  [[noreturn]] void bad_count(const std::string& expected, std::string_view hint = {}) const {
    fail(act_.pos, "wrong number of arguments for '" + std::string(layout_->name) + "': expected " +
                       layout_text() + ", i.e. " + expected + " arguments, got " + std::to_string(ntok_ - 2) +
                       std::string(hint));
  }

  void args(size_t lo, size_t hi) const {
    const size_t n = ntok_ - 2;
    if (n >= lo && n <= hi) return;
    std::string expected = lo == hi ? std::to_string(lo)
                           : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                            : std::to_string(lo) + " to " + std::to_string(hi);
    bad_count(expected);
  }

  // The whole token as a decimal integer.
  static bool to_int(const Tok& t, int64_t& v) {
    auto [end, ec] = std::from_chars(t.s.data(), t.s.data() + t.s.size(), v);
    return !t.s.empty() && ec == std::errc() && end == t.s.data() + t.s.size();
  }

  // `what` is only turned into a message on failure: no string is built per line.
  int64_t integer(const Tok& t, int64_t lo, int64_t hi, const char* what) const {
    int64_t v = 0;
    if (!to_int(t, v) || v < lo || v > hi) fail(t.pos, std::string("expected ") + what + ", got " + in_quotes(t.s));
    return v;
  }

  RankId rank_arg(const Tok& t, const char* role) const {
    int64_t v = 0;
    if (!to_int(t, v))
      fail(t.pos, std::string("expected a ") + role + " rank (an integer from 0 to " + std::to_string(p_ - 1) +
                      "), got " + in_quotes(t.s));
    if (v < 0 || v >= p_)
      fail(t.pos, std::string(role) + " rank " + std::string(t.s) + " is out of range: the trace has " +
                      std::to_string(p_) + " ranks (0 to " + std::to_string(p_ - 1) + ")");
    return static_cast<RankId>(v);
  }

  // A split colour: >= 0, or MPI_UNDEFINED (SMPI's -333, MPICH/Open MPI's -32766) -> kTiUndefined.
  int32_t color(const Tok& t) const {
    int64_t v = 0;
    if (to_int(t, v) && (v == kTiUndefined || v == -32766)) return kTiUndefined;
    return static_cast<int32_t>(integer(t, 0, INT32_MAX, "a colour (0 or more, or -333 for MPI_UNDEFINED)"));
  }
  // The id a creation gives its new communicator (>= 1); -1 (MPI_COMM_NULL) where `none_allowed`.
  int32_t new_comm(const Tok& t, bool none_allowed) const {
    int64_t v = 0;
    if (none_allowed && to_int(t, v) && v == -1) return -1;
    return static_cast<int32_t>(integer(t, 1, INT32_MAX, none_allowed ? "a communicator id (1 or more, or -1 for none)"
                                                                      : "a communicator id (1 or more)"));
  }

  // SMPI's -333 (MPI_UNDEFINED) where a peer is expected: ti_action.hpp says what it stands for.
  static bool undefined(const Tok& t) {
    int64_t v = 0;
    return to_int(t, v) && v == kTiUndefined;
  }
  // A receive's or probe's source: a rank, any source (-555 or -333) or MPI_PROC_NULL (-666).
  RankId source_arg(const Tok& t) const {
    int64_t v = 0;
    if (undefined(t) || (to_int(t, v) && v == kTiAnySource)) return kAnySource;
    if (to_int(t, v) && v == kTiProcNull) return kProcNull;
    return rank_arg(t, "source");
  }
  // A send's destination: a rank or MPI_PROC_NULL (-666, or -333: what SMPI writes for it).
  RankId dest_arg(const Tok& t) const {
    int64_t v = 0;
    if (undefined(t) || (to_int(t, v) && v == kTiProcNull)) return kProcNull;
    return rank_arg(t, "destination");
  }
  // `<src> <dst> <tag>` of a request, as isend/irecv keyed it (src may be any source). Where
  // `collective_allowed` (wait, test), a tag below -1 other than -444 is one of SMPI's internal
  // collective tags: the key of a non-blocking collective's request, whose src and dst SMPI
  // writes as meaningless integers; it sets coll_request.
  void request_key(TiAction& a, bool collective_allowed) {
    const Tok src = next();
    const Tok dst = next();
    const Tok t = next();
    int64_t v = 0;
    if (collective_allowed && to_int(t, v) && v < -1 && v != kTiAnyTag && v >= INT32_MIN) {
      integer(src, INT32_MIN, INT32_MAX, "a source (an integer)");
      integer(dst, INT32_MIN, INT32_MAX, "a destination (an integer)");
      a.coll_request = true;
      a.tag = static_cast<int32_t>(v);
      return;
    }
    a.peer = source_arg(src);
    a.undefined_source = undefined(src);
    a.peer2 = dest_arg(dst);
    a.tag = tag(t, true);
  }

  int32_t tag(const Tok& t, bool any_allowed) const {
    int64_t v = 0;
    if (any_allowed && to_int(t, v) && v == kTiAnyTag) return kAnyTag;
    return static_cast<int32_t>(integer(t, any_allowed ? -1 : 0, INT32_MAX,
                                        any_allowed ? "a tag (0 or more, or -1 or -444 for any tag)"
                                                    : "a tag (0 or more)"));
  }

  // A finite non-negative decimal number (exponents allowed).
  double number(const Tok& t, const char* what) const {
    double v = 0;
    auto [end, ec] = std::from_chars(t.s.data(), t.s.data() + t.s.size(), v);
    if (t.s.empty() || ec != std::errc() || end != t.s.data() + t.s.size() || !std::isfinite(v))
      fail(t.pos, std::string("expected ") + what + " (a number such as 1000 or 1e6), got " + in_quotes(t.s));
    if (v < 0) fail(t.pos, std::string("expected ") + what + ", which cannot be negative, got " + in_quotes(t.s));
    return v;
  }

  uint64_t count(const Tok& t, const char* what = "a count") const {
    // Fast path: plain digits.
    uint64_t u = 0;
    auto [uend, uec] = std::from_chars(t.s.data(), t.s.data() + t.s.size(), u);
    if (!t.s.empty() && uec == std::errc() && uend == t.s.data() + t.s.size() && u <= kTiMaxCount) return u;
    double v = 0;
    auto [end, ec] = std::from_chars(t.s.data(), t.s.data() + t.s.size(), v);
    if (t.s.empty() || (ec != std::errc() && ec != std::errc::result_out_of_range) ||
        end != t.s.data() + t.s.size() || std::isnan(v))
      fail(t.pos, std::string("expected ") + what + " (a whole number >= 0 such as 1000 or 1e6), got " +
                      in_quotes(t.s));
    if (v < 0) fail(t.pos, std::string("expected ") + what + ", which cannot be negative, got " + in_quotes(t.s));
    if (ec == std::errc::result_out_of_range || v > static_cast<double>(kTiMaxCount))
      fail(t.pos, std::string(what) + " " + in_quotes(t.s) + " is too large (at most 2^40 = 1099511627776)");
    if (v != std::floor(v))
      fail(t.pos, std::string("expected ") + what + ", which must be a whole number, got " + in_quotes(t.s));
    return static_cast<uint64_t>(v);
  }

  // The next token as a datatype id when `present`, else this rank's default datatype.
  Bytes dt(bool present) {
    const Bytes size = datatype(present);
    if (first_dt_ == 0) first_dt_ = size;
    return size;
  }
  Bytes datatype(bool present) {
    if (!present) return default_dt_;
    const Tok t = next();
    int64_t id = 0;
    const int size = to_int(t, id) ? ti_datatype_size(id) : -1;
    if (size < 0) fail(t.pos, "unknown datatype id " + in_quotes(t.s) + "; " + std::string(kDatatypeHint));
    return static_cast<Bytes>(size);
  }

  std::string_view file_;
  const TiLine& line_;
  int world_;  // ranks of the trace (token 0)
  int p_;      // ranks of the action's communicator (peers, roots, per-rank counts)
  Bytes default_dt_;
  std::vector<Bytes>& counts_;
  size_t cur_;
  size_t end_;  // end of the arguments (before a trailing comm=<id>)
  size_t ntok_ = 0;
  int32_t comm_ = 0;
  Bytes first_dt_ = 0;  // size of the first datatype resolved (0: none yet)
  const Layout* layout_ = nullptr;
  Tok act_;
};

}  // namespace

TiAction parse_ti_action(std::string_view file_name, const TiLine& line, int num_ranks, bool default_double,
                         std::vector<Bytes>& counts, int comm_size) {
  return LineParser(file_name, line, num_ranks, comm_size > 0 ? comm_size : num_ranks, default_double, counts).parse();
}

int32_t ti_line_comm(std::string_view file_name, const TiLine& line) {
  size_t last = line.end;
  while (last > line.begin && !is_sep(line.text[last - 1])) --last;
  if (last == line.end || line.text[last] != 'c' || line.text.substr(last, kCommPrefix.size()) != kCommPrefix) return 0;
  const std::string_view id = line.text.substr(last + kCommPrefix.size(), line.end - last - kCommPrefix.size());
  int32_t v = 0;
  auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
  if (id.empty() || ec != std::errc() || end != id.data() + id.size() || v < 0)
    throw error_at(std::string(file_name), line.text, last + kCommPrefix.size(),
                   "expected a communicator id (0 or more) after 'comm=', got " + in_quotes(id));
  return v;
}

bool is_ti_action_name(std::string_view name) {
  for (const Layout& l : kLayouts)
    if (l.name == name) return true;
  for (const Layout& l : kSmpiNames)
    if (l.name == name) return true;
  for (const Unreplayable& u : kUnreplayable)  // known, so that replay names why it refuses them
    if (u.name == name) return true;
  if (name.size() > 1 && name[0] == 'i')  // the non-blocking form of a collective
    for (const Layout& l : kLayouts)
      if (ti_is_collective(l.kind) && l.name == name.substr(1)) return true;
  return false;
}

std::string_view ti_action_name(TiKind kind) {
  const auto i = static_cast<size_t>(kind);
  return i < std::size(kLayouts) ? kLayouts[i].name : std::string_view("?");
}

std::string_view ti_nonblocking_name(TiKind kind) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Layout& l : kLayouts) v.push_back("i" + std::string(l.name));
    return v;
  }();
  const auto i = static_cast<size_t>(kind);
  return i < names.size() ? std::string_view(names[i]) : std::string_view("?");
}

bool ti_is_collective(TiKind kind) { return kind >= TiKind::kBarrier && kind <= TiKind::kExscan; }

std::string ti_action_list() {
  std::string out;
  for (const Layout& l : kLayouts) {
    if (!out.empty()) out += ", ";
    out += l.name;
  }
  out += "; each collective also as i<name> (non-blocking: ibcast, iallreduce, ...); SMPI's names";
  for (const Layout& l : kSmpiNames) out += " " + std::string(l.name);
  return out;
}

int ti_datatype_size(int64_t id) {
  if (id < -1 || id > 55) return -1;
  return kDatatypeSize[id + 1];
}

}  // namespace simfab
