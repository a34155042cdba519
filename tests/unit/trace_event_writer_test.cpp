// TraceEventWriter (report/trace_event_writer.hpp) and the exact time text it relies on
// (report/time_format.hpp), fed synthetic runs:
//   time text    picoseconds -> exact microsecond / second decimals (trimmed, fixed, huge, negative)
//   document     the top-level keys in order, metadata from the callback, valid JSON when empty
//   layout       process / thread names and sort indexes, MPI slices on tid 0 with their args,
//                CPU slices on tid 1 + cpu, zero-length CPU intervals dropped
//   times        exact "ts"/"dur" text (1,234,567 ps -> 1.234567), as parsed numbers too
//   flows        "s" on the sender at `sent`, "f" with "bp":"e" on the receiver at `arrived`, same
//                id (the message's number), category by context, bound to tid 0 (TI) or 1 (GOAL)
//   filter       ranks and window, messages kept by either end, the other end still named
//   escaping     host names with quotes, backslashes, control characters and invalid UTF-8
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/time_format.hpp"
#include "report/trace_event_writer.hpp"
#include "sim/simulation.hpp"
#include "report_test_support.hpp"

namespace simfab {
namespace {

using testing::call;
using testing::ps;
using testing::run_info;
using testing::run_result;

using nlohmann::json;

MessageRecord msg(RankId src, RankId dst, int64_t sent, int64_t arrived, uint32_t context = 0) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.bytes = 1024;
  m.tag = 7;
  m.context = context;
  m.sent = ps(sent);
  m.arrived = ps(arrived);
  return m;
}

// The events of a trace, without the metadata ("M") ones.
std::vector<json> timed_events(const json& doc) {
  std::vector<json> out;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] != "M") out.push_back(e);
  return out;
}

// The metadata event named `name` of (pid, tid), or null.
json metadata(const json& doc, int pid, int tid, const std::string& name) {
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["pid"] == pid && e["tid"] == tid && e["name"] == name) return e;
  return nullptr;
}

TEST(TraceEventTimeFormat, ExactDecimals) {
  EXPECT_EQ(decimal_text(1234567, 6), "1.234567");
  EXPECT_EQ(decimal_text(1200000, 6), "1.2");
  EXPECT_EQ(decimal_text(5000000, 6), "5");
  EXPECT_EQ(decimal_text(0, 6), "0");
  EXPECT_EQ(decimal_text(1, 6), "0.000001");
  EXPECT_EQ(decimal_text(-1500000, 6), "-1.5");
  EXPECT_EQ(decimal_text(12345678, 12, false), "0.000012345678");
  EXPECT_EQ(decimal_text(0, 12, false), "0.000000000000");
  EXPECT_EQ(decimal_text(7, 0), "7");
  // Beyond 2^53: a double would round the last digits.
  EXPECT_EQ(micros_text(ps(INT64_MAX)), "9223372036854.775807");
  EXPECT_EQ(micros_text(ps(INT64_MIN)), "-9223372036854.775808");
  EXPECT_EQ(seconds_text(ps(1'000'000'000'000'001)), "1000.000000000001");
}

TEST(TraceEventWriter, DocumentShapeAndMetadata) {
  std::ostringstream out;
  TraceEventWriter w(out, TraceFilter{}, [](const RunResult& r) {
    nlohmann::ordered_json j;
    j["makespan_ps"] = r.exec.makespan.ps();
    return j;
  });
  w.start_run(run_info(1));
  w.finish(run_result({ps(42)}));
  const std::string text = out.str();
  EXPECT_EQ(text.rfind(R"({"displayTimeUnit":"ns","traceEvents":[)", 0), 0u) << text;
  EXPECT_NE(text.find(R"(],"simfab":{"makespan_ps":42}})"), std::string::npos) << text;
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& [k, v] : doc.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"displayTimeUnit", "traceEvents", "simfab"}));
  // Only the rank's process metadata: no calls, so no thread was named.
  EXPECT_EQ(doc["traceEvents"].size(), 2u);

  std::ostringstream bare;
  TraceEventWriter nometa(bare, TraceFilter{}, nullptr);
  nometa.start_run(run_info(0));
  nometa.finish(run_result({}));
  const json empty = json::parse(bare.str());
  EXPECT_TRUE(empty["traceEvents"].empty());
  EXPECT_FALSE(empty.contains("simfab"));
}

TEST(TraceEventWriter, SlicesHaveExactTimesAndLayout) {
  std::ostringstream out;
  TraceEventWriter w(out, TraceFilter{}, nullptr);
  w.start_run(run_info(2));
  CallInfo allreduce = call("allreduce", CallClass::kCollective);
  allreduce.algorithm = "rdb";
  allreduce.bytes = 64;
  allreduce.comm = 3;
  CallInfo send = call("send", CallClass::kP2p);
  send.peer = 1;
  send.bytes = 1024;
  CallInfo compute = call("compute", CallClass::kCompute);
  compute.flops = 1000;
  w.call_interval(0, ps(0), ps(1'234'567), compute);
  w.call_interval(0, ps(1'234'567), ps(3'000'000), allreduce);
  w.call_interval(0, ps(3'000'000), ps(123'456'789'012'345'678), send);
  w.cpu_busy(0, 0, CpuUse::kCompute, ps(0), ps(1'234'567));
  w.cpu_busy(0, 2, CpuUse::kSendOverhead, ps(3'000'000), ps(3'000'500));
  w.cpu_busy(1, 0, CpuUse::kRecvOverhead, ps(10), ps(10));  // zero length: not written
  w.finish(run_result({ps(123'456'789'012'345'678), ps(10)}));
  const std::string text = out.str();

  // Exact text: integer picoseconds printed as microseconds, no double in between.
  EXPECT_NE(text.find(R"("tid":0,"ts":0,"dur":1.234567,"name":"compute","cat":"compute","args":{"flops":1000}})"),
            std::string::npos) << text;
  EXPECT_NE(text.find(R"("ts":1.234567,"dur":1.765433,"name":"allreduce","cat":"collective",)"
                      R"("args":{"algorithm":"rdb","bytes":64,"comm":3}})"),
            std::string::npos) << text;
  EXPECT_NE(text.find(R"("ts":3,"dur":123456789009.345678,"name":"send","cat":"p2p",)"
                      R"("args":{"peer":1,"bytes":1024,"comm":0}})"),
            std::string::npos) << text;
  EXPECT_NE(text.find(R"({"ph":"X","pid":0,"tid":3,"ts":3,"dur":0.0005,"name":"send overhead","cat":"cpu"})"),
            std::string::npos) << text;

  const json doc = json::parse(text);
  const std::vector<json> ev = timed_events(doc);
  ASSERT_EQ(ev.size(), 5u);  // 3 calls, 2 non-empty CPU intervals
  EXPECT_EQ(ev[1]["ts"].get<double>(), 1.234567);
  EXPECT_EQ(ev[1]["dur"].get<double>(), 1.765433);
  for (const json& e : ev) EXPECT_EQ(e["pid"], 0);
  EXPECT_EQ(ev[3]["tid"], 1);  // CPU 0
  EXPECT_EQ(ev[3]["name"], "compute");
  EXPECT_EQ(ev[3]["cat"], "cpu");
  EXPECT_EQ(ev[4]["tid"], 3);  // CPU 2

  EXPECT_EQ(metadata(doc, 0, 0, "process_name")["args"]["name"], "rank 0 (host0)");
  EXPECT_EQ(metadata(doc, 1, 0, "process_name")["args"]["name"], "rank 1 (host1)");
  EXPECT_EQ(metadata(doc, 1, 0, "process_sort_index")["args"]["sort_index"], 1);
  EXPECT_EQ(metadata(doc, 0, 0, "thread_name")["args"]["name"], "MPI");
  EXPECT_EQ(metadata(doc, 0, 1, "thread_name")["args"]["name"], "CPU 0");
  EXPECT_EQ(metadata(doc, 0, 3, "thread_name")["args"]["name"], "CPU 2");
  EXPECT_EQ(metadata(doc, 0, 3, "thread_sort_index")["args"]["sort_index"], 3);
  EXPECT_TRUE(metadata(doc, 1, 1, "thread_name").is_null());  // its only interval was empty
  EXPECT_TRUE(metadata(doc, 1, 0, "thread_name").is_null());  // no calls
}

TEST(TraceEventWriter, FlowsPairUpOnTheMpiThreadForTi) {
  std::ostringstream out;
  TraceEventWriter w(out, TraceFilter{}, nullptr);
  w.start_run(run_info(3, "ti"));
  w.message(msg(0, 2, 1'000'000, 2'500'000));
  w.message(msg(2, 1, 3'000'001, 4'000'000, /*context=*/1));
  w.finish(run_result({ps(5'000'000), ps(5'000'000), ps(5'000'000)}));
  const std::string text = out.str();
  EXPECT_NE(text.find(R"({"ph":"s","id":0,"pid":0,"tid":0,"ts":1,"name":"msg","cat":"p2p","args":{"bytes":1024,"tag":7}})"),
            std::string::npos) << text;
  EXPECT_NE(text.find(R"({"ph":"f","bp":"e","id":0,"pid":2,"tid":0,"ts":2.5,"name":"msg","cat":"p2p",)"),
            std::string::npos) << text;

  const std::vector<json> ev = timed_events(json::parse(text));
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[2]["ph"], "s");
  EXPECT_EQ(ev[3]["ph"], "f");
  EXPECT_EQ(ev[3]["bp"], "e");
  EXPECT_EQ(ev[2]["id"], 1);
  EXPECT_EQ(ev[3]["id"], 1);
  EXPECT_EQ(ev[2]["pid"], 2);
  EXPECT_EQ(ev[3]["pid"], 1);
  EXPECT_EQ(ev[2]["ts"].get<double>(), 3.000001);
  EXPECT_EQ(ev[3]["ts"].get<double>(), 4.0);
  EXPECT_EQ(ev[2]["cat"], "collective");
  EXPECT_EQ(ev[3]["cat"], "collective");
}

TEST(TraceEventWriter, FlowsBindToCpuZeroWithoutCalls) {
  std::ostringstream out;
  TraceEventWriter w(out, TraceFilter{}, nullptr);
  w.start_run(run_info(2, "goal"));
  w.message(msg(0, 1, 0, 10));
  w.finish(run_result({ps(10), ps(10)}));
  const std::vector<json> ev = timed_events(json::parse(out.str()));
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0]["tid"], 1);
  EXPECT_EQ(ev[1]["tid"], 1);
}

TEST(TraceEventWriter, FilterKeepsRanksAndWindow) {
  std::ostringstream out;
  TraceFilter f;
  f.first_rank = 1;
  f.last_rank = 2;
  f.from = ps(100);
  f.to = ps(200);
  TraceEventWriter w(out, f, nullptr);
  w.start_run(run_info(4));
  const CallInfo c = call("recv", CallClass::kP2p);
  w.call_interval(0, ps(0), ps(300), c);      // rank 0: dropped
  w.call_interval(1, ps(0), ps(99), c);       // before the window
  w.call_interval(1, ps(99), ps(100), c);     // touches `from`: kept, not clipped
  w.call_interval(1, ps(150), ps(160), c);    // inside
  w.call_interval(1, ps(200), ps(250), c);    // touches `to`: kept
  w.call_interval(2, ps(201), ps(400), c);    // after
  w.call_interval(3, ps(100), ps(200), c);    // rank 3: dropped
  w.cpu_busy(2, 0, CpuUse::kCompute, ps(0), ps(1000));   // spans the window: kept
  w.cpu_busy(3, 0, CpuUse::kCompute, ps(0), ps(1000));   // rank 3: dropped
  w.message(msg(0, 3, 150, 160));   // neither end kept
  w.message(msg(0, 1, 150, 160));   // receiver kept
  w.message(msg(2, 3, 10, 99));     // before the window
  w.message(msg(2, 3, 190, 1000));  // sender kept, overlaps
  w.finish(run_result({ps(1000), ps(1000), ps(1000), ps(1000)}));
  const json doc = json::parse(out.str());

  std::vector<std::string> seen;
  for (const json& e : timed_events(doc)) {
    std::ostringstream key;
    key << e["ph"].get<std::string>() << e["pid"] << "@" << std::llround(e["ts"].get<double>() * 1e6);
    if (e.contains("id")) key << "#" << e["id"];
    seen.push_back(key.str());
  }
  // pid@ts in ps#flow id
  EXPECT_EQ(seen, (std::vector<std::string>{"X1@99", "X1@150", "X1@200", "X2@0", "s0@150#1", "f1@160#1",
                                            "s2@190#3", "f3@1000#3"}));
  // Kept ranks are named up front; ranks 0 and 3 only because they end a kept message.
  for (int r = 0; r < 4; ++r) EXPECT_FALSE(metadata(doc, r, 0, "process_name").is_null()) << r;
  EXPECT_EQ(doc["traceEvents"][0]["pid"], 1);  // first the kept ranks, in order
  EXPECT_EQ(doc["traceEvents"][2]["pid"], 2);
}

TEST(TraceEventWriter, FilterWithoutMessagesNamesOnlyKeptRanks) {
  std::ostringstream out;
  TraceFilter f;
  f.first_rank = 1;
  f.last_rank = 1;
  TraceEventWriter w(out, f, nullptr);
  w.start_run(run_info(3));
  w.finish(run_result({ps(1), ps(1), ps(1)}));
  const json doc = json::parse(out.str());
  EXPECT_TRUE(metadata(doc, 0, 0, "process_name").is_null());
  EXPECT_FALSE(metadata(doc, 1, 0, "process_name").is_null());
  EXPECT_TRUE(metadata(doc, 2, 0, "process_name").is_null());
}

TEST(TraceEventWriter, EscapesHostNames) {
  std::ostringstream out;
  TraceEventWriter w(out, TraceFilter{}, nullptr);
  RunInfo info = run_info(3);
  info.rank_host[0] = "a\"b\\c\nd\te";
  info.rank_host[1] = "n\xc3\xa9ud";  // valid UTF-8 "néud": kept as is
  info.rank_host[2] = "bad\xff";      // invalid UTF-8: replaced, the file stays valid JSON
  w.start_run(info);
  w.finish(run_result({ps(1), ps(1), ps(1)}));
  const std::string text = out.str();
  EXPECT_NE(text.find(R"x("rank 0 (a\"b\\c\nd\te)")x"), std::string::npos) << text;
  const json doc = json::parse(text);
  EXPECT_EQ(metadata(doc, 0, 0, "process_name")["args"]["name"], "rank 0 (a\"b\\c\nd\te)");
  EXPECT_EQ(metadata(doc, 1, 0, "process_name")["args"]["name"], "rank 1 (n\xc3\xa9ud)");
  EXPECT_EQ(metadata(doc, 2, 0, "process_name")["args"]["name"], "rank 2 (bad\xef\xbf\xbd)");
}

}  // namespace
}  // namespace simfab
