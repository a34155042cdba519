// Otf2RankReader: one location's OTF2 events -> one rank's capture records, the state machine of
// otf2_reader.hpp ("ONE MPI CALL"). libotf2's callbacks drive it (otf2_reader.cpp), and so does the
// fuzz target, with definitions and events of its own (tests/fuzz/fuzz_otf2.cpp).
// Calls: the event methods in the location's order, then finish(). Every method throws InputError
// naming `<archive>[location L]:<event position>` for bad input.
// Cost: O(1) per event (plus the call's records); memory O(records). Thread-safety: none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/capture_reader.hpp"
#include "otf2/otf2_defs.hpp"

namespace simfab {

class Otf2RankReader {
 public:
  // Rank `rank` (defs.rank_location[rank]) of the archive at `anchor`, into `out`.
  Otf2RankReader(const Otf2Defs& defs, const std::string& anchor, int32_t rank, RankCapture& out);

  // Event callbacks: `pos` is the event's position, `t` its timestamp.
  void enter(uint64_t pos, uint64_t t, uint64_t region);
  void leave(uint64_t pos, uint64_t t, uint64_t region);
  void send(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes, bool isend,
            uint64_t req);
  void recv(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes);
  void irecv_request(uint64_t pos, uint64_t t, uint64_t req);
  void irecv_done(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes,
                  uint64_t req);
  void isend_done(uint64_t pos, uint64_t t, uint64_t req) { done(pos, t, CapDone{req, kCapProcNull, kCapAnyTag, 0}); }
  void cancelled(uint64_t pos, uint64_t t, uint64_t req) { done(pos, t, CapDone{req, kCapCancelled, kCapAnyTag, 0}); }
  void collective(uint64_t pos, uint64_t t, OTF2_CollectiveOp op, uint64_t comm, uint32_t root, uint64_t sent,
                  uint64_t received);
  void comm_create(uint64_t pos, uint64_t t, uint64_t comm);
  void comm_destroy(uint64_t pos, uint64_t t, uint64_t comm);
  const Otf2Defs& defs() const { return defs_; }
  // A metric event: `value` of a floating-point operation counter (Otf2Defs::flop_metrics).
  void flop_counter(uint64_t pos, uint64_t t, uint64_t value);
  [[noreturn]] void fail(uint64_t pos, const std::string& what) const;
  // After the last event.
  void finish();

 private:
  struct Call {
    std::string name;
    uint64_t pos = 0;
    int64_t enter = 0;
    uint32_t site = 0;
    std::vector<CapRecord> ops;    // initiations, in order
    std::vector<CapDone> dones;    // completions
    bool collective = false;
    CapRecord coll;
    bool created = false;          // a CommCreate
    CapComm newcomm;
    uint64_t enter_tick = 0;
    uint64_t count_enter = RankCapture::kNoCounter;  // the flop counter at the Enter
  };
  struct Open {
    uint64_t region = 0;
    bool mpi = false;
  };

  void tick(uint64_t pos, uint64_t t);
  CapComm comm_of(uint64_t pos, uint64_t comm, const char* event);
  int32_t peer_in(uint64_t pos, const CapComm& c, uint32_t peer, const char* what) const;
  Call& in_call(uint64_t pos, const char* event);
  void done(uint64_t pos, uint64_t t, CapDone d);
  void emit(CapRecord rec);
  void close_call(int64_t leave);
  std::optional<CapFunc> named(const Call& c) const;

  const Otf2Defs& defs_;
  int32_t rank_;
  RankCapture& out_;
  std::vector<Open> stack_;
  std::optional<Call> call_;   // the open MPI call (outermost MPI region)
  size_t call_depth_ = 0;      // stack_ size when it opened
  int64_t first_ps_ = -1, last_ps_ = 0;
  uint64_t last_tick_ = 0;
  bool finalized_ = false;
  std::unordered_map<uint64_t, uint32_t> irecvs_;  // request -> its MPI_Irecv record, until completed
  std::unordered_map<std::string, uint32_t> site_ids_;
  // The last flop counter value and its tick; the counter at the last Leave of an MPI call.
  uint64_t count_ = RankCapture::kNoCounter, count_tick_ = 0;
  uint64_t leave_tick_ = UINT64_MAX, count_leave_ = RankCapture::kNoCounter;
};

}  // namespace simfab
