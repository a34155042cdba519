#include "online/portals/counting_event.hpp"

#include <algorithm>

namespace simfab::online::portals {

void CountingEvent::push(const Update& u) {
  auto it = std::upper_bound(pending_.begin(), pending_.end(), u,
                             [](const Update& a, const Update& b) { return a.at < b.at || (a.at == b.at && a.seq < b.seq); });
  pending_.insert(it, u);
}

void CountingEvent::apply(ptl_ct_event_t& v, const Update& u) {
  if (u.is_set) {
    v = u.v;
  } else {
    v.success += u.v.success;
    v.failure += u.v.failure;
  }
}

ptl_ct_event_t CountingEvent::value(SimTime t) const {
  ptl_ct_event_t v = base_;
  for (const Update& u : pending_) {
    if (u.at > t) break;
    apply(v, u);
  }
  return v;
}

SimTime CountingEvent::next_change(SimTime t) const {
  for (const Update& u : pending_)
    if (u.at > t) return u.at;
  return SimTime::never();
}

void CountingEvent::prune(SimTime t) {
  size_t n = 0;
  while (n < pending_.size() && pending_[n].at <= t) apply(base_, pending_[n++]);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace simfab::online::portals
