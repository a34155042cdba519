// Portals matching (Portals 4.1 spec §3.11-3.12; seed 000 §2.4, §5.1 and Appendix R): which list
// entry of a portal table entry an incoming message lands in, and where in it.
//
// A PT has two lists, priority then overflow, walked in append order; the FIRST entry that
// accepts the message wins. An ME (matching NI) accepts it when
//     ((msg.match_bits XOR me.match_bits) AND NOT me.ignore_bits) == 0        (bits)
//     and the initiator is me.match_id: physical NIs compare nid and pid, each of which may be
//     PTL_NID_ANY / PTL_PID_ANY; logical NIs compare the rank (PTL_RANK_ANY)  (source)
//     and, with PTL_ME_NO_TRUNCATE, the whole request fits                     (length)
// An LE (non-matching NI) has no bits and no source: the first LE accepts any message (LEs have
// no PTL_ME_NO_TRUNCATE: they always truncate).
// Where: offset = the entry's local offset with PTL_ME_MANAGE_LOCAL, else the message's remote
// offset; mlength = min(rlength, length - offset) (0 beyond the end).
// What happens next (events, unlink, data) is target.hpp's; unexpected headers (messages that
// landed in the overflow list, searched by later appends) are kept here too.
#pragma once

#include <simfab/portals4.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/sim_time.hpp"
#include "online/portals/slot_table.hpp"

namespace simfab::online::portals {

enum class OpKind : uint8_t { kPut, kGet, kAtomic, kFetchAtomic, kSwap };

// A list entry: ptl_me_t's fields (an LE is an ME with is_le set) and the state Portals keeps.
struct Entry {
  bool is_le = false;
  void* start = nullptr;
  uint64_t length = 0;
  ptl_handle_ct_t ct = PTL_CT_NONE;
  ptl_uid_t uid = PTL_UID_ANY;
  unsigned int options = 0;
  ptl_process_t match_id{};
  ptl_match_bits_t match_bits = 0, ignore_bits = 0;
  uint64_t min_free = 0;
  void* user_ptr = nullptr;
  // state
  uint32_t pt = 0;
  ptl_list_t list = PTL_PRIORITY_LIST;
  uint64_t local_offset = 0;  // PTL_ME_MANAGE_LOCAL
};

// What the matching needs of a message.
struct Incoming {
  OpKind op = OpKind::kPut;
  ptl_process_t initiator{};  // as the target NI names it (physical or logical)
  ptl_uid_t uid = 0;
  ptl_match_bits_t match_bits = 0;
  uint64_t rlength = 0;
  uint64_t remote_offset = 0;
};

struct Placement {
  uint64_t offset = 0;
  uint64_t mlength = 0;
};

bool bits_match(ptl_match_bits_t entry_bits, ptl_match_bits_t ignore_bits, ptl_match_bits_t message_bits);
bool source_matches(const ptl_process_t& match_id, const ptl_process_t& initiator, bool logical);
// Where the message goes in `e` (offset, truncated length).
Placement place(const Entry& e, const Incoming& m);
// The entry accepts the message: its placement, or nullopt.
std::optional<Placement> accepts(const Entry& e, const Incoming& m, bool logical);

// A message that landed in an overflow-list entry, waiting for a priority append to claim it.
struct UnexpectedHeader {
  Incoming msg;
  void* start = nullptr;  // where its data went in the overflow entry
  uint64_t mlength = 0;
  ptl_hdr_data_t hdr_data = 0;
  ptl_op_t atomic_operation = PTL_MIN;
  ptl_datatype_t atomic_type = PTL_INT8_T;
};

// A portal table entry (PtlPTAlloc).
struct PortalTable {
  bool allocated = false;
  bool enabled = true;
  unsigned int options = 0;
  ptl_handle_eq_t eq = PTL_EQ_NONE;
  std::vector<uint32_t> lists[2];  // slot indices of entries, [PTL_PRIORITY_LIST], [PTL_OVERFLOW_LIST]
  std::deque<UnexpectedHeader> unexpected;
};

struct ListMatch {
  ptl_list_t list = PTL_PRIORITY_LIST;
  size_t position = 0;  // in that list
  uint32_t slot = 0;
  Placement where;
};

// The first entry of pt (priority list, then overflow list) that accepts m.
std::optional<ListMatch> find_match(const PortalTable& pt, SlotTable<Entry>& entries, const Incoming& m, bool logical);
// The first unexpected header of pt that entry e (being appended to the priority list) claims.
std::optional<size_t> find_unexpected(const PortalTable& pt, const Entry& e, bool logical);

}  // namespace simfab::online::portals
