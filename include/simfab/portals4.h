/* simfab's portals4.h: the Portals 4 network programming interface of simfab's online mode.
 *
 * A C (or C++) program written against Portals 4 (Sandia/Atos, "The Portals 4.1 Network
 * Programming Interface", SAND2017-3825) compiles with simfab-cc / simfab-cxx and runs with
 *     simfab exec -np N --cfg nic/model=portals ./prog
 * Every Ptl* call below runs inside the simulator: operations go through the simulated BXI NIC
 * (seed 000, S4BXI; src/nic/), take simulated time, and raise their events when the simulated NIC
 * writes them. Without --cfg nic/model=portals, the first Ptl* call is a usage error (exit 2).
 *
 * Implemented (the spec's semantics; the section numbers are the 4.1 spec's):
 *   PtlInit/PtlFini; PtlNIInit (matching and non-matching, physical and logical NIs; PtlNIFini;
 *   limits of S4BXI's BXI NIC, seed 000 Appendix R) (3.5-3.6); PtlGetId, PtlGetPhysId, PtlGetUid
 *   (3.8-3.9); PtlPTAlloc/PtlPTFree/PtlPTEnable/PtlPTDisable with PTL_PT_FLOWCTRL (3.7);
 *   PtlMDBind/PtlMDRelease (3.10); PtlLEAppend/PtlLEUnlink (non-matching NIs) and
 *   PtlMEAppend/PtlMEUnlink (matching NIs) on the priority and overflow lists, with use-once,
 *   locally managed offsets, min_free, truncation, ACK and event options and unexpected headers
 *   (PTL_EVENT_*_OVERFLOW when an appended entry finds a message that landed in the overflow
 *   list) (3.11-3.12); PtlEQAlloc/PtlEQFree/PtlEQGet/PtlEQWait/PtlEQPoll (3.13); PtlCTAlloc/
 *   PtlCTFree/PtlCTGet/PtlCTWait/PtlCTPoll/PtlCTSet/PtlCTInc (3.14); PtlPut, PtlGet, PtlAtomic,
 *   PtlFetchAtomic, PtlSwap with every ptl_op_t on the types the spec allows it (3.15);
 *   PtlHandleIsEqual (3.3).
 * Not implemented (as in S4BXI, seed 000 §2.4): PTL_IOVEC (an MD/ME/LE with it is
 *   PTL_ARG_INVALID), triggered operations (PtlTriggered*), PtlMESearch/PtlLESearch, PtlSetMap/
 *   PtlGetMap (a logical NI's rank is the world rank), PtlNIStatus, PtlNIHandle, PtlStartBundle,
 *   PtlAtomicSync, job ids. What this header does not declare does not exist.
 * Simulation rules (seed 000 §5.7, Appendix R):
 *   - PtlEQGet, PtlCTGet and PtlEQPoll with timeout 0 cost a growing simulated delay while they
 *     find nothing (nic/polling-delay d: the n-th failed poll in a row sleeps d + max(0,n-5)*d),
 *     so a busy-polling loop advances simulated time and ends;
 *   - PtlEQWait/PtlCTWait block (no polling cost) until the event is visible;
 *   - PtlEQPoll/PtlCTPoll with a finite timeout poll with that growing delay until an event
 *     comes or the timeout passes (an event is seen at most one polling step late).
 *   - clock_gettime() and gettimeofday() are the host's, not simulated time: time a Portals
 *     program with simfab_ptl_wtime() (seconds of simulated time; MPI_Wtime() also works).
 * Handles are 64-bit integers: compare them with PtlHandleIsEqual (or ==). The constants are
 * simfab's own values: use the names.
 */
#ifndef SIMFAB_PORTALS4_H
#define SIMFAB_PORTALS4_H

#include <stddef.h>
#include <stdint.h>

#define SIMFAB_PORTALS4 1
#define PTL_MAJOR_VERSION 4
#define PTL_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* ---- return codes (3.19) ------------------------------------------------------------------ */
enum ptl_retvals {
  PTL_OK = 0,
  PTL_ARG_INVALID,     /* an argument (handle, offset, length, process id, ...) is invalid */
  PTL_CT_NONE_REACHED, /* PtlCTPoll: no counting event reached its test before the timeout */
  PTL_EQ_DROPPED,      /* an event was returned, and at least one before it was lost (EQ full) */
  PTL_EQ_EMPTY,        /* no event was (visibly) available */
  PTL_FAIL,            /* a non-specific error */
  PTL_IGNORED,         /* PtlEQPoll/PtlCTPoll: not implemented conditions (never returned) */
  PTL_IN_USE,          /* the resource is in use (a PT with entries, an MD with operations) */
  PTL_INTERRUPTED,     /* never returned by simfab */
  PTL_LIST_TOO_LONG,   /* the PT's list reached max_list_size */
  PTL_NO_INIT,         /* PtlInit (or PtlNIInit) was not called */
  PTL_NO_SPACE,        /* an NI limit (max_entries, max_mds, max_eqs, max_cts) is reached */
  PTL_PID_IN_USE,      /* PtlNIInit asked for a pid that is not the process's */
  PTL_PT_FULL,         /* PtlPTAlloc(PTL_PT_ANY): every index is allocated */
  PTL_PT_EQ_NEEDED,    /* PtlPTAlloc with PTL_PT_FLOWCTRL needs an event queue */
  PTL_PT_IN_USE        /* PtlPTAlloc: the requested index is allocated */
};

/* ---- base types (3.3) --------------------------------------------------------------------- */
typedef uint64_t ptl_size_t;
typedef uint32_t ptl_pt_index_t;
typedef uint64_t ptl_match_bits_t;
typedef uint64_t ptl_hdr_data_t;
typedef unsigned int ptl_time_t; /* milliseconds */
typedef unsigned int ptl_interface_t;
typedef uint32_t ptl_nid_t;
typedef uint32_t ptl_pid_t;
typedef uint32_t ptl_rank_t;
typedef uint32_t ptl_uid_t;
typedef unsigned char ptl_ni_fail_t;
typedef int ptl_sr_value_t;

typedef uint64_t ptl_handle_any_t;
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_ct_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_le_t;
typedef ptl_handle_any_t ptl_handle_me_t;

/* A process: physical (nid = the simulated host, pid = the rank's index among the ranks of its
 * host) or logical (rank = the world rank). */
typedef union {
  ptl_rank_t rank;
  struct {
    ptl_nid_t nid;
    ptl_pid_t pid;
  } phys;
} ptl_process_t;

/* ---- special values (3.3) ----------------------------------------------------------------- */
#define PTL_EQ_NONE ((ptl_handle_eq_t)0x3fffffffu)
#define PTL_CT_NONE ((ptl_handle_ct_t)0x5fffffffu)
#define PTL_INVALID_HANDLE ((ptl_handle_any_t)0xffffffffffffffffull)
#define PTL_IFACE_DEFAULT ((ptl_interface_t)0xffffffffu)
#define PTL_PID_ANY ((ptl_pid_t)0xffffffffu)
#define PTL_NID_ANY ((ptl_nid_t)0xffffffffu)
#define PTL_RANK_ANY ((ptl_rank_t)0xffffffffu)
#define PTL_UID_ANY ((ptl_uid_t)0xffffffffu)
#define PTL_PT_ANY ((ptl_pt_index_t)0xffffffffu)
#define PTL_TIME_FOREVER ((ptl_time_t)0xffffffffu)
#define PTL_SIZE_MAX ((ptl_size_t)0xffffffffffffffffull)

/* ---- network interfaces (3.6) ------------------------------------------------------------- */
#define PTL_NI_MATCHING (1u << 0)
#define PTL_NI_NO_MATCHING (1u << 1)
#define PTL_NI_LOGICAL (1u << 2)
#define PTL_NI_PHYSICAL (1u << 3)

/* ni_fail_type of events (3.13.3) */
#define PTL_NI_OK ((ptl_ni_fail_t)0)
#define PTL_NI_UNDELIVERABLE ((ptl_ni_fail_t)1) /* the NIC gave up (E2E retries exhausted) */
#define PTL_NI_PT_DISABLED ((ptl_ni_fail_t)2)   /* the target PT is disabled (flow control) */
#define PTL_NI_DROPPED ((ptl_ni_fail_t)3)       /* no entry matched at the target */
#define PTL_NI_PERM_VIOLATION ((ptl_ni_fail_t)4)/* the entry's uid does not allow the initiator */
#define PTL_NI_OP_VIOLATION ((ptl_ni_fail_t)5)  /* the entry does not allow the operation */
#define PTL_NI_NO_MATCH ((ptl_ni_fail_t)6)      /* (searches; not produced) */
#define PTL_NI_SEGV ((ptl_ni_fail_t)7)          /* an offset outside the target entry */
#define PTL_NI_TARGET_INVALID ((ptl_ni_fail_t)8)/* no such NI or PT index at the target */
#define PTL_NI_FLOW_CTRL PTL_NI_PT_DISABLED

#define PTL_TARGET_BIND_INACCESSIBLE (1u << 0)
#define PTL_TOTAL_DATA_ORDERING (1u << 1)
#define PTL_COHERENT_ATOMICS (1u << 2)

typedef struct {
  int max_entries;
  int max_unexpected_headers;
  int max_mds;
  int max_cts;
  int max_eqs;
  int max_pt_index;
  int max_iovecs;
  int max_list_size;
  int max_triggered_ops;
  ptl_size_t max_msg_size;
  ptl_size_t max_atomic_size;
  ptl_size_t max_fetch_atomic_size;
  ptl_size_t max_waw_ordered_size;
  ptl_size_t max_war_ordered_size;
  ptl_size_t max_volatile_size;
  unsigned int features;
} ptl_ni_limits_t;

/* status registers (declared for source compatibility; PtlNIStatus is not implemented) */
typedef enum { PTL_SR_DROP_COUNT, PTL_SR_PERMISSION_VIOLATIONS, PTL_SR_OPERATION_VIOLATIONS } ptl_sr_index_t;

/* ---- portal table entries (3.7) ----------------------------------------------------------- */
#define PTL_PT_ONLY_USE_ONCE (1u << 0)
#define PTL_PT_ONLY_TRUNCATE (1u << 1)
#define PTL_PT_FLOWCTRL (1u << 2)

/* ---- memory descriptors (3.10) ------------------------------------------------------------ */
#define PTL_IOVEC (1u << 0) /* not implemented */
#define PTL_MD_EVENT_SUCCESS_DISABLE (1u << 1)
#define PTL_MD_EVENT_SEND_DISABLE (1u << 2)
#define PTL_MD_EVENT_CT_SEND (1u << 3)
#define PTL_MD_EVENT_CT_REPLY (1u << 4)
#define PTL_MD_EVENT_CT_ACK (1u << 5)
#define PTL_MD_EVENT_CT_BYTES (1u << 6)
#define PTL_MD_UNORDERED (1u << 7)
#define PTL_MD_VOLATILE (1u << 8)

typedef struct {
  void* start;
  ptl_size_t length;
  unsigned int options;
  ptl_handle_eq_t eq_handle;
  ptl_handle_ct_t ct_handle;
} ptl_md_t;

typedef struct {
  void* iov_base;
  ptl_size_t iov_len;
} ptl_iovec_t;

/* ---- list entries and matching list entries (3.11, 3.12) ---------------------------------- */
typedef enum { PTL_PRIORITY_LIST, PTL_OVERFLOW_LIST, PTL_PROBE_ONLY } ptl_list_t;
#define PTL_OVERFLOW PTL_OVERFLOW_LIST /* Portals 4.0's name */
typedef enum { PTL_SEARCH_ONLY, PTL_SEARCH_DELETE } ptl_search_op_t;

#define PTL_ME_OP_PUT (1u << 1)
#define PTL_ME_OP_GET (1u << 2)
#define PTL_ME_USE_ONCE (1u << 3)
#define PTL_ME_ACK_DISABLE (1u << 4)
#define PTL_ME_EVENT_COMM_DISABLE (1u << 5)
#define PTL_ME_EVENT_FLOWCTRL_DISABLE (1u << 6)
#define PTL_ME_EVENT_SUCCESS_DISABLE (1u << 7)
#define PTL_ME_EVENT_OVER_DISABLE (1u << 8)
#define PTL_ME_EVENT_UNLINK_DISABLE (1u << 9)
#define PTL_ME_EVENT_CT_COMM (1u << 10)
#define PTL_ME_EVENT_CT_OVERFLOW (1u << 11)
#define PTL_ME_EVENT_CT_BYTES (1u << 12)
#define PTL_ME_EVENT_LINK_DISABLE (1u << 13)
#define PTL_ME_MANAGE_LOCAL (1u << 14)
#define PTL_ME_NO_TRUNCATE (1u << 15)
#define PTL_ME_MAY_ALIGN (1u << 16)
#define PTL_ME_IS_ACCESSIBLE (1u << 17)
#define PTL_ME_UNEXPECTED_HDR_DISABLE (1u << 18)

#define PTL_LE_OP_PUT PTL_ME_OP_PUT
#define PTL_LE_OP_GET PTL_ME_OP_GET
#define PTL_LE_USE_ONCE PTL_ME_USE_ONCE
#define PTL_LE_ACK_DISABLE PTL_ME_ACK_DISABLE
#define PTL_LE_EVENT_COMM_DISABLE PTL_ME_EVENT_COMM_DISABLE
#define PTL_LE_EVENT_FLOWCTRL_DISABLE PTL_ME_EVENT_FLOWCTRL_DISABLE
#define PTL_LE_EVENT_SUCCESS_DISABLE PTL_ME_EVENT_SUCCESS_DISABLE
#define PTL_LE_EVENT_OVER_DISABLE PTL_ME_EVENT_OVER_DISABLE
#define PTL_LE_EVENT_UNLINK_DISABLE PTL_ME_EVENT_UNLINK_DISABLE
#define PTL_LE_EVENT_CT_COMM PTL_ME_EVENT_CT_COMM
#define PTL_LE_EVENT_CT_OVERFLOW PTL_ME_EVENT_CT_OVERFLOW
#define PTL_LE_EVENT_CT_BYTES PTL_ME_EVENT_CT_BYTES
#define PTL_LE_EVENT_LINK_DISABLE PTL_ME_EVENT_LINK_DISABLE
#define PTL_LE_IS_ACCESSIBLE PTL_ME_IS_ACCESSIBLE
#define PTL_LE_UNEXPECTED_HDR_DISABLE PTL_ME_UNEXPECTED_HDR_DISABLE

typedef struct {
  void* start;
  ptl_size_t length;
  ptl_handle_ct_t ct_handle;
  ptl_uid_t uid;
  unsigned int options;
} ptl_le_t;

typedef struct {
  void* start;
  ptl_size_t length;
  ptl_handle_ct_t ct_handle;
  ptl_uid_t uid;
  unsigned int options;
  ptl_process_t match_id;       /* the initiators allowed (PTL_NID_ANY/PTL_PID_ANY/PTL_RANK_ANY) */
  ptl_match_bits_t match_bits;
  ptl_match_bits_t ignore_bits; /* a message matches when ((bits ^ match_bits) & ~ignore_bits) == 0 */
  ptl_size_t min_free;          /* with PTL_ME_MANAGE_LOCAL: unlink when less than this is free */
} ptl_me_t;

/* ---- counting events (3.14) --------------------------------------------------------------- */
typedef struct {
  ptl_size_t success;
  ptl_size_t failure;
} ptl_ct_event_t;

/* ---- data movement (3.15) ----------------------------------------------------------------- */
typedef enum { PTL_NO_ACK_REQ, PTL_ACK_REQ, PTL_CT_ACK_REQ, PTL_OC_ACK_REQ } ptl_ack_req_t;

typedef enum {
  PTL_MIN, PTL_MAX, PTL_SUM, PTL_PROD, PTL_LOR, PTL_LAND, PTL_BOR, PTL_BAND, PTL_LXOR, PTL_BXOR,
  PTL_SWAP, PTL_CSWAP, PTL_CSWAP_NE, PTL_CSWAP_LE, PTL_CSWAP_LT, PTL_CSWAP_GE, PTL_CSWAP_GT, PTL_MSWAP
} ptl_op_t;

typedef enum {
  PTL_INT8_T, PTL_UINT8_T, PTL_INT16_T, PTL_UINT16_T, PTL_INT32_T, PTL_UINT32_T, PTL_INT64_T,
  PTL_UINT64_T, PTL_FLOAT, PTL_FLOAT_COMPLEX, PTL_DOUBLE, PTL_DOUBLE_COMPLEX, PTL_LONG_DOUBLE,
  PTL_LONG_DOUBLE_COMPLEX
} ptl_datatype_t;

/* ---- events (3.13) ------------------------------------------------------------------------ */
typedef enum {
  PTL_EVENT_GET, PTL_EVENT_GET_OVERFLOW, PTL_EVENT_PUT, PTL_EVENT_PUT_OVERFLOW, PTL_EVENT_ATOMIC,
  PTL_EVENT_ATOMIC_OVERFLOW, PTL_EVENT_FETCH_ATOMIC, PTL_EVENT_FETCH_ATOMIC_OVERFLOW, PTL_EVENT_REPLY,
  PTL_EVENT_SEND, PTL_EVENT_ACK, PTL_EVENT_PT_DISABLED, PTL_EVENT_LINK, PTL_EVENT_AUTO_UNLINK,
  PTL_EVENT_AUTO_FREE, PTL_EVENT_SEARCH
} ptl_event_kind_t;

typedef struct {
  void* start;                 /* target: where the data went (entry start + offset) */
  void* user_ptr;              /* target: the entry's; initiator: the operation's */
  ptl_hdr_data_t hdr_data;
  ptl_match_bits_t match_bits;
  ptl_size_t rlength;          /* requested length */
  ptl_size_t mlength;          /* manipulated (possibly truncated) length */
  ptl_size_t remote_offset;    /* target: requested offset; initiator: offset used at the target */
  ptl_uid_t uid;
  ptl_process_t initiator;     /* target events: who sent it (physical or logical, as the NI) */
  ptl_event_kind_t type;
  ptl_list_t ptl_list;         /* target events: the list of the entry that matched */
  ptl_pt_index_t pt_index;
  ptl_ni_fail_t ni_fail_type;
  ptl_op_t atomic_operation;
  ptl_datatype_t atomic_type;
} ptl_event_t;

/* ---- functions ---------------------------------------------------------------------------- */
int PtlInit(void);
void PtlFini(void);

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid, const ptl_ni_limits_t* desired,
              ptl_ni_limits_t* actual, ptl_handle_ni_t* ni_handle);
int PtlNIFini(ptl_handle_ni_t ni_handle);

int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t* uid);
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t* id);
int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t* id);
int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2);

int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options, ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t* pt_index);
int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t* md, ptl_handle_md_t* md_handle);
int PtlMDRelease(ptl_handle_md_t md_handle);

int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_le_t* le, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_le_t* le_handle);
int PtlLEUnlink(ptl_handle_le_t le_handle);
int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, const ptl_me_t* me, ptl_list_t ptl_list,
                void* user_ptr, ptl_handle_me_t* me_handle);
int PtlMEUnlink(ptl_handle_me_t me_handle);

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_handle_eq_t* eq_handle);
int PtlEQFree(ptl_handle_eq_t eq_handle);
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t* event);
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t* event);
int PtlEQPoll(const ptl_handle_eq_t* eq_handles, unsigned int size, ptl_time_t timeout, ptl_event_t* event,
              unsigned int* which);

int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t* ct_handle);
int PtlCTFree(ptl_handle_ct_t ct_handle);
int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t* event);
int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test, ptl_ct_event_t* event);
int PtlCTPoll(const ptl_handle_ct_t* ct_handles, const ptl_size_t* tests, unsigned int size, ptl_time_t timeout,
              ptl_ct_event_t* event, unsigned int* which);
int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct);
int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment);

int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
           ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
           void* user_ptr, ptl_hdr_data_t hdr_data);
int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr);
int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_t target_id, ptl_pt_index_t pt_index, ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              void* user_ptr, ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype);
int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
                   ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
                   ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
                   ptl_op_t operation, ptl_datatype_t datatype);
int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset, ptl_handle_md_t put_md_handle,
            ptl_size_t local_put_offset, ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
            ptl_match_bits_t match_bits, ptl_size_t remote_offset, void* user_ptr, ptl_hdr_data_t hdr_data,
            const void* operand, ptl_op_t operation, ptl_datatype_t datatype);

/* simfab extension: the calling rank's simulated time in seconds (clock_gettime is not simulated). */
double simfab_ptl_wtime(void);

#ifdef __cplusplus
}
#endif

#endif /* SIMFAB_PORTALS4_H */
