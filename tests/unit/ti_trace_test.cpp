// TiTrace: layout detection, list resolution, rank counts, cursors and the mapping cache.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return std::string(SIMFAB_SOURCE_DIR) + "/tests/data/ti/" + name; }

fs::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("simfab_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                  std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string write_file(const std::string& name, const std::string& content) {
  fs::path p = test_dir() / name;
  fs::create_directories(p.parent_path());
  std::ofstream(p) << content;
  return p.string();
}

// All lines the cursor of rank r yields, in order.
std::vector<std::string> lines_of(const TiTrace& t, RankId r) {
  std::vector<std::string> out;
  uint64_t pos = 0;
  TiLine line;
  while (t.next_line(r, pos, line)) out.emplace_back(line.view());
  return out;
}

InputError open_error(const std::string& path) {
  try {
    open_ti_trace(path);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError opening " << path;
  return InputError(SourceLoc{}, "");
}

TEST(TiTrace, SharedTraceCountsRanksFromTheLargestRankToken) {
  auto t = open_ti_trace(data("pingpong.txt"));
  EXPECT_TRUE(t->shared());
  EXPECT_EQ(t->num_ranks(), 2);
  EXPECT_EQ(ti_num_ranks(*t), 2);
  EXPECT_EQ(t->file_count(), 1u);
  EXPECT_TRUE(t->list_path().empty());

  auto sparse = open_ti_trace(write_file("sparse.txt", "0 init\n6 compute 1\n"));
  EXPECT_EQ(sparse->num_ranks(), 7);  // ranks 1-5 have no line and do nothing
  EXPECT_TRUE(lines_of(*sparse, 3).empty());
}

TEST(TiTrace, CursorOfASharedTraceSkipsOtherRanksLines) {
  auto t = open_ti_trace(data("pingpong.txt"));
  EXPECT_EQ(lines_of(*t, 1), (std::vector<std::string>{"1 init", "1 irecv 0 7 100", "1 compute 500", "1 wait 0 1 7",
                                                        "1 send 0 8 10", "1 allreduce 4 0 1", "1 finalize"}));
  EXPECT_EQ(lines_of(*t, 0).size(), 6u);
}

TEST(TiTrace, SharedTraceCursorStaysWithinItsRanksSpan) {
  // Ranks in blocks (as `cat rank*.txt` gives): rank 1's cursor starts at its first line and stops
  // after its last one instead of scanning to the end of the file.
  const std::string text = "0 init\n0 compute 1\n1 init\n1 compute 2\n2 init\n2 compute 3\n";
  auto t = open_ti_trace(write_file("blocks.txt", text));
  uint64_t pos = 0;
  TiLine line;
  ASSERT_TRUE(t->next_line(1, pos, line));
  EXPECT_EQ(line.begin, text.find("1 init"));
  ASSERT_TRUE(t->next_line(1, pos, line));
  EXPECT_EQ(line.view(), "1 compute 2");
  EXPECT_FALSE(t->next_line(1, pos, line));
  EXPECT_EQ(pos, text.find("2 init"));
  EXPECT_EQ(lines_of(*t, 2).size(), 2u);
}

TEST(TiTrace, ListOfPerRankFilesIsResolvedNextToTheList) {
  auto t = open_ti_trace(data("split/list.txt"));
  EXPECT_FALSE(t->shared());
  EXPECT_EQ(t->num_ranks(), 2);
  EXPECT_EQ(t->list_path(), data("split/list.txt"));
  EXPECT_EQ(fs::path(std::string(t->file_name(1))), fs::path(data("split/rank1.txt")));
  // rank1.txt has no final newline: its last line still counts.
  const auto lines = lines_of(*t, 1);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines.back(), "1 finalize");
}

TEST(TiTrace, ListFallsBackToTheCurrentDirectory) {
  const fs::path old = fs::current_path();
  const std::string list =
      write_file("lists/cwd.txt", "tests/data/ti/split/rank0.txt\ntests/data/ti/split/rank1.txt\n");
  fs::current_path(SIMFAB_SOURCE_DIR);
  std::unique_ptr<TiTrace> t;
  EXPECT_NO_THROW(t = open_ti_trace(list));
  fs::current_path(old);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->num_ranks(), 2);
  EXPECT_EQ(t->file_name(0), "tests/data/ti/split/rank0.txt");
}

TEST(TiTrace, ListOfOnePathIsASharedTrace) {
  const std::string list = write_file("one.txt", "# one shared trace\n\n" + data("pingpong.txt") + "  \n");
  auto t = open_ti_trace(list);
  EXPECT_TRUE(t->shared());
  EXPECT_EQ(t->num_ranks(), 2);
  EXPECT_EQ(lines_of(*t, 0).front(), "0 init");
}

TEST(TiTrace, BlankCommentTabAndCrLinesAreSkippedOrTrimmed) {
  auto t = open_ti_trace(write_file("ws.txt", "\n# comment\n   \t\n\t0\tcompute\t5  \r\n  # indented comment\n1 init"));
  EXPECT_EQ(t->num_ranks(), 2);
  EXPECT_EQ(lines_of(*t, 0), (std::vector<std::string>{"0\tcompute\t5"}));
  EXPECT_EQ(lines_of(*t, 1), (std::vector<std::string>{"1 init"}));
}

TEST(TiTrace, ManyPerRankFilesAreMappedThroughABoundedCache) {
  // More ranks than files stay mapped, in a ring: each sends to its right neighbour and receives
  // from its left one.
  const int n = static_cast<int>(TiTrace::kKeepAllMapped) + 100;
  std::string list;
  for (int r = 0; r < n; ++r) {
    const std::string name = "r" + std::to_string(r) + ".txt";
    const std::string rank = std::to_string(r);
    write_file("many/" + name, rank + " init\n" + rank + " send " + std::to_string((r + 1) % n) + " 0 8\n" + rank +
                                   " recv " + std::to_string((r + n - 1) % n) + " 0 8\n");
    list += name + "\n";
  }
  auto t = open_ti_trace(write_file("many/list.txt", list));
  ASSERT_EQ(t->num_ranks(), n);
  EXPECT_FALSE(t->shared());

  Engine engine;
  Platform platform = Platform::ideal(n);
  LogGOPSNetwork net(engine, platform, LogGOPSParams{});
  OpPool ops;
  std::vector<HostId> hosts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hosts[static_cast<size_t>(i)] = i;
  auto prog = make_ti_program(*t, ops, platform, hosts);
  Executor ex(engine, net, ops, *prog, hosts);
  ExecutionResult res = ex.run();
  EXPECT_TRUE(res.blocked.empty());
  EXPECT_EQ(res.messages, static_cast<uint64_t>(n));
  EXPECT_LE(t->mapped_files(), TiTrace::kCacheSlots);
  // Every rank was replayed to its end: the cache evicted and remapped files correctly.
  for (SimTime f : res.finish) EXPECT_GT(f.ps(), 0);
}

TEST(TiTrace, EmptyFileIsAnError) {
  InputError e = open_error(write_file("empty.txt", "\n# nothing\n"));
  EXPECT_NE(e.message().find("empty TI trace"), std::string::npos) << e.message();
}

TEST(TiTrace, MissingListedFileNamesTheListLine) {
  const std::string list = write_file("list.txt", "# ranks\n" + data("split/rank0.txt") + "\nnope.txt\n");
  InputError e = open_error(list);
  EXPECT_EQ(e.loc().file, list);
  EXPECT_EQ(e.loc().line, 3);
  EXPECT_EQ(e.text(), "nope.txt");
  EXPECT_NE(e.message().find("trace file 'nope.txt' not found"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("current directory"), std::string::npos) << e.message();
}

TEST(TiTrace, TypoInTheFirstActionExplainsBothReadings) {
  InputError e = open_error(write_file("typo.txt", "0 inti\n0 compute 1\n"));
  EXPECT_EQ(e.loc().line, 1);
  EXPECT_NE(e.message().find("'inti' is not an action"), std::string::npos) << e.message();
}

TEST(TiTrace, BadRankTokenInASharedTrace) {
  const std::string path = write_file("rank.txt", "0 init\nx compute 1\n");
  InputError e = open_error(path);
  EXPECT_EQ(e.loc().file, path);
  EXPECT_EQ(e.loc().line, 2);
  EXPECT_EQ(e.loc().column, 1);
  EXPECT_NE(e.message().find("expected a rank"), std::string::npos) << e.message();

  InputError big = open_error(write_file("big.txt", "0 init\n99999999999999999999999 init\n"));
  EXPECT_EQ(big.loc().line, 2);
  EXPECT_NE(big.message().find("too large"), std::string::npos) << big.message();
}

TEST(TiTrace, PerRankFileWithAnotherRanksLineIsAnError) {
  const std::string r0 = write_file("p/r0.txt", "0 init\n");
  const std::string r1 = write_file("p/r1.txt", "1 init\n0 compute 1\n");
  const std::string list = write_file("p/list.txt", "r0.txt\nr1.txt\n");
  auto t = open_ti_trace(list);
  uint64_t pos = 0;
  TiLine line;
  ASSERT_TRUE(t->next_line(1, pos, line));
  try {
    t->next_line(1, pos, line);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(fs::path(e.loc().file), fs::path(r1));
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_NE(e.message().find("this line is for rank 0, but this file is the trace of rank 1"), std::string::npos)
        << e.message();
  }
}

}  // namespace
}  // namespace simfab
