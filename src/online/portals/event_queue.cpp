#include "online/portals/event_queue.hpp"

#include <algorithm>

namespace simfab::online::portals {

void EventQueue::push(SimTime visible, const ptl_event_t& e) {
  if (events_.size() >= capacity_) {  // circular: the oldest is overwritten
    events_.pop_front();
    dropped_ = true;
  }
  Timed t{visible, seq_++, e};
  auto it = std::upper_bound(events_.begin(), events_.end(), t, [](const Timed& a, const Timed& b) {
    return a.visible < b.visible || (a.visible == b.visible && a.seq < b.seq);
  });
  events_.insert(it, t);
}

int EventQueue::pop(SimTime t, ptl_event_t* out) {
  if (!has_visible(t)) return PTL_EQ_EMPTY;
  *out = events_.front().event;
  events_.pop_front();
  const bool dropped = dropped_;
  dropped_ = false;
  return dropped ? PTL_EQ_DROPPED : PTL_OK;
}

}  // namespace simfab::online::portals
