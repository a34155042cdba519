// PortalsLog: S4BXI's CSV event log (seed 000 §4.4, Fig. 4.12; `--portals-log DIR`): every wire
// message and PCI operation of the NIC model as a row
//   operation_type,initiator_nid,target_nid,start_time,end_time
// (times in seconds with picosecond digits, exact: report/time_format.hpp), in files log_0.csv,
// log_1.csv, ... of DIR, a new file every 10,000 rows, each with the header. Operation types are
// Fig. 4.12's: E2E_ACK, PTL_ACK, PTL_GET_RESPONSE, PTL_PUT, PTL_GET, PTL_ATOMIC, PTL_FETCH_ATOMIC,
// PTL_FETCH_ATOMIC_RESPONSE, PCI_PIO_PAYLOAD, PCI_DMA_PAYLOAD, PCI_DMA_REQUEST, PCI_PAYLOAD_WRITE,
// PCI_EVENT, PCI_COMMAND (COMPUTE rows are not written: S4BXI_LOG_COMPUTATION off).
// Rows come in the order the NIC learns them (a message's row when it arrives). Files are written
// as temporaries and renamed into place by commit(), after a successful run; otherwise they are
// removed, so DIR never holds half a log. Memory: one open file.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "nic/nic_log.hpp"

namespace simfab {

class PortalsLog final : public nic::NicLog {
 public:
  static constexpr uint64_t kRowsPerFile = 10'000;
  // Creates DIR if needed and checks it is writable; InputError naming DIR otherwise.
  explicit PortalsLog(std::string dir);
  ~PortalsLog() override;  // removes the temporary files unless committed
  PortalsLog(const PortalsLog&) = delete;
  PortalsLog& operator=(const PortalsLog&) = delete;

  void row(nic::LogType type, HostId initiator, HostId target, SimTime start, SimTime end) override;
  // Renames every file into place (stale log_K.csv files of an earlier, longer log are removed).
  void commit();
  uint64_t rows() const { return rows_; }

 private:
  void open_next();
  std::string dir_;
  std::vector<std::string> temps_;  // one per file, in order
  std::FILE* file_ = nullptr;
  uint64_t rows_ = 0;
  bool committed_ = false, made_dir_ = false;
};

}  // namespace simfab
