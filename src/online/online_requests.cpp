// OnlineProgram's requests: the pool, MPI_Wait/Test and their any/all/some forms, polling.
#include "online/online_program.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "mpi/call_error.hpp"
#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "online/online_program_detail.hpp"
#include "replay/ti_program.hpp"

namespace simfab::online {

using namespace detail;

// ---------------------------------------------------------------------------------------------
// Requests

uint32_t OnlineProgram::new_request(Request::Kind kind) {
  uint32_t i;
  if (free_requests_ != UINT32_MAX) {
    i = free_requests_;
    free_requests_ = requests_[i].next_free;
  } else {
    i = static_cast<uint32_t>(requests_.size());
    requests_.emplace_back();
  }
  requests_[i] = Request{};
  requests_[i].kind = kind;
  requests_[i].owner = current_;
  return i;
}

void OnlineProgram::release_request(uint32_t index) {
  requests_[index] = Request{};
  requests_[index].next_free = free_requests_;
  free_requests_ = index;
}

OnlineProgram::Request& OnlineProgram::request_of(MPI_Request r, const char* call) {
  const int64_t i = static_cast<int64_t>(r) - 1;
  if (i < 0 || i >= static_cast<int64_t>(requests_.size()) || requests_[static_cast<size_t>(i)].kind == Request::Kind::kFree)
    mpi_fatal(call, "invalid request " + std::to_string(r) + " (never created, or completed and freed already)");
  Request& q = requests_[static_cast<size_t>(i)];
  if (q.owner != current_) mpi_fatal(call, "request " + std::to_string(r) + " belongs to rank " + std::to_string(q.owner));
  if (q.freed) mpi_fatal(call, "request " + std::to_string(r) + " was freed with MPI_Request_free");
  return q;
}

bool OnlineProgram::done(MPI_Request r) const {
  if (r == MPI_REQUEST_NULL) return true;
  const Request& q = requests_[static_cast<size_t>(r - 1)];
  if (q.persistent && !q.active) return true;
  return q.complete && q.done <= rank().now;
}

void OnlineProgram::fill_status(MPI_Status* st, const Request& q) const {
  if (st == MPI_STATUS_IGNORE) return;
  if (q.kind == Request::Kind::kRecv) {
    *st = q.status;
    if (q.peer == kProcNull) {
      st->MPI_SOURCE = MPI_PROC_NULL;
      st->MPI_TAG = MPI_ANY_TAG;
      st->simfab_count = 0;
    } else if (!q.status.simfab_cancelled) {  // the world rank as a rank of the request's communicator
      st->MPI_SOURCE = q.comm == MPI_COMM_SELF ? 0 : q.group ? q.group->local_rank(q.status.MPI_SOURCE) : q.status.MPI_SOURCE;
    }
  } else {
    *st = MPI_Status{};
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->simfab_cancelled = q.status.simfab_cancelled;
  }
  st->MPI_ERROR = MPI_SUCCESS;
}

void OnlineProgram::consume(MPI_Request* r, MPI_Status* status) {
  const uint32_t i = static_cast<uint32_t>(*r - 1);
  Request& q = requests_[i];
  if (q.kind == Request::Kind::kGeneralized) {  // the program's query then free callbacks
    const GrequestFns gen = q.gen;
    MPI_Status st{};
    if (gen.query) gen.query(gen.extra, &st);
    if (status != MPI_STATUS_IGNORE) *status = st;
    release_request(i);
    *r = MPI_REQUEST_NULL;
    if (gen.free) gen.free(gen.extra);
    return;
  }
  if (q.finish) {
    const std::function<void()> finish = std::move(q.finish);
    q.finish = nullptr;
    finish();  // no MPI call: requests_ does not move
  }
  fill_status(status, q);
  if (q.persistent) {
    q.active = false;
    q.complete = false;
    q.started = false;
    q.status = MPI_Status{};
    return;
  }
  release_request(i);
  *r = MPI_REQUEST_NULL;
}

void OnlineProgram::wait(MPI_Request* r, MPI_Status* status, const char* call) {
  if (*r == MPI_REQUEST_NULL) {
    fill_status(status, Request{});
    return;
  }
  Request& q = request_of(*r, call);
  if (q.persistent && !q.active) {
    fill_status(status, Request{});
    return;
  }
  const uint32_t i = static_cast<uint32_t>(*r - 1);
  block([this, i] { return requests_[i].complete; }, describe_request(i, call));
  advance_to(requests_[i].done);
  consume(r, status);
}

bool OnlineProgram::spinning() {
  Rank& R = rank();
  R.spins = R.spin_streak + 1;
  return R.spins > kSpinLimit || failures_.any();
}

bool OnlineProgram::smpi_polls_wait(SmpiPolls::Kind kind) const {
  return options_.smpi_polls.runaway(kind) || failures_.any();
}

bool OnlineProgram::smpi_poll(SmpiPolls::Kind kind, FunctionRef<bool()> look) {
  SmpiPolls& polls = options_.smpi_polls;
  // SMPI sleeps before a test (the network goes on delivering meanwhile: a sleep of the rank, not
  // of its CPU) and computes before an iprobe.
  if (kind == SmpiPolls::kIprobe) charge_mpi(polls.cost(kind));
  else poll_sleep(polls.cost(kind));
  const bool found = look();
  polls.outcome(kind, found);
  return found;
}

bool OnlineProgram::test(MPI_Request* r, MPI_Status* status, const char* call) {
  if (*r != MPI_REQUEST_NULL) request_of(*r, call);
  if (options_.smpi_polls.enabled() && *r != MPI_REQUEST_NULL) {
    if (!smpi_poll(SmpiPolls::kTest, [&] { return done(*r); })) {
      if (!smpi_polls_wait(SmpiPolls::kTest)) return false;
      wait(r, status, call);  // a poll that cannot succeed: wait (deadlocks are reported)
      return true;
    }
  } else if (!done(*r)) {
    if (spinning()) {  // nothing but polling: wait for it (a deadlock is then reported as one)
      wait(r, status, call);
      return true;
    }
    charge_mpi(options_.poll_cost);
    if (!done(*r)) return false;
  }
  if (*r == MPI_REQUEST_NULL || (requests_[static_cast<size_t>(*r - 1)].persistent && !requests_[static_cast<size_t>(*r - 1)].active))
    fill_status(status, Request{});
  else
    consume(r, status);
  return true;
}

void OnlineProgram::wait_all(int n, MPI_Request* rs, MPI_Status* statuses, const char* call) {
  SimTime last = SimTime::zero();
  for (int i = 0; i < n; ++i)
    if (rs[i] != MPI_REQUEST_NULL) request_of(rs[i], call);
  block(
      [this, n, rs] {
        for (int i = 0; i < n; ++i)
          if (rs[i] != MPI_REQUEST_NULL && !requests_[static_cast<size_t>(rs[i] - 1)].complete &&
              !(requests_[static_cast<size_t>(rs[i] - 1)].persistent && !requests_[static_cast<size_t>(rs[i] - 1)].active))
            return false;
        return true;
      },
      std::string(call) + " on " + std::to_string(n) + " requests");
  for (int i = 0; i < n; ++i)
    if (rs[i] != MPI_REQUEST_NULL) last = std::max(last, requests_[static_cast<size_t>(rs[i] - 1)].done);
  advance_to(last);
  for (int i = 0; i < n; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (rs[i] == MPI_REQUEST_NULL || (requests_[static_cast<size_t>(rs[i] - 1)].persistent &&
                                      !requests_[static_cast<size_t>(rs[i] - 1)].active))
      fill_status(st, Request{});
    else
      consume(&rs[i], st);
  }
}

bool OnlineProgram::test_all(int n, MPI_Request* rs, MPI_Status* statuses, const char* call) {
  for (int i = 0; i < n; ++i)
    if (rs[i] != MPI_REQUEST_NULL) request_of(rs[i], call);
  auto all = [&] {
    for (int i = 0; i < n; ++i)
      if (!done(rs[i])) return false;
    return true;
  };
  if (options_.smpi_polls.enabled()) {  // SMPI tests each request in turn
    bool found = true;
    for (int i = 0; i < n; ++i)
      if (rs[i] != MPI_REQUEST_NULL) found &= smpi_poll(SmpiPolls::kTest, [&] { return done(rs[i]); });
    if (!found && !smpi_polls_wait(SmpiPolls::kTest)) return false;
  } else if (!all() && !spinning()) {
    charge_mpi(options_.poll_cost);
    if (!all()) return false;
  }
  wait_all(n, rs, statuses, call);
  return true;
}

bool OnlineProgram::wait_any(int n, MPI_Request* rs, int* index, MPI_Status* status, bool blocking, const char* call) {
  bool any_active = false;
  for (int i = 0; i < n; ++i)
    if (rs[i] != MPI_REQUEST_NULL) {
      Request& q = request_of(rs[i], call);
      if (!q.persistent || q.active) any_active = true;
    }
  *index = MPI_UNDEFINED;
  if (!any_active) {
    fill_status(status, Request{});
    return true;
  }
  auto active_done = [this, n, rs](bool by_now) {
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (rs[i] == MPI_REQUEST_NULL) continue;
      const Request& q = requests_[static_cast<size_t>(rs[i] - 1)];
      if ((q.persistent && !q.active) || !q.complete || (by_now && q.done > rank().now)) continue;
      if (best < 0 || q.done < requests_[static_cast<size_t>(rs[best] - 1)].done) best = i;
    }
    return best;
  };
  if (!blocking && options_.smpi_polls.enabled()) {
    if (!smpi_poll(SmpiPolls::kTestany, [&] { return active_done(true) >= 0; }) &&
        !smpi_polls_wait(SmpiPolls::kTestany))
      return false;
  } else if (!blocking && active_done(true) < 0 && !spinning()) {
    charge_mpi(options_.poll_cost);
    if (active_done(true) < 0) return false;
  }
  block([active_done] { return active_done(false) >= 0; }, std::string(call) + " on " + std::to_string(n) + " requests");
  const int i = active_done(false);
  advance_to(requests_[static_cast<size_t>(rs[i] - 1)].done);
  *index = i;
  consume(&rs[i], status);
  return true;
}

int OnlineProgram::wait_some(int n, MPI_Request* rs, int* indices, MPI_Status* statuses, bool blocking, const char* call) {
  if (!blocking && options_.smpi_polls.enabled()) {  // SMPI's testsome: one test per active request
    bool any_active = false;
    int out = 0;
    for (int i = 0; i < n; ++i) {
      if (rs[i] == MPI_REQUEST_NULL) continue;
      const Request& q = request_of(rs[i], call);
      if (q.persistent && !q.active) continue;
      any_active = true;
      if (!smpi_poll(SmpiPolls::kTest, [&] { return done(rs[i]); })) continue;
      indices[out] = i;
      consume(&rs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[out]);
      ++out;
    }
    if (!any_active) return MPI_UNDEFINED;
    if (out > 0 || !smpi_polls_wait(SmpiPolls::kTest)) return out;
    blocking = true;  // a poll that cannot succeed: wait (deadlocks are reported)
  }
  int first = 0;
  if (!wait_any(n, rs, &first, statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[0], blocking, call))
    return 0;
  if (first == MPI_UNDEFINED) return MPI_UNDEFINED;
  // wait_any consumed the earliest; report it first, then every other one done by now.
  int out = 0;
  indices[out] = first;
  ++out;
  for (int i = 0; i < n; ++i) {
    if (i == first || !done(rs[i]) || rs[i] == MPI_REQUEST_NULL) continue;
    const Request& q = requests_[static_cast<size_t>(rs[i] - 1)];
    if (q.persistent && !q.active) continue;
    indices[out] = i;
    consume(&rs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[out]);
    ++out;
  }
  return out;
}

void OnlineProgram::request_free(MPI_Request* r, const char* call) {
  if (*r == MPI_REQUEST_NULL) mpi_fatal(call, "the request is MPI_REQUEST_NULL");
  Request& q = request_of(*r, call);
  const uint32_t i = static_cast<uint32_t>(*r - 1);
  const GrequestFns gen = q.kind == Request::Kind::kGeneralized && q.complete ? q.gen : GrequestFns{};
  if (q.complete || (q.persistent && !q.active)) release_request(i);
  else q.freed = true;
  *r = MPI_REQUEST_NULL;
  if (gen.free) gen.free(gen.extra);
}

bool OnlineProgram::request_status(MPI_Request r, MPI_Status* status, const char* call) {
  if (r == MPI_REQUEST_NULL) {
    fill_status(status, Request{});
    return true;
  }
  const Request& q = request_of(r, call);
  if (!done(r)) return false;
  if (q.kind == Request::Kind::kGeneralized) {
    MPI_Status st{};
    if (q.gen.query) q.gen.query(q.gen.extra, &st);
    if (status != MPI_STATUS_IGNORE) *status = st;
    return true;
  }
  fill_status(status, q);
  return true;
}

void OnlineProgram::on_consume(MPI_Request r, std::function<void()> fn, const char* call) {
  request_of(r, call).finish = std::move(fn);
}

MPI_Request OnlineProgram::grequest_start(const GrequestFns& gen) {
  const uint32_t i = new_request(Request::Kind::kGeneralized);
  requests_[i].gen = gen;
  requests_[i].started = true;
  return static_cast<MPI_Request>(i + 1);
}

void OnlineProgram::grequest_complete(MPI_Request r, const char* call) {
  const int64_t i = static_cast<int64_t>(r) - 1;  // request_of() would refuse one already freed
  if (i < 0 || i >= static_cast<int64_t>(requests_.size()) ||
      requests_[static_cast<size_t>(i)].kind != Request::Kind::kGeneralized ||
      requests_[static_cast<size_t>(i)].owner != current_ || requests_[static_cast<size_t>(i)].complete)
    mpi_fatal(call, "request " + std::to_string(r) + " is not an incomplete generalized request of this rank");
  Request& q = requests_[static_cast<size_t>(i)];
  q.complete = true;
  q.done = rank().now;
  if (q.freed) {  // MPI_Request_free came first: the request goes now
    const GrequestFns gen = q.gen;
    release_request(static_cast<uint32_t>(i));
    if (gen.free) gen.free(gen.extra);
  }
}

void OnlineProgram::cancel(MPI_Request* r, const char* call) {
  Request& q = request_of(*r, call);
  if (q.kind == Request::Kind::kGeneralized) {
    if (q.gen.cancel) q.gen.cancel(q.gen.extra, q.complete ? 1 : 0);
    return;
  }
  if (q.kind != Request::Kind::kRecv || q.complete || q.op == kNoOp) return;  // sends complete anyway
  ex_->cancel(q.op);
}

std::string OnlineProgram::describe_request(uint32_t i, const char* call) const {
  const Request& q = requests_[i];
  std::string s = std::string(call) + " for ";
  switch (q.kind) {
    case Request::Kind::kSend: s += "a send to rank "; break;
    case Request::Kind::kRecv: s += "a receive from "; break;
    case Request::Kind::kColl: return s + "a non-blocking collective (" + q.coll_args.call + ")";
    case Request::Kind::kGeneralized: return s + "a generalized request that MPI_Grequest_complete never completed";
    default: return s + "a request";
  }
  s += q.peer == kAnySource ? std::string("MPI_ANY_SOURCE") : "rank " + std::to_string(q.peer);
  s += " (tag " + (q.tag == kAnyTag ? std::string("MPI_ANY_TAG") : std::to_string(q.tag)) + ", " + describe_comm(q.comm) + ")";
  return s;
}


}  // namespace simfab::online
