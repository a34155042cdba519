// CallSites: where a program's MPI calls are, and the tasks between them (seed 001 §2.11, §4.5).
//
// A site is one MPI call's place in the source, `file:line` (SimGrid's `location` lines in a TI
// trace; simfab exec records the caller of each MPI function). A task is the code a rank runs
// between two MPI calls, named by the pair of their sites:
//     task = (site of the rank's previous MPI call, site of its next MPI call)
// as seed 001 defines a code region ("<file>:<line of previous MPI call>:<file>:<line of next MPI
// call>", §2.11) and as Adagio keys its per-task state (§4.5, there by a hash of the call stack).
// Site 0 is the unknown place (a trace without locations, SMPI's `location  0`), so a program
// without call sites is one task per rank: task 0 = (0, 0).
//
// Protocol per rank r (the front-ends drive it, the executor keeps it):
//     at_site(r, s)      the rank's next MPI call is at site s (a `location` line; a call's entry)
//     task_before(r)     the task of a computation that ends at that next call
//     called(r)          the call happened: its site becomes the rank's previous one
// Ids are dense and handed out in order of first appearance, so the same run gives the same ids.
// Cost: O(length of the file name) per new site (a hash), O(1) per task lookup.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

class CallSites {
 public:
  static constexpr uint32_t kUnknown = 0;

  // The id of site (file, line); the unknown site for an empty file name.
  uint32_t site(std::string_view file, int line);
  // The id of the site at code offset `offset` of the program (simfab exec: an MPI call's return
  // address in the rank's copy), named "<object>+0x<offset>" (addr2line -e <object> <offset> gives
  // its file:line when the program has debug information). O(1) after the first time.
  uint32_t site_at(std::string_view object, uint64_t offset);
  // The id of the task between two sites.
  uint32_t task(uint32_t previous, uint32_t next);

  void at_site(RankId r, uint32_t site);
  uint32_t task_before(RankId r);
  void called(RankId r);

  // "file:line", or "?" for the unknown site.
  const std::string& site_name(uint32_t site) const { return names_[site]; }
  // "file:line -> file:line".
  std::string task_name(uint32_t task) const;
  // The task's (previous, next) sites.
  std::pair<uint32_t, uint32_t> task_sites(uint32_t task) const { return tasks_[task]; }
  // The tasks that ran a computation: 0 for a trace whose gaps are all sleeps (a capture
  // converted without --speed), 1 for computations without call sites.
  size_t tasks() const { return tasks_.size() - (unknown_task_used_ ? 0 : 1); }

 private:
  struct RankSites {
    uint32_t previous = kUnknown;
    uint32_t next = kUnknown;
  };
  RankSites& rank(RankId r);

  std::vector<std::string> names_{"?"};  // per site
  std::unordered_map<std::string, uint32_t> by_name_;
  std::string scratch_;
  std::unordered_map<uint64_t, uint32_t> by_offset_;
  std::vector<std::pair<uint32_t, uint32_t>> tasks_{{kUnknown, kUnknown}};  // per task: its two sites
  std::unordered_map<uint64_t, uint32_t> by_pair_{{0, 0}};
  std::vector<RankSites> ranks_;
  bool unknown_task_used_ = false;  // task 0 exists from the start; counted once a computation has it
};

}  // namespace simfab
