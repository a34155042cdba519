#include "online/portals/process.hpp"

#include <algorithm>

namespace simfab::online::portals {

namespace {

constexpr unsigned int kNiOptions = PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_LOGICAL | PTL_NI_PHYSICAL;
constexpr unsigned int kPtOptions = PTL_PT_ONLY_USE_ONCE | PTL_PT_ONLY_TRUNCATE | PTL_PT_FLOWCTRL;
constexpr unsigned int kMdOptions = PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_SEND_DISABLE | PTL_MD_EVENT_CT_SEND |
                                    PTL_MD_EVENT_CT_REPLY | PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_BYTES |
                                    PTL_MD_UNORDERED | PTL_MD_VOLATILE;
constexpr unsigned int kEntryOptions = (PTL_ME_UNEXPECTED_HDR_DISABLE << 1) - 1 - PTL_IOVEC;

int capped(int desired, int fallback, int cap) { return desired > 0 ? std::min(desired, cap) : fallback; }

}  // namespace

ptl_ni_limits_t default_limits() {
  ptl_ni_limits_t l{};
  l.max_entries = 4080;
  l.max_unexpected_headers = 16319;
  l.max_mds = 1024;
  l.max_cts = 1024;
  l.max_eqs = 960;
  l.max_pt_index = 255;
  l.max_iovecs = 0;
  l.max_list_size = 16582;
  l.max_triggered_ops = 0;  // triggered operations are not implemented
  l.max_msg_size = 67108864;
  l.max_atomic_size = 1024;
  l.max_fetch_atomic_size = 64;
  l.max_waw_ordered_size = 64;
  l.max_war_ordered_size = 8;
  l.max_volatile_size = 64;
  l.features = 0;
  return l;
}

ptl_ni_limits_t granted_limits(const ptl_ni_limits_t* desired) {
  ptl_ni_limits_t l = default_limits();
  if (!desired) return l;
  l.max_entries = capped(desired->max_entries, l.max_entries, 16319);
  l.max_mds = capped(desired->max_mds, l.max_mds, 8191);
  l.max_cts = capped(desired->max_cts, l.max_cts, 2047);
  l.max_eqs = capped(desired->max_eqs, l.max_eqs, 2046);
  l.max_list_size = capped(desired->max_list_size, l.max_list_size, 65535);
  return l;
}

// ---------------------------------------------------------------------------------------------
// NetworkInterface

void NetworkInterface::reset(int32_t rank, uint32_t index) {
  *this = NetworkInterface{};
  rank_ = rank;
  index_ = index;
}

uint64_t NetworkInterface::handle(HandleKind kind, uint32_t slot, uint32_t generation) const {
  return encode_handle({kind, rank_, index_, generation, slot});
}

Entry* NetworkInterface::entry(uint64_t h, HandleKind kind) {
  Entry* e = find(entries, h, kind);
  return e && e->is_le == (kind == HandleKind::kLe) ? e : nullptr;
}

PortalTable* NetworkInterface::pt(ptl_pt_index_t index) {
  return index < pts.size() && pts[index].allocated ? &pts[index] : nullptr;
}

void NetworkInterface::post(ptl_handle_eq_t eq_handle, const ptl_event_t& e, SimTime visible) {
  if (EventQueue* q = eq(eq_handle)) q->push(visible, e);
}

void NetworkInterface::count(ptl_handle_ct_t ct_handle, bool ok, bool bytes_mode, uint64_t bytes, SimTime visible) {
  CountingEvent* c = ct(ct_handle);
  if (!c) return;
  if (ok)
    c->add(visible, bytes_mode ? bytes : 1, 0);
  else
    c->add(visible, 0, 1);
}

void NetworkInterface::unlink(uint32_t slot, bool automatic, SimTime at) {
  Entry* e = entries.at(slot);
  if (!e) return;
  if (PortalTable* t = pt(e->pt)) {
    std::vector<uint32_t>& l = t->lists[e->list];
    l.erase(std::remove(l.begin(), l.end(), slot), l.end());
    if (automatic && !(e->options & PTL_ME_EVENT_UNLINK_DISABLE)) {
      ptl_event_t ev{};
      ev.type = PTL_EVENT_AUTO_UNLINK;
      ev.user_ptr = e->user_ptr;
      ev.pt_index = e->pt;
      ev.ptl_list = e->list;
      ev.start = e->start;
      ev.ni_fail_type = PTL_NI_OK;
      post(t->eq, ev, at);
    }
  }
  entries.release(slot);
}

ptl_event_t target_event(ptl_event_kind_t type, const Entry& e, const Incoming& m, void* start, uint64_t mlength,
                         ptl_hdr_data_t hdr_data, ptl_op_t op, ptl_datatype_t datatype) {
  ptl_event_t ev{};
  ev.type = type;
  ev.start = start;
  ev.user_ptr = e.user_ptr;
  ev.hdr_data = hdr_data;
  ev.match_bits = m.match_bits;
  ev.rlength = m.rlength;
  ev.mlength = mlength;
  ev.remote_offset = m.remote_offset;
  ev.uid = m.uid;
  ev.initiator = m.initiator;
  ev.ptl_list = e.list;
  ev.pt_index = e.pt;
  ev.ni_fail_type = PTL_NI_OK;
  ev.atomic_operation = op;
  ev.atomic_type = datatype;
  return ev;
}

ptl_event_kind_t comm_event_kind(OpKind op, bool overflow) {
  switch (op) {
    case OpKind::kPut: return overflow ? PTL_EVENT_PUT_OVERFLOW : PTL_EVENT_PUT;
    case OpKind::kGet: return overflow ? PTL_EVENT_GET_OVERFLOW : PTL_EVENT_GET;
    case OpKind::kAtomic: return overflow ? PTL_EVENT_ATOMIC_OVERFLOW : PTL_EVENT_ATOMIC;
    case OpKind::kFetchAtomic:
    case OpKind::kSwap: return overflow ? PTL_EVENT_FETCH_ATOMIC_OVERFLOW : PTL_EVENT_FETCH_ATOMIC;
  }
  return PTL_EVENT_PUT;
}

// ---------------------------------------------------------------------------------------------
// PortalsProcess

PortalsProcess::PortalsProcess(int32_t rank, ptl_process_t phys, ptl_uid_t uid) : rank_(rank), phys_(phys), uid_(uid) {
  for (uint32_t i = 0; i < nis_.size(); ++i) nis_[i].reset(rank_, i);
}

void PortalsProcess::fini() {
  if (init_refs_ == 0) return;
  if (--init_refs_ == 0)
    for (uint32_t i = 0; i < nis_.size(); ++i) nis_[i].reset(rank_, i);
}

ptl_process_t PortalsProcess::id(const NetworkInterface& n) const {
  ptl_process_t p{};
  if (n.logical)
    p.rank = static_cast<ptl_rank_t>(rank_);
  else
    p = phys_;
  return p;
}

int PortalsProcess::ni_init(unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired, ptl_ni_limits_t* actual,
                            ptl_handle_ni_t* handle) {
  if (!handle || (options & ~kNiOptions)) return PTL_ARG_INVALID;
  const bool matching = options & PTL_NI_MATCHING, no_matching = options & PTL_NI_NO_MATCHING;
  const bool logical = options & PTL_NI_LOGICAL, physical = options & PTL_NI_PHYSICAL;
  if (matching == no_matching || logical == physical) return PTL_ARG_INVALID;
  if (pid != PTL_PID_ANY && pid != phys_.phys.pid) return PTL_PID_IN_USE;
  const uint32_t i = ni_index(matching, logical);
  NetworkInterface& n = nis_[i];
  if (!n.live) {
    n.reset(rank_, i);
    n.live = true;
    n.matching = matching;
    n.logical = logical;
    n.limits = granted_limits(desired);
    n.pts.resize(static_cast<size_t>(n.limits.max_pt_index) + 1);
  }
  ++n.refs;
  if (actual) *actual = n.limits;
  *handle = n.handle(HandleKind::kNi, i, 0);
  return PTL_OK;
}

NetworkInterface* PortalsProcess::ni(ptl_handle_ni_t h) {
  const auto p = decode_handle(h, HandleKind::kNi);
  if (!p || p->rank != rank_ || p->index != p->ni || p->generation != 0) return nullptr;
  return ni_at(p->ni);
}

NetworkInterface* PortalsProcess::ni_of(uint64_t object_handle, HandleKind kind) {
  const auto p = decode_handle(object_handle, kind);
  if (!p || p->rank != rank_) return nullptr;
  return ni_at(p->ni);
}

int PortalsProcess::ni_fini(ptl_handle_ni_t h) {
  NetworkInterface* n = ni(h);
  if (!n) return PTL_ARG_INVALID;
  if (--n->refs == 0) {
    const uint32_t i = static_cast<uint32_t>(n - nis_.data());
    n->reset(rank_, i);
  }
  return PTL_OK;
}

int PortalsProcess::pt_alloc(ptl_handle_ni_t h, unsigned int options, ptl_handle_eq_t eq, ptl_pt_index_t wanted,
                             ptl_pt_index_t* got) {
  NetworkInterface* n = ni(h);
  if (!n || !got || (options & ~kPtOptions)) return PTL_ARG_INVALID;
  if (eq != PTL_EQ_NONE && !n->eq(eq)) return PTL_ARG_INVALID;
  if ((options & PTL_PT_FLOWCTRL) && eq == PTL_EQ_NONE) return PTL_PT_EQ_NEEDED;
  ptl_pt_index_t index = wanted;
  if (wanted == PTL_PT_ANY) {
    index = 0;
    while (index < n->pts.size() && n->pts[index].allocated) ++index;
    if (index == n->pts.size()) return PTL_PT_FULL;
  } else if (wanted >= n->pts.size()) {
    return PTL_ARG_INVALID;
  } else if (n->pts[wanted].allocated) {
    return PTL_PT_IN_USE;
  }
  PortalTable& t = n->pts[index];
  t = PortalTable{};
  t.allocated = true;
  t.options = options;
  t.eq = eq;
  *got = index;
  return PTL_OK;
}

int PortalsProcess::pt_free(ptl_handle_ni_t h, ptl_pt_index_t index) {
  NetworkInterface* n = ni(h);
  PortalTable* t = n ? n->pt(index) : nullptr;
  if (!t) return PTL_ARG_INVALID;
  if (!t->lists[0].empty() || !t->lists[1].empty()) return PTL_IN_USE;
  *t = PortalTable{};
  return PTL_OK;
}

int PortalsProcess::pt_enable(ptl_handle_ni_t h, ptl_pt_index_t index, bool enabled) {
  NetworkInterface* n = ni(h);
  PortalTable* t = n ? n->pt(index) : nullptr;
  if (!t) return PTL_ARG_INVALID;
  t->enabled = enabled;
  return PTL_OK;
}

namespace {

// A new object in one of NI n's tables (at most `limit` live); its handle in *out.
template <class Table, class T>
int allocate(NetworkInterface& n, Table& table, int limit, HandleKind kind, T value, uint64_t* out) {
  if (table.live() >= static_cast<uint32_t>(limit)) return PTL_NO_SPACE;
  const auto id = table.alloc(std::move(value));
  if (!id) return PTL_NO_SPACE;
  *out = n.handle(kind, id->index, id->generation);
  return PTL_OK;
}

}  // namespace

int PortalsProcess::md_bind(ptl_handle_ni_t h, const ptl_md_t* md, ptl_handle_md_t* out) {
  NetworkInterface* n = ni(h);
  if (!n || !md || !out || (md->options & ~kMdOptions)) return PTL_ARG_INVALID;
  if ((md->eq_handle != PTL_EQ_NONE && !n->eq(md->eq_handle)) || (md->ct_handle != PTL_CT_NONE && !n->ct(md->ct_handle)))
    return PTL_ARG_INVALID;
  return allocate(*n, n->mds, n->limits.max_mds, HandleKind::kMd,
                  MemoryDescriptor{md->start, md->length, md->options, md->eq_handle, md->ct_handle, 0}, out);
}

int PortalsProcess::md_release(ptl_handle_md_t h) {
  NetworkInterface* n = ni_of(h, HandleKind::kMd);
  MemoryDescriptor* md = n ? n->md(h) : nullptr;
  if (!md) return PTL_ARG_INVALID;
  if (md->pending > 0) return PTL_IN_USE;
  n->mds.release(decode_handle(h, HandleKind::kMd)->index);
  return PTL_OK;
}

int PortalsProcess::eq_alloc(ptl_handle_ni_t h, ptl_size_t count, ptl_handle_eq_t* out) {
  NetworkInterface* n = ni(h);
  if (!n || !out) return PTL_ARG_INVALID;
  return allocate(*n, n->eqs, n->limits.max_eqs, HandleKind::kEq, EventQueue(count), out);
}

int PortalsProcess::eq_free(ptl_handle_eq_t h) {
  NetworkInterface* n = ni_of(h, HandleKind::kEq);
  if (!n || !n->eq(h)) return PTL_ARG_INVALID;
  n->eqs.release(decode_handle(h, HandleKind::kEq)->index);
  return PTL_OK;
}

int PortalsProcess::ct_alloc(ptl_handle_ni_t h, ptl_handle_ct_t* out) {
  NetworkInterface* n = ni(h);
  if (!n || !out) return PTL_ARG_INVALID;
  return allocate(*n, n->cts, n->limits.max_cts, HandleKind::kCt, CountingEvent{}, out);
}

int PortalsProcess::ct_free(ptl_handle_ct_t h) {
  NetworkInterface* n = ni_of(h, HandleKind::kCt);
  if (!n || !n->ct(h)) return PTL_ARG_INVALID;
  n->cts.release(decode_handle(h, HandleKind::kCt)->index);
  return PTL_OK;
}

int PortalsProcess::append(ptl_handle_ni_t h, ptl_pt_index_t index, Entry e, ptl_list_t list, ptl_handle_any_t* out,
                           SimTime now) {
  NetworkInterface* n = ni(h);
  if (!n || !out || n->matching == e.is_le) return PTL_ARG_INVALID;
  PortalTable* t = n->pt(index);
  if (!t || (list != PTL_PRIORITY_LIST && list != PTL_OVERFLOW_LIST) || (e.options & ~kEntryOptions)) return PTL_ARG_INVALID;
  if (e.ct != PTL_CT_NONE && !n->ct(e.ct)) return PTL_ARG_INVALID;
  if (n->entries.live() >= static_cast<uint32_t>(n->limits.max_entries)) return PTL_NO_SPACE;
  if (t->lists[list].size() >= static_cast<size_t>(n->limits.max_list_size)) return PTL_LIST_TOO_LONG;
  e.pt = index;
  e.list = list;
  e.local_offset = 0;
  const HandleKind kind = e.is_le ? HandleKind::kLe : HandleKind::kMe;
  const auto id = n->entries.alloc(e);
  if (!id) return PTL_NO_SPACE;
  *out = n->handle(kind, id->index, id->generation);
  if (list == PTL_PRIORITY_LIST) {
    if (const std::optional<size_t> u = find_unexpected(*t, e, n->logical)) {
      const UnexpectedHeader hd = t->unexpected[*u];
      t->unexpected.erase(t->unexpected.begin() + static_cast<std::ptrdiff_t>(*u));
      const unsigned int o = e.options;
      if (!(o & (PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_SUCCESS_DISABLE | PTL_ME_EVENT_OVER_DISABLE)))
        n->post(t->eq, target_event(comm_event_kind(hd.msg.op, true), e, hd.msg, hd.start, hd.mlength, hd.hdr_data,
                                    hd.atomic_operation, hd.atomic_type), now);
      if (o & PTL_ME_EVENT_CT_OVERFLOW) n->count(e.ct, true, o & PTL_ME_EVENT_CT_BYTES, hd.mlength, now);
      if (o & PTL_ME_USE_ONCE) {  // consumed by the header: never linked
        n->entries.release(id->index);
        return PTL_OK;
      }
    }
  }
  t->lists[list].push_back(id->index);
  if (!(e.options & PTL_ME_EVENT_LINK_DISABLE)) {
    ptl_event_t ev{};
    ev.type = PTL_EVENT_LINK;
    ev.user_ptr = e.user_ptr;
    ev.pt_index = index;
    ev.ptl_list = list;
    ev.start = e.start;
    ev.ni_fail_type = PTL_NI_OK;
    n->post(t->eq, ev, now);
  }
  return PTL_OK;
}

int PortalsProcess::unlink(ptl_handle_any_t h, HandleKind kind) {
  NetworkInterface* n = ni_of(h, kind);
  if (!n || !n->entry(h, kind)) return PTL_ARG_INVALID;
  n->unlink(decode_handle(h, kind)->index, false, SimTime::zero());
  return PTL_OK;
}

}  // namespace simfab::online::portals
