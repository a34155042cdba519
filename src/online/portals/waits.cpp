// PortalsRuntime's event and counter reads (Portals 4.1 spec §3.13.4-3.13.8, §3.14; seed 000
// §5.7, §2.9 "polling problem", test 18): gets and zero-timeout polls pay the growing polling
// delay and never block; waits block until the event or count is visible at the rank's time;
// polls with a finite timeout sleep to the next known event, or a polling step, until it ends.
#include <algorithm>
#include <vector>

#include "online/portals/runtime.hpp"

namespace simfab::online::portals {

namespace {

SimTime milliseconds(ptl_time_t ms) { return SimTime::ps(static_cast<int64_t>(ms) * 1'000'000'000); }

bool reached(const ptl_ct_event_t& v, ptl_size_t test) { return v.success >= test || v.failure > 0; }

}  // namespace

int PortalsRuntime::eq_get(ptl_handle_eq_t h, ptl_event_t* ev) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!ev || !eq_of(r, h)) return PTL_ARG_INVALID;
  poll_delay();
  int rc = eq_of(r, h)->pop(now(), ev);
  if (rc == PTL_EQ_EMPTY && ranks_[static_cast<size_t>(r)].polls >= kSpinLimit) {
    skip_spin([this, r, h](SimTime t) {
      EventQueue* q = eq_of(r, h);
      return !q || q->has_visible(t);
    }, "PtlEQGet (polling)");
    EventQueue* q = eq_of(r, h);
    rc = q ? q->pop(now(), ev) : PTL_ARG_INVALID;
  }
  if (rc != PTL_EQ_EMPTY) found();
  return rc;
}

int PortalsRuntime::eq_wait(ptl_handle_eq_t h, ptl_event_t* ev) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!ev || !eq_of(r, h)) return PTL_ARG_INVALID;
  program_.wait_for([this, r, h] {
    EventQueue* q = eq_of(r, h);
    return !q || q->has_visible(check_time());
  }, "PtlEQWait");
  EventQueue* q = eq_of(r, h);
  if (!q) return PTL_ARG_INVALID;
  found();
  return q->pop(now(), ev);
}

int PortalsRuntime::eq_poll(const ptl_handle_eq_t* hs, unsigned int size, ptl_time_t timeout, ptl_event_t* ev,
                            unsigned int* which) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!hs || size == 0 || !ev || !which) return PTL_ARG_INVALID;
  const std::vector<ptl_handle_eq_t> eqs(hs, hs + size);
  for (ptl_handle_eq_t h : eqs)
    if (!eq_of(r, h)) return PTL_ARG_INVALID;
  // The first EQ (in array order) with an event visible at t.
  auto first = [this, r, eqs](SimTime t) -> int {
    for (size_t i = 0; i < eqs.size(); ++i) {
      EventQueue* q = eq_of(r, eqs[i]);
      if (!q || q->has_visible(t)) return static_cast<int>(i);
    }
    return -1;
  };
  auto take = [&](int i) {
    found();
    *which = static_cast<unsigned int>(i);
    EventQueue* q = eq_of(r, eqs[static_cast<size_t>(i)]);
    return q ? q->pop(now(), ev) : PTL_ARG_INVALID;
  };
  if (timeout == PTL_TIME_FOREVER) {
    program_.wait_for([this, first] { return first(check_time()) >= 0; }, "PtlEQPoll");
    return take(first(now()));
  }
  if (timeout == 0) {
    poll_delay();
    int i = first(now());
    if (i < 0 && ranks_[static_cast<size_t>(r)].polls >= kSpinLimit) {
      skip_spin([first](SimTime t) { return first(t) >= 0; }, "PtlEQPoll (polling)");
      i = first(now());
    }
    return i >= 0 ? take(i) : PTL_EQ_EMPTY;
  }
  const SimTime deadline = now() + milliseconds(timeout);
  for (;;) {
    if (const int i = first(now()); i >= 0) return take(i);
    if (now() >= deadline) return PTL_EQ_EMPTY;
    SimTime next = SimTime::never();
    for (ptl_handle_eq_t h : eqs) next = std::min(next, eq_of(r, h)->next_visible());
    if (next <= deadline)
      program_.compute_seconds((next - now()).seconds());
    else
      poll_delay();
  }
}

int PortalsRuntime::ct_get(ptl_handle_ct_t h, ptl_ct_event_t* ev) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!ev || !ct_of(r, h)) return PTL_ARG_INVALID;
  poll_delay();
  CountingEvent* c = ct_of(r, h);
  *ev = c->value(now());
  c->prune(now());
  RankState& s = ranks_[static_cast<size_t>(r)];
  if (s.last_ct == h && (ev->success != s.last_ct_value.success || ev->failure != s.last_ct_value.failure)) found();
  s.last_ct = h;
  s.last_ct_value = *ev;
  return PTL_OK;
}

int PortalsRuntime::ct_wait(ptl_handle_ct_t h, ptl_size_t test, ptl_ct_event_t* ev) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!ev || !ct_of(r, h)) return PTL_ARG_INVALID;
  program_.wait_for([this, r, h, test] {
    CountingEvent* c = ct_of(r, h);
    return !c || reached(c->value(check_time()), test);
  }, "PtlCTWait");
  CountingEvent* c = ct_of(r, h);
  if (!c) return PTL_ARG_INVALID;
  found();
  *ev = c->value(now());
  c->prune(now());
  return PTL_OK;
}

int PortalsRuntime::ct_poll(const ptl_handle_ct_t* hs, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
                            ptl_ct_event_t* ev, unsigned int* which) {
  if (!me().initialized()) return PTL_NO_INIT;
  const int32_t r = program_.me();
  if (!hs || !tests || size == 0 || !ev || !which) return PTL_ARG_INVALID;
  const std::vector<ptl_handle_ct_t> cts(hs, hs + size);
  const std::vector<ptl_size_t> want(tests, tests + size);
  for (ptl_handle_ct_t h : cts)
    if (!ct_of(r, h)) return PTL_ARG_INVALID;
  auto first = [this, r, cts, want](SimTime t) -> int {
    for (size_t i = 0; i < cts.size(); ++i) {
      CountingEvent* c = ct_of(r, cts[i]);
      if (!c || reached(c->value(t), want[i])) return static_cast<int>(i);
    }
    return -1;
  };
  auto take = [&](int i) {
    found();
    *which = static_cast<unsigned int>(i);
    CountingEvent* c = ct_of(r, cts[static_cast<size_t>(i)]);
    if (!c) return PTL_ARG_INVALID;
    *ev = c->value(now());
    return PTL_OK;
  };
  if (timeout == PTL_TIME_FOREVER) {
    program_.wait_for([this, first] { return first(check_time()) >= 0; }, "PtlCTPoll");
    return take(first(now()));
  }
  const SimTime deadline = now() + milliseconds(timeout);
  for (;;) {
    if (timeout == 0) poll_delay();
    if (const int i = first(now()); i >= 0) return take(i);
    if (timeout == 0 || now() >= deadline) return PTL_CT_NONE_REACHED;
    SimTime next = SimTime::never();
    for (ptl_handle_ct_t h : cts) next = std::min(next, ct_of(r, h)->next_change(now()));
    if (next <= deadline)
      program_.compute_seconds((next - now()).seconds());
    else
      poll_delay();
  }
}

int PortalsRuntime::ct_set(ptl_handle_ct_t h, ptl_ct_event_t v) {
  if (!me().initialized()) return PTL_NO_INIT;
  CountingEvent* c = ct_of(program_.me(), h);
  if (!c) return PTL_ARG_INVALID;
  c->set(now(), v);
  return PTL_OK;
}

int PortalsRuntime::ct_inc(ptl_handle_ct_t h, ptl_ct_event_t v) {
  if (!me().initialized()) return PTL_NO_INIT;
  CountingEvent* c = ct_of(program_.me(), h);
  if (!c || (v.success != 0 && v.failure != 0)) return PTL_ARG_INVALID;
  c->add(now(), v.success, v.failure);
  return PTL_OK;
}

}  // namespace simfab::online::portals
