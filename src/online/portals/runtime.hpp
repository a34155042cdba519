// PortalsRuntime: the Portals 4 API of online mode (`simfab exec --cfg nic/model=portals`) tied
// to the simulator. It owns every rank's PortalsProcess (process.hpp), turns PtlPut/PtlGet/
// PtlAtomic/PtlFetchAtomic/PtlSwap into commands of the simulated NIC (src/nic/nic.hpp), and is
// the NIC's client for them:
//   issue   (running rank) validate, remember the operation (payloads of at most nic/early-send
//           bytes are copied now: the program may reuse its buffer after the early SEND, seed 000
//           §4.3.2; larger ones are read at the target's processing), charge the CPU the NIC's
//           post cost, wait while the node's command queue is full, post the command
//   on_target     (kernel) the target process matches and moves the data (target.hpp); its events
//           become visible at when.visible
//   on_initiator  (kernel) SEND / ACK / REPLY on the MDs (initiator.hpp)
// Time. Events carry the time they become visible; a rank reads EQs and CTs at its own time.
// Blocking calls (PtlEQWait, PtlCTWait, queue space) wait with OnlineProgram::wait_for on a
// condition evaluated at a time: the rank's own when it runs, or, when the NIC raises an event
// for it, the event's visible time (notify(): the wake then lands exactly there). Polls
// (PtlEQGet, PtlCTGet, PtlEQPoll/PtlCTPoll with timeout 0) sleep the growing delay of seed 000
// §5.7: the n-th poll in a row without a find costs d + max(0, n-5)*d (d = nic/polling-delay).
// Without the Portals NIC model every Ptl* call is a usage error naming the call (exit 2).
#pragma once

#include <simfab/portals4.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "nic/nic.hpp"
#include "online/online_program.hpp"
#include "online/portals/match_list.hpp"
#include "online/portals/process.hpp"

namespace simfab::online::portals {

// One data-movement call's arguments (the put MD is the only MD of Put/Atomic; Get has only a
// get MD; FetchAtomic/Swap have both).
struct OpArgs {
  OpKind kind = OpKind::kPut;
  ptl_handle_md_t put_md = PTL_INVALID_HANDLE, get_md = PTL_INVALID_HANDLE;
  ptl_size_t put_offset = 0, get_offset = 0, length = 0;
  ptl_ack_req_t ack_req = PTL_NO_ACK_REQ;
  ptl_process_t target{};
  ptl_pt_index_t pt_index = 0;
  ptl_match_bits_t match_bits = 0;
  ptl_size_t remote_offset = 0;
  void* user_ptr = nullptr;
  ptl_hdr_data_t hdr_data = 0;
  ptl_op_t atomic_operation = PTL_MIN;
  ptl_datatype_t atomic_type = PTL_INT8_T;
  const void* operand = nullptr;  // PtlSwap
};

class PortalsRuntime final : public nic::NicClient {
 public:
  // The runtime of the running `simfab exec` (made at the first call); a usage error naming
  // `call` outside a rank or without --cfg nic/model=portals.
  static PortalsRuntime& get(const char* call);

  OnlineProgram& program() { return program_; }
  PortalsProcess& me();  // the running rank's process
  SimTime now() const { return program_.now(); }

  // ---- data movement (runtime.cpp) ----
  int issue(const OpArgs& a, const char* call);

  // ---- events and counters (waits.cpp) ----
  int eq_get(ptl_handle_eq_t h, ptl_event_t* ev);
  int eq_wait(ptl_handle_eq_t h, ptl_event_t* ev);
  int eq_poll(const ptl_handle_eq_t* hs, unsigned int size, ptl_time_t timeout, ptl_event_t* ev, unsigned int* which);
  int ct_get(ptl_handle_ct_t h, ptl_ct_event_t* ev);
  int ct_wait(ptl_handle_ct_t h, ptl_size_t test, ptl_ct_event_t* ev);
  int ct_poll(const ptl_handle_ct_t* hs, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* ev, unsigned int* which);
  int ct_set(ptl_handle_ct_t h, ptl_ct_event_t v);
  int ct_inc(ptl_handle_ct_t h, ptl_ct_event_t v);

  // ---- the NIC's callbacks ----
  nic::TargetOutcome on_target(const nic::Command& c, nic::NicTime when) override;
  void on_initiator(const nic::Command& c, nic::InitiatorEvent e, nic::Fail fail, nic::NicTime when) override;
  void on_queue_space(HostId node, SimTime t) override;

  PortalsRuntime(OnlineProgram& program, nic::Nic& nic);

 private:
  struct Operation {
    bool live = false;
    uint32_t generation = 0;
    OpArgs args;
    int32_t initiator = 0, target = 0;
    uint32_t ni = 0;
    std::vector<std::byte> payload;  // snapshot (<= early-send) or empty
    bool snapshot = false;
    std::array<std::byte, 32> compare{};
    uint64_t mlength = 0, target_offset = 0;
    bool ack_req = false;  // the command asked the NIC for a Portals ACK
    bool target_seen = false, target_ack = true, send_seen = false, send_failed = false, final_seen = false;
  };
  struct RankState {
    uint32_t polls = 0;  // polls in a row that found nothing (seed 000 §5.7)
    ptl_handle_ct_t last_ct = PTL_INVALID_HANDLE;
    ptl_ct_event_t last_ct_value{0, 0};
  };

  PortalsProcess& process(int32_t rank);
  EventQueue* eq_of(int32_t rank, ptl_handle_eq_t h);
  CountingEvent* ct_of(int32_t rank, ptl_handle_ct_t h);
  std::optional<int32_t> resolve(const NetworkInterface& ni, const ptl_process_t& p) const;
  Operation* find_op(uint64_t user);
  void finish_if_done(uint32_t index);
  // The time a wake condition is evaluated at (see the top of this file).
  SimTime check_time() const;
  void notify(int32_t rank, SimTime visible);
  // One poll's cost: the growing delay; `found` resets it.
  void poll_delay();
  // After kSpinLimit empty polls in a row (a program that only polls), the rest of the loop is
  // played without returning to the program: block until ready(t) holds (an event is visible, a
  // counter changed), then sleep to the first instant of the growing-delay poll sequence at or
  // after that. The poll then ends exactly when literal polling would have found it; only the
  // empty returns in between are left out (online mode does the same for MPI_Test loops), so a
  // wait costs O(1) events whatever its length, and a loop that can never succeed ends in a
  // deadlock report instead of spinning forever.
  static constexpr uint32_t kSpinLimit = 8;
  void skip_spin(const std::function<bool(SimTime)>& ready, const char* what);
  void found() { ranks_[static_cast<size_t>(program_.me())].polls = 0; }

  OnlineProgram& program_;
  nic::Nic& nic_;
  std::vector<std::optional<PortalsProcess>> processes_;
  std::vector<ptl_pid_t> pid_;                       // rank -> index among its host's ranks
  std::map<std::pair<HostId, ptl_pid_t>, int32_t> by_phys_;
  std::map<HostId, std::vector<int32_t>> ranks_on_;  // host -> its ranks
  std::vector<RankState> ranks_;
  std::vector<Operation> ops_;
  std::vector<uint32_t> free_ops_;
  bool probing_ = false;
  SimTime probe_;
};

}  // namespace simfab::online::portals
