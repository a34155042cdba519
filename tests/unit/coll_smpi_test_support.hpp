// Helpers of the SimGrid message-for-message tests (coll_smpi_*_test.cpp): a CollChoice from
// configuration lines, and one rank's sends and receives written as the recordings write them
// (S<peer>:<bytes> / R<peer>:<bytes>, in fragment order; coll_smpi_test.cpp's header explains how
// SimGrid's side was recorded).
#pragma once

#include <gtest/gtest.h>

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

}  // namespace simfab::coll
