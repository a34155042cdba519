// The capture trace reader (capture/capture_reader.hpp): both dialects, every field kind, and the
// errors of issue 9's bad-input list that one file can show (the cross-rank ones are in
// capture_run_test.cpp), with salvage keeping the records before the problem.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "core/error.hpp"

namespace simfab {
namespace {

std::string simfab_text(const std::vector<std::string>& records, bool end = true, int rank = 0, int size = 2) {
  std::string t = "# simfab-capture 1\n# run: 5f2c0a9e1b7d4c31\n# rank: " + std::to_string(rank) +
                  "\n# size: " + std::to_string(size) + "\n# world: 1\n# self: 2\n# time-unit: ns\n";
  for (const std::string& r : records) t += r + "\n";
  if (end) t += "# end\n";
  return t;
}

// The message of the InputError reading `text` throws, or "" if none.
std::string error_of(const std::string& text, int world_size = 0) {
  try {
    read_capture("t.txt", text, ReadOptions{false, world_size});
  } catch (const InputError& e) {
    return std::to_string(e.loc().line) + ": " + e.message();
  }
  return "";
}

TEST(CaptureReader, SimfabRecordsAndFields) {
  const RankCapture rc = read_capture(
      "t.txt",
      simfab_text({"MPI_Init:-:-:-:1000", "MPI_Send:5000:140735615211488:100000:3,4,4:1:0:1,0,2:9000",
                   "MPI_Irecv:9100:140735615211488:10:3,4,4:-1:7:1,0,2:1:9200", "MPI_Wait:9300:1/1/7/40:12000",
                   "MPI_Allreduce:12500:140735615211400:140735615211408:1:5,8,8:3:1,0,2:14000",
                   "MPI_Gatherv:14100:-1:3:3,4,4:99:1,2:3,4,4:0:1,0,2:14200", "MPI_Finalize:20000:-"}),
      ReadOptions{});
  ASSERT_EQ(rc.records.size(), 7u);
  EXPECT_EQ(rc.header.rank, 0);
  EXPECT_EQ(rc.header.size, 2);
  EXPECT_EQ(rc.header.ps_per_unit, 1000);
  const CapRecord& send = rc.records[1];
  EXPECT_EQ(send.func, CapFunc::kSend);
  EXPECT_EQ(send.line, 9u);
  EXPECT_EQ(send.s_count, 100000u);
  EXPECT_EQ(send.s_dt, 4u);
  EXPECT_EQ(send.s_peer, 1);
  EXPECT_EQ(send.call, 5000);
  EXPECT_EQ(send.ret, 9000);
  const CapRecord& irecv = rc.records[2];
  EXPECT_EQ(irecv.r_peer, kCapAnySource);
  EXPECT_EQ(irecv.r_tag, 7);
  EXPECT_EQ(irecv.req, 1u);
  const CapRecord& wait = rc.records[3];
  ASSERT_EQ(wait.done_count, 1u);
  EXPECT_EQ(rc.done[wait.done_begin].req, 1u);
  EXPECT_EQ(rc.done[wait.done_begin].src, 1);
  EXPECT_EQ(rc.done[wait.done_begin].bytes, 40u);
  const CapRecord& allreduce = rc.records[4];
  EXPECT_EQ(allreduce.s_count, 1u);
  EXPECT_EQ(allreduce.r_dt, 8u);  // one count and datatype for both sides
  const CapRecord& gatherv = rc.records[5];
  EXPECT_EQ(gatherv.s_buf, kCapInPlace);
  ASSERT_NE(gatherv.r_counts, kCapNoList);
  EXPECT_EQ(rc.counts[gatherv.r_counts], 2u);
  EXPECT_EQ(rc.counts[gatherv.r_counts + 2], 2u);
  EXPECT_EQ(rc.records.back().ret, kCapNoTime);
}

TEST(CaptureReader, LiballprofAppendixCRecords) {
  const std::string text =
      "# htor's PMPI Tracer 0.9 Output File\n# clockdiff: 0.000000 s (relative to rank 0)\n\n"
      "MPI_Init:-:140735615211452:140735615211440:1302767374553965\n"
      "MPI_Comm_rank:1302767374553992:6575584,1,2:140735615611496:1302767374554004\n"
      "MPI_Send:1302767374554038:140735615211488:100000:1,4,4:0:0:6575584,1,2:1302767374555673\n"
      "MPI_Recv:1302767374555688:140735615211488:100000:1,4,4:0:0:6575584,1,2:140735615211456:1302767374555978\n"
      "MPI_Test:1302767374555990:7:8:9:1302767374555991\n"
      "# Finalize clockdiff: 0.000000\nMPI_Finalize:1302767374567772:-\n";
  const RankCapture rc = read_capture("pmpi-trace-rank-7.txt", text, ReadOptions{false, 2});
  EXPECT_EQ(rc.header.dialect, CapDialect::kLiballprof);
  EXPECT_EQ(rc.header.rank, 1);  // from the world communicator's field, not the file name
  EXPECT_EQ(rc.header.world, 6575584);
  EXPECT_EQ(rc.header.ps_per_unit, 1000000);
  ASSERT_EQ(rc.records.size(), 5u);  // MPI_Test is skipped, as Schedgen does
  EXPECT_FALSE(rc.records[3].has_status);
  EXPECT_EQ(rc.records[2].s_count * rc.records[2].s_dt, 400000u);
}

TEST(CaptureReader, LiballprofRankFromTheFileName) {
  const std::string text = "# htor's PMPI Tracer 0.9 Output File\nMPI_Init:-:1:2:100\nMPI_Finalize:200:-\n";
  EXPECT_EQ(read_capture("dir/pmpi-trace-rank-3.txt", text, ReadOptions{false, 4}).header.rank, 3);
}

TEST(CaptureReader, BadInputNamesTheLineAndWhatWasExpected) {
  const std::string init = "MPI_Init:-:-:-:1000";
  const std::string fin = "MPI_Finalize:20000:-";
  EXPECT_NE(error_of(simfab_text({init, fin}, false)).find("truncated: no '# end' line"), std::string::npos);
  EXPECT_NE(error_of(simfab_text({init}, false)).find("ends without an MPI_Finalize"), std::string::npos);
  EXPECT_NE(error_of(simfab_text({init}, false) + "MPI_Send:5000:1407").find("cut mid-line"), std::string::npos);
  EXPECT_EQ(error_of(simfab_text({init, "MPI_Sned:1:2:3", fin})),
            "9: unknown function 'MPI_Sned'; expected an MPI function of docs/capture-format.md's table (MPI_Send, "
            "MPI_Irecv, MPI_Wait, MPI_Allreduce, ...)");
  EXPECT_EQ(error_of(simfab_text({init, "MPI_Send:5000:14:1:3,4,4:1:1,0,2:9000", fin})),
            "9: wrong number of fields: MPI_Send has 6 field(s) between its times (buf:count:dt:dest:tag:comm), this "
            "record has 5");
  EXPECT_EQ(error_of(simfab_text({init, "MPI_Send:5000:14:x:3,4,4:1:0:1,0,2:9000", fin})),
            "9: field 2 (count) of MPI_Send: expected an element count (an integer), got 'x'");
  EXPECT_NE(error_of(simfab_text({init, "MPI_Send:500:14:1:3,4,4:1:0:1,0,2:900", fin})).find("9: times go backwards"),
            std::string::npos);
  EXPECT_NE(error_of(simfab_text({init, "MPI_Barrier:5000:1,1,2:4000", fin})).find("times go backwards"),
            std::string::npos);
  EXPECT_NE(error_of(simfab_text({init, "MPI_Barrier:5000:1,1,2:6000", fin})).find("interleaved"), std::string::npos);
  EXPECT_NE(error_of(simfab_text({init, "MPI_Send:5000:14:1:3,4,4:2:0:1,0,2:9000", fin})).find("destination 2 is not a rank"),
            std::string::npos);
  EXPECT_NE(error_of(simfab_text({"MPI_Barrier:5000:1,0,2:6000", fin})).find("before MPI_Init"), std::string::npos);
  EXPECT_NE(error_of(simfab_text({init, fin, "MPI_Barrier:25000:1,0,2:26000"})).find("after MPI_Finalize"),
            std::string::npos);
  EXPECT_NE(error_of("# simfab-capture 1\n# rank: 0\nMPI_Init:-:-:-:1\n").find("missing header '# size: N'"),
            std::string::npos);
  EXPECT_NE(error_of("hello\n").find("not a capture trace"), std::string::npos);
  EXPECT_NE(error_of("# htor's PMPI Tracer 0.9 Output File\nMPI_Init:-:1:2:100\nMPI_Comm_split:1:2:3:4:5:6\n", 2)
                .find("simfab reads only the liballprof records Schedgen reads"),
            std::string::npos);
}

TEST(CaptureReader, IgnoredArgumentsMayBeAnything) {
  // docs/capture-format.md: a count MPI ignores is written as passed (here -1 at a non-root of a
  // gather, whose receive datatype is then 0,0,0); with a real datatype it is an error.
  const std::string init = "MPI_Init:-:-:-:1000";
  const RankCapture rc = read_capture(
      "t.txt", simfab_text({init, "MPI_Gather:2000:8:1:3,4,4:16:-1:0,0,0:0:1,0,2:3000", "MPI_Finalize:9000:-"}),
      ReadOptions{});
  EXPECT_EQ(rc.records[1].r_count, 0u);
  EXPECT_NE(error_of(simfab_text({init, "MPI_Gather:2000:8:1:3,4,4:16:-1:3,4,4:0:1,0,2:3000", "MPI_Finalize:9000:-"}))
                .find("a negative count for a datatype of 4 bytes"),
            std::string::npos);
}

TEST(CaptureReader, TopologyConstructorsInSplitForm) {
  const RankCapture rc = read_capture(
      "t.txt",
      simfab_text({"MPI_Init:-:-:-:1000", "MPI_Cart_create:2000:1,1,2:0:1:3,1,2:3000",
                   "MPI_Cart_sub:3100:3,1,2:-32766:0:-:3200", "MPI_Finalize:9000:-"}, true, 1),
      ReadOptions{});
  EXPECT_TRUE(cap_split_form(rc.records[1].func));
  EXPECT_EQ(cap_class(rc.records[1].func), CapClass::kCreation);
  EXPECT_EQ(rc.records[2].color, kCapUndefined);
  EXPECT_FALSE(rc.records[2].has_newcomm);
}

TEST(CaptureReader, SalvageKeepsTheRecordsBeforeTheProblem) {
  const std::string text = simfab_text({"MPI_Init:-:-:-:1000", "MPI_Barrier:5000:1,0,2:6000",
                                        "MPI_Barrier:7000:1,0,2:8000"}, false) + "MPI_Send:9000:14:1:3,4";
  const RankCapture rc = read_capture("t.txt.part", text, ReadOptions{true, 0});
  EXPECT_EQ(rc.records.size(), 3u);
  EXPECT_EQ(rc.damage_line, 11u);
  EXPECT_NE(rc.damage.find("cut mid-line"), std::string::npos);
  EXPECT_EQ(rc.record_lines, 4u);
  EXPECT_FALSE(rc.finalized());
}

}  // namespace
}  // namespace simfab
