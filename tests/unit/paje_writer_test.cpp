// PajeWriter (report/paje_writer.hpp), fed synthetic runs; the expected lines are derived by hand:
//   header       SimGrid's event ids and the type hierarchy (RANK > CORE, MPI / CPU states, MSG)
//   order        events reported out of global time order come out sorted, ties in arrival order
//   states       push/pop per call and per busy CPU interval, entity values once per call name in
//                order of first use (coloured by class), zero-length CPU intervals dropped
//   links        start on the sender at `sent`, end on the receiver at `arrived`, one key per
//                message, value p2p/collective, size field
//   containers   created at 0 (kept ranks, then CPUs), destroyed children first at the makespan
//                or at a later last event
//   filter       ranks and window; the other end of a kept message gets a container
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/paje_writer.hpp"
#include "report/time_format.hpp"
#include "sim/simulation.hpp"
#include "report_test_support.hpp"

namespace simfab {
namespace {

using testing::call;
using testing::ps;
using testing::run_info;
using testing::run_result;

MessageRecord msg(RankId src, RankId dst, int64_t sent, int64_t arrived, uint64_t bytes, uint32_t context = 0) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  m.context = context;
  m.sent = ps(sent);
  m.arrived = ps(arrived);
  return m;
}

// The lines after the fixed part (event definitions and types), which the first test checks.
std::string body(const std::string& text) {
  const std::string last_type = "5 collective MSG \"collective\" \"1 0.5 0\"\n";
  const size_t at = text.find(last_type);
  EXPECT_NE(at, std::string::npos) << text;
  return at == std::string::npos ? text : text.substr(at + last_type.size());
}

TEST(PajeWriter, SecondsAreExact) {
  EXPECT_EQ(seconds_text(ps(12'345'678)), "0.000012345678");
  EXPECT_EQ(seconds_text(ps(3'000'000'000'000)), "3.000000000000");
}

TEST(PajeWriter, HeaderDeclaresSimGridEventsAndTypes) {
  std::ostringstream out;
  PajeWriter w(out, TraceFilter{});
  w.start_run(run_info(1));
  w.finish(run_result({ps(0)}));
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n", 0), 0u);
  for (const char* def : {"%EventDef PajeDefineStateType 2\n", "%EventDef PajeDefineLinkType 4\n",
                          "%EventDef PajeDefineEntityValue 5\n", "%EventDef PajeCreateContainer 6\n",
                          "%EventDef PajeDestroyContainer 7\n", "%EventDef PajePushState 12\n",
                          "%EventDef PajePopState 13\n", "%EventDef PajeStartLink 15\n",
                          "%EventDef PajeEndLink 16\n"})
    EXPECT_NE(text.find(def), std::string::npos) << def;
  EXPECT_NE(text.find("%       Key string\n%       Size int\n%EndEventDef\n"), std::string::npos);
  EXPECT_NE(text.find("0 RANK 0 \"rank\"\n0 CORE RANK \"cpu\"\n2 MPI RANK \"MPI\"\n2 CPU CORE \"CPU\"\n"
                      "4 MSG 0 RANK RANK \"message\"\n5 cpu0 CPU \"compute\" \"0 0.6 0\"\n"
                      "5 cpu1 CPU \"send overhead\" \"0 0.4 1\"\n5 cpu2 CPU \"recv overhead\" \"0.4 0.8 1\"\n"
                      "5 p2p MSG \"p2p\" \"0 0 0\"\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(body(text),
            "6 0.000000000000 r0 RANK 0 \"rank 0\"\n"
            "7 0.000000000000 RANK r0\n");
}

TEST(PajeWriter, WritesSortedStatesAndLinks) {
  std::ostringstream out;
  PajeWriter w(out, TraceFilter{});
  w.start_run(run_info(2));
  CallInfo send = call("send", CallClass::kP2p);
  send.peer = 1;
  send.bytes = 8;
  // Reported as a run reports them: each call when the next one starts, CPU intervals when they
  // end, so rank 1's receive overhead comes after rank 0's later intervals.
  w.call_interval(0, ps(0), ps(1'000'000), send);
  w.cpu_busy(0, 0, CpuUse::kSendOverhead, ps(0), ps(500'000));
  w.message(msg(0, 1, 500'000, 1'500'000, 8));
  w.call_interval(1, ps(0), ps(2'000'000), call("recv", CallClass::kP2p));
  w.call_interval(0, ps(1'000'000), ps(3'000'000), call("compute", CallClass::kCompute));
  w.cpu_busy(0, 0, CpuUse::kCompute, ps(1'000'000), ps(3'000'000));
  w.cpu_busy(1, 0, CpuUse::kRecvOverhead, ps(1'500'000), ps(2'000'000));
  w.cpu_busy(1, 1, CpuUse::kCompute, ps(1'800'000), ps(1'800'000));  // zero length: dropped
  w.call_interval(1, ps(2'000'000), ps(2'000'000), call("barrier", CallClass::kCollective));
  w.call_interval(1, ps(2'000'000), ps(2'500'000), send);
  w.finish(run_result({ps(3'000'000), ps(2'500'000)}));

  EXPECT_EQ(body(out.str()),
            "5 mpi0 MPI \"send\" \"0 0.4 1\"\n"
            "5 mpi1 MPI \"recv\" \"0 0.4 1\"\n"
            "5 mpi2 MPI \"compute\" \"0 0.6 0\"\n"
            "5 mpi3 MPI \"barrier\" \"1 0.5 0\"\n"
            "6 0.000000000000 r0 RANK 0 \"rank 0\"\n"
            "6 0.000000000000 r1 RANK 0 \"rank 1\"\n"
            "6 0.000000000000 r0c0 CORE r0 \"rank 0 cpu 0\"\n"
            "6 0.000000000000 r1c0 CORE r1 \"rank 1 cpu 0\"\n"
            "12 0.000000000000 MPI r0 mpi0\n"
            "12 0.000000000000 CPU r0c0 cpu1\n"
            "12 0.000000000000 MPI r1 mpi1\n"
            "13 0.000000500000 CPU r0c0\n"
            "15 0.000000500000 MSG 0 p2p r0 m0 8\n"
            "13 0.000001000000 MPI r0\n"
            "12 0.000001000000 MPI r0 mpi2\n"
            "12 0.000001000000 CPU r0c0 cpu0\n"
            "16 0.000001500000 MSG 0 p2p r1 m0\n"
            "12 0.000001500000 CPU r1c0 cpu2\n"
            "13 0.000002000000 MPI r1\n"
            "13 0.000002000000 CPU r1c0\n"
            "12 0.000002000000 MPI r1 mpi3\n"
            "13 0.000002000000 MPI r1\n"
            "12 0.000002000000 MPI r1 mpi0\n"
            "13 0.000002500000 MPI r1\n"
            "13 0.000003000000 MPI r0\n"
            "13 0.000003000000 CPU r0c0\n"
            "7 0.000003000000 CORE r0c0\n"
            "7 0.000003000000 CORE r1c0\n"
            "7 0.000003000000 RANK r0\n"
            "7 0.000003000000 RANK r1\n");
}

TEST(PajeWriter, FilterKeepsRanksWindowAndMessageEnds) {
  std::ostringstream out;
  TraceFilter f;
  f.first_rank = 1;
  f.last_rank = 1;
  f.from = ps(1'000'000);
  f.to = ps(2'000'000);
  PajeWriter w(out, f);
  w.start_run(run_info(4));
  w.call_interval(0, ps(0), ps(3'000'000), call("wait", CallClass::kWait));      // rank 0
  w.call_interval(1, ps(0), ps(999'999), call("init", CallClass::kOther));      // before
  w.call_interval(1, ps(999'999), ps(2'000'000), call("wait", CallClass::kWait));  // kept whole
  w.call_interval(1, ps(2'000'001), ps(3'000'000), call("send", CallClass::kP2p));  // after
  w.cpu_busy(2, 0, CpuUse::kCompute, ps(0), ps(3'000'000));                      // rank 2
  w.message(msg(2, 3, 1'500'000, 1'600'000, 4));   // neither end kept
  w.message(msg(1, 2, 2'100'000, 2'200'000, 4));   // after the window
  w.message(msg(3, 1, 1'900'000, 5'000'000, 16, /*context=*/1));  // kept; arrives after the makespan
  w.finish(run_result({ps(3'000'000), ps(3'000'000), ps(3'000'000), ps(3'000'000)}));

  EXPECT_EQ(body(out.str()),
            "5 mpi0 MPI \"wait\" \"0.8 0 0\"\n"
            "6 0.000000000000 r1 RANK 0 \"rank 1\"\n"
            "6 0.000000000000 r3 RANK 0 \"rank 3\"\n"
            "12 0.000000999999 MPI r1 mpi0\n"
            "15 0.000001900000 MSG 0 collective r3 m2 16\n"
            "13 0.000002000000 MPI r1\n"
            "16 0.000005000000 MSG 0 collective r1 m2\n"
            "7 0.000005000000 RANK r1\n"
            "7 0.000005000000 RANK r3\n");
}

}  // namespace
}  // namespace simfab
