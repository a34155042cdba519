// What a target process does with a request its NIC hands it (Portals 4.1 spec §3.11-3.15,
// seed 000 §5.1 and Appendix R; called from the NIC's on_target, runtime.hpp):
//   1. the NI of the initiator's kind; missing, or PT index not allocated -> PTL_NI_TARGET_INVALID
//   2. PT disabled -> PTL_NI_PT_DISABLED
//   3. match (match_list.hpp): priority list, then overflow list, first match wins. No match:
//      a PT with PTL_PT_FLOWCTRL is disabled (flow control: resource exhaustion), PTL_EVENT_PT_DISABLED
//      goes to its EQ and the initiator is told PTL_NI_PT_DISABLED; without flow control the
//      message is dropped (PTL_NI_DROPPED)
//   4. the entry's uid (PTL_NI_PERM_VIOLATION) and operations (PTL_ME_OP_PUT for Put/Atomic,
//      PTL_ME_OP_GET for Get, both for FetchAtomic/Swap: PTL_NI_OP_VIOLATION)
//   5. data: memmove of mlength bytes (all ranks share the simulator's address space), or the
//      atomic operation (atomics.hpp), the old values going to the initiator's get MD
//   6. events at `visible`: PUT/GET/ATOMIC/FETCH_ATOMIC on the PT's EQ (unless
//      PTL_ME_EVENT_COMM_DISABLE / _SUCCESS_DISABLE), CT +1 or +mlength (PTL_ME_EVENT_CT_COMM,
//      _CT_BYTES); a match in the overflow list also records an unexpected header
//   7. PTL_ME_MANAGE_LOCAL advances the entry's offset; use-once (or min_free reached) unlinks it
//      with PTL_EVENT_AUTO_UNLINK (unless PTL_ME_EVENT_UNLINK_DISABLE)
// Failures raise no target event; the initiator's ACK or REPLY carries the fail type.
#pragma once

#include <simfab/portals4.h>

#include <cstdint>

#include "core/sim_time.hpp"
#include "online/portals/match_list.hpp"
#include "online/portals/process.hpp"

namespace simfab::online::portals {

struct Delivery {
  Incoming msg;
  uint32_t ni = 0;  // ni_index() of the initiator's NI
  ptl_pt_index_t pt_index = 0;
  ptl_hdr_data_t hdr_data = 0;
  const void* payload = nullptr;  // Put/Atomic/FetchAtomic/Swap: msg.rlength bytes
  void* reply_to = nullptr;       // Get/FetchAtomic/Swap: msg.rlength bytes of the initiator's get MD
  ptl_op_t atomic_operation = PTL_MIN;
  ptl_datatype_t atomic_type = PTL_INT8_T;
  const void* compare = nullptr;  // PtlSwap's operand (one element)
  int64_t max_memcpy = -1;        // Put/Get payloads above this many bytes are not copied (-1: all are)
};

struct DeliveryResult {
  ptl_ni_fail_t fail = PTL_NI_OK;
  bool ack_disabled = false;  // the entry has PTL_ME_ACK_DISABLE
  uint64_t mlength = 0;
  uint64_t offset = 0;  // where in the entry (the initiator's events' remote_offset)
};

DeliveryResult deliver(PortalsProcess& target, const Delivery& d, SimTime visible);

}  // namespace simfab::online::portals
