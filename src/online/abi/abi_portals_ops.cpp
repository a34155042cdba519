// The Portals 4 API's data movement and completion calls (Portals 4.1 spec §3.13.4-3.13.8,
// §3.14.4-3.14.8, §3.15): PtlPut, PtlGet, PtlAtomic, PtlFetchAtomic, PtlSwap, and the EQ and CT
// reads. Thin wrappers over PortalsRuntime (online/portals/runtime.hpp), which posts the
// operations to the simulated NIC and implements the waits and the polling delay.
#include <simfab/portals4.h>

#include "online/abi/abi_call.hpp"
#include "online/portals/runtime.hpp"

using simfab::online::Call;
using simfab::online::portals::OpArgs;
using simfab::online::portals::OpKind;
using simfab::online::portals::PortalsRuntime;

namespace {

template <typename F>
int with_runtime(const char* name, F&& f) {
  Call c(name, true);
  return f(PortalsRuntime::get(name));
}

int issue(const char* name, const OpArgs& a) {
  return with_runtime(name, [&](PortalsRuntime& rt) { return rt.issue(a, name); });
}

OpArgs target_args(OpKind kind, ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                   ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data, ptl_size_t length) {
  OpArgs a;
  a.kind = kind;
  a.target = target_id;
  a.pt_index = pt_index;
  a.match_bits = match_bits;
  a.remote_offset = remote_offset;
  a.user_ptr = user_ptr;
  a.hdr_data = hdr_data;
  a.length = length;
  return a;
}

// FetchAtomic and Swap: a get MD for the old value, a put MD for the operand.
OpArgs fetch_args(OpKind kind, ptl_handle_md_t get_md, ptl_size_t get_offset, ptl_handle_md_t put_md,
                  ptl_size_t put_offset, OpArgs a, ptl_op_t operation, ptl_datatype_t datatype) {
  a.kind = kind;
  a.get_md = get_md;
  a.get_offset = get_offset;
  a.put_md = put_md;
  a.put_offset = put_offset;
  a.atomic_operation = operation;
  a.atomic_type = datatype;
  return a;
}

}  // namespace

extern "C" {

int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
           ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
           void* user_ptr, ptl_hdr_data_t hdr_data) {
  OpArgs a = target_args(OpKind::kPut, target_id, pt_index, match_bits, remote_offset, user_ptr, hdr_data, length);
  a.put_md = md_handle;
  a.put_offset = local_offset;
  a.ack_req = ack_req;
  return issue("PtlPut", a);
}

int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr) {
  OpArgs a = target_args(OpKind::kGet, target_id, pt_index, match_bits, remote_offset, user_ptr, 0, length);
  a.get_md = md_handle;
  a.get_offset = local_offset;
  return issue("PtlGet", a);
}

int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              void* user_ptr, ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype) {
  OpArgs a = target_args(OpKind::kAtomic, target_id, pt_index, match_bits, remote_offset, user_ptr, hdr_data, length);
  a.put_md = md_handle;
  a.put_offset = local_offset;
  a.ack_req = ack_req;
  a.atomic_operation = operation;
  a.atomic_type = datatype;
  return issue("PtlAtomic", a);
}

int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
                   ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
                   ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
                   ptl_op_t operation, ptl_datatype_t datatype) {
  return issue("PtlFetchAtomic",
               fetch_args(OpKind::kFetchAtomic, get_md_handle, local_get_offset, put_md_handle, local_put_offset,
                          target_args(OpKind::kFetchAtomic, target_id, pt_index, match_bits, remote_offset, user_ptr,
                                      hdr_data, length),
                          operation, datatype));
}

int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
            ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
            ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
            const void* operand, ptl_op_t operation, ptl_datatype_t datatype) {
  OpArgs a = fetch_args(OpKind::kSwap, get_md_handle, local_get_offset, put_md_handle, local_put_offset,
                        target_args(OpKind::kSwap, target_id, pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                                    length),
                        operation, datatype);
  a.operand = operand;
  return issue("PtlSwap", a);
}

int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t* event) {
  return with_runtime("PtlEQGet", [&](PortalsRuntime& rt) { return rt.eq_get(eq_handle, event); });
}

int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t* event) {
  return with_runtime("PtlEQWait", [&](PortalsRuntime& rt) { return rt.eq_wait(eq_handle, event); });
}

int PtlEQPoll(const ptl_handle_eq_t* eq_handles, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
              unsigned int* which) {
  return with_runtime("PtlEQPoll", [&](PortalsRuntime& rt) { return rt.eq_poll(eq_handles, size, timeout, event, which); });
}

int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t* event) {
  return with_runtime("PtlCTGet", [&](PortalsRuntime& rt) { return rt.ct_get(ct_handle, event); });
}

int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test, ptl_ct_event_t* event) {
  return with_runtime("PtlCTWait", [&](PortalsRuntime& rt) { return rt.ct_wait(ct_handle, test, event); });
}

int PtlCTPoll(const ptl_handle_ct_t* ct_handles, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* event, unsigned int* which) {
  return with_runtime("PtlCTPoll",
                      [&](PortalsRuntime& rt) { return rt.ct_poll(ct_handles, tests, size, timeout, event, which); });
}

int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct) {
  return with_runtime("PtlCTSet", [&](PortalsRuntime& rt) { return rt.ct_set(ct_handle, new_ct); });
}

int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment) {
  return with_runtime("PtlCTInc", [&](PortalsRuntime& rt) { return rt.ct_inc(ct_handle, increment); });
}

}  // extern "C"
