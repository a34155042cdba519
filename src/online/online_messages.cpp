// OnlineProgram's point-to-point messages (payloads, modes, probes) and collectives.
#include "online/online_program.hpp"

#include <algorithm>
#include <cctype>
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
// Point-to-point

uint32_t OnlineProgram::new_payload(const void* buf, int64_t count, MPI_Datatype type, int64_t bytes) {
  if (bytes == 0) return kNoPayload;
  uint32_t id;
  if (!free_payloads_.empty()) {
    id = free_payloads_.back();
    free_payloads_.pop_back();
  } else {
    id = static_cast<uint32_t>(payloads_.size());
    SIMFAB_CHECK(id < kCalcUser, "online: too many messages in flight");
    payloads_.emplace_back();
  }
  payloads_[id].resize(static_cast<size_t>(bytes));
  pack(buf, count, type, payloads_[id].data());
  return id;
}

void OnlineProgram::start_request(uint32_t i, const char* call) {
  Request& q = requests_[i];
  q.active = true;
  q.complete = false;
  q.started = false;
  q.parts = 1;
  q.status = MPI_Status{};
  if (q.peer == kProcNull) {
    q.complete = q.started = true;
    q.done = q.started_at = rank().now;
    return;
  }
  const int64_t bytes = q.count * type_size(q.type, call);
  OpId op;
  if (q.kind == Request::Kind::kSend) {
    op = issue(OpKind::kSend, static_cast<uint64_t>(bytes), q.peer, q.tag, q.context,
               new_payload(q.sbuf, q.count, q.type, bytes), q.flags);
  } else {
    op = issue(OpKind::kRecv, static_cast<uint64_t>(bytes), q.peer, q.tag, q.context, i, 0);
  }
  q.op = op;
  op_request_[op] = i;
  on_kernel_stack([&] { ex_->ready(op, rank().now); });
}

namespace {
void check_count(int count, const char* call) {
  if (count < 0) mpi_fatal(call, "count " + std::to_string(count) + " < 0");
}
void check_buffer(const void* buf, int count, const char* call) {
  if (count > 0 && buf == nullptr) mpi_fatal(call, "buffer is NULL with count " + std::to_string(count) + " > 0");
}
}  // namespace

uint32_t OnlineProgram::p2p_request(Request::Kind kind, const void* buf, int count, MPI_Datatype type, int peer, int tag,
                                    MPI_Comm c, uint8_t flags, const char* call) {
  check_count(count, call);
  check_buffer(buf, count, call);
  type_size(type, call);  // validates the datatype
  const CommRef cr = comm(c, call);
  const bool recv = kind == Request::Kind::kRecv;
  if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) && (peer < 0 || peer >= cr.size))
    mpi_fatal(call, std::string(recv ? "source " : "destination ") + std::to_string(peer) + " is not a rank of " +
                        describe_comm(c) + " (size " + std::to_string(cr.size) + ")");
  if (!(recv && tag == MPI_ANY_TAG) && (tag < 0 || tag > kTagUpperBound))
    mpi_fatal(call, "tag " + std::to_string(tag) + " is outside 0.." + std::to_string(kTagUpperBound) +
                        (recv ? " (or MPI_ANY_TAG)" : ""));
  const uint32_t i = new_request(kind);
  Request& q = requests_[i];
  q.sbuf = buf;
  q.rbuf = const_cast<void*>(buf);
  q.count = count;
  q.type = type;
  q.peer = peer == MPI_PROC_NULL ? kProcNull : peer == MPI_ANY_SOURCE ? kAnySource : cr.world(peer);
  q.tag = tag == MPI_ANY_TAG ? kAnyTag : tag;
  q.context = cr.p2p_context;
  q.flags = flags;
  q.comm = c;
  q.call = call;
  if (cr.comm && cr.comm->id() != mpi::kCommWorld) q.group = std::make_shared<mpi::Group>(cr.comm->group());
  return i;
}

MPI_Request OnlineProgram::isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                                 uint8_t flags, const char* call) {
  const uint32_t i = p2p_request(Request::Kind::kSend, buf, count, type, dest, tag, c, flags, call);
  start_request(i, call);
  block([this, i] { return requests_[i].started; }, describe_request(i, call));
  advance_to(requests_[i].started_at);
  return static_cast<MPI_Request>(i + 1);
}

MPI_Request OnlineProgram::irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c,
                                 const char* call) {
  const uint32_t i = p2p_request(Request::Kind::kRecv, buf, count, type, source, tag, c, 0, call);
  start_request(i, call);
  block([this, i] { return requests_[i].started; }, describe_request(i, call));
  advance_to(requests_[i].started_at);
  return static_cast<MPI_Request>(i + 1);
}

MPI_Request OnlineProgram::send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                                     uint8_t flags, const char* call) {
  const uint32_t i = p2p_request(Request::Kind::kSend, buf, count, type, dest, tag, c, flags, call);
  requests_[i].persistent = true;
  return static_cast<MPI_Request>(i + 1);
}

MPI_Request OnlineProgram::recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c,
                                     const char* call) {
  const uint32_t i = p2p_request(Request::Kind::kRecv, buf, count, type, source, tag, c, 0, call);
  requests_[i].persistent = true;
  return static_cast<MPI_Request>(i + 1);
}

void OnlineProgram::start(MPI_Request* r, const char* call) {
  Request& q = request_of(*r, call);
  if (!q.persistent) mpi_fatal(call, "request " + std::to_string(*r) + " is not persistent (MPI_Send_init, MPI_Recv_init)");
  if (q.active) mpi_fatal(call, "request " + std::to_string(*r) + " is still active (wait for it before restarting it)");
  const uint32_t i = static_cast<uint32_t>(*r - 1);
  start_request(i, call);
  block([this, i] { return requests_[i].started; }, describe_request(i, call));
  advance_to(requests_[i].started_at);
}

void OnlineProgram::probe(int source, int tag, MPI_Comm c, MPI_Status* status, const char* call) {
  // SMPI's MPI_Probe is MPI_Iprobe until found, each poll charged (smpi_polls.hpp).
  while (options_.smpi_polls.enabled() && !smpi_polls_wait(SmpiPolls::kIprobe))
    if (iprobe(source, tag, c, status, call)) return;
  const uint32_t i = p2p_request(Request::Kind::kRecv, nullptr, 0, MPI_BYTE, source, tag, c, 0, call);
  Request& q = requests_[i];
  q.active = true;
  if (q.peer != kProcNull) {
    const OpId op = issue(OpKind::kProbe, 0, q.peer, q.tag, q.context, i, 0);
    q.op = op;
    op_request_[op] = i;
    on_kernel_stack([&] { ex_->ready(op, rank().now); });
  } else {
    q.complete = true;
    q.done = rank().now;
  }
  block([this, i] { return requests_[i].complete; }, describe_request(i, call));
  advance_to(requests_[i].done);
  MPI_Request h = static_cast<MPI_Request>(i + 1);
  consume(&h, status);
}

bool OnlineProgram::iprobe(int source, int tag, MPI_Comm c, MPI_Status* status, const char* call) {
  const CommRef cr = comm(c, call);
  if (source == MPI_PROC_NULL) {
    fill_status(status, [&] {
      Request q;
      q.kind = Request::Kind::kRecv;
      q.peer = kProcNull;
      return q;
    }());
    return true;
  }
  if (source != MPI_ANY_SOURCE && (source < 0 || source >= cr.size))
    mpi_fatal(call, "source " + std::to_string(source) + " is not a rank of " + describe_comm(c));
  const int32_t src = source == MPI_ANY_SOURCE ? kAnySource : cr.world(source);
  MsgStatus ms;
  auto look = [&] { return ex_->iprobe(current_, src, tag == MPI_ANY_TAG ? kAnyTag : tag, cr.p2p_context, &ms); };
  bool found = false;
  if (options_.smpi_polls.enabled()) {
    found = smpi_poll(SmpiPolls::kIprobe, look);
    if (!found && smpi_polls_wait(SmpiPolls::kIprobe)) {
      probe(source, tag, c, status, call);
      return true;
    }
  } else {
    found = look();
    if (!found && spinning()) {  // nothing but polling: a blocking probe (deadlocks are reported)
      probe(source, tag, c, status, call);
      return true;
    }
    if (!found) {
      charge_mpi(options_.poll_cost);
      found = look();
    }
  }
  if (found && status != MPI_STATUS_IGNORE) {
    *status = MPI_Status{};
    status->MPI_SOURCE = cr.local(ms.source);
    status->MPI_TAG = ms.tag;
    status->simfab_count = static_cast<long long>(ms.size);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Collectives

MPI_Request OnlineProgram::collective(const CollArgs& a, MPI_Comm c, bool nonblocking, const char* call) {
  const CommRef cr = comm(c, call);
  if ((a.op == coll::CollOp::kBcast || a.op == coll::CollOp::kReduce || a.op == coll::CollOp::kGather ||
       a.op == coll::CollOp::kGatherv || a.op == coll::CollOp::kScatter || a.op == coll::CollOp::kScatterv) &&
      (a.root < 0 || a.root >= cr.size))
    mpi_fatal(call, "root " + std::to_string(a.root) + " is not a rank of " + describe_comm(c) + " (size " +
                        std::to_string(cr.size) + ")");
  // The library's set-up of this collective, the first time this rank calls it (TI replays
  // charge it the same way: mpi/coll/first_call.hpp).
  if (!nonblocking)
    if (const SimTime setup = options_.first_call.charge(current_, a.op); setup > SimTime::zero())
      charge(setup, op_flag::kDelay);
  const uint32_t i = new_request(Request::Kind::kColl);
  Request& q = requests_[i];
  q.coll_args = a;
  q.coll_local = cr.rank;
  q.comm = c;
  if (!cr.comm) {  // MPI_COMM_SELF: no messages
    CollInstance self(a, 1);
    self.deposit(a, 0);
    self.outputs(a, 0);
    q.complete = q.started = true;
    q.done = rank().now;
  } else {
    on_kernel_stack([&] {  // deposit, algorithm and its ops: deep frames, kept off the rank's stack
      const mpi::CommId id = cr.comm->id();
      const int32_t tag = comms_.next_collective_tag(id, cr.rank);
      Request& req = requests_[i];
      req.coll_key = {id, static_cast<uint32_t>(tag)};
      auto& inst = colls_[req.coll_key];
      if (!inst) inst = std::make_shared<CollInstance>(a, cr.size, ex_->collective_choice(current_, rank().now));
      inst->deposit(a, cr.rank);
      req.coll = inst;
      release_awaiting(req.coll_key, rank().now);
      const TiAction act = timing_action(a, cr.rank, cr.size, nonblocking, counts_);
      frag_.clear();
      bool& smp = smp_ready_[{c, current_}];
      const coll::CollChoice& choice = ex_->coll_choice(inst->choice(), choice_);
      const char* algorithm = build_ti_collective(frag_, act, cr.rank, cr.size, counts_, SimTime::zero(), choice,
                                                  choice.uses_smp_setup() ? &smp : nullptr);
      if (ex_->activity()) report_algorithm(call, algorithm);
      rank().colls.push_back(i);
      requests_[i].run = runner_.start(*ex_, frag_, current_, tag, cr.coll_context, rank().now,
                                       id == mpi::kCommWorld ? nullptr : &cr.comm->group());
    });
  }
  MPI_Request h = static_cast<MPI_Request>(i + 1);
  // Model switches after the K-th call of a collective count "allreduce" when MPI_Allreduce
  // returns, "iallreduce" when MPI_Iallreduce is called.
  std::string name = std::string_view(call).starts_with("MPI_") ? std::string(call + 4) : std::string(call);
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (nonblocking) {
    on_kernel_stack([&] { ex_->collective_done(current_, rank().now, name); });
    return h;
  }
  block([this, i] { return requests_[i].complete; }, std::string(call) + " on " + describe_comm(c));
  advance_to(requests_[i].done);
  consume(&h, MPI_STATUS_IGNORE);
  on_kernel_stack([&] { ex_->collective_done(current_, rank().now, name); });
  return MPI_REQUEST_NULL;
}


}  // namespace simfab::online
