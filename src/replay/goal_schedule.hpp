// GoalSchedule: a parsed GOAL file (Group Operation Assembly Language, seed 004 §2.3): per rank,
// a DAG of send/recv/calc operations with `requires` (start after the other completes) and
// `irequires` (start once the other has started) edges.
//
// Grammar (whitespace-insensitive; `//` and `#` start a comment to the end of the line):
//   file  := "num_ranks" INT block*
//   block := "rank" INT "{" stmt* "}"
//   stmt  := LABEL ":" op | LABEL ("requires" | "irequires") LABEL
//   op    := "calc" INT ["cpu" INT]
//          | "send" SIZE "to" RANK "tag" INT ["cpu" INT] ["nic" INT]
//          | "recv" SIZE "from" SRC "tag" TAG ["cpu" INT] ["nic" INT]
//          | "switch" KEY=VALUE[,KEY=VALUE...]     (simfab's extension: a model switch)
//   SIZE  := INT ["b"]      SRC := RANK | "any"      TAG := INT | "any"
// A switch is a zero calc (Op::user = its index in `switches` + 1) whose start switches the rank's
// network model (sim/model_switch.hpp): every rank must reach the same switches in the same order.
// LogGOPSim does not know it.
// Labels are local to their block and resolved after the whole block is read, so a dependency
// may name a label defined later. calc durations are in picoseconds (the simulator's unit).
// Every block must be acyclic (checked, Kahn's algorithm) and every rank must have a block.
// num_ranks is at most 2^24 (16,777,216).
//
// Representation: ops in an OpPool, contiguous per rank (ranks_[r] .. ranks_[r+1]); successor
// edges in compressed-sparse-row form (succ_begin_[op] .. succ_begin_[op+1] into succ_), the top
// bit of an edge marking `irequires`. Memory: 40 B per op + 4 B per edge + 4 B per op (line
// number for error reports) + 4 B per op (CSR offset).
#pragma once

#include <string>
#include <vector>

#include "mpi/op.hpp"

namespace simfab {

struct GoalSchedule {
  static constexpr uint32_t kImmediate = 0x80000000u;  // edge flag: irequires

  std::string path;
  int num_ranks = 0;
  int num_cpus = 1;
  int num_nics = 1;
  OpPool ops;
  std::vector<uint32_t> rank_begin;  // size num_ranks + 1
  std::vector<uint32_t> succ_begin;  // size ops + 1
  std::vector<uint32_t> succ;        // successor op ids, kImmediate flag for irequires
  std::vector<uint32_t> line;        // source line of each op
  std::vector<std::string> switches; // the key=value list of each switch op (Op::user - 1)

  size_t op_count() const { return ops.size(); }
};

// Parses a GOAL file. Throws InputError (file, line, column, echoed line, what was expected).
GoalSchedule parse_goal_file(const std::string& path);
// Parses GOAL text held in memory; `name` is used in error messages (tests, fuzzing).
GoalSchedule parse_goal_text(std::string_view text, const std::string& name);

}  // namespace simfab
