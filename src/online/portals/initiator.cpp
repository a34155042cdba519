#include "online/portals/initiator.hpp"

namespace simfab::online::portals {

void raise_initiator(NetworkInterface& ni, const MemoryDescriptor& md, const InitiatorNotice& n, SimTime visible) {
  const bool ok = n.fail == PTL_NI_OK;
  bool full = ok ? !(md.options & PTL_MD_EVENT_SUCCESS_DISABLE) : true;
  unsigned int ct_option = 0;
  uint64_t bytes = n.mlength;
  bool bytes_mode = md.options & PTL_MD_EVENT_CT_BYTES;
  switch (n.type) {
    case PTL_EVENT_SEND:
      full = full && !(md.options & PTL_MD_EVENT_SEND_DISABLE);
      ct_option = PTL_MD_EVENT_CT_SEND;
      bytes = n.length;
      break;
    case PTL_EVENT_ACK:
      full = full && n.ack_req == PTL_ACK_REQ;
      ct_option = n.ack_req == PTL_NO_ACK_REQ ? 0 : PTL_MD_EVENT_CT_ACK;
      bytes_mode = bytes_mode && n.ack_req != PTL_OC_ACK_REQ;
      break;
    default:
      ct_option = PTL_MD_EVENT_CT_REPLY;
      break;
  }
  if (full) {
    ptl_event_t ev{};
    ev.type = n.type;
    ev.ni_fail_type = n.fail;
    ev.user_ptr = n.user_ptr;
    ev.rlength = n.length;
    ev.mlength = n.type == PTL_EVENT_SEND ? n.length : n.mlength;
    ev.remote_offset = n.remote_offset;
    ev.pt_index = n.pt_index;
    ev.match_bits = n.match_bits;
    ev.hdr_data = n.hdr_data;
    ev.atomic_operation = n.atomic_operation;
    ev.atomic_type = n.atomic_type;
    ni.post(md.eq, ev, visible);
  }
  if (ct_option && (md.options & ct_option)) ni.count(md.ct, ok, bytes_mode, bytes, visible);
}

}  // namespace simfab::online::portals
