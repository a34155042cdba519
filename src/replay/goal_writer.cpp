// GoalWriter: GOAL text, one block at a time (see goal_writer.hpp).
#include "replay/goal_writer.hpp"

#include <charconv>

#include "core/error.hpp"

namespace simfab {

GoalWriter::GoalWriter(std::ostream& out, int num_ranks) : out_(out), num_ranks_(num_ranks) {
  SIMFAB_CHECK(num_ranks >= 1, "GoalWriter: num_ranks must be at least 1");
  buf_.reserve(kChunkBytes + 256);
  put("num_ranks ");
  put(static_cast<uint64_t>(num_ranks));
  end_line();
}

void GoalWriter::put(uint64_t v) {
  char digits[24];
  const auto res = std::to_chars(digits, digits + sizeof digits, v);
  buf_.append(digits, res.ptr);
}

void GoalWriter::put_label(GoalLabel l) {
  buf_.push_back('l');
  put(l);
}

void GoalWriter::end_line() {
  buf_.push_back('\n');
  if (buf_.size() >= kChunkBytes) {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
}

RankId GoalWriter::begin_rank() {
  SIMFAB_CHECK(!open_ && rank_ + 1 < num_ranks_, "GoalWriter::begin_rank: a block is open or every rank is written");
  open_ = true;
  ++rank_;
  next_label_ = 1;
  put("rank ");
  put(static_cast<uint64_t>(rank_));
  put(" {");
  end_line();
  return rank_;
}

GoalLabel GoalWriter::begin_op() {
  SIMFAB_CHECK(open_, "GoalWriter: an op outside a rank block");
  const GoalLabel l = next_label_++;
  ++ops_;
  put_label(l);
  put(": ");
  return l;
}

GoalLabel GoalWriter::calc(uint64_t ps) {
  const GoalLabel l = begin_op();
  put("calc ");
  put(ps);
  end_line();
  return l;
}

GoalLabel GoalWriter::send(Bytes bytes, RankId to, int32_t tag) {
  SIMFAB_CHECK(to >= 0 && to < num_ranks_ && tag >= 0, "GoalWriter::send: bad peer or tag");
  const GoalLabel l = begin_op();
  put("send ");
  put(bytes);
  put("b to ");
  put(static_cast<uint64_t>(to));
  put(" tag ");
  put(static_cast<uint64_t>(tag));
  end_line();
  return l;
}

GoalLabel GoalWriter::recv(Bytes bytes, RankId from, int32_t tag) {
  SIMFAB_CHECK(((from >= 0 && from < num_ranks_) || from == kAnySource) && (tag >= 0 || tag == kAnyTag),
               "GoalWriter::recv: bad peer or tag");
  const GoalLabel l = begin_op();
  put("recv ");
  put(bytes);
  put("b from ");
  if (from == kAnySource) put("any");
  else put(static_cast<uint64_t>(from));
  put(" tag ");
  if (tag == kAnyTag) put("any");
  else put(static_cast<uint64_t>(tag));
  end_line();
  return l;
}

void GoalWriter::depend(GoalLabel succ, GoalLabel pred, bool immediate) {
  SIMFAB_CHECK(open_ && pred >= 1 && succ >= 1 && pred != succ && pred < next_label_ && succ < next_label_,
               "GoalWriter::depend: both ops must be distinct and written in the open block");
  ++deps_;
  put_label(succ);
  put(immediate ? " irequires " : " requires ");
  put_label(pred);
  end_line();
}

void GoalWriter::end_rank() {
  SIMFAB_CHECK(open_, "GoalWriter::end_rank: no open block");
  open_ = false;
  put("}");
  end_line();
}

void GoalWriter::finish() {
  SIMFAB_CHECK(!open_ && rank_ + 1 == num_ranks_, "GoalWriter::finish: some rank has no block");
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
  out_.flush();
}

}  // namespace simfab
