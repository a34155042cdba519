#include "online/online_program.hpp"

#include <time.h>

#include <algorithm>
#include <cstring>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "mpi/call_error.hpp"
#include "online/datatype.hpp"
#include "online/flush_output.hpp"
#include "online/fortran/fortran_support.hpp"
#include "online/mpi_fatal.hpp"
#include "online/online_program_detail.hpp"
#include "replay/ti_program.hpp"

namespace simfab::online {

using namespace detail;

namespace {

OnlineProgram* g_active = nullptr;

std::string describe_current() {
  if (!g_active || g_active->me() < 0) return {};
  return "rank " + std::to_string(g_active->me());
}

}  // namespace

OnlineProgram* OnlineProgram::active() { return g_active; }

OnlineProgram::OnlineProgram(ProgramImage& image, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
                             coll::CollChoice choice, OnlineOptions options)
    : image_(image), ops_(ops), platform_(platform), rank_host_(std::move(rank_host)), choice_(choice),
      options_(std::move(options)), ranks_(rank_host_.size()), runner_(ops),
      comms_(static_cast<int32_t>(rank_host_.size())) {
  for (size_t r = 0; r < ranks_.size(); ++r) ranks_[r].host = rank_host_[r];
  const std::string& path = image_.path();
  program_name_ = path.substr(path.find_last_of('/') + 1);
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
  if (options_.tag_output) tagger_ = std::make_unique<OutputTagger>();
  ex.engine().set_handler(EventKind::kFrontEnd, this);
  if (options_.pooled_stacks) stacks_ = std::make_unique<StackPool>(ranks_.size(), options_.stack_bytes);
  for (RankId r = 0; r < num_ranks(); ++r) {
    Rank& R = ranks_[static_cast<size_t>(r)];
    R.args = options_.argv;
    for (std::string& a : R.args) R.argv.push_back(a.data());
    R.argv.push_back(nullptr);
    auto body = [this, r] { run_rank(r); };
    std::string name = "rank " + std::to_string(r);
    R.fiber = stacks_ ? std::make_unique<Fiber>(*stacks_, static_cast<size_t>(r), body, std::move(name))
                      : std::make_unique<Fiber>(options_.stack_bytes, body, std::move(name));
    R.wake_scheduled = true;
    ex.engine().schedule(SimTime::zero(), EventKind::kFrontEnd, static_cast<uint64_t>(r));
  }
}

void OnlineProgram::run_rank(RankId r) {
  Rank& R = ranks_[static_cast<size_t>(r)];
  const ProgramImage::Main main = image_.load_copy(r, static_cast<int>(R.args.size()), R.argv.data());
  R.fortran = {image_.symbol(r, kFortranBottomSymbol), image_.symbol(r, kFortranInPlaceSymbol),
               image_.symbol(r, kFortranStatusIgnoreSymbol), image_.symbol(r, kFortranStatusesIgnoreSymbol)};
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
  if (R.done || R.parked) return;
  current_ = r;
  R.now = std::max(R.now, t);  // a rank's clock may be ahead of the engine's (poll_sleep)
  R.cpu_mark = cpu_seconds();
  R.libc.restore();
  if (tagger_) tagger_->before_slice();
  bool finished = R.fiber->resume();
  while (!finished && kernel_work_) {  // the rank asked for kernel work on the main stack
    const FunctionRef<void()> work = *kernel_work_;
    kernel_work_.reset();
    R.libc.save();
    work();
    R.libc.restore();
    finished = R.fiber->resume();
  }
  R.libc.save();
  if (tagger_) tagger_->after_slice(static_cast<int>(r));
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

void OnlineProgram::block(std::function<bool()> until, std::string what, Wait wait) {
  // A wake is scheduled when the condition held; another rank may have run in between (e.g.
  // taken the lock this one waits for), so check again after every wake.
  while (!until()) {
    Rank& R = rank();
    if (wait == Wait::kOnOthers && failures_.any()) {  // parked (see Failures in the header)
      R.parked = true;
      R.blocked_in = what;
      leave_rank();
    }
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

void OnlineProgram::poll_sleep(SimTime d) {
  Rank& R = rank();
  const SimTime t = R.now + d;
  if (ex_->engine().next_time() > t) {
    R.now = t;
    return;
  }
  advance_to(t);
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

void OnlineProgram::charge(SimTime duration, uint8_t flags, bool program_code) {
  if (duration <= SimTime::zero()) return;
  Rank& R = rank();
  if (options_.lb.enabled && !(flags & op_flag::kDelay))
    R.lb_flops += duration.seconds() * platform_.host(R.host).speed_flops;
  ex_->set_task(current_, ex_->call_sites().task_before(current_));
  const uint64_t work = (flags & op_flag::kDelay) || !program_code ? static_cast<uint64_t>(duration.ps())
                                                : ex_->computation(current_, static_cast<uint64_t>(duration.ps()));
  const OpId id = issue(OpKind::kCalc, work, 0, 0, 0, kCalcUser, flags);
  R.calc = id;
  R.calc_done = false;
  on_kernel_stack([&] { ex_->ready(id, R.now); });
  block([&R] { return R.calc_done; }, "computing", Wait::kOwnWork);
  advance_to(R.calc_end);
}

void OnlineProgram::enter(const char* call, bool any_time, const void* caller) {
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
  CallSites* sites = ex_ ? &ex_->call_sites() : nullptr;
  if (const void* fortran = FortranCallSite::take()) caller = fortran;
  const int64_t offset = caller && sites ? image_.offset_in(current_, caller) : -1;
  if (offset >= 0) sites->at_site(current_, sites->site_at(program_name_, static_cast<uint64_t>(offset)));
  if (options_.measured) {
    // The thread CPU clock is a system call here (about 1.4 us on a VM): its own cost, measured
    // once (clock_cost_s_), is not the program's.
    const double burst = cpu_seconds() - R.cpu_mark - clock_cost_s_;
    if (burst >= options_.cpu_threshold_s) {  // SMPI's smpi/cpu-threshold
      R.spin_streak = 0;
      charge(scaled(burst));
    }
  }
  if (offset >= 0) sites->called(current_);  // a nested call (from simfab's own code) is not a site
  if (ex_ && ex_->activity()) report_enter(call);
}

void OnlineProgram::leave() {
  if (current_ < 0) return;
  rank().cpu_mark = cpu_seconds();
  if (ex_ && ex_->activity()) report_leave();
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
  charge(SimTime::from_seconds(seconds), op_flag::kDelay);
}

int OnlineProgram::pstate_count() const {
  return ex_->cpus() ? ex_->cpus()->pstates(rank().host) : 1;
}

int OnlineProgram::pstate() const {
  return ex_->cpus() ? ex_->cpus()->pstate(rank().host) : 0;
}

void OnlineProgram::set_pstate(int p) {
  const int n = pstate_count();
  if (p < 0 || p >= n)
    mpi_fatal("simfab_set_pstate", "pstate " + std::to_string(p) + " is out of range: host '" +
                                       platform_.host(rank().host).name + "' has " + std::to_string(n) + " pstate" +
                                       (n == 1 ? "" : "s") + " (0 to " + std::to_string(n - 1) + ")");
  sync_engine();
  const HostId h = rank().host;
  on_kernel_stack([&] { ex_->cpus()->set_pstate(h, p); });
}

void OnlineProgram::switch_host(const char* host, bool on, const char* call) {
  if (!host) mpi_fatal(call, "host is NULL");
  const std::optional<HostId> h = platform_.find_host(host);
  if (!h) mpi_fatal(call, std::string("no host '") + host + "' in the platform");
  sync_engine();
  std::string why;
  on_kernel_stack([&] { why = ex_->switch_host(*h, on, rank().now); });
  if (!why.empty()) mpi_fatal(call, why);
}

void OnlineProgram::sync_engine() {
  Rank& R = rank();
  if (R.now <= ex_->engine().now()) return;
  R.wake_scheduled = true;
  ex_->engine().schedule(R.now, EventKind::kFrontEnd, static_cast<uint64_t>(current_));
  Fiber::yield();
}

void OnlineProgram::switch_model(const char* changes) {
  const std::string text = changes;
  const RankId r = current_;
  const SimTime t = rank().now;
  on_kernel_stack([&] { ex_->switch_point(r, t, text, [r] { return "rank " + std::to_string(r) + ": simfab_switch"; }); });
}

void OnlineProgram::pcontrol(int level) {
  const RankId r = current_;
  const SimTime t = rank().now;
  on_kernel_stack([&] {
    ex_->pcontrol(r, t, level, [r, level] {
      return "rank " + std::to_string(r) + ": MPI_Pcontrol(" + std::to_string(level) + ")";
    });
  });
}

void OnlineProgram::migrate_point() {
  if (!options_.lb.enabled) return;
  if (++rank().lb_points % static_cast<uint64_t>(options_.lb.every) != 0) return;
  sync_engine();
  const uint64_t generation = lb_generation_;
  if (++lb_arrived_ < static_cast<int>(ranks_.size()))
    block([this, generation] { return lb_generation_ != generation; }, "simfab_migrate (waiting for every rank)");
  else
    on_kernel_stack([&] { rebalance(); });
  advance_to(rank().now + rank().lb_delay);
}

void OnlineProgram::rebalance() {
  lb_arrived_ = 0;
  ++lb_generation_;
  std::vector<double> loads(ranks_.size());
  std::vector<HostId> hosts(ranks_.size());
  for (size_t r = 0; r < ranks_.size(); ++r) {
    loads[r] = ranks_[r].lb_flops;
    hosts[r] = ranks_[r].host;
  }
  const std::vector<HostId> next = energy::greedy_lb(loads, hosts, platform_);
  const SimTime now = ex_->engine().now();
  for (size_t r = 0; r < ranks_.size(); ++r) {
    Rank& R = ranks_[r];
    R.lb_delay = energy::migration_time(platform_, R.host, next[r], options_.lb.rank_memory);
    R.lb_flops = 0;
    if (next[r] != R.host) {
      ++migrations_;
      ex_->migrate(static_cast<RankId>(r), next[r]);
      R.host = next[r];
    }
    if (static_cast<RankId>(r) != current_) poke(static_cast<RankId>(r), now);
  }
}

void OnlineProgram::abort_run(int code) {
  rank().done = true;
  failures_.add(current_, RankFailures::Kind::kAbort, code);
  leave_rank();
}

void OnlineProgram::exit_rank(int status) {
  end_rank(status);
  leave_rank();
}

void OnlineProgram::leave_rank() {
  Fiber::yield();  // never resumed: resume() skips a rank that is done or parked
  std::abort();
}

void OnlineProgram::end_rank(int status) {
  Rank& R = rank();
  R.done = true;
  R.exit_status = status;
  if (status != 0) failures_.add(current_, RankFailures::Kind::kExit, status);
  else if (R.mpi == Rank::Mpi::kInitialized)  // as mpirun: MPI_Init without MPI_Finalize
    failures_.add(current_, RankFailures::Kind::kNoFinalize, 0);
}

void OnlineProgram::on_engine_done() {
  if (failures_.any()) stop_failed_run();
}

void OnlineProgram::stop_failed_run() {
  flush_program_output();
  tagger_.reset();  // the ranks' lines it holds, tagged; stdout and stderr restored
  std::fprintf(stderr, "%s\n", failures_.report().c_str());
  std::fflush(stderr);
  remove_pending_outputs();
  std::_Exit(failures_.exit_status());
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
