// The Portals 4 API's set-up calls (Portals 4.1 spec §3.5-3.12, §3.13.2-3, §3.14.2-3): PtlInit,
// network interfaces, ids, portal table entries, memory descriptors, list entries, event queues
// and counting events. Thin wrappers: each opens a Call (the rank -> kernel call point; Portals
// programs need no MPI_Init) and hands its arguments to the rank's PortalsProcess
// (online/portals/process.hpp), whose return code it returns.
#include <simfab/portals4.h>

#include "online/abi/abi_call.hpp"
#include "online/portals/runtime.hpp"

using simfab::online::Call;
using simfab::online::portals::Entry;
using simfab::online::portals::HandleKind;
using simfab::online::portals::PortalsProcess;
using simfab::online::portals::PortalsRuntime;

namespace {

// Runs `f` on the calling rank's process after PtlInit (else PTL_NO_INIT).
template <typename F>
int with_process(const char* name, F&& f) {
  Call c(name, true);
  PortalsProcess& p = PortalsRuntime::get(name).me();
  if (!p.initialized()) return PTL_NO_INIT;
  return f(p, PortalsRuntime::get(name));
}

int append(const char* name, ptl_handle_ni_t ni, ptl_pt_index_t pt, const Entry* e, ptl_list_t list,
           ptl_handle_any_t* out) {
  return with_process(name, [&](PortalsProcess& p, PortalsRuntime& rt) {
    if (!e) return static_cast<int>(PTL_ARG_INVALID);
    return p.append(ni, pt, *e, list, out, rt.now());
  });
}

}  // namespace

extern "C" {

int PtlInit(void) {
  Call c("PtlInit", true);
  PortalsRuntime::get("PtlInit").me().init();
  return PTL_OK;
}

void PtlFini(void) {
  Call c("PtlFini", true);
  PortalsRuntime::get("PtlFini").me().fini();
}

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired,
              ptl_ni_limits_t* actual, ptl_handle_ni_t* ni_handle) {
  return with_process("PtlNIInit", [&](PortalsProcess& p, PortalsRuntime&) {
    if (iface != PTL_IFACE_DEFAULT && iface != 0) return static_cast<int>(PTL_ARG_INVALID);
    return p.ni_init(options, pid, desired, actual, ni_handle);
  });
}

int PtlNIFini(ptl_handle_ni_t ni_handle) {
  return with_process("PtlNIFini", [&](PortalsProcess& p, PortalsRuntime&) { return p.ni_fini(ni_handle); });
}

int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t* uid) {
  return with_process("PtlGetUid", [&](PortalsProcess& p, PortalsRuntime&) {
    if (!p.ni(ni_handle) || !uid) return static_cast<int>(PTL_ARG_INVALID);
    *uid = p.uid();
    return static_cast<int>(PTL_OK);
  });
}

int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t* id) {
  return with_process("PtlGetId", [&](PortalsProcess& p, PortalsRuntime&) {
    const auto* ni = p.ni(ni_handle);
    if (!ni || !id) return static_cast<int>(PTL_ARG_INVALID);
    *id = p.id(*ni);
    return static_cast<int>(PTL_OK);
  });
}

int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t* id) {
  return with_process("PtlGetPhysId", [&](PortalsProcess& p, PortalsRuntime&) {
    if (!p.ni(ni_handle) || !id) return static_cast<int>(PTL_ARG_INVALID);
    *id = p.phys();
    return static_cast<int>(PTL_OK);
  });
}

int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2) {
  return handle1 == handle2 ? PTL_OK : PTL_FAIL;
}

int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options, ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t* pt_index) {
  return with_process("PtlPTAlloc", [&](PortalsProcess& p, PortalsRuntime&) {
    return p.pt_alloc(ni_handle, options, eq_handle, pt_index_req, pt_index);
  });
}

int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index) {
  return with_process("PtlPTFree", [&](PortalsProcess& p, PortalsRuntime&) { return p.pt_free(ni_handle, pt_index); });
}

int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index) {
  return with_process("PtlPTDisable",
                      [&](PortalsProcess& p, PortalsRuntime&) { return p.pt_enable(ni_handle, pt_index, false); });
}

int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index) {
  return with_process("PtlPTEnable",
                      [&](PortalsProcess& p, PortalsRuntime&) { return p.pt_enable(ni_handle, pt_index, true); });
}

int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t* md, ptl_handle_md_t* md_handle) {
  return with_process("PtlMDBind", [&](PortalsProcess& p, PortalsRuntime&) { return p.md_bind(ni_handle, md, md_handle); });
}

int PtlMDRelease(ptl_handle_md_t md_handle) {
  return with_process("PtlMDRelease", [&](PortalsProcess& p, PortalsRuntime&) { return p.md_release(md_handle); });
}

int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_me_t* me, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_me_t* me_handle) {
  if (!me) return append("PtlMEAppend", ni_handle, pt_index, nullptr, ptl_list, me_handle);
  Entry e;
  e.start = me->start;
  e.length = me->length;
  e.ct = me->ct_handle;
  e.uid = me->uid;
  e.options = me->options;
  e.match_id = me->match_id;
  e.match_bits = me->match_bits;
  e.ignore_bits = me->ignore_bits;
  e.min_free = me->min_free;
  e.user_ptr = user_ptr;
  return append("PtlMEAppend", ni_handle, pt_index, &e, ptl_list, me_handle);
}

int PtlMEUnlink(ptl_handle_me_t me_handle) {
  return with_process("PtlMEUnlink", [&](PortalsProcess& p, PortalsRuntime&) { return p.unlink(me_handle, HandleKind::kMe); });
}

int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_le_t* le, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_le_t* le_handle) {
  if (!le) return append("PtlLEAppend", ni_handle, pt_index, nullptr, ptl_list, le_handle);
  Entry e;
  e.is_le = true;
  e.start = le->start;
  e.length = le->length;
  e.ct = le->ct_handle;
  e.uid = le->uid;
  e.options = le->options;
  e.user_ptr = user_ptr;
  return append("PtlLEAppend", ni_handle, pt_index, &e, ptl_list, le_handle);
}

int PtlLEUnlink(ptl_handle_le_t le_handle) {
  return with_process("PtlLEUnlink", [&](PortalsProcess& p, PortalsRuntime&) { return p.unlink(le_handle, HandleKind::kLe); });
}

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_handle_eq_t* eq_handle) {
  return with_process("PtlEQAlloc", [&](PortalsProcess& p, PortalsRuntime&) { return p.eq_alloc(ni_handle, count, eq_handle); });
}

int PtlEQFree(ptl_handle_eq_t eq_handle) {
  return with_process("PtlEQFree", [&](PortalsProcess& p, PortalsRuntime&) { return p.eq_free(eq_handle); });
}

int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t* ct_handle) {
  return with_process("PtlCTAlloc", [&](PortalsProcess& p, PortalsRuntime&) { return p.ct_alloc(ni_handle, ct_handle); });
}

int PtlCTFree(ptl_handle_ct_t ct_handle) {
  return with_process("PtlCTFree", [&](PortalsProcess& p, PortalsRuntime&) { return p.ct_free(ct_handle); });
}

double simfab_ptl_wtime(void) {
  Call c("simfab_ptl_wtime", true);
  return c->now().seconds();
}

}  // extern "C"
