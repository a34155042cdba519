// SweepTransport: the messages of a sweep spread over the processes of an MPI job (`mpirun -np K
// simfab sweep ...`, issue 31). simfab itself links no MPI: simfab-sweep-mpi (apps/sweep_mpi/)
// implements this over MPI_COMM_WORLD, and the unit tests over in-memory queues.
//
// Process 0 reads the spec, writes the CSV and hands out points; processes 1..K-1 run them
// (sweep/distributed_sweep.hpp has the protocol). A message is a tag and a byte string; messages
// between two processes arrive in the order sent (MPI's non-overtaking rule).
//
// Waiting: poll() never blocks; idle() sleeps a little (backing off to 1 ms), so that waiting
// processes leave the cores to the points' simulations instead of spinning in MPI's progress loop.
#pragma once

#include <string>

namespace simfab {

struct SweepMessage {
  int source = -1;
  int tag = -1;
  std::string data;
};

class SweepTransport {
 public:
  virtual ~SweepTransport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void send(int to, int tag, const std::string& data) = 0;
  // A message that has arrived, if any (returns false at once otherwise).
  virtual bool poll(SweepMessage& m) = 0;
  virtual void idle() = 0;
  // Ends every process of the job with `code` (an error after the points started: the others
  // would wait for this one forever). The caller has printed why.
  [[noreturn]] virtual void abort(int code) = 0;
};

}  // namespace simfab
