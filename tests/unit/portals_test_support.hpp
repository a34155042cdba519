// Shared set-up of the Portals unit tests: a process with one NI, an EQ and a PT, entries
// appended with their options, messages delivered at chosen times (online/portals/, no simulator).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "online/portals/process.hpp"
#include "online/portals/target.hpp"

namespace simfab::online::portals::testing {

inline ptl_process_t phys(uint32_t nid, uint32_t pid) {
  ptl_process_t p{};
  p.phys.nid = nid;
  p.phys.pid = pid;
  return p;
}

struct Target {
  PortalsProcess proc{1, phys(1, 0), 1000};
  ptl_handle_ni_t ni = PTL_INVALID_HANDLE;
  ptl_handle_eq_t eq = PTL_EQ_NONE;
  ptl_pt_index_t pt = 0;
  bool matching = true;

  explicit Target(bool match = true, unsigned int pt_options = 0, const ptl_ni_limits_t* desired = nullptr)
      : matching(match) {
    proc.init();
    EXPECT_EQ(proc.ni_init((match ? PTL_NI_MATCHING : PTL_NI_NO_MATCHING) | PTL_NI_PHYSICAL, PTL_PID_ANY, desired,
                           nullptr, &ni),
              PTL_OK);
    EXPECT_EQ(proc.eq_alloc(ni, 1000, &eq), PTL_OK);
    EXPECT_EQ(proc.pt_alloc(ni, pt_options, eq, PTL_PT_ANY, &pt), PTL_OK);
  }
  NetworkInterface& n() { return *proc.ni(ni); }

  // An ME (LE when the NI is non-matching) over `buf`, accepting everyone; returns its handle.
  ptl_handle_any_t append(void* buf, uint64_t len, ptl_match_bits_t bits, ptl_match_bits_t ignore, unsigned int options,
                          ptl_list_t list = PTL_PRIORITY_LIST, ptl_handle_ct_t ct = PTL_CT_NONE, intptr_t tag = 0) {
    Entry e;
    e.is_le = !matching;
    e.start = buf;
    e.length = len;
    e.ct = ct;
    e.options = options | PTL_ME_EVENT_LINK_DISABLE;
    e.match_id = phys(PTL_NID_ANY, PTL_PID_ANY);
    e.match_bits = bits;
    e.ignore_bits = ignore;
    e.user_ptr = reinterpret_cast<void*>(tag);
    ptl_handle_any_t h = PTL_INVALID_HANDLE;
    EXPECT_EQ(proc.append(ni, pt, e, list, &h, SimTime::zero()), PTL_OK);
    return h;
  }

  // Delivers an operation from (nid 0, pid 0) at `t`.
  DeliveryResult send(OpKind op, ptl_match_bits_t bits, const void* payload, uint64_t len, void* reply = nullptr,
                      SimTime t = SimTime::ps(1000), uint64_t remote_offset = 0) {
    Delivery d;
    d.msg.op = op;
    d.msg.initiator = phys(0, 0);
    d.msg.uid = 1000;
    d.msg.match_bits = bits;
    d.msg.rlength = len;
    d.msg.remote_offset = remote_offset;
    d.ni = ni_index(matching, false);
    d.pt_index = pt;
    d.payload = payload;
    d.reply_to = reply;
    return deliver(proc, d, t);
  }

  // Every event visible at t, in order.
  std::vector<ptl_event_t> events(SimTime t = SimTime::ps(1'000'000'000)) {
    std::vector<ptl_event_t> out;
    ptl_event_t ev;
    while (n().eq(eq)->pop(t, &ev) != PTL_EQ_EMPTY) out.push_back(ev);
    return out;
  }
};

}  // namespace simfab::online::portals::testing
