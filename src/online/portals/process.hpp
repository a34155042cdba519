// PortalsProcess: one rank's Portals state (Portals 4.1 spec §3.5-3.14; seed 000 §2.4): its
// network interfaces and, per NI, the portal table, list entries, memory descriptors, event
// queues and counting events, created and freed by the Ptl* calls, which return the spec's codes
// for misuse (a bad or stale handle is PTL_ARG_INVALID, a limit reached PTL_NO_SPACE, ...) and
// never crash.
//
// NIs: a process has up to four, one per (matching or not) x (physical or logical); PtlNIInit on
// the same options again returns the same NI (reference counted). A message from an NI lands on
// the target process's NI of the same kind. Ids (PtlGetId): physical = (nid = the rank's host,
// pid = its index among its host's ranks), logical = (rank = world rank).
// Limits: S4BXI's BXI values (seed 000 Appendix R); a desired limit is honoured up to its cap.
//
// Events raised here (at the caller's time): PTL_EVENT_LINK when an entry is linked (unless
// PTL_ME_EVENT_LINK_DISABLE), PTL_EVENT_*_OVERFLOW when a priority append claims an unexpected
// header, PTL_EVENT_AUTO_UNLINK when an entry is consumed. Target delivery is target.hpp's.
#pragma once

#include <simfab/portals4.h>

#include <array>
#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"
#include "online/portals/counting_event.hpp"
#include "online/portals/event_queue.hpp"
#include "online/portals/handles.hpp"
#include "online/portals/match_list.hpp"
#include "online/portals/slot_table.hpp"

namespace simfab::online::portals {

struct MemoryDescriptor {
  void* start = nullptr;
  uint64_t length = 0;
  unsigned int options = 0;
  ptl_handle_eq_t eq = PTL_EQ_NONE;
  ptl_handle_ct_t ct = PTL_CT_NONE;
  uint32_t pending = 0;  // operations in flight from it (PtlMDRelease is PTL_IN_USE meanwhile)
};

// The default limits of an NI (seed 000 Appendix R) and the caps of desired ones.
ptl_ni_limits_t default_limits();
ptl_ni_limits_t granted_limits(const ptl_ni_limits_t* desired);

// 0..3: bit 0 = non-matching, bit 1 = logical.
inline uint32_t ni_index(bool matching, bool logical) { return (matching ? 0u : 1u) | (logical ? 2u : 0u); }

class NetworkInterface {
 public:
  bool live = false;
  int refs = 0;
  bool matching = true;
  bool logical = false;
  ptl_ni_limits_t limits{};
  std::vector<PortalTable> pts;
  SlotTable<Entry> entries;
  SlotTable<MemoryDescriptor> mds;
  SlotTable<EventQueue> eqs;
  SlotTable<CountingEvent> cts;

  void reset(int32_t rank, uint32_t index);
  uint64_t handle(HandleKind kind, uint32_t slot, uint32_t generation) const;
  // nullptr unless h is a live object of this NI.
  Entry* entry(uint64_t h, HandleKind kind);
  MemoryDescriptor* md(ptl_handle_md_t h) { return find(mds, h, HandleKind::kMd); }
  EventQueue* eq(ptl_handle_eq_t h) { return find(eqs, h, HandleKind::kEq); }
  CountingEvent* ct(ptl_handle_ct_t h) { return find(cts, h, HandleKind::kCt); }
  PortalTable* pt(ptl_pt_index_t index);

  // Event posting and counting on this NI's objects; a missing (NONE or freed) EQ/CT is skipped.
  void post(ptl_handle_eq_t eq_handle, const ptl_event_t& e, SimTime visible);
  // success += bytes_mode ? bytes : 1, or failure += 1.
  void count(ptl_handle_ct_t ct_handle, bool ok, bool bytes_mode, uint64_t bytes, SimTime visible);
  // Removes entry `slot` from its list; `automatic`: PTL_EVENT_AUTO_UNLINK (unless disabled).
  void unlink(uint32_t slot, bool automatic, SimTime at);

 private:
  template <typename T>
  T* find(SlotTable<T>& table, uint64_t h, HandleKind kind) {
    const auto p = decode_handle(h, kind);
    if (!p || p->rank != rank_ || p->ni != index_) return nullptr;
    return table.get(p->index, p->generation);
  }
  int32_t rank_ = 0;
  uint32_t index_ = 0;
};

// A target event of entry e: the fields every PUT/GET/ATOMIC/FETCH_ATOMIC(_OVERFLOW) event has.
ptl_event_t target_event(ptl_event_kind_t type, const Entry& e, const Incoming& m, void* start, uint64_t mlength,
                         ptl_hdr_data_t hdr_data, ptl_op_t op, ptl_datatype_t datatype);
// PTL_EVENT_PUT / GET / ATOMIC / FETCH_ATOMIC, or their _OVERFLOW variant.
ptl_event_kind_t comm_event_kind(OpKind op, bool overflow);

class PortalsProcess {
 public:
  PortalsProcess(int32_t rank, ptl_process_t phys, ptl_uid_t uid);

  int32_t rank() const { return rank_; }
  const ptl_process_t& phys() const { return phys_; }
  ptl_uid_t uid() const { return uid_; }
  bool initialized() const { return init_refs_ > 0; }

  void init() { ++init_refs_; }
  void fini();
  int ni_init(unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired, ptl_ni_limits_t* actual,
              ptl_handle_ni_t* handle);
  int ni_fini(ptl_handle_ni_t h);
  // The NI of handle h (nullptr if invalid); the NI an object handle belongs to.
  NetworkInterface* ni(ptl_handle_ni_t h);
  NetworkInterface* ni_of(uint64_t object_handle, HandleKind kind);
  NetworkInterface* ni_at(uint32_t index) { return nis_[index].live ? &nis_[index] : nullptr; }
  // This process as NI `n` names it (PtlGetId, the initiator field of events).
  ptl_process_t id(const NetworkInterface& n) const;

  int pt_alloc(ptl_handle_ni_t h, unsigned int options, ptl_handle_eq_t eq, ptl_pt_index_t wanted, ptl_pt_index_t* got);
  int pt_free(ptl_handle_ni_t h, ptl_pt_index_t index);
  int pt_enable(ptl_handle_ni_t h, ptl_pt_index_t index, bool enabled);
  int md_bind(ptl_handle_ni_t h, const ptl_md_t* md, ptl_handle_md_t* out);
  int md_release(ptl_handle_md_t h);
  int eq_alloc(ptl_handle_ni_t h, ptl_size_t count, ptl_handle_eq_t* out);
  int eq_free(ptl_handle_eq_t h);
  int ct_alloc(ptl_handle_ni_t h, ptl_handle_ct_t* out);
  int ct_free(ptl_handle_ct_t h);
  // PtlMEAppend / PtlLEAppend (e.is_le says which), at time `now`.
  int append(ptl_handle_ni_t h, ptl_pt_index_t index, Entry e, ptl_list_t list, ptl_handle_any_t* out, SimTime now);
  int unlink(ptl_handle_any_t h, HandleKind kind);

 private:
  int32_t rank_;
  ptl_process_t phys_;
  ptl_uid_t uid_;
  int init_refs_ = 0;
  std::array<NetworkInterface, 4> nis_;
};

}  // namespace simfab::online::portals
