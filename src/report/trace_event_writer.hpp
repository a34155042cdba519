// TraceEventWriter: a run as a Chrome / Perfetto trace-event JSON timeline (open it in
// ui.perfetto.dev or chrome://tracing), written while the run goes.
//
// Format (the "JSON Object Format" of Google's Trace Event Format): one object
//   {"displayTimeUnit":"ns","traceEvents":[ event, event, ... ],"simfab":{...run metadata...}}
// whose events the viewer sorts itself, so they are written in the order they arrive. Every event
// has a phase "ph", a process "pid", a thread "tid", and times "ts" / "dur" in MICROSECONDS as
// JSON numbers; simfab prints them exactly from integer picoseconds (report/time_format.hpp:
// 1,234,567 ps -> 1.234567), so the file is byte-identical run to run. The phases used:
//   "M"  metadata: process_name, process_sort_index, thread_name, thread_sort_index
//   "X"  a complete slice: ts, dur, name, cat, args
//   "s"  start of a flow arrow (flow events v1): binds to the slice enclosing ts on (pid, tid)
//   "f"  its end, same "id"; "bp":"e" binds it to the slice enclosing ts (not the next one)
//
// Layout: one process per rank (pid = rank, named "rank R (HOST)", sorted by rank).
//   tid 0      "MPI": the rank's calls (call_interval), name = the call ("allreduce"),
//              cat = its CallClass ("collective"), args = algorithm, peer, bytes, comm, flops
//              where they mean something
//   tid 1 + c  "CPU c": what occupies the rank's CPU c: "compute", "send overhead",
//              "recv overhead" (cat "cpu"); zero-length intervals are not written
//   flows      one arrow per message, name "msg", cat "p2p" or "collective", args bytes and tag:
//              "s" at `sent` on the sender, "f" at `arrived` on the receiver, bound to the MPI
//              thread when the front-end reports calls (TI, online) and otherwise to the thread of
//              the CPU the message was sent and received on (MessageRecord::cpu). The
//              flow id is the message's number in the run (filtering does not renumber).
//
// NIC model (nic/model=portals; as a nic::NicLog): one process per NIC that did something (pid =
// kNicPid + host, named "NIC HOST", sorted after the ranks), tid 0 "wire" (each message from its
// first byte to its arrival, named by Fig. 4.12's types: PTL_PUT, PTL_ACK, E2E_ACK, ...) and tid 1
// "PCIe" (commands, DMA requests and payloads, payload writes, event writes), cat "nic"; the
// window filter applies, the rank filter does not.
//
// Counter tracks (phase "C", written by finish() from the run's results): process kPortsPid
// "switch ports (packet model)", one track per port of NetworkStats::queues, its mean buffer
// occupancy per bin (args bytes); process kPstatePid "pstates", one track per DVFS host of
// RunResult::pstates, a value at each pstate step (args pstate). The window filter applies.
//
// Model switches (RunResult::phases): a global instant event "model switch" (cat "switch", args
// phase, model, changes) where each phase after the first begins, written by finish().
//
// Filter (TraceFilter): slices of kept ranks that overlap [from, to] (nothing is clipped); a
// message when its sender or its receiver is kept and [sent, arrived] overlaps the window. A rank
// that is not kept but ends a kept message still gets its process name, so the arrow has a home.
//
// Memory: O(ranks) (which processes are named) plus one entry per named CPU thread; nothing per
// event. The "simfab" key (metadata(result)) and the closing brackets are written by finish(); a
// run that never finishes leaves an unterminated file, which the CLI never keeps. One run per writer.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "nic/nic_log.hpp"
#include "report/run_observer.hpp"

namespace simfab {

class TraceEventWriter final : public RunObserver, public nic::NicLog {
 public:
  using Metadata = std::function<nlohmann::ordered_json(const RunResult&)>;
  // `metadata` gives the value of the top-level "simfab" key (an empty function: no such key).
  TraceEventWriter(std::ostream& out, TraceFilter filter, Metadata metadata);

  void start_run(const RunInfo& info) override;
  void call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) override;
  void cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) override;
  void message(const MessageRecord& m) override;
  void finish(const RunResult& result) override;
  void row(nic::LogType type, HostId initiator, HostId target, SimTime start, SimTime end) override;
  static constexpr int64_t kNicPid = 1 << 30;
  static constexpr int64_t kPortsPid = kNicPid - 2;   // counter tracks: the packet model's ports
  static constexpr int64_t kPstatePid = kNicPid - 1;  // counter tracks: DVFS hosts' pstates

 private:
  // Writes the separator before an event and returns the stream.
  std::ostream& next_event();
  void name_process(RankId r);
  void name_thread(RankId r, int tid, std::string_view name);
  void counter_process(int64_t pid, const std::string& name);
  void counter(int64_t pid, const std::string& track, SimTime t, const char* arg, double value);
  void counter_tracks(const RunResult& result);
  void write_flow_end(char phase, const MessageRecord& m, RankId rank, SimTime t, uint64_t id);

  std::ostream& out_;
  TraceFilter filter_;
  Metadata metadata_;
  std::vector<std::string> rank_host_;
  const Platform* platform_ = nullptr;
  std::vector<bool> nic_named_;
  std::vector<bool> process_named_;
  std::unordered_set<uint64_t> thread_named_;  // rank * 512 + tid
  bool calls_ = false;  // the front-end reports calls: flows bind to the MPI thread
  uint64_t messages_ = 0;
  bool first_event_ = true;
};

}  // namespace simfab
