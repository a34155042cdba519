// flush_program_output: writes out what the ranks' output libraries still hold in their buffers.
// The ranks share the process's libraries (program_image.hpp), so one flush covers every rank:
//   - C stdio: every FILE stream (fflush(NULL)), e.g. a stdout that is a pipe or a file, hence
//     fully buffered, and a rank's last line printed without a newline;
//   - C++ streams: std::cout and std::clog, which hold their own buffers once a program calls
//     std::ios::sync_with_stdio(false) (std::cerr is unit-buffered);
//   - gfortran's units (FLUSH of every unit), when a Fortran program brought libgfortran in.
// Used after each rank's slice under --tag-output (output_tagger.hpp) and before every ending of
// a run that reports on stderr and then _Exits (a rank's failure, an MPI usage error), which
// would otherwise drop what the buffers hold. Not async-signal-safe (the crash guard cannot use
// it). Cost: a few calls, and a dlopen(RTLD_NOLOAD) lookup of libgfortran until it is found.
#pragma once

namespace simfab::online {

void flush_program_output();

}  // namespace simfab::online
