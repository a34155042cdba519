// LibcState: the C library's process-wide variables that a program treats as its own, saved and
// restored per rank around every switch between ranks. Ranks share one libc (only the program's
// own globals are privatized, program_image.hpp), so without this the first rank's getopt loop
// would leave optind at the end of argv and every other rank would see no options at all.
//
// Kept per rank: getopt's optind, optarg, opterr, optopt. A rank starts with optind = 0, which
// makes glibc's getopt reinitialise its hidden state (the scan position inside a cluster of
// short options, the argv permutation bounds) before the rank's first call, as a fresh process
// would; getopt sets it to 1 then. (errno is already per thread and ranks share the thread: it is
// saved too, so a rank's errno survives another rank's calls.)
#pragma once

namespace simfab::online {

struct LibcState {
  int optind = 0;
  int opterr = 1;
  int optopt = '?';
  char* optarg = nullptr;
  int errno_value = 0;

  void save();           // the running rank's values, as the C library holds them now
  void restore() const;  // into the C library, before the rank runs again
};

}  // namespace simfab::online
