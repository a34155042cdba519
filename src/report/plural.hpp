#pragma once
// Counted nouns for the text a reader sees: "1 flow", "2 flows", "0 flows" (English: the singular
// only for exactly one). Used by the run summary, the network and NIC statistics, so no line of
// them reads "1 flows".
#include <cstdint>
#include <string>

namespace simfab {

// "<n> <singular>" when n == 1, else "<n> <plural>" (plural defaults to singular + "s").
inline std::string counted(uint64_t n, const std::string& singular, const std::string& plural = {}) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

}  // namespace simfab
