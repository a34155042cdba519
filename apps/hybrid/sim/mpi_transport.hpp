// MpiTransport: the simulator's side of the channel of a hybrid run (src/hybrid/hybrid_protocol.hpp),
// over the MPI library the application uses. Its header shows no MPI type, so the simulator's
// other sources include simfab's headers only.
#pragma once

#include <string>

#include "hybrid/hybrid_simulator.hpp"

namespace simfab::hybrid {

class MpiTransport final : public HybridTransport {
 public:
  // MPI_Init, then the world split and channel dup that match the ranks' (HybridState::begin).
  MpiTransport(int* argc, char*** argv);
  int num_ranks() const { return ranks_; }
  void send_setup(int rank, const Setup& setup) override;
  bool poll(HybridMessage& m) override;
  void idle() override;
  void send_wtime(int rank, double seconds) override;
  // Ends the whole job with `code` (MPI_Abort); the message is printed first.
  [[noreturn]] void abort(int code, const std::string& message);
  void finalize();

 private:
  int ranks_ = 0;
  int idle_us_ = 1;
};

}  // namespace simfab::hybrid
