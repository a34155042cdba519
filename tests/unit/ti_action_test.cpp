// parse_ti_action: every action's layout, numbers, datatypes and every class of bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "replay/ti_action.hpp"

namespace simfab {
namespace {

// Parses line `which` (1-based, counting every line) of `text`.
struct Parsed {
  TiAction action;
  std::vector<Bytes> counts;
};

Parsed parse(const std::string& text, int ranks, bool default_double = false, int which = 1) {
  size_t b = 0;
  for (int i = 1; i < which; ++i) b = text.find('\n', b) + 1;
  size_t e = text.find('\n', b);
  if (e == std::string::npos) e = text.size();
  Parsed p;
  p.action = parse_ti_action("t.txt", TiLine{text, b, e, 0}, ranks, default_double, p.counts);
  return p;
}

InputError parse_error(const std::string& text, int ranks, int which = 1) {
  try {
    parse(text, ranks, false, which);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for: " << text;
  return InputError(SourceLoc{}, "");
}

// The error is at t.txt:line:column and its message contains `needle`.
void expect_error(const std::string& text, int ranks, int line, int column, const std::string& needle, int which = 1) {
  const InputError e = parse_error(text, ranks, which);
  EXPECT_EQ(e.loc().file, "t.txt") << text;
  EXPECT_EQ(e.loc().line, line) << text;
  EXPECT_EQ(e.loc().column, column) << text << ": " << e.message();
  EXPECT_NE(e.message().find(needle), std::string::npos) << "message: " << e.message() << "\nexpected: " << needle;
  EXPECT_FALSE(e.text().empty());
  EXPECT_NE(format_error(e).find("t.txt:" + std::to_string(line) + ":"), std::string::npos) << format_error(e);
}

TEST(TiAction, PointToPointLayouts) {
  TiAction a = parse("0 send 1 7 1e3", 2).action;
  EXPECT_EQ(a.kind, TiKind::kSend);
  EXPECT_EQ(a.rank, 0);
  EXPECT_EQ(a.peer, 1);
  EXPECT_EQ(a.tag, 7);
  EXPECT_EQ(a.bytes, 1000u);

  a = parse("3 irecv 0 -1 10 0", 4).action;  // tag -1 = any tag, DOUBLE
  EXPECT_EQ(a.kind, TiKind::kIrecv);
  EXPECT_EQ(a.tag, -1);
  EXPECT_EQ(a.bytes, 80u);

  EXPECT_EQ(parse("1 isend 0 2 1e+06", 2).action.bytes, 1000000u);
  EXPECT_EQ(parse("1 recv 0 2 5e4", 2).action.bytes, 50000u);
  EXPECT_EQ(parse("1 recv 0 2 10", 2, true).action.bytes, 80u);  // default DOUBLE after `init 1`

  a = parse("1 wait 0 1 3", 2).action;
  EXPECT_EQ(a.kind, TiKind::kWait);
  EXPECT_EQ(a.peer, 0);
  EXPECT_EQ(a.peer2, 1);
  EXPECT_EQ(a.tag, 3);
  EXPECT_FALSE(parse("1 test", 2).action.has_arg);
  EXPECT_TRUE(parse("1 test 0 1 3", 2).action.has_arg);
  EXPECT_TRUE(parse("0 init 1", 2).action.has_arg);
  EXPECT_FALSE(parse("0 init", 2).action.has_arg);
  EXPECT_EQ(parse("0 waitall 3", 2).action.kind, TiKind::kWaitall);
  EXPECT_EQ(parse("0 location foo.c 12", 2).action.kind, TiKind::kLocation);
  EXPECT_EQ(parse("0 comm_size 2", 2).action.kind, TiKind::kCommSize);
  EXPECT_EQ(parse("0 comm_split 1 2 3", 2).action.kind, TiKind::kCommSplit);
  EXPECT_DOUBLE_EQ(parse("0 compute 2.5e7", 2).action.amount, 2.5e7);
  EXPECT_DOUBLE_EQ(parse("0 sleep 0.25", 2).action.amount, 0.25);
}

TEST(TiAction, DatatypeTableMatchesSimGrid) {
  const int expected[][2] = {{0, 8}, {1, 4}, {2, 1}, {3, 2}, {4, 8}, {5, 4}, {6, 1}, {7, 8}, {11, 4},
                             {14, 16}, {24, 8}, {27, 32}, {34, 8}, {44, 16}, {45, 4}, {53, 1}, {55, 8}, {-1, 0}};
  for (const auto& [id, size] : expected) EXPECT_EQ(ti_datatype_size(id), size) << "id " << id;
  EXPECT_EQ(ti_datatype_size(56), -1);
  EXPECT_EQ(ti_datatype_size(-2), -1);
  EXPECT_EQ(parse("0 send 1 0 10 3", 2).action.bytes, 20u);
  EXPECT_EQ(parse("0 send 1 0 10 5", 2).action.bytes, 40u);
}

TEST(TiAction, CollectiveLayouts) {
  Parsed p = parse("0 reduce 5e4 5e8 0 4", 2);  // SimGrid's actions_bcast_reduce_datatypes.txt
  EXPECT_EQ(p.action.kind, TiKind::kReduce);
  EXPECT_EQ(p.action.bytes, 400000u);
  EXPECT_DOUBLE_EQ(p.action.amount, 5e8);
  EXPECT_EQ(p.action.peer, 0);

  p = parse("1 bcast 5e4 1 0", 2);
  EXPECT_EQ(p.action.peer, 1);
  EXPECT_EQ(p.action.bytes, 400000u);
  EXPECT_EQ(parse("1 bcast 7", 2).action.peer, 0);

  p = parse("0 alltoallv 100 1 40 30 1000 1 80 100", 3);  // SimGrid example, P = 3
  EXPECT_EQ(p.counts, (std::vector<Bytes>{1, 40, 30, 1, 80, 100}));
  p = parse("0 alltoallv 100 1 40 30 1000 1 80 100 1 0", 3);
  EXPECT_EQ(p.counts, (std::vector<Bytes>{4, 160, 120, 8, 640, 800}));

  p = parse("0 reducescatter 275427 275427 275427 204020 11349173 0", 4);
  EXPECT_EQ(p.counts, (std::vector<Bytes>{275427 * 8, 275427 * 8, 275427 * 8, 204020 * 8}));
  EXPECT_EQ(p.action.bytes, (3u * 275427u + 204020u) * 8u);
  EXPECT_DOUBLE_EQ(p.action.amount, 11349173);

  p = parse("0 allgatherv 275427 275427 275427 275427 204020 0 0", 4);  // one displacement
  EXPECT_EQ(p.action.bytes, 275427u * 8u);
  EXPECT_EQ(p.counts[3], 204020u * 8u);

  p = parse("0 gatherv 10 1 2 3 4 2 1 0", 4);
  EXPECT_EQ(p.action.peer, 2);
  EXPECT_EQ(p.action.bytes, 40u);
  EXPECT_EQ(p.counts, (std::vector<Bytes>{8, 16, 24, 32}));

  p = parse("0 scatterv 1 2 3 4 5 1 1 3", 4);
  EXPECT_EQ(p.action.peer, 1);
  EXPECT_EQ(p.counts, (std::vector<Bytes>{4, 8, 12, 16}));
  EXPECT_EQ(p.action.bytes2, 10u);

  p = parse("2 gather 68 68 1 0 1", 4);
  EXPECT_EQ(p.action.peer, 1);
  EXPECT_EQ(p.action.bytes, 68u * 8u);
  EXPECT_EQ(p.action.bytes2, 68u * 4u);

  p = parse("0 alltoall 3 5 1", 2);
  EXPECT_EQ(p.action.bytes, 12u);
  EXPECT_EQ(p.action.bytes2, 5u);

  EXPECT_EQ(parse("0 allreduce 1 0 1", 2).action.bytes, 4u);
  EXPECT_EQ(parse("0 barrier", 2).action.kind, TiKind::kBarrier);
}

TEST(TiAction, UnknownActionListsTheValidOnes) {
  expect_error("0 sned 1 0 10", 2, 1, 3, "unknown action 'sned'; valid actions: init, finalize,");
  expect_error("0 init\n0 Send 1 0 10", 2, 2, 3, "unknown action 'Send'", 2);
  expect_error("0", 2, 1, 2, "missing action after the rank");
}

TEST(TiAction, WrongArgumentCountSaysTheLayout) {
  expect_error("0 send 1 0", 2, 1, 3,
               "wrong number of arguments for 'send': expected 'send <peer> <tag> <count> [<datatype>]', i.e. 3 to 4 "
               "arguments, got 2");
  expect_error("0 send 1 0 10 0 9", 2, 1, 3, "got 5");
  expect_error("0 wait 0 1", 2, 1, 3, "'wait <src> <dst> <tag>'");
  expect_error("0 test 0 1", 2, 1, 3, "0 or 3 arguments");
  expect_error("0 finalize now", 2, 1, 3, "'finalize (no arguments)'");
  expect_error("0 compute", 2, 1, 3, "'compute <flops>'");
  expect_error("0 gatherv 10 1 2", 4, 1, 3, "(P = 4 ranks), i.e. 5 to 8 arguments, got 3");
  expect_error("0 alltoallv 100 1 40 30 1000 1 80 100 1", 3, 1, 3, "8 or 10 arguments");
  expect_error("0 scatterv 1 2 3 4 5 1 1", 4, 1, 3, "5, 6 or 8 arguments");
  expect_error("0 location", 2, 1, 3, "at least 1 arguments");
  expect_error("0 sendRecv 8 1 8", 2, 1, 3,
               "'sendRecv <send_count> <dst> <recv_count> <src> [<send_dt> [<recv_dt>]]', i.e. 4 to 6 arguments");
  expect_error("0 waitAny 2 0", 2, 1, 3, "'waitAny [<n>]'");
}

// What SMPI 3.32's `smpirun -trace-ti` writes where it differs from simfab's own spelling
// (ti_trace.hpp, "WHAT SMPI 3.32 WRITES"; examples/ti/smpi/dialect2.txt).
TEST(TiAction, SmpiSpellings) {
  TiAction a = parse("0 Ssend 1 2 4 1", 2).action;
  EXPECT_EQ(a.kind, TiKind::kSsend);
  EXPECT_EQ(a.bytes, 16u);
  EXPECT_EQ(parse("0 ISsend 1 3 4 1", 2).action.kind, TiKind::kIssend);

  a = parse("0 sendRecv 8 1 3 2 0 1", 3).action;  // 8 doubles to 1, 3 ints from 2, no tags
  EXPECT_EQ(a.kind, TiKind::kSendrecv);
  EXPECT_EQ(a.peer, 1);
  EXPECT_EQ(a.bytes, 64u);
  EXPECT_EQ(a.peer2, 2);
  EXPECT_EQ(a.bytes2, 12u);
  EXPECT_EQ(a.tag, 0);
  EXPECT_EQ(a.tag2, 0);
  EXPECT_EQ(parse("0 sendRecv 8 1 8 1", 2).action.bytes2, 8u);  // datatypes optional (default BYTE)
  a = parse("0 sendRecv 1 -333 1 -333 0 0", 2).action;
  EXPECT_EQ(a.peer, kProcNull);     // -333 as a destination: MPI_PROC_NULL
  EXPECT_EQ(a.peer2, kAnySource);   // as sendRecv's source: MPI_ANY_SOURCE (SMPI records no
  EXPECT_FALSE(a.undefined_source);  // MPI_Sendrecv from MPI_PROC_NULL), so not undefined
  a = parse("0 irecv -333 4 8", 2).action;  // an irecv's -333: MPI_ANY_SOURCE or MPI_PROC_NULL
  EXPECT_EQ(a.peer, kAnySource);
  EXPECT_TRUE(a.undefined_source);
  EXPECT_FALSE(parse("0 recv -333 4 8", 2).action.undefined_source);
  EXPECT_TRUE(parse("0 wait -333 0 4", 2).action.undefined_source);
  EXPECT_FALSE(parse("0 wait 0 -333 4", 2).action.undefined_source);

  a = parse("0 waitAny 2", 2).action;
  EXPECT_EQ(a.kind, TiKind::kWaitany);
  EXPECT_FALSE(a.has_arg);  // all of the rank's requests
  EXPECT_EQ(parse("0 testall", 2).action.kind, TiKind::kTestall);
  a = parse("0 location  0", 2).action;  // SMPI's unknown place: no file name, line 0
  EXPECT_EQ(a.kind, TiKind::kLocation);
  EXPECT_EQ(a.text, "");
  const std::string loc = "0 location exchange_1.f 130", blanks = "0 location my dir/k.c  7 ";
  a = parse(loc, 2).action;  // text is a view of the line
  EXPECT_EQ(a.text, "exchange_1.f");
  EXPECT_EQ(a.tag, 130);
  a = parse(blanks, 2).action;  // a file name with blanks
  EXPECT_EQ(a.text, "my dir/k.c");
  EXPECT_EQ(a.tag, 7);
  expect_error("0 location 12", 2, 1, 12, "expected '<file> <line>' (the source file and line of the MPI call), got '12'");
  expect_error("0 location k.c x", 2, 1, 16, "expected a line number (0 or more) after the file name, got 'x'");

  EXPECT_EQ(parse("0 send -333 0 1 0", 2).action.peer, kProcNull);
  EXPECT_EQ(parse("0 isend -333 0 3 1", 2).action.peer, kProcNull);
  a = parse("0 wait 0 -333 0", 2).action;  // the wait of that isend
  EXPECT_EQ(a.peer2, kProcNull);
  EXPECT_FALSE(a.coll_request);
  a = parse("1 irecv -333 -444 3 1", 2).action;
  EXPECT_EQ(a.peer, kAnySource);
  EXPECT_EQ(a.tag, kAnyTag);
  EXPECT_EQ(parse("1 wait -333 1 -444", 2).action.tag, kAnyTag);

  // The wait of a non-blocking collective: SMPI's internal tag, meaningless src and dst.
  a = parse("0 wait -333 -333 -4446", 2).action;
  EXPECT_EQ(a.kind, TiKind::kWait);
  EXPECT_TRUE(a.coll_request);
  EXPECT_EQ(a.tag, -4446);
  EXPECT_TRUE(parse("1 wait 0 0 -779", 2).action.coll_request);
  EXPECT_TRUE(parse("1 test 0 0 -3335", 2).action.coll_request);
  a = parse("0 iallreduce 16 0 0 ", 2).action;
  EXPECT_EQ(a.kind, TiKind::kAllreduce);
  EXPECT_TRUE(a.nonblocking);
  EXPECT_EQ(a.bytes, 128u);
}

TEST(TiAction, SmpiRecordsThatCannotBeReplayedSayWhy) {
  expect_error("0 Start 1 9 24 0", 2, 1, 3, "cannot replay 'Start': SMPI 3.32 writes MPI_Start");
  expect_error("0 Startall", 2, 1, 3, "cannot replay 'Startall'");
  // MPI_Reduce_scatter_block: zeros of no fixed length ("0 0", "0 0 0", "0 0 0 0 0 1" seen).
  expect_error("0 reducescatter 0 0 0", 4, 1, 3, "i.e. 5 to 6 arguments, got 3 (SMPI 3.32 writes MPI_Reduce_scatter_block");
  expect_error("0 reducescatter 0 0", 2, 1, 3, "MPI_Reduce_scatter_block");
  EXPECT_EQ(parse("0 reducescatter 0 0 0", 2).action.bytes, 0u);  // fits two ranks: counts 0 0, 0 flops
  expect_error("0 cancel 0 0 -4446", 2, 1, 14, "expected a tag");  // only wait and test take one
  expect_error("0 wait x 0 -4446", 2, 1, 8, "expected a source (an integer)");
}

TEST(TiAction, BadNumbers) {
  expect_error("0 send 1 0 abc", 2, 1, 12, "expected a count (a whole number >= 0 such as 1000 or 1e6), got 'abc'");
  expect_error("0 send 1 0 -5", 2, 1, 12, "cannot be negative, got '-5'");
  expect_error("0 send 1 0 2.5", 2, 1, 12, "must be a whole number, got '2.5'");
  expect_error("0 send 1 0 1e20", 2, 1, 12, "too large");
  expect_error("0 send 1 0 nan", 2, 1, 12, "expected a count");
  expect_error("0 compute nan", 2, 1, 11, "expected a flop amount");
  expect_error("0 compute inf", 2, 1, 11, "expected a flop amount");
  expect_error("0 compute -1", 2, 1, 11, "cannot be negative");
  expect_error("0 sleep 1s", 2, 1, 9, "expected a duration in seconds");
  expect_error("0 send 1 x 10", 2, 1, 10, "expected a tag (0 or more), got 'x'");
  expect_error("0 send 1 -1 10", 2, 1, 10, "expected a tag (0 or more)");
  expect_error("0 send 1 1e3 10", 2, 1, 10, "expected a tag");
  expect_error("0 alltoallv 100 1 x 30 1000 1 80 100", 3, 1, 19, "got 'x'");
  expect_error("0 comm_size -3", 2, 1, 13, "expected a communicator size");
}

TEST(TiAction, RanksPeersAndRootsOutOfRange) {
  expect_error("0 send 5 0 10", 2, 1, 8, "destination rank 5 is out of range: the trace has 2 ranks (0 to 1)");
  expect_error("0 recv -1 0 10", 2, 1, 8, "source rank -1 is out of range");
  expect_error("0 send one 0 10", 2, 1, 8, "expected a destination rank (an integer from 0 to 1), got 'one'");
  expect_error("0 bcast 10 7", 4, 1, 12, "root rank 7 is out of range: the trace has 4 ranks (0 to 3)");
  expect_error("0 reduce 10 0 4", 4, 1, 15, "root rank 4 is out of range");
  expect_error("0 gatherv 1 1 1 1 1 9", 4, 1, 21, "root rank 9 is out of range");
  expect_error("0 wait 0 2 0", 2, 1, 10, "destination rank 2 is out of range");
  expect_error("5 compute 1", 2, 1, 1, "expected a rank (0 to 1), got '5'");
}

TEST(TiAction, UnknownDatatype) {
  expect_error("0 send 1 0 10 99", 2, 1, 15, "unknown datatype id '99'; known ids: -1 to 55, e.g. 0 DOUBLE, 1 INT");
  expect_error("0 bcast 10 0 DOUBLE", 2, 1, 14, "unknown datatype id 'DOUBLE'");
  expect_error("0 alltoall 1 1 0 57", 2, 1, 18, "unknown datatype id '57'");
}

TEST(TiAction, ReduceScatterTotalOverflowIsAnError) {
  std::string line = "0 reducescatter";
  for (int i = 0; i < 600000; ++i) line += " 1099511627776";
  line += " 0 27";
  const InputError e = parse_error(line, 600000);
  EXPECT_NE(e.message().find("more than 2^64 bytes"), std::string::npos) << e.message();
}

TEST(TiAction, RandomTokenSoupNeverCrashes) {
  // A deterministic fuzz: lines built from valid and hostile tokens either parse or throw
  // InputError; nothing else may happen (run under ASan/UBSan in the sanitizer build).
  const char* tokens[] = {"0", "1", "2", "3", "-1", "1e6", "1e+06", "2.5", "nan", "inf", "-0", "99999999999999999999",
                          "send", "isend", "recv", "irecv", "wait", "waitall", "test", "bcast", "reduce",
                          "allreduce", "alltoall", "alltoallv", "gather", "gatherv", "allgather", "allgatherv",
                          "scatter", "scatterv", "reducescatter", "compute", "sleep", "init", "finalize",
                          "barrier", "location", "comm_size", "x", "", "\t", "0x10", "1e-3", "55", "56",
                          "sendRecv", "Ssend", "ISsend", "waitAny", "Start", "Startall", "-333", "-444", "-4446"};
  const size_t ntok = std::size(tokens);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto rnd = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line = std::to_string(rnd() % 4);
    const size_t n = rnd() % 12;
    for (size_t k = 0; k < n; ++k) line += std::string(" ") + tokens[rnd() % ntok];
    try {
      parse(line, 4);
      ++parsed;
    } catch (const InputError&) {
      ++rejected;
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace simfab
