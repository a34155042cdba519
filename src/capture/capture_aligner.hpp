// CaptureAligner: steps 2-5 of CaptureRun (capture_run.hpp explains them), private to capture/.
// capture_run.cpp has the rank checks and the drivers, capture_comms.cpp the communicators and
// requests (steps 3-4, per rank), capture_agree.cpp the cross-rank agreement and salvage (step 5).
//
// PROBLEMS: a problem found at record i of rank r is fatal (InputError at its file:line, the line
// echoed when the file can be read again) unless salvaging, when the rank is cut at record i
// (limit_[r] = i) and the reason is kept for the rank's warning.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capture/capture_run.hpp"

namespace simfab {

class CaptureAligner {
 public:
  CaptureAligner(CaptureRun& run, bool salvage) : run_(run), salvage_(salvage) {}
  // Steps 2-5 over run_.ranks_ (as read), leaving kept_, comms_, colls_, ... filled.
  void align();

 private:
  void check_ranks();
  void assign_comms();
  void check_members();
  void resolve_requests(RankId r);
  void index_collectives();
  void agree();
  bool agree_collectives();
  bool agree_channels();
  void make_warnings();

  void problem(RankId r, uint32_t i, const std::string& what);
  // Cuts rank r at record i (salvage); returns whether its limit went down.
  bool cut(RankId r, uint32_t i, const std::string& why);
  [[noreturn]] void fail_at(RankId r, uint32_t i, const std::string& what) const;
  std::string where(RankId r, uint32_t i) const;  // "rank-2.txt:14"
  std::string comm_name(int32_t id) const;
  bool alive(RankId r, uint32_t i) const { return i < limit_[static_cast<size_t>(r)]; }

  CaptureRun& run_;
  bool salvage_;
  std::vector<uint32_t> limit_;        // per rank: records [0, limit) are valid so far
  std::vector<std::string> why_;       // per rank: why it was cut
  // Creation keys of Comm_create non-members, resolved once every rank is read: (rank, record).
  std::vector<std::pair<RankId, uint32_t>> create_outsiders_;
  std::vector<std::pair<RankId, uint32_t>> first_creation_;  // per comm: the first record making it
};

}  // namespace simfab
