// Helpers of the SimGrid message-for-message tests (coll_smpi_*_test.cpp): a CollChoice from
// configuration lines, and one rank's sends and receives written as the recordings write them
// (S<peer>:<bytes> / R<peer>:<bytes>, in fragment order; coll_smpi_test.cpp's header explains how
// SimGrid's side was recorded), and expand() for long recordings written with repeats.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "mpi/coll/registry.hpp"
#include "sim/simulation.hpp"

namespace simfab::coll {

inline CollChoice choice_of(const std::vector<std::string>& cfg_lines) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  return CollChoice::from(cfg);
}

inline std::string messages(const CollChoice& choice, CollOp op, CollCall call) {
  Fragment f;
  EXPECT_TRUE(choice.build(op, f, call)) << coll_op_name(op);
  std::string out;
  for (const FragOp& o : f.ops()) {
    if (o.kind == OpKind::kCalc) continue;
    out += (out.empty() ? "" : " ") + std::string(o.kind == OpKind::kSend ? "S" : "R") + std::to_string(o.peer) + ":" +
           std::to_string(o.amount);
  }
  return out;
}

// A recording with repeats spelled out: "R5:1024 (R5:1024 S8:1024)*3 S8:736" is R5:1024, then
// the group three times, then S8:736; "R9:1024*11" is one message eleven times. One level of
// parentheses, counts >= 1.
inline std::string expand(const std::string& text) {
  std::string out;
  const auto emit = [&](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
  for (size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const bool group = text[i] == '(';
    const size_t end = group ? text.find(')', i) + 1 : std::min(text.find(' ', i), text.size());
    std::string body = group ? text.substr(i + 1, end - i - 2) : text.substr(i, end - i);
    size_t next = end;
    int times = 1;
    const size_t star = group ? (next < text.size() && text[next] == '*' ? next : std::string::npos) : body.find('*');
    if (group && star != std::string::npos) {
      next = std::min(text.find(' ', star), text.size());
      times = std::stoi(text.substr(star + 1, next - star - 1));
    } else if (!group && star != std::string::npos) {
      times = std::stoi(body.substr(star + 1));
      body.resize(star);
    }
    for (int k = 0; k < times; ++k) emit(body);
    i = next;
  }
  return out;
}

}  // namespace simfab::coll
