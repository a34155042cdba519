// The NIC model's results (nic/model=portals, RunResult::nic) in the text summary, the JSON
// result ("nic") and --stats (nics.csv, and "nics" in stats.json): per NIC its commands, the
// payload paths they took (seed 000 §4.3.3), the wire messages it sent (requests, Portals ACKs,
// BXI ACKs, responses), quick ACKs, E2E retransmissions, messages given up and dropped, requests
// parked by an in-flight limit, PCIe payload bytes and busy time, TX and RX engine time, energy.
// Only NICs that did something are listed; the text summary prints the totals. nics.csv is
// written by stats_csv.cpp with the other statistics files.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "sim/simulation.hpp"

namespace simfab {

void print_nic(std::ostream& os, const NicResult& n);
nlohmann::ordered_json nic_json(const NicResult& n);
// One NIC's counters as a JSON object (also what stats.json's "nics" lists).
nlohmann::ordered_json nic_row_json(const NicResult& n, size_t host);
// Whether NIC `host` did anything (the rows listed).
bool nic_active(const NicResult& n, size_t host);

}  // namespace simfab
