#include "online/portals/target.hpp"

#include <cstring>

#include "online/portals/atomics.hpp"

namespace simfab::online::portals {

namespace {

bool is_atomic(OpKind op) { return op == OpKind::kAtomic || op == OpKind::kFetchAtomic || op == OpKind::kSwap; }

unsigned int needed_permissions(OpKind op) {
  switch (op) {
    case OpKind::kPut:
    case OpKind::kAtomic: return PTL_ME_OP_PUT;
    case OpKind::kGet: return PTL_ME_OP_GET;
    case OpKind::kFetchAtomic:
    case OpKind::kSwap: return PTL_ME_OP_PUT | PTL_ME_OP_GET;
  }
  return PTL_ME_OP_PUT;
}

DeliveryResult failed(ptl_ni_fail_t f) {
  DeliveryResult r;
  r.fail = f;
  return r;
}

// Flow control: the PT is disabled and says so on its EQ.
void disable(NetworkInterface& ni, PortalTable& pt, ptl_pt_index_t index, const Delivery& d, SimTime visible) {
  pt.enabled = false;
  ptl_event_t ev{};
  ev.type = PTL_EVENT_PT_DISABLED;
  ev.pt_index = index;
  ev.ni_fail_type = PTL_NI_PT_DISABLED;
  ev.initiator = d.msg.initiator;
  ev.match_bits = d.msg.match_bits;
  ev.rlength = d.msg.rlength;
  ev.hdr_data = d.hdr_data;
  ni.post(pt.eq, ev, visible);
}

// Moves the data between the entry's memory at `dst` and the initiator.
void move_data(const Delivery& d, std::byte* dst, uint64_t mlength) {
  if (mlength == 0) return;
  const bool copy = d.max_memcpy < 0 || mlength <= static_cast<uint64_t>(d.max_memcpy);
  switch (d.msg.op) {
    case OpKind::kPut:
      if (copy) std::memmove(dst, d.payload, mlength);
      break;
    case OpKind::kGet:
      if (copy) std::memmove(d.reply_to, dst, mlength);
      break;
    case OpKind::kAtomic: apply_atomic(d.atomic_operation, d.atomic_type, dst, d.payload, nullptr, nullptr, mlength); break;
    case OpKind::kFetchAtomic:
    case OpKind::kSwap:
      apply_atomic(d.atomic_operation, d.atomic_type, dst, d.payload, d.compare, d.reply_to, mlength);
      break;
  }
}

}  // namespace

DeliveryResult deliver(PortalsProcess& target, const Delivery& d, SimTime visible) {
  NetworkInterface* ni = target.ni_at(d.ni);
  PortalTable* pt = ni ? ni->pt(d.pt_index) : nullptr;
  if (!pt) return failed(PTL_NI_TARGET_INVALID);
  if (!pt->enabled) return failed(PTL_NI_PT_DISABLED);
  const std::optional<ListMatch> m = find_match(*pt, ni->entries, d.msg, ni->logical);
  if (!m) {
    if (!(pt->options & PTL_PT_FLOWCTRL)) return failed(PTL_NI_DROPPED);
    disable(*ni, *pt, d.pt_index, d, visible);
    return failed(PTL_NI_PT_DISABLED);
  }
  Entry& e = *ni->entries.at(m->slot);
  if (e.uid != PTL_UID_ANY && e.uid != d.msg.uid) return failed(PTL_NI_PERM_VIOLATION);
  const unsigned int need = needed_permissions(d.msg.op);
  if ((e.options & need) != need) return failed(PTL_NI_OP_VIOLATION);

  DeliveryResult r;
  r.offset = m->where.offset;
  r.mlength = m->where.mlength;
  if (is_atomic(d.msg.op)) {
    const size_t size = datatype_size(d.atomic_type);
    r.mlength -= size ? r.mlength % size : r.mlength;
  }
  r.ack_disabled = e.options & PTL_ME_ACK_DISABLE;
  std::byte* dst = static_cast<std::byte*>(e.start) + r.offset;
  move_data(d, dst, r.mlength);

  const unsigned int o = e.options;
  if (!(o & (PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_SUCCESS_DISABLE)))
    ni->post(pt->eq, target_event(comm_event_kind(d.msg.op, false), e, d.msg, dst, r.mlength, d.hdr_data,
                                  d.atomic_operation, d.atomic_type), visible);
  if (o & PTL_ME_EVENT_CT_COMM) ni->count(e.ct, true, o & PTL_ME_EVENT_CT_BYTES, r.mlength, visible);
  if (m->list == PTL_OVERFLOW_LIST && !(o & PTL_ME_UNEXPECTED_HDR_DISABLE))
    pt->unexpected.push_back({d.msg, dst, r.mlength, d.hdr_data, d.atomic_operation, d.atomic_type});
  if (o & PTL_ME_MANAGE_LOCAL) e.local_offset += r.mlength;
  const bool below_min_free = (o & PTL_ME_MANAGE_LOCAL) && e.min_free > 0 &&
                              (e.local_offset >= e.length || e.length - e.local_offset < e.min_free);
  if ((o & PTL_ME_USE_ONCE) || below_min_free) ni->unlink(m->slot, true, visible);
  return r;
}

}  // namespace simfab::online::portals
