#include "online/online_program.hpp"

#include <time.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "mpi/call_error.hpp"
#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "replay/ti_program.hpp"

namespace simfab::online {

namespace {

OnlineProgram* g_active = nullptr;

std::string describe_current() {
  if (!g_active || g_active->me() < 0) return {};
  return "rank " + std::to_string(g_active->me());
}

constexpr uint32_t kNoPayload = coll::FragmentRunner::kOpFlag - 1;
constexpr uint32_t kCalcUser = coll::FragmentRunner::kOpFlag - 2;
constexpr uint32_t kNoRequest = UINT32_MAX;
constexpr MPI_Comm kFirstTableHandle = 3;  // MPI_Comm h >= 3 is CommTable id h - 2

mpi::CommId comm_id_of(MPI_Comm c) { return c == MPI_COMM_WORLD ? mpi::kCommWorld : c - 2; }
MPI_Comm handle_of(mpi::CommId id) { return id == mpi::kCommWorld ? MPI_COMM_WORLD : id + 2; }

}  // namespace

OnlineProgram* OnlineProgram::active() { return g_active; }

OnlineProgram::OnlineProgram(ProgramImage& image, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
                             coll::CollChoice choice, OnlineOptions options)
    : image_(image), ops_(ops), platform_(platform), rank_host_(std::move(rank_host)), choice_(choice),
      options_(std::move(options)), ranks_(rank_host_.size()), runner_(ops),
      comms_(static_cast<int32_t>(rank_host_.size())) {
  for (size_t r = 0; r < ranks_.size(); ++r) ranks_[r].host = rank_host_[r];
  g_active = this;
  set_fatal_context(&describe_current);
}

OnlineProgram::~OnlineProgram() {
  if (g_active == this) g_active = nullptr;
  set_fatal_context(nullptr);
}

// ---------------------------------------------------------------------------------------------
// Fibers and time

void OnlineProgram::start(Executor& ex) {
  ex_ = &ex;
  if (options_.measured) {  // the CPU time one reading of the clock costs: the least of 64 deltas
    double least = 1.0;
    double prev = cpu_seconds();
    for (int i = 0; i < 64; ++i) {
      const double now = cpu_seconds();
      least = std::min(least, now - prev);
      prev = now;
    }
    clock_cost_s_ = least;
  }
  ex.engine().set_handler(EventKind::kFrontEnd, this);
  for (RankId r = 0; r < num_ranks(); ++r) {
    Rank& R = ranks_[static_cast<size_t>(r)];
    R.args = options_.argv;
    for (std::string& a : R.args) R.argv.push_back(a.data());
    R.argv.push_back(nullptr);
    R.fiber = std::make_unique<Fiber>(options_.stack_bytes, [this, r] { run_rank(r); }, "rank " + std::to_string(r));
    R.wake_scheduled = true;
    ex.engine().schedule(SimTime::zero(), EventKind::kFrontEnd, static_cast<uint64_t>(r));
  }
}

void OnlineProgram::run_rank(RankId r) {
  const ProgramImage::Main main = image_.load_copy(r);
  Rank& R = ranks_[static_cast<size_t>(r)];
  const int status = main(static_cast<int>(R.args.size()), R.argv.data());
  end_rank(status);
}

void OnlineProgram::handle(SimTime now, uint64_t r) {
  Rank& R = ranks_[static_cast<size_t>(r)];
  R.wake_scheduled = false;
  resume(static_cast<RankId>(r), now);
}

void OnlineProgram::resume(RankId r, SimTime t) {
  Rank& R = ranks_[static_cast<size_t>(r)];
  if (R.done) return;
  current_ = r;
  R.now = t;
  R.cpu_mark = cpu_seconds();
  bool finished = R.fiber->resume();
  while (!finished && kernel_work_) {  // the rank asked for kernel work on the main stack
    const FunctionRef<void()> work = *kernel_work_;
    kernel_work_.reset();
    work();
    finished = R.fiber->resume();
  }
  current_ = -1;
  if (finished) R.done = true;
}

SimTime OnlineProgram::now() const { return rank().now; }

double OnlineProgram::cpu_seconds() const {
  if (!options_.measured) return 0;
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

SimTime OnlineProgram::scaled(double seconds) const {
  if (seconds <= 0) return SimTime::zero();
  const double speed = platform_.host(rank().host).speed_flops;
  const double s = options_.reference_speed > 0 && std::isfinite(speed) ? seconds * options_.reference_speed / speed
                   : std::isfinite(speed)                               ? seconds
                                                                        : 0.0;
  return SimTime::from_seconds(s);
}

void OnlineProgram::on_kernel_stack(FunctionRef<void()> work) {
  if (!Fiber::current()) {
    work();
    return;
  }
  kernel_work_ = work;
  Fiber::yield();  // resume() runs `work` on the main stack and switches straight back
}

void OnlineProgram::block(std::function<bool()> until, std::string what) {
  // A wake is scheduled when the condition held; another rank may have run in between (e.g.
  // taken the lock this one waits for), so check again after every wake.
  while (!until()) {
    Rank& R = rank();
    R.until = until;
    R.blocked_in = what;
    Fiber::yield();
    Rank& again = rank();
    again.until = nullptr;
    again.blocked_in.clear();
  }
}

void OnlineProgram::advance_to(SimTime t) {
  Rank& R = rank();
  if (t <= R.now) return;
  R.wake_scheduled = true;
  ex_->engine().schedule(t, EventKind::kFrontEnd, static_cast<uint64_t>(current_));
  Fiber::yield();
}

void OnlineProgram::poke(RankId r, SimTime t) {
  Rank& R = ranks_[static_cast<size_t>(r)];
  if (!R.until || R.wake_scheduled || !R.until()) return;
  R.wake_scheduled = true;
  ex_->engine().schedule(std::max(t, ex_->engine().now()), EventKind::kFrontEnd, static_cast<uint64_t>(r));
}

OpId OnlineProgram::issue(OpKind kind, uint64_t amount, int32_t peer, int32_t tag, uint32_t context, uint32_t user,
                          uint8_t flags) {
  const OpId id = ops_.alloc();
  Op& op = ops_[id];
  op.kind = kind;
  op.amount = amount;
  op.peer = peer;
  op.tag = tag;
  op.rank = current_;
  op.context = context;
  op.user = user;
  op.flags = flags;
  if (op_request_.size() <= id) op_request_.resize(std::max<size_t>(id + 1, op_request_.size() * 2), kNoRequest);
  op_request_[id] = kNoRequest;
  return id;
}

void OnlineProgram::charge(SimTime duration) {
  if (duration <= SimTime::zero()) return;
  Rank& R = rank();
  const OpId id = issue(OpKind::kCalc, static_cast<uint64_t>(duration.ps()), 0, 0, 0, kCalcUser, 0);
  R.calc = id;
  R.calc_done = false;
  on_kernel_stack([&] { ex_->ready(id, R.now); });
  block([&R] { return R.calc_done; }, "computing");
  advance_to(R.calc_end);
}

void OnlineProgram::enter(const char* call, bool any_time) {
  if (current_ < 0) mpi_fatal(call, "called outside a rank of a simfab exec run");
  Rank& R = rank();
  if (!any_time) {
    if (R.mpi == Rank::Mpi::kBefore) mpi_fatal(call, "called before MPI_Init");
    if (R.mpi == Rank::Mpi::kFinalized) mpi_fatal(call, "called after MPI_Finalize");
  }
  // A poll that fails right after a failed poll, with no computation in between, extends the
  // streak (spinning()); any other call or computation ends it.
  R.spin_streak = R.spins;
  R.spins = 0;
  if (options_.measured) {
    // The thread CPU clock is a system call here (about 1.4 us on a VM): its own cost, measured
    // once (clock_cost_s_), is not the program's.
    const double burst = cpu_seconds() - R.cpu_mark - clock_cost_s_;
    if (burst >= options_.cpu_threshold_s) {  // SMPI's smpi/cpu-threshold
      R.spin_streak = 0;
      charge(scaled(burst));
    }
  }
}

void OnlineProgram::leave() {
  if (current_ >= 0) rank().cpu_mark = cpu_seconds();
}

void OnlineProgram::init(const char* call) {
  Rank& R = rank();
  if (R.mpi != Rank::Mpi::kBefore) mpi_fatal(call, "MPI is already initialized (MPI_Init called twice)");
  R.mpi = Rank::Mpi::kInitialized;
}

void OnlineProgram::finalize() {
  Rank& R = rank();
  for (uint32_t q : R.colls)
    if (!requests_[q].complete) mpi_fatal("MPI_Finalize", "a non-blocking collective is still running (wait for it first)");
  R.mpi = Rank::Mpi::kFinalized;
}

bool OnlineProgram::initialized() const { return rank().mpi != Rank::Mpi::kBefore; }
bool OnlineProgram::finalized() const { return rank().mpi == Rank::Mpi::kFinalized; }

void OnlineProgram::compute_flops(double flops) {
  if (!(flops >= 0) || !std::isfinite(flops)) mpi_fatal("simfab_compute", "flops must be finite and >= 0");
  const double speed = platform_.host(rank().host).speed_flops;
  if (std::isfinite(speed)) charge(SimTime::from_seconds(flops / speed));
}

void OnlineProgram::compute_seconds(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) mpi_fatal("simfab_sleep", "seconds must be finite and >= 0");
  charge(SimTime::from_seconds(seconds));
}

void OnlineProgram::abort_run(int code) {
  std::fflush(stdout);
  std::fprintf(stderr, "simfab: rank %d called MPI_Abort with error code %d; the run stops\n", current_, code);
  std::fflush(stderr);
  std::_Exit(code == 0 ? 1 : code & 0xff);
}

void OnlineProgram::exit_rank(int status) {
  end_rank(status);
  Fiber::yield();  // never resumed: the rank is over (its stack is abandoned, not unwound)
  std::abort();
}

void OnlineProgram::end_rank(int status) {
  Rank& R = rank();
  if (status == 0 && R.mpi == Rank::Mpi::kInitialized) {  // as mpirun: MPI_Init without MPI_Finalize
    std::fflush(stdout);
    std::fprintf(stderr, "simfab: rank %d called MPI_Init but ended without calling MPI_Finalize; the run stops\n",
                 current_);
    std::fflush(stderr);
    std::_Exit(1);
  }
  if (status != 0) {
    std::fflush(stdout);
    std::fprintf(stderr, "simfab: rank %d exited with status %d; the run stops\n", current_, status);
    std::fflush(stderr);
    std::_Exit(status & 0xff);
  }
  R.done = true;
  R.exit_status = 0;
}

const std::string& OnlineProgram::host_name() const { return platform_.host(rank().host).name; }

int OnlineProgram::sample_begin(const char* file, int line, int max_runs) {
  enter("SIMFAB_SAMPLE", true);
  Rank& R = rank();
  Sample& s = R.samples[std::string(file) + ":" + std::to_string(line)];
  if (s.runs < std::max(1, max_runs)) {
    s.start = R.now;
    leave();
    return 1;
  }
  charge(SimTime::ps(s.total.ps() / s.runs));
  leave();
  return 0;
}

void OnlineProgram::sample_end(const char* file, int line) {
  enter("SIMFAB_SAMPLE", true);
  Rank& R = rank();
  Sample& s = R.samples[std::string(file) + ":" + std::to_string(line)];
  s.total = s.total + (R.now - s.start);
  ++s.runs;
  leave();
}

void* OnlineProgram::shared_malloc(size_t bytes) {
  Rank& R = rank();
  const uint32_t k = R.shared_calls++;
  auto& [block, users] = shared_blocks_[k];
  if (!block.ptr) {
    block.ptr = std::calloc(std::max<size_t>(bytes, 1), 1);
    if (!block.ptr) mpi_fatal("simfab_shared_malloc", "out of memory for " + std::to_string(bytes) + " B");
    block.bytes = bytes;
  } else if (bytes > block.bytes) {
    mpi_fatal("simfab_shared_malloc", "call " + std::to_string(k) + " asks " + std::to_string(bytes) +
                                          " B but another rank's same call asked " + std::to_string(block.bytes) +
                                          " B; every rank's k-th call shares one block");
  }
  ++users;
  return block.ptr;
}

void OnlineProgram::shared_free(void* p) {
  for (auto it = shared_blocks_.begin(); it != shared_blocks_.end(); ++it)
    if (it->second.first.ptr == p) {
      if (--it->second.second == 0) {
        std::free(p);
        it->second.first.ptr = nullptr;
      }
      return;
    }
  mpi_fatal("simfab_shared_free", "pointer was not returned by simfab_shared_malloc (or was freed already)");
}

// ---------------------------------------------------------------------------------------------
// Executor callbacks

void OnlineProgram::on_started(OpId op, SimTime t) {
  Op& o = ops_[op];
  if (coll::FragmentRunner::owns(o)) {
    const Rank& R = ranks_[static_cast<size_t>(o.rank)];
    for (uint32_t q : R.colls)
      if (runner_.contains(requests_[q].run, op)) {
        runner_.on_started(*ex_, requests_[q].run, op, t);
        return;
      }
    SIMFAB_CHECK(false, "online: a collective op of no running collective");
  }
  if (o.kind == OpKind::kCalc) return;
  const uint32_t q = op_request_[op];
  SIMFAB_CHECK(q != kNoRequest, "online: an op without a request");
  if (requests_[q].started) return;  // an RMA transfer's second end
  requests_[q].started = true;
  requests_[q].started_at = t;
  poke(requests_[q].owner, t);
}

void OnlineProgram::on_completed(OpId op, SimTime t) {
  Op& o = ops_[op];
  const RankId r = o.rank;
  Rank& R = ranks_[static_cast<size_t>(r)];
  if (coll::FragmentRunner::owns(o)) {
    for (size_t i = 0; i < R.colls.size(); ++i) {
      const uint32_t q = R.colls[i];
      if (!runner_.contains(requests_[q].run, op)) continue;
      if (runner_.on_completed(*ex_, requests_[q].run, op, t)) {
        R.colls.erase(R.colls.begin() + static_cast<std::ptrdiff_t>(i));
        finish_collective(q, t);
      }
      return;
    }
    SIMFAB_CHECK(false, "online: a collective op of no running collective");
  }
  if (o.kind == OpKind::kCalc) {
    SIMFAB_CHECK(R.calc == op, "online: an unexpected calc op");
    R.calc = kNoOp;
    R.calc_done = true;
    R.calc_end = t;
    ops_.release(op);
    poke(r, t);
    return;
  }
  const uint32_t q = op_request_[op];
  SIMFAB_CHECK(q != kNoRequest, "online: an op without a request");
  Request& req = requests_[q];
  if (o.kind == OpKind::kRecv || o.kind == OpKind::kProbe) {
    req.status.MPI_SOURCE = o.peer;  // world rank for now; fill_status translates
    req.status.MPI_TAG = o.tag;
    req.status.simfab_count = static_cast<long long>(o.amount);
    req.status.simfab_cancelled = (o.flags & op_flag::kCancelled) ? 1 : 0;
  }
  op_request_[op] = kNoRequest;
  ops_.release(op);
  if (--req.parts > 0) return;
  req.op = kNoOp;
  complete_request(q, t);
}

void OnlineProgram::finish_collective(uint32_t q, SimTime t) {
  Request& req = requests_[q];
  if (req.coll && !req.coll->ready(req.coll_local)) {  // its messages are done, an input is not
    req.done = t;
    awaiting_data_[req.coll_key].push_back(q);
    return;
  }
  if (req.coll && req.coll->outputs(req.coll_args, req.coll_local)) colls_.erase(req.coll_key);
  req.coll.reset();
  complete_request(q, t);
}

void OnlineProgram::release_awaiting(const std::pair<mpi::CommId, uint32_t>& key, SimTime t) {
  auto it = awaiting_data_.find(key);
  if (it == awaiting_data_.end()) return;
  std::vector<uint32_t> waiting;
  waiting.swap(it->second);
  awaiting_data_.erase(it);
  for (uint32_t q : waiting) finish_collective(q, std::max(t, requests_[q].done));
}

void unpack_prefix(const std::byte* data, int64_t bytes, int64_t count, MPI_Datatype type, void* buf, const char* call) {
  const int64_t size = type_size(type, call);
  if (size == 0 || bytes == 0) return;
  const int64_t whole = std::min(count, bytes / size);
  if (whole > 0) unpack(data, whole, type, buf);
  const int64_t rest = bytes - whole * size;
  if (rest <= 0 || whole >= count) return;
  // A message that ends inside an element (MPI_Get_elements counts its basic elements): pack the
  // element as the buffer holds it, overwrite the received prefix, unpack it back, so the bytes
  // the message does not reach keep their values.
  std::byte* element = static_cast<std::byte*>(buf) + whole * type_extent(type, call);
  std::vector<std::byte> tmp(static_cast<size_t>(size));
  pack(element, 1, type, tmp.data());
  std::memcpy(tmp.data(), data + whole * size, static_cast<size_t>(rest));
  unpack(tmp.data(), 1, type, element);
}

void OnlineProgram::on_matched(OpId recv, uint32_t send_user) {
  if (coll::FragmentRunner::owns(ops_[recv]) || send_user == kNoPayload || (send_user & coll::FragmentRunner::kOpFlag))
    return;
  const uint32_t q = op_request_[recv];
  SIMFAB_CHECK(q != kNoRequest && send_user < payloads_.size(), "online: a match without request or payload");
  Request& req = requests_[q];
  std::vector<std::byte>& data = payloads_[send_user];
  unpack_prefix(data.data(), static_cast<int64_t>(data.size()), req.count, req.type, req.rbuf, req.call);
  data.clear();
  data.shrink_to_fit();
  free_payloads_.push_back(send_user);
}

void OnlineProgram::complete_request(uint32_t index, SimTime t) {
  Request& q = requests_[index];
  q.complete = true;
  q.done = t;
  q.started = true;
  if (q.freed) {
    release_request(index);
    return;
  }
  poke(q.owner, t);
}

std::string OnlineProgram::locate_op(OpId id) const {
  if (id >= op_request_.size() || op_request_[id] == kNoRequest) return {};
  const Request& q = requests_[op_request_[id]];
  return "rank " + std::to_string(q.owner) + ": " + (q.call ? q.call : "MPI");
}

std::string OnlineProgram::describe_blocked(RankId r) const {
  const Rank& R = ranks_[static_cast<size_t>(r)];
  if (!R.blocked_in.empty()) return "in " + R.blocked_in;
  return "not in an MPI call";
}

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
  return R.spins > kSpinLimit;
}

bool OnlineProgram::test(MPI_Request* r, MPI_Status* status, const char* call) {
  if (*r != MPI_REQUEST_NULL) request_of(*r, call);
  if (!done(*r)) {
    if (spinning()) {  // nothing but polling: wait for it (a deadlock is then reported as one)
      wait(r, status, call);
      return true;
    }
    charge(options_.poll_cost);
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
  if (!all() && !spinning()) {
    charge(options_.poll_cost);
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
  if (!blocking && active_done(true) < 0 && !spinning()) {
    charge(options_.poll_cost);
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
  if (q.complete || (q.persistent && !q.active)) release_request(i);
  else q.freed = true;
  *r = MPI_REQUEST_NULL;
}

bool OnlineProgram::request_status(MPI_Request r, MPI_Status* status, const char* call) {
  if (r == MPI_REQUEST_NULL) {
    fill_status(status, Request{});
    return true;
  }
  const Request& q = request_of(r, call);
  if (!done(r)) return false;
  fill_status(status, q);
  return true;
}

void OnlineProgram::cancel(MPI_Request* r, const char* call) {
  Request& q = request_of(*r, call);
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
    default: return s + "a request";
  }
  s += q.peer == kAnySource ? std::string("MPI_ANY_SOURCE") : "rank " + std::to_string(q.peer);
  s += " (tag " + (q.tag == kAnyTag ? std::string("MPI_ANY_TAG") : std::to_string(q.tag)) + ", " + describe_comm(q.comm) + ")";
  return s;
}

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
  bool found = look();
  if (!found && spinning()) {  // nothing but polling: a blocking probe (deadlocks are reported)
    probe(source, tag, c, status, call);
    return true;
  }
  if (!found) {
    charge(options_.poll_cost);
    found = look();
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
      if (!inst) inst = std::make_shared<CollInstance>(a, cr.size);
      inst->deposit(a, cr.rank);
      req.coll = inst;
      release_awaiting(req.coll_key, rank().now);
      const TiAction act = timing_action(a, cr.rank, cr.size, nonblocking, counts_);
      frag_.clear();
      bool& smp = smp_ready_[{c, current_}];
      build_ti_collective(frag_, act, cr.rank, cr.size, counts_, SimTime::zero(), choice_,
                          choice_.uses_smp_setup() ? &smp : nullptr);
      rank().colls.push_back(i);
      requests_[i].run = runner_.start(*ex_, frag_, current_, tag, cr.coll_context, rank().now,
                                       id == mpi::kCommWorld ? nullptr : &cr.comm->group());
    });
  }
  MPI_Request h = static_cast<MPI_Request>(i + 1);
  if (nonblocking) return h;
  block([this, i] { return requests_[i].complete; }, std::string(call) + " on " + describe_comm(c));
  advance_to(requests_[i].done);
  consume(&h, MPI_STATUS_IGNORE);
  return MPI_REQUEST_NULL;
}

// ---------------------------------------------------------------------------------------------
// Communicators and groups

RankId OnlineProgram::CommRef::world(int32_t l) const {
  if (l < 0) return l;
  if (!comm) return self;
  return comm->id() == mpi::kCommWorld ? l : comm->group().world_rank(l);
}

int32_t OnlineProgram::CommRef::local(RankId w) const {
  if (!comm) return 0;
  return comm->id() == mpi::kCommWorld ? w : comm->group().local_rank(w);
}

OnlineProgram::CommRef OnlineProgram::comm(MPI_Comm c, const char* call) const {
  CommRef cr;
  if (c == MPI_COMM_NULL) mpi_fatal(call, "the communicator is MPI_COMM_NULL");
  if (c == MPI_COMM_SELF) {
    cr.self = current_;
    cr.p2p_context = kSelfContext;
    cr.coll_context = kSelfContext + 1;
    return cr;
  }
  const mpi::Comm* m = c == MPI_COMM_WORLD || c >= kFirstTableHandle ? comms_.find(comm_id_of(c)) : nullptr;
  if (!m) mpi_fatal(call, "invalid communicator " + std::to_string(c) + " (not created, or freed)");
  const int32_t local = m->id() == mpi::kCommWorld ? current_ : m->group().local_rank(current_);
  if (local == mpi::kUndefined)
    mpi_fatal(call, "rank " + std::to_string(current_) + " is not a member of communicator " + std::to_string(c));
  if (m->id() != mpi::kCommWorld && comms_.freed_by(m->id(), local))
    mpi_fatal(call, "communicator " + std::to_string(c) + " was freed by this rank");
  cr.comm = m;
  cr.size = m->size();
  cr.rank = local;
  cr.p2p_context = m->p2p_context();
  cr.coll_context = m->collective_context();
  return cr;
}

std::string OnlineProgram::describe_comm(MPI_Comm c) const {
  if (c == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (c == MPI_COMM_SELF) return "MPI_COMM_SELF";
  auto it = comm_names_.find(c);
  if (it != comm_names_.end()) return "communicator " + it->second;
  return "communicator " + std::to_string(c);
}

MPI_Comm OnlineProgram::comm_create(MPI_Comm parent, mpi::CreationKind kind, int color, int key,
                                    std::span<const int32_t> group, const char* call) {
  const CommRef p = comm(parent, call);
  if (!p.comm) mpi_fatal(call, "creating communicators from MPI_COMM_SELF is not supported by simfab");
  if (kind == mpi::CreationKind::kSplit && color < 0 && color != MPI_UNDEFINED)
    mpi_fatal(call, "colour " + std::to_string(color) + " must be >= 0 or MPI_UNDEFINED");
  const mpi::CommId pid = p.comm->id();
  Rank& R = rank();
  const uint32_t k = R.creations[parent]++;
  const int colour = kind == mpi::CreationKind::kSplit ? color : 0;
  mpi::CommId new_id = mpi::kCommNull;
  if (colour != MPI_UNDEFINED) {
    auto [it, fresh] = creation_ids_.emplace(std::make_tuple(pid, k, colour), next_comm_id_);
    if (fresh) ++next_comm_id_;
    new_id = it->second;
  }
  mpi::CreationArgs args;
  switch (kind) {
    case mpi::CreationKind::kDup: args = mpi::CreationArgs::dup(new_id); break;
    case mpi::CreationKind::kSplit: args = mpi::CreationArgs::split(colour == MPI_UNDEFINED ? mpi::kUndefined : colour, key, new_id); break;
    case mpi::CreationKind::kCreate: args = mpi::CreationArgs::create(group, new_id); break;
  }
  uint32_t i = 0;
  on_kernel_stack([&] {
    mpi::CreationTicket ticket;
    try {
      ticket = comms_.arrive(pid, p.rank, args);
    } catch (const mpi::MpiCallError& e) {
      mpi_fatal(call, e.detail());
    }
    if (ticket.completed) recheck_blocked();
    // Its cost: the collective the MPI libraries run to agree on the new communicator.
    frag_.clear();
    const TiKind tk = kind == mpi::CreationKind::kDup     ? TiKind::kCommDup
                      : kind == mpi::CreationKind::kSplit ? TiKind::kCommSplit
                                                          : TiKind::kCommCreate;
    build_creation_fragment(frag_, tk, p.rank, p.size);
    const int32_t tag = comms_.next_collective_tag(pid, p.rank);
    i = new_request(Request::Kind::kColl);
    requests_[i].coll_args.call = call;
    R.colls.push_back(i);
    requests_[i].run = runner_.start(*ex_, frag_, current_, tag, p.coll_context, R.now,
                                     pid == mpi::kCommWorld ? nullptr : &p.comm->group());
  });
  block([this, i, pid, k] { return requests_[i].complete && comms_.creation_complete(pid, k); },
        std::string(call) + " on " + describe_comm(parent));
  advance_to(requests_[i].done);
  MPI_Request h = static_cast<MPI_Request>(i + 1);
  consume(&h, MPI_STATUS_IGNORE);
  return new_id == mpi::kCommNull || !comms_.find(new_id) || !comms_.find(new_id)->group().contains(current_)
             ? MPI_COMM_NULL
             : handle_of(new_id);
}

void OnlineProgram::comm_free(MPI_Comm* c, const char* call) {
  if (*c == MPI_COMM_WORLD || *c == MPI_COMM_SELF) mpi_fatal(call, "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
  const CommRef cr = comm(*c, call);
  smp_ready_.erase({*c, current_});
  try {
    if (comms_.free(cr.comm->id(), cr.rank)) {
      carts_.erase(*c);
      comm_names_.erase(*c);
    }
  } catch (const mpi::MpiCallError& e) {
    mpi_fatal(call, e.detail());
  }
  *c = MPI_COMM_NULL;
}

int OnlineProgram::comm_compare(MPI_Comm a, MPI_Comm b, const char* call) const {
  if (a == b) {
    comm(a, call);
    return MPI_IDENT;
  }
  const CommRef ca = comm(a, call);
  const CommRef cb = comm(b, call);
  if (!ca.comm || !cb.comm) return ca.size == cb.size && ca.size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL;
  switch (mpi::compare(ca.comm->group(), cb.comm->group())) {
    case mpi::Comparison::kIdent: return MPI_CONGRUENT;
    case mpi::Comparison::kSimilar: return MPI_SIMILAR;
    default: return MPI_UNEQUAL;
  }
}

MPI_Group OnlineProgram::add_group(mpi::Group g) {
  groups_.push_back(std::make_unique<mpi::Group>(std::move(g)));
  return static_cast<MPI_Group>(groups_.size() + 1);
}

MPI_Group OnlineProgram::group_of(MPI_Comm c, const char* call) {
  const CommRef cr = comm(c, call);
  if (!cr.comm) return add_group(mpi::Group::strided(current_, 1, 1));
  return add_group(cr.comm->group());
}

const mpi::Group& OnlineProgram::group(MPI_Group g, const char* call) const {
  static const mpi::Group empty;
  if (g == MPI_GROUP_EMPTY) return empty;
  const int64_t i = static_cast<int64_t>(g) - 2;
  if (i < 0 || i >= static_cast<int64_t>(groups_.size()) || !groups_[static_cast<size_t>(i)])
    mpi_fatal(call, "invalid group " + std::to_string(g) + " (not created, or freed)");
  return *groups_[static_cast<size_t>(i)];
}

void OnlineProgram::free_group(MPI_Group* g, const char* call) {
  if (*g == MPI_GROUP_EMPTY) {
    *g = MPI_GROUP_NULL;
    return;
  }
  group(*g, call);
  groups_[static_cast<size_t>(*g - 2)].reset();
  *g = MPI_GROUP_NULL;
}

void OnlineProgram::set_comm_name(MPI_Comm c, std::string name, const char* call) {
  comm(c, call);
  comm_names_[c] = std::move(name);
}

std::string OnlineProgram::comm_name(MPI_Comm c, const char* call) const {
  comm(c, call);
  auto it = comm_names_.find(c);
  if (it != comm_names_.end()) return it->second;
  return c == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : c == MPI_COMM_SELF ? "MPI_COMM_SELF" : "";
}

void OnlineProgram::set_cart(MPI_Comm c, Cart cart) { carts_[c] = std::move(cart); }

const OnlineProgram::Cart& OnlineProgram::cart(MPI_Comm c, const char* call) const {
  comm(c, call);
  auto it = carts_.find(c);
  if (it == carts_.end()) mpi_fatal(call, describe_comm(c) + " has no Cartesian topology (MPI_Cart_create)");
  return it->second;
}

MPI_Request OnlineProgram::rma_transfer(RankId from, RankId to, Bytes bytes) {
  const uint32_t i = new_request(Request::Kind::kSend);
  Request& q = requests_[i];
  q.parts = 2;
  q.active = true;
  const int32_t tag = static_cast<int32_t>(rma_tag_++ & 0x7fffffffu);
  const OpId send = issue(OpKind::kSend, bytes, to, tag, kRmaContext, kNoPayload, op_flag::kBufferedMode);
  ops_[send].rank = from;
  const OpId recv = issue(OpKind::kRecv, bytes, from, tag, kRmaContext, i, 0);
  ops_[recv].rank = to;
  q.op = send;
  op_request_[send] = i;
  op_request_[recv] = i;
  on_kernel_stack([&] {
    ex_->ready(recv, rank().now);
    ex_->ready(send, rank().now);
  });
  return static_cast<MPI_Request>(i + 1);
}

void OnlineProgram::wait_for(std::function<bool()> cond, std::string what) { block(std::move(cond), std::move(what)); }

void OnlineProgram::recheck_blocked() {
  const SimTime t = current_ >= 0 ? rank().now : ex_->engine().now();
  for (RankId r = 0; r < num_ranks(); ++r)
    if (r != current_) poke(r, t);
}

size_t OnlineProgram::memory_bytes() const {
  size_t b = ranks_.size() * (sizeof(Rank) + options_.stack_bytes) + requests_.size() * sizeof(Request);
  for (const auto& p : payloads_) b += p.capacity();
  return b + runner_.memory_bytes() + comms_.memory_bytes();
}

}  // namespace simfab::online
