// GOAL parser: the grammar of seed 004 §2.3 and every bad-input class with its message.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "replay/goal_schedule.hpp"

namespace simfab {
namespace {

TEST(GoalParser, ParsesOpsLabelsAndEdges) {
  GoalSchedule g = parse_goal_text(R"(num_ranks 2
// a comment
rank 1 { l1: calc 7 cpu 1
  l2: send 10b to 0 tag 3 nic 2
  l2 requires l1 }
rank 0 { x: recv 10 from any tag any  y: calc 0  y irequires x  # trailing comment
}
)", "t.goal");
  EXPECT_EQ(g.num_ranks, 2);
  EXPECT_EQ(g.num_cpus, 2);
  EXPECT_EQ(g.num_nics, 3);
  ASSERT_EQ(g.op_count(), 4u);
  // Ops are stored in rank order even though rank 1's block came first.
  EXPECT_EQ(g.rank_begin[0], 0u);
  EXPECT_EQ(g.rank_begin[1], 2u);
  EXPECT_EQ(g.rank_begin[2], 4u);
  const Op& recv = g.ops[0];
  EXPECT_EQ(recv.kind, OpKind::kRecv);
  EXPECT_EQ(recv.peer, kAnySource);
  EXPECT_EQ(recv.tag, kAnyTag);
  EXPECT_EQ(recv.amount, 10u);
  EXPECT_EQ(g.ops[1].pending, 1u);
  // x's successor y through an irequires edge.
  ASSERT_EQ(g.succ_begin[1] - g.succ_begin[0], 1u);
  EXPECT_EQ(g.succ[g.succ_begin[0]], 1u | GoalSchedule::kImmediate);
  const Op& send = g.ops[3];
  EXPECT_EQ(send.kind, OpKind::kSend);
  EXPECT_EQ(send.peer, 0);
  EXPECT_EQ(send.tag, 3);
  EXPECT_EQ(send.nic, 2);
  EXPECT_EQ(send.rank, 1);
  EXPECT_EQ(g.ops[2].cpu, 1);
  EXPECT_EQ(g.ops[2].amount, 7u);
  EXPECT_EQ(g.line[3], 4u);
}

TEST(GoalParser, DependencyMayNameALaterLabel) {
  GoalSchedule g = parse_goal_text("num_ranks 1 rank 0 { b requires a  a: calc 1  b: calc 2 }", "t");
  EXPECT_EQ(g.ops[1].pending, 1u);
}

// Expects parse_goal_text to fail with a message containing `what`, at line:column.
void expect_error(const std::string& text, int line, int col, const std::string& what) {
  try {
    parse_goal_text(text, "bad.goal");
    FAIL() << "no error for: " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "bad.goal");
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().column, col) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(GoalParser, MissingHeader) { expect_error("rank 0 { }", 1, 1, "expected 'num_ranks N'"); }
TEST(GoalParser, BadRankCount) { expect_error("num_ranks zero", 1, 11, "expected a rank count"); }
TEST(GoalParser, RankOutOfRange) {
  expect_error("num_ranks 2\nrank 2 { }", 2, 6, "expected a rank number below num_ranks 2, found '2'");
}
TEST(GoalParser, PeerOutOfRange) {
  expect_error("num_ranks 2\nrank 0 {\n  a: send 4b to 9 tag 0\n}\nrank 1 { }", 3, 17, "a rank below num_ranks 2, found '9'");
}
TEST(GoalParser, UnknownOperation) {
  expect_error("num_ranks 1\nrank 0 {\n a: sned 4b to 0 tag 0 }", 3, 5, "unknown operation 'sned'; expected calc, send, recv or switch");
}
TEST(GoalParser, MalformedSend) {
  expect_error("num_ranks 2\nrank 0 { a: send 4b 1 tag 0 }", 2, 21, "expected 'to' after the send size, found '1'");
}
TEST(GoalParser, BadSize) {
  expect_error("num_ranks 2\nrank 0 { a: send four to 1 tag 0 }", 2, 18, "expected a message size");
}
TEST(GoalParser, UnknownLabel) {
  expect_error("num_ranks 1\nrank 0 {\n a: calc 1\n a requires zz\n}", 4, 13, "unknown label 'zz'");
}
TEST(GoalParser, LabelFromAnotherBlockIsUnknown) {
  expect_error("num_ranks 2\nrank 0 { a: calc 1 }\nrank 1 { b: calc 1  b requires a }", 3, 32, "unknown label 'a'");
}
TEST(GoalParser, DuplicateLabel) {
  expect_error("num_ranks 1\nrank 0 { a: calc 1\na: calc 2 }", 3, 1, "label 'a' defined twice");
}
TEST(GoalParser, DependencyCycle) {
  expect_error("num_ranks 1\nrank 0 { a: calc 1  b: calc 2  c: calc 3\na requires b\nb requires c\nc irequires a }", 3, 1,
               "dependency cycle");
}
TEST(GoalParser, SelfDependency) {
  expect_error("num_ranks 1\nrank 0 { a: calc 1\na requires a }", 3, 1, "dependency cycle");
}
TEST(GoalParser, MissingClosingBrace) {
  expect_error("num_ranks 1\nrank 0 { a: calc 1\n", 3, 1, "expected '}' closing the block of rank 0, found end of file");
}
TEST(GoalParser, MissingRankBlock) {
  try {
    parse_goal_text("num_ranks 3\nrank 0 { }\nrank 2 { }", "bad.goal");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1 has no 'rank 1 { ... }' block"), std::string::npos) << e.what();
  }
}
TEST(GoalParser, DuplicateRankBlock) {
  expect_error("num_ranks 1\nrank 0 { }\nrank 0 { }", 3, 6, "rank 0 has a second block");
}
TEST(GoalParser, BinaryGarbage) {
  expect_error(std::string("num_ranks 1\nrank 0 { a: calc 1 \x01 }"), 2, 20, "unexpected character '\\x01'");
}
TEST(GoalParser, ErrorEchoesTheLine) {
  try {
    parse_goal_text("num_ranks 2\nrank 0 {\n  a: send 4b to 9 tag 0\n}", "bad.goal");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.text(), "  a: send 4b to 9 tag 0");
    std::string shown = format_error(e);
    EXPECT_NE(shown.find("bad.goal:3:17: expected"), std::string::npos) << shown;
    EXPECT_NE(shown.find("\n                    ^"), std::string::npos) << shown;
  }
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

// The statement-shaped fast path (one statement per line, Schedgen's shapes) and the token path
// (taken here because every line ends in a comment) give the same schedule: ops, edges, lines.
TEST(GoalParser, FastAndTokenPathsAgree) {
  const std::string plain =
      "num_ranks 3\n"
      "rank 0 {\n"
      "s0: send 8b to 1 tag 0\n"
      "r0: recv 16 from any tag any\n"
      "  c0:\tcalc 1500   \r\n"
      "s1: send 4B to 2 tag 2147483647\n"
      "s1 requires r0\n"
      "c0 irequires s0\n"
      "x: recv 0b from 2 tag 7\n"
      "}\n"
      "rank 1 {\n"
      "a: recv 8b from 0 tag 0\n"
      "}\n"
      "rank 2 {\n"
      "b: recv 4b from 0 tag 2147483647\n"
      "c: send 0b to 0 tag 7\n"
      "c requires b\n"
      "}\n";
  std::string commented;
  for (size_t i = 0, nl; i < plain.size(); i = nl + 1) {
    nl = plain.find('\n', i);
    commented += plain.substr(i, nl - i) + " // token path\n";
  }
  const GoalSchedule fast = parse_goal_text(plain, "plain.goal");
  const GoalSchedule slow = parse_goal_text(commented, "commented.goal");
  ASSERT_EQ(fast.op_count(), 8u);
  ASSERT_EQ(fast.op_count(), slow.op_count());
  for (OpId i = 0; i < fast.op_count(); ++i) {
    const Op &a = fast.ops[i], &b = slow.ops[i];
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.amount, b.amount) << i;
    EXPECT_EQ(a.peer, b.peer) << i;
    EXPECT_EQ(a.tag, b.tag) << i;
    EXPECT_EQ(a.rank, b.rank) << i;
    EXPECT_EQ(a.pending, b.pending) << i;
  }
  EXPECT_EQ(fast.succ, slow.succ);
  EXPECT_EQ(fast.succ_begin, slow.succ_begin);
  EXPECT_EQ(fast.line, slow.line);
  EXPECT_EQ(fast.rank_begin, slow.rank_begin);
  EXPECT_EQ(fast.line, (std::vector<uint32_t>{3, 4, 5, 6, 9, 12, 15, 16}));
  EXPECT_EQ(fast.ops[1].peer, kAnySource);
  EXPECT_EQ(fast.ops[1].tag, kAnyTag);
  EXPECT_EQ(fast.ops[2].amount, 1500u);
}

// Lines the fast path declines still get the token path's errors, at the same place.
TEST(GoalParser, FastPathLeavesErrorsToTheTokenPath) {
  expect_error("num_ranks 2\nrank 0 {\na: send 8b to 2 tag 0\n}\n", 3, 15, "a rank below num_ranks 2");
  expect_error("num_ranks 2\nrank 0 {\na: recv 8b from 1 tag 0\na: calc 5\n}\n", 4, 1, "defined twice");
  expect_error("num_ranks 1\nrank 0 {\na: calc 5\na requires b\n}\n", 4, 12, "unknown label 'b'");
}

}  // namespace
}  // namespace simfab
