#include "online/portals/match_list.hpp"

#include <algorithm>

namespace simfab::online::portals {

bool bits_match(ptl_match_bits_t entry_bits, ptl_match_bits_t ignore_bits, ptl_match_bits_t message_bits) {
  return ((message_bits ^ entry_bits) & ~ignore_bits) == 0;
}

bool source_matches(const ptl_process_t& match_id, const ptl_process_t& initiator, bool logical) {
  if (logical) return match_id.rank == PTL_RANK_ANY || match_id.rank == initiator.rank;
  return (match_id.phys.nid == PTL_NID_ANY || match_id.phys.nid == initiator.phys.nid) &&
         (match_id.phys.pid == PTL_PID_ANY || match_id.phys.pid == initiator.phys.pid);
}

Placement place(const Entry& e, const Incoming& m) {
  Placement p;
  p.offset = (e.options & PTL_ME_MANAGE_LOCAL) ? e.local_offset : m.remote_offset;
  const uint64_t room = p.offset >= e.length ? 0 : e.length - p.offset;
  p.mlength = std::min(m.rlength, room);
  return p;
}

std::optional<Placement> accepts(const Entry& e, const Incoming& m, bool logical) {
  if (!e.is_le && (!bits_match(e.match_bits, e.ignore_bits, m.match_bits) || !source_matches(e.match_id, m.initiator, logical)))
    return std::nullopt;
  const Placement p = place(e, m);
  if (!e.is_le && (e.options & PTL_ME_NO_TRUNCATE) && p.mlength < m.rlength) return std::nullopt;
  return p;
}

std::optional<ListMatch> find_match(const PortalTable& pt, SlotTable<Entry>& entries, const Incoming& m, bool logical) {
  for (ptl_list_t list : {PTL_PRIORITY_LIST, PTL_OVERFLOW_LIST}) {
    const std::vector<uint32_t>& l = pt.lists[list];
    for (size_t i = 0; i < l.size(); ++i) {
      const Entry* e = entries.at(l[i]);
      if (!e) continue;
      if (std::optional<Placement> p = accepts(*e, m, logical)) return ListMatch{list, i, l[i], *p};
    }
  }
  return std::nullopt;
}

std::optional<size_t> find_unexpected(const PortalTable& pt, const Entry& e, bool logical) {
  for (size_t i = 0; i < pt.unexpected.size(); ++i) {
    const Incoming& m = pt.unexpected[i].msg;
    if (e.is_le || (bits_match(e.match_bits, e.ignore_bits, m.match_bits) && source_matches(e.match_id, m.initiator, logical)))
      return i;
  }
  return std::nullopt;
}

}  // namespace simfab::online::portals
