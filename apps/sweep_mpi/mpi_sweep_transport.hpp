// MpiSweepTransport: sweep/sweep_transport.hpp over MPI_COMM_WORLD (a private duplicate of it).
// Its header shows no MPI type. poll() is MPI_Iprobe + MPI_Recv; idle() sleeps from 1 us up to
// 1 ms, so a process waiting for its next point or outcome leaves the cores to the points.
#pragma once

#include "sweep/sweep_transport.hpp"

namespace simfab {

class MpiSweepTransport final : public SweepTransport {
 public:
  MpiSweepTransport(int* argc, char*** argv);  // MPI_Init
  ~MpiSweepTransport() override;               // MPI_Finalize
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int to, int tag, const std::string& data) override;
  bool poll(SweepMessage& m) override;
  void idle() override;
  [[noreturn]] void abort(int code) override;  // MPI_Abort

 private:
  int rank_ = 0, size_ = 1;
  int idle_us_ = 1;
};

}  // namespace simfab
