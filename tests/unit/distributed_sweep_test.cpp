// The protocol of a sweep spread over an MPI job (sweep/distributed_sweep.hpp) without MPI: process
// 0's dispatcher against scripted workers over an in-memory transport, and the outcome messages.
// tests/sweep/run_sweep.py runs whole sweeps under mpirun.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>
#include <vector>

#include "sweep/distributed_sweep.hpp"

namespace simfab {
namespace {

// Process 0's side of a job whose workers answer at once: a worker given point p reports it
// (exit code p % 4) and asks again; told there are no more, it says it is done.
class ScriptedWorkers final : public SweepTransport {
 public:
  explicit ScriptedWorkers(int size) : size_(size) {}
  int rank() const override { return 0; }
  int size() const override { return size_; }
  void send(int to, int tag, const std::string& data) override {
    sent_.push_back({to, tag});
    if (tag == kStart) {
      inbox_.push_back({to, kAsk, ""});
    } else if (tag == kPoint) {
      uint64_t p = 0;
      std::memcpy(&p, data.data(), sizeof p);
      given_[to].push_back(p);
      PointOutcome o;
      o.exit_code = static_cast<int>(p % 4);
      o.json = "{\"point\": " + std::to_string(p) + "}";
      inbox_.push_back({to, kOutcome, encode_outcome(p, o)});
      inbox_.push_back({to, kAsk, ""});
    } else if (tag == kNoMore) {
      inbox_.push_back({to, kDone, ""});
    }
  }
  bool poll(SweepMessage& m) override {
    if (inbox_.empty()) return false;
    m = inbox_.front();
    inbox_.pop_front();
    return true;
  }
  void idle() override { throw std::logic_error("the dispatcher waited with every worker's message delivered"); }
  [[noreturn]] void abort(int) override { throw std::logic_error("abort"); }

  std::vector<std::pair<int, int>> sent_;          // (to, tag)
  std::map<int, std::vector<uint64_t>> given_;     // worker -> points, in order
 private:
  int size_;
  std::deque<SweepMessage> inbox_;
};

TEST(DistributedSweep, OutcomesSurviveTheirMessage) {
  PointOutcome o;
  o.exit_code = 3;
  o.signal = 0;
  o.timed_out = true;
  o.wall_s = 0.125;
  o.json = std::string("{\"a\": 1}\0binary", 15);
  o.stderr_text = "";
  size_t index = 0;
  const std::string bytes = encode_outcome(41, o);
  const PointOutcome back = decode_outcome(bytes, index);
  EXPECT_EQ(index, 41u);
  EXPECT_EQ(back.exit_code, 3);
  EXPECT_TRUE(back.timed_out);
  EXPECT_EQ(back.wall_s, 0.125);
  EXPECT_EQ(back.json, o.json);
  EXPECT_EQ(back.stderr_text, "");
  EXPECT_THROW(decode_outcome(bytes.substr(0, bytes.size() - 1), index), std::runtime_error);
}

TEST(DistributedSweep, HandsOutEveryPointOnceInOrderAndHearsEveryOutcome) {
  ScriptedWorkers t(3);
  const std::vector<size_t> todo{5, 0, 7, 2, 9};
  std::vector<size_t> started, finished;
  std::map<size_t, int> codes;
  dispatch_points(
      t, todo, [&](size_t p) { started.push_back(p); },
      [&](size_t p, PointOutcome& o) {
        finished.push_back(p);
        codes[p] = o.exit_code;
        return true;
      },
      nullptr);
  EXPECT_EQ(started, todo);
  EXPECT_EQ(finished, todo);  // these workers answer at once: outcomes arrive in hand-out order
  EXPECT_EQ(codes, (std::map<size_t, int>{{5, 1}, {0, 0}, {7, 3}, {2, 2}, {9, 1}}));
  // Both workers were started first, each asked in turn, each heard "no more" once.
  ASSERT_GE(t.sent_.size(), 2u);
  EXPECT_EQ(t.sent_[0], std::make_pair(1, int(kStart)));
  EXPECT_EQ(t.sent_[1], std::make_pair(2, int(kStart)));
  EXPECT_EQ(t.given_[1], (std::vector<uint64_t>{5, 7, 9}));
  EXPECT_EQ(t.given_[2], (std::vector<uint64_t>{0, 2}));
  int no_more = 0;
  for (const auto& [to, tag] : t.sent_) no_more += tag == kNoMore;
  EXPECT_EQ(no_more, 2);
}

TEST(DistributedSweep, StoppingHandsOutNothingMore) {
  ScriptedWorkers t(2);
  const std::vector<size_t> todo{0, 1, 2, 3};
  std::vector<size_t> finished;
  dispatch_points(t, todo, nullptr, [&](size_t p, PointOutcome&) {
    finished.push_back(p);
    return p != 1;  // stop after point 1
  }, nullptr);
  EXPECT_EQ(finished, (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace simfab
