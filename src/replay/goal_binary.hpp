// Compiled GOAL schedules (issue 29; LogGOPSim's txt2bin idea): `simfab goal --compile IN.goal -o
// OUT.sgb` writes a parsed GoalSchedule as flat arrays, and `simfab run --goal` reads either form
// (it looks at the first bytes), skipping the text's lexing, label lookups and cycle checks.
//
// Layout (native little-endian, x86-64; every integer unsigned unless said):
//   magic     "SIMFAB-GOAL-BIN\n" (16 bytes), then u32 version (1), u32 endian mark 0x01020304
//   header    u32 num_ranks, num_cpus, num_nics, switches; u64 ops, edges; u32 source name length
//   source    the text file's name (runtime errors and deadlock reports cite its lines)
//   switches  per switch: u32 length, then its key=value text
//   rank_begin  u32 x (num_ranks + 1)     ops of rank r: [rank_begin[r], rank_begin[r+1])
//   ops       24 B each: u64 amount, i32 peer, i32 tag, u32 user, u8 kind, u8 cpu, u8 nic, u8 0
//   succ_begin  u32 x (ops + 1)           successors of op i: succ[succ_begin[i] .. succ_begin[i+1])
//   succ      u32 x edges                 GoalSchedule::kImmediate marks irequires
//   line      u32 x ops                   the op's line in the source text
// An op's rank follows from rank_begin and its pending count from the edges, so neither is stored
// and they cannot disagree. Reading checks every field against the header (ranks, cpus, nics,
// switch indices, edges within their rank's block, monotone offsets, the file's exact length):
// a damaged or truncated file is an InputError naming it and what is wrong, never a crash.
// Cost: reading is O(ops + edges) copies at memory speed; 24 + 12 B per op and 4 B per edge.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "replay/goal_schedule.hpp"

namespace simfab {

class MappedFile;

// True when `text` starts with the compiled form's magic.
bool is_compiled_goal(std::string_view text);

// Writes `g` in the compiled form.
void write_compiled_goal(const GoalSchedule& g, std::ostream& out);

// Reads a compiled schedule from `text` (the file `path`; when `file` maps it, the pages of the
// decoded ops are given back as it goes: MappedFile::done_before). Throws InputError.
GoalSchedule read_compiled_goal(std::string_view text, const std::string& path, MappedFile* file = nullptr);

// A GOAL file in either form; `compiled` tells which it was. Throws InputError.
GoalSchedule load_goal_file(const std::string& path, bool& compiled);

}  // namespace simfab
