#include "sweep/distributed_sweep.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>

namespace simfab {
namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_text(std::string& out, const std::string& text) {
  put<uint64_t>(out, text.size());
  out += text;
}

class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  template <typename T>
  T get() {
    T value;
    need(sizeof value);
    std::memcpy(&value, data_.data() + pos_, sizeof value);
    pos_ += sizeof value;
    return value;
  }
  std::string get_text() {
    const auto n = static_cast<size_t>(get<uint64_t>());
    need(n);
    std::string s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  void need(size_t n) const {
    if (data_.size() - pos_ < n) throw std::runtime_error("a sweep outcome message is shorter than its fields");
  }
  const std::string& data_;
  size_t pos_ = 0;
};

// The next message, waiting (idle) until one arrives.
SweepMessage wait_for(SweepTransport& t) {
  SweepMessage m;
  while (!t.poll(m)) t.idle();
  return m;
}

}  // namespace

std::string encode_outcome(size_t index, const PointOutcome& o) {
  std::string out;
  put<uint64_t>(out, index);
  put<int32_t>(out, o.exit_code);
  put<int32_t>(out, o.signal);
  put<uint8_t>(out, o.timed_out ? 1 : 0);
  put<double>(out, o.wall_s);
  put_text(out, o.json);
  put_text(out, o.stderr_text);
  return out;
}

PointOutcome decode_outcome(const std::string& data, size_t& index) {
  Reader r(data);
  index = static_cast<size_t>(r.get<uint64_t>());
  PointOutcome o;
  o.exit_code = r.get<int32_t>();
  o.signal = r.get<int32_t>();
  o.timed_out = r.get<uint8_t>() != 0;
  o.wall_s = r.get<double>();
  o.json = r.get_text();
  o.stderr_text = r.get_text();
  return o;
}

void dispatch_points(SweepTransport& t, std::span<const size_t> todo, const std::function<void(size_t)>& on_start,
                     const PointRunner::OnDone& on_done, const PointRunner::OnTick& on_tick) {
  using Clock = std::chrono::steady_clock;
  for (int w = 1; w < t.size(); ++w) t.send(w, kStart, "");
  std::deque<size_t> left(todo.begin(), todo.end());
  int done = 0;
  auto last_tick = Clock::now();
  SweepMessage m;
  while (done < t.size() - 1) {
    if (!t.poll(m)) {
      t.idle();
    } else if (m.tag == kAsk) {
      if (left.empty()) {
        t.send(m.source, kNoMore, "");
      } else {
        std::string index;
        put<uint64_t>(index, left.front());
        if (on_start) on_start(left.front());
        left.pop_front();
        t.send(m.source, kPoint, index);
      }
    } else if (m.tag == kOutcome) {
      size_t p = 0;
      PointOutcome o = decode_outcome(m.data, p);
      if (!on_done(p, o)) left.clear();
    } else if (m.tag == kDone) {
      ++done;
    } else {
      throw std::runtime_error("sweep: process 0 got an unexpected message (tag " + std::to_string(m.tag) + ")");
    }
    if (Clock::now() - last_tick >= std::chrono::milliseconds(500)) {
      last_tick = Clock::now();
      if (on_tick) on_tick();
    }
  }
}

void stop_workers(SweepTransport& t, int code) {
  std::string data;
  put<int32_t>(data, code);
  for (int w = 1; w < t.size(); ++w) t.send(w, kStop, data);
}

std::optional<int> await_start(SweepTransport& t) {
  const SweepMessage m = wait_for(t);
  if (m.tag == kStart) return std::nullopt;
  if (m.tag != kStop) throw std::runtime_error("sweep: a worker got an unexpected first message");
  return Reader(m.data).get<int32_t>();
}

void serve_points(SweepTransport& t, PointRunner& runner, const PointRunner::Arguments& arguments) {
  const PointRunner::Next ask = [&]() -> std::optional<size_t> {
    t.send(0, kAsk, "");
    const SweepMessage m = wait_for(t);
    if (m.tag == kNoMore) return std::nullopt;
    if (m.tag != kPoint) throw std::runtime_error("sweep: a worker got an unexpected answer to its request");
    return static_cast<size_t>(Reader(m.data).get<uint64_t>());
  };
  runner.run_from(
      ask, arguments,
      [&](size_t p, PointOutcome& o) {
        t.send(0, kOutcome, encode_outcome(p, o));
        return true;
      },
      nullptr);
  t.send(0, kDone, "");
}

}  // namespace simfab
