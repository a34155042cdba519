// OutputTagger: `simfab exec --tag-output`, mpirun's option: every line a rank writes to stdout or
// stderr comes out prefixed "[1,RANK]<stdout>:" or "[1,RANK]<stderr>:", whatever wrote it (C's
// stdio, C++'s streams, Fortran's units, write(2)).
//
// How. The ranks share the process's file descriptors, but run one at a time, so what reaches
// fd 1 and 2 while rank r runs is rank r's. For the run, fd 1 and 2 are anonymous in-memory files
// (memfd); after each of a rank's slices (OnlineProgram::resume) the ranks' output buffers are
// flushed (flush_output.hpp) and the files' new bytes are split into lines, each written with the
// rank's tag to the real stdout/stderr (a line a rank has not ended waits for the rest of it).
// Before a slice, bytes that came from simfab itself are written untagged. At the end (destructor)
// the descriptors are restored and lines never ended go out tagged, with a newline (a run that
// ranks' failures stop ends this way too: rank_failures.hpp); a run that stops at once (_Exit: an
// MPI error, a crash) hands what is held to the real descriptors untagged first (set_exit_flush,
// signal-safe).
// Cost: a flush, two lseeks and (when there is output) a read per slice. One tagger at a time.
#pragma once

#include <string>
#include <unordered_map>

namespace simfab::online {

class OutputTagger {
 public:
  OutputTagger();
  ~OutputTagger();
  OutputTagger(const OutputTagger&) = delete;
  OutputTagger& operator=(const OutputTagger&) = delete;

  void before_slice();           // simfab's own output so far, untagged
  void after_slice(int rank);    // the slice's output, tagged with `rank`

 private:
  void drain(int stream, int rank);  // rank < 0: untagged
  int real_[2] = {-1, -1};
  int mem_[2] = {-1, -1};
  std::unordered_map<int, std::string> partial_[2];  // per rank: a line not ended yet
};

}  // namespace simfab::online
