// Matched probes (MPI-3.1 §3.8.2): MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv.
//
// A matched probe must hand its caller the very message it found, which no later receive may take.
// simfab claims it at once: the probe learns the message's source, tag and size, and a receive of
// exactly that many bytes (MPI_BYTE) from that source with that tag is posted right away, into a
// buffer of the MPI_Message. Messages from one source with one tag on one communicator are matched
// in order (non-overtaking), and the probe found the earliest unmatched one that fits its pattern,
// so that receive takes the probed message and no other. MPI_Mrecv waits for it and unpacks the
// bytes into the user's buffer with the user's datatype (a message longer than the buffer is an
// MPI_ERR_TRUNCATE error, as for MPI_Recv). MPI_Imrecv returns that receive's request, and the
// wait or test that completes it unpacks the bytes (OnlineProgram::on_consume): the user's buffer
// is written at completion, as MPI allows, and not before.
//
// Timing: the receive starts at the probe, not at MPI_Mrecv/MPI_Imrecv. For a message already
// delivered (the eager protocol) that changes nothing; for a rendezvous-sized one the transfer
// starts earlier than an MPI library that waits for MPI_Mrecv would start it.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "online/abi/abi_call.hpp"
#include "online/type_queries.hpp"

using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

struct Matched {
  int owner = -1;  // world rank that probed it; -1: slot free
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<char> bytes;
};

std::vector<Matched> g_messages;  // MPI_Message h >= 2 is g_messages[h - 2]

MPI_Message claim(Call& c, MPI_Comm comm, const MPI_Status& found, MPI_Status* status) {
  if (found.MPI_SOURCE == MPI_PROC_NULL) {
    if (status != MPI_STATUS_IGNORE) *status = found;
    return MPI_MESSAGE_NO_PROC;
  }
  size_t slot = 0;
  while (slot < g_messages.size() && g_messages[slot].owner >= 0) ++slot;
  if (slot == g_messages.size()) g_messages.emplace_back();
  g_messages[slot].owner = c->me();
  g_messages[slot].comm = comm;
  g_messages[slot].bytes.assign(static_cast<size_t>(found.simfab_count), '\0');
  // By index, not reference: should the call let other ranks run, they may grow g_messages.
  const MPI_Request request = c->irecv(g_messages[slot].bytes.data(), static_cast<int>(found.simfab_count), MPI_BYTE,
                                       found.MPI_SOURCE, found.MPI_TAG, comm, c.name());
  g_messages[slot].request = request;
  if (status != MPI_STATUS_IGNORE) *status = found;
  return static_cast<MPI_Message>(slot + 2);
}

// MPI_MESSAGE_NO_PROC (a probe of MPI_PROC_NULL): the receive is empty. True if *message is it.
bool no_proc(MPI_Message* message, MPI_Status* status, const char* call) {
  require_ptr(message, "message", call);
  if (*message != MPI_MESSAGE_NO_PROC) return false;
  if (status != MPI_STATUS_IGNORE) {
    *status = MPI_Status{};
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
  }
  *message = MPI_MESSAGE_NULL;
  return true;
}

// The slot of a message the running rank matched.
size_t slot_of(Call& c, MPI_Message message, int count) {
  const auto slot = static_cast<size_t>(message) - 2;
  if (message < 2 || slot >= g_messages.size() || g_messages[slot].owner != c->me())
    mpi_fatal(c.name(), "message " + std::to_string(message) + " is not a message this rank matched (MPI_Mprobe)");
  if (count < 0) mpi_fatal(c.name(), "count " + std::to_string(count) + " < 0");
  return slot;
}

// The claimed message's bytes, received, into the user's buffer; the slot is free again.
void deliver(size_t slot, void* buf, int count, MPI_Datatype datatype, const char* call) {
  Matched& m = g_messages[slot];
  const auto bytes = static_cast<int64_t>(m.bytes.size());
  const int capacity = simfab::online::pack_size(count, datatype, call);
  if (bytes > capacity)
    mpi_fatal(call, "message truncated: " + std::to_string(bytes) + " B arrive into a buffer of " +
                        std::to_string(capacity) + " B (MPI_ERR_TRUNCATE)");
  const auto whole = simfab::online::count_of_bytes(bytes, datatype, call);
  if (whole < 0) mpi_fatal(call, "the message's " + std::to_string(bytes) + " B are not a whole number of the datatype");
  int position = 0;
  if (whole > 0)
    simfab::online::unpack_at(m.bytes.data(), static_cast<int>(bytes), &position, buf, static_cast<int>(whole),
                              datatype, call);
  m = Matched{};
}

}  // namespace

extern "C" {

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  Call c("MPI_Mprobe");
  require_ptr(message, "message", c.name());
  MPI_Status found{};
  c->probe(source, tag, comm, &found, c.name());
  *message = claim(c, comm, found, status);
  return MPI_SUCCESS;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  Call c("MPI_Improbe");
  require_ptr(flag, "flag", c.name());
  require_ptr(message, "message", c.name());
  MPI_Status found{};
  *flag = c->iprobe(source, tag, comm, &found, c.name());
  if (*flag) *message = claim(c, comm, found, status);
  return MPI_SUCCESS;
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  Call c("MPI_Mrecv");
  if (no_proc(message, status, c.name())) return MPI_SUCCESS;
  const size_t slot = slot_of(c, *message, count);
  MPI_Request request = g_messages[slot].request;
  MPI_Status got{};
  c->wait(&request, &got, c.name());  // other ranks run meanwhile and may grow g_messages
  deliver(slot, buf, count, datatype, c.name());
  if (status != MPI_STATUS_IGNORE) *status = got;
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  Call c("MPI_Imrecv");
  require_ptr(request, "request", c.name());
  if (no_proc(message, MPI_STATUS_IGNORE, c.name())) {
    *request = c->irecv(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, c.name());
    return MPI_SUCCESS;
  }
  const size_t slot = slot_of(c, *message, count);
  simfab::online::pack_size(count, datatype, c.name());  // a bad datatype is refused here, not at the wait
  *request = g_messages[slot].request;
  const char* call = c.name();
  c->on_consume(*request, [slot, buf, count, datatype, call] { deliver(slot, buf, count, datatype, call); },
                c.name());
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
