// The initiator's side of an operation (Portals 4.1 spec §3.10, §3.13-3.15; seed 000 §2.4 and
// test 2): which events and counts the NIC's notices raise on the MD the operation used.
//   Put / Atomic      SEND on the (put) MD; ACK when the target acknowledges (PTL_ACK_REQ: a full
//                     event; PTL_CT_ACK_REQ / PTL_OC_ACK_REQ: counted only)
//   Get               REPLY on the MD
//   FetchAtomic/Swap  SEND on the put MD, REPLY on the get MD
// Full events go to the MD's EQ unless PTL_MD_EVENT_SEND_DISABLE (SEND) or
// PTL_MD_EVENT_SUCCESS_DISABLE (successful ones); counts go to its CT with PTL_MD_EVENT_CT_SEND /
// _CT_ACK / _CT_REPLY: +1, or with PTL_MD_EVENT_CT_BYTES +length (SEND) / +mlength (ACK, REPLY);
// failures count 1 on the failure counter; PTL_OC_ACK_REQ counts operations, never bytes.
#pragma once

#include <simfab/portals4.h>

#include <cstdint>

#include "core/sim_time.hpp"
#include "online/portals/process.hpp"

namespace simfab::online::portals {

struct InitiatorNotice {
  ptl_event_kind_t type = PTL_EVENT_SEND;  // SEND, ACK or REPLY
  ptl_ni_fail_t fail = PTL_NI_OK;
  ptl_ack_req_t ack_req = PTL_NO_ACK_REQ;
  void* user_ptr = nullptr;
  uint64_t length = 0;   // requested
  uint64_t mlength = 0;  // what the target used (ACK, REPLY)
  uint64_t remote_offset = 0;
  ptl_pt_index_t pt_index = 0;
  ptl_match_bits_t match_bits = 0;
  ptl_hdr_data_t hdr_data = 0;
  ptl_op_t atomic_operation = PTL_MIN;
  ptl_datatype_t atomic_type = PTL_INT8_T;
};

// Raises the notice's event and count on `md` of `ni`, visible at `visible`.
void raise_initiator(NetworkInterface& ni, const MemoryDescriptor& md, const InitiatorNotice& n, SimTime visible);

}  // namespace simfab::online::portals
