#include "hybrid_state.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace simfab::hybrid {

namespace {

[[noreturn]] void fatal(const std::string& what) {
  std::fprintf(stderr, "simfab-hybrid: %s\n", what.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 2);
  std::abort();
}

// The sizes of TI's datatypes that simfab's replay knows (replay/ti_trace.hpp, DATATYPES).
int32_t ti_dt_of_size(int size) {
  switch (size) {
    case 1: return 6;    // BYTE
    case 2: return 3;    // SHORT
    case 4: return 1;    // INT
    case 8: return 0;    // DOUBLE
    case 16: return 14;  // LONG_DOUBLE
    default: return -1;
  }
}

}  // namespace

HybridState& state() {
  static HybridState s;
  return s;
}

TiCount ti_count(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  const int64_t bytes = static_cast<int64_t>(count) * size;
  const int32_t dt = ti_dt_of_size(size);
  if (dt < 0) return {bytes, 6, bytes};
  return {count, dt, bytes};
}

void HybridState::begin() {
  int world = 0, me = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &world);
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 2)
    fatal("hybrid execution needs N + 1 processes (N ranks and the simulator), got " + std::to_string(world) +
          ": run `simfab hybrid -np N -- PROGRAM` or `mpirun -np N+1 -x LD_PRELOAD=libsimfab-hybrid.so PROGRAM`");
  sim_ = world - 1;
  PMPI_Comm_split(MPI_COMM_WORLD, 0, me, &app_);  // the simulator gives MPI_UNDEFINED
  PMPI_Comm_dup(MPI_COMM_WORLD, &chan_);
  PMPI_Recv(&setup_, sizeof setup_, MPI_BYTE, sim_, kSetup, chan_, MPI_STATUS_IGNORE);
  rank_ = me;
  size_ = world - 1;
  rank_prefix_ = std::to_string(rank_) + " ";
  active_ = true;
  buf_.reserve(1 << 16);
  line("init").end_line();
  last_exit_ns_ = now_ns();
}

void HybridState::finish() {
  if (!active_) return;
  line("finalize").end_line();
  send_stream(kLines);
  PMPI_Send(nullptr, 0, MPI_BYTE, sim_, kEnd, chan_);
  active_ = false;
  if (test_pauses_ > 0)  // the test's evidence that the pauses happened (tests/hybrid, R9)
    std::fprintf(stderr, "simfab-hybrid: rank %d paused %ld times (SIMFAB_HYBRID_TEST_DELAY_US)\n", rank_, test_pauses_);
  for (Deferred& d : deferred_) PMPI_Wait(&d.req, MPI_STATUS_IGNORE);
  deferred_.clear();
}

HybridState& HybridState::line(std::string_view action) {
  buf_ += rank_prefix_;
  buf_ += action;
  return *this;
}

template <class T>
HybridState& HybridState::number(T v) {
  char tmp[40];
  tmp[0] = ' ';
  const auto r = std::to_chars(tmp + 1, tmp + sizeof tmp, v);  // shortest exact text
  buf_.append(tmp, r.ptr);
  return *this;
}

HybridState& HybridState::arg(int64_t v) { return number(v); }
HybridState& HybridState::argd(double v) { return number(v); }

void HybridState::end_line(int32_t comm) {
  if (comm > 0) {
    buf_ += " comm=";
    char tmp[16];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, comm);
    buf_.append(tmp, r.ptr);
  }
  buf_ += '\n';
  if (buf_.size() >= (1 << 16)) send_stream(kLines);
}

void HybridState::send_stream(int tag) {
  // SIMFAB_HYBRID_TEST_DELAY_US: a pause in the event path (tests/hybrid: intrusion freedom).
  static const long delay_us = [] {
    const char* v = std::getenv("SIMFAB_HYBRID_TEST_DELAY_US");
    return v ? std::strtol(v, nullptr, 10) : 0L;
  }();
  if (delay_us > 0) {
    const timespec pause{delay_us / 1000000, (delay_us % 1000000) * 1000};
    nanosleep(&pause, nullptr);
    ++test_pauses_;
  }
  PMPI_Send(buf_.data(), static_cast<int>(buf_.size()), MPI_CHAR, sim_, tag, chan_);
  buf_.clear();
}

void HybridState::flush() {
  if (!buf_.empty()) send_stream(kLines);
}

void HybridState::about_to_block(const char* call) {
  // One message: the pending lines, a NUL, the call's name (hybrid_protocol.hpp, kBlocked).
  buf_ += '\0';
  buf_ += call;
  send_stream(kBlocked);
}

double HybridState::wtime() {
  line("wtime").end_line();
  send_stream(kWtimeLines);
  double t = 0;
  PMPI_Recv(&t, 1, MPI_DOUBLE, sim_, kWtime, chan_, MPI_STATUS_IGNORE);
  return t;
}

void HybridState::enter() {
  if (!deferred_.empty()) progress_deferred();
  const int64_t elapsed = now_ns() - last_exit_ns_;
  if (elapsed > 0) line("compute").argd(static_cast<double>(elapsed) * 1e-9 * setup_.flops_per_s).end_line();
}

int32_t HybridState::comm_id(MPI_Comm c) const {
  if (c == app_ || c == MPI_COMM_WORLD) return 0;
  const auto it = comms_.find(c);
  return it == comms_.end() ? -1 : it->second;
}

namespace {

// FNV-1a over the words, folded into [1, 2^30).
int32_t comm_hash(std::initializer_list<int64_t> words) {
  uint64_t h = 1469598103934665603ull;
  for (int64_t w : words)
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<uint64_t>(w >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  return static_cast<int32_t>(1 + h % ((1u << 30) - 1));
}

}  // namespace

int32_t HybridState::creating(MPI_Comm parent, int color, int key, bool dup) {
  const int32_t pid = comm_id(parent);
  if (pid < 0) return -1;
  const uint32_t seq = next_creation(pid);
  if (dup) {
    const int32_t id = comm_hash({pid, seq, -1});
    line("comm_dup").arg(id).end_line(pid);
    return id;
  }
  if (color == MPI_UNDEFINED) {
    line("comm_split").arg(-333).arg(key).arg(-1).end_line(pid);
    return -1;
  }
  const int32_t id = comm_hash({pid, seq, color});
  line("comm_split").arg(color).arg(key).arg(id).end_line(pid);
  return id;
}

int32_t HybridState::creating_group(MPI_Comm parent, MPI_Group group) {
  const int32_t pid = comm_id(parent);
  if (pid < 0) return -1;
  const uint32_t seq = next_creation(pid);
  int n = 0, me = MPI_UNDEFINED;
  PMPI_Group_size(group, &n);
  PMPI_Group_rank(group, &me);
  MPI_Group pg;
  PMPI_Comm_group(parent, &pg);
  std::vector<int> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = i;
  PMPI_Group_translate_ranks(group, n, in.data(), pg, out.data());
  PMPI_Group_free(&pg);
  uint64_t h = 0;  // the group itself enters the id: members of different groups must not agree
  for (int r : out) h = h * 1000003 + static_cast<uint64_t>(static_cast<uint32_t>(r));
  const int32_t id = comm_hash({pid, seq, static_cast<int64_t>(h)});
  line("comm_create").arg(me == MPI_UNDEFINED ? -1 : id).arg(n);
  for (int r : out) arg(r);
  end_line(pid);
  return me == MPI_UNDEFINED ? -1 : id;
}

void HybridState::created(MPI_Comm newcomm, int32_t id) {
  if (newcomm != MPI_COMM_NULL) comms_[newcomm] = id;
}

void HybridState::freed(MPI_Comm c) {
  const auto it = comms_.find(c);
  if (it == comms_.end()) return;
  if (it->second > 0) line("comm_free").arg(it->second).end_line();
  comms_.erase(it);
}

RequestKey* HybridState::request(MPI_Request r) {
  const auto it = requests_.find(r);
  return it == requests_.end() ? nullptr : &it->second;
}

void HybridState::completed(MPI_Request r) {
  const auto it = requests_.find(r);
  if (it == requests_.end()) return;
  if (is_floating(r)) {
    write_waitany();
    consumed(r);
    return;
  }
  const RequestKey& k = it->second;
  if (k.comm >= 0) line("wait").arg(k.src).arg(k.dst).arg(k.tag).end_line(k.comm);
  if (!k.persistent) requests_.erase(it);
}

bool HybridState::is_floating(MPI_Request r) const {
  return std::any_of(floating_.begin(), floating_.end(), [&](const Floating& f) { return f.req == r && !f.done; });
}

void HybridState::write_waitany() {
  // One communicator: `waitany <n> (<src> <dst> <tag>) x n comm=<id>`; several: any request.
  int32_t comm = -2;
  for (const Floating& f : floating_) comm = comm == -2 || comm == f.key.comm ? f.key.comm : -3;
  if (comm < 0) {
    line("waitany").end_line();
    return;
  }
  line("waitany").arg(static_cast<int64_t>(floating_.size()));
  for (const Floating& f : floating_) arg(f.key.src).arg(f.key.dst).arg(f.key.tag);
  end_line(comm);
}

void HybridState::waiting_any(const MPI_Request* reqs, int n) {
  for (int i = 0; i < n; ++i) {
    const auto it = requests_.find(reqs[i]);
    if (it == requests_.end() || it->second.comm < 0 || is_floating(reqs[i])) continue;
    floating_.push_back(Floating{reqs[i], it->second, false});
  }
  if (!floating_.empty()) write_waitany();
}

void HybridState::consumed(MPI_Request r) {
  for (Floating& f : floating_)
    if (f.req == r && !f.done) {
      f.done = true;
      break;
    }
  if (std::all_of(floating_.begin(), floating_.end(), [](const Floating& f) { return f.done; })) floating_.clear();
  const auto it = requests_.find(r);
  if (it != requests_.end() && !it->second.persistent) requests_.erase(it);
}

void HybridState::defer(MPI_Request real, std::vector<char> copy) {
  deferred_.push_back(Deferred{real, std::move(copy)});
}

void HybridState::progress_deferred() {
  size_t kept = 0;
  for (size_t i = 0; i < deferred_.size(); ++i) {
    int done = 0;
    PMPI_Test(&deferred_[i].req, &done, MPI_STATUS_IGNORE);
    if (done) continue;
    if (kept != i) deferred_[kept] = std::move(deferred_[i]);  // (a self-move would free the copy)
    ++kept;
  }
  deferred_.resize(kept);
}

void* fortran_comm(void* p) {
  static MPI_Fint world = PMPI_Comm_c2f(MPI_COMM_WORLD);
  static MPI_Fint app = MPI_Fint(-1);
  if (!state().active() || *static_cast<MPI_Fint*>(p) != world) return p;
  if (app == MPI_Fint(-1)) app = PMPI_Comm_c2f(state().app());
  return &app;
}

void* fortran_next(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) fatal(std::string("the MPI library has no Fortran binding ") + name);
  return f;
}

}  // namespace simfab::hybrid
