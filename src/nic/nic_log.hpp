// NicLog: what the NIC model tells an event log (seed 000 §4.4, Fig. 4.12: S4BXI's `bxi_log_type`).
// The NIC reports one row per wire message (from its first byte leaving to its arrival) and per
// PCI operation; report/portals_log.hpp writes them as S4BXI's CSV files (--portals-log DIR).
// Null unless asked for, so a run without the log pays one predictable branch per row.
#pragma once

#include <cstdint>

#include "core/sim_time.hpp"

namespace simfab::nic {

enum class LogType : uint8_t {
  kE2eAck, kPtlAck, kPtlGetResponse, kPtlPut, kPtlGet, kPtlAtomic, kPtlFetchAtomic, kPtlFetchAtomicResponse,
  kPciPioPayload, kPciDmaPayload, kPciDmaRequest, kPciPayloadWrite, kPciEvent, kPciCommand, kCompute,
};

// The names of Fig. 4.12 (E2E_ACK, PTL_ACK, ..., COMPUTE).
const char* log_type_name(LogType t);

class NicLog {
 public:
  virtual ~NicLog() = default;
  // initiator/target: NIDs (platform host ids); for PCI rows both are the node.
  virtual void row(LogType type, HostId initiator, HostId target, SimTime start, SimTime end) = 0;
};

}  // namespace simfab::nic
