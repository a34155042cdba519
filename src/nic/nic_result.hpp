// NicResult: what a run with the NIC model (nic/model=portals) reports about its NICs, as plain
// data for the outputs (report/nic_report.hpp, --stats nics.csv).
#pragma once

#include <string>
#include <vector>

#include "nic/nic.hpp"

namespace simfab {

// The NIC model's results (nic/model=portals): each platform host's NIC counters and energy.
struct NicResult {
  bool present = false;
  std::string wire;  // the network model under the NIC
  std::vector<std::string> hosts;
  std::vector<nic::NicCounters> counters;  // per host, platform order
  std::vector<double> energy_j;            // per host (nic/power-*), empty without NIC power
};

}  // namespace simfab
