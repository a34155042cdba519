// MpiCallError: an MPI call made with invalid arguments (a rank outside the group, a duplicate in
// MPI_Group_incl, a zero stride, communicator ids that disagree across members, ...).
//
// The group and communicator library (group.hpp, comm.hpp) has no notion of files or lines, so it
// cannot throw InputError itself. It throws this instead, carrying the MPI call's name ("MPI_Group_incl")
// and what is wrong; the front-end that knows where the call came from (a trace line, a schedule
// entry) catches it and rethrows InputError(loc, e.what(), echoed line). what() reads
// "MPI_Group_incl: rank 7 is not in the group (size 4)".
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace simfab::mpi {

class MpiCallError : public std::runtime_error {
 public:
  MpiCallError(std::string call, const std::string& detail)
      : std::runtime_error(call + ": " + detail), call_(std::move(call)), detail_(detail) {}
  // The MPI function whose arguments are wrong, e.g. "MPI_Comm_split".
  const std::string& call() const { return call_; }
  // What is wrong, without the call's name.
  const std::string& detail() const { return detail_; }

 private:
  std::string call_;
  std::string detail_;
};

}  // namespace simfab::mpi
