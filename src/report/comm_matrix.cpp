#include "report/comm_matrix.hpp"

#include <algorithm>

namespace simfab {

void CommMatrix::add(RankId src, RankId dst, uint64_t bytes) {
  const uint64_t key = uint64_t{static_cast<uint32_t>(src)} << 32 | static_cast<uint32_t>(dst);
  Cell& c = cells_[key];
  ++c.messages;
  c.bytes += bytes;
}

std::vector<MatrixEntry> CommMatrix::entries() const {
  std::vector<MatrixEntry> out;
  out.reserve(cells_.size());
  for (const auto& [key, c] : cells_)
    out.push_back({static_cast<RankId>(key >> 32), static_cast<RankId>(key & 0xffffffffu), c.messages, c.bytes});
  std::sort(out.begin(), out.end(),
            [](const MatrixEntry& a, const MatrixEntry& b) { return a.src != b.src ? a.src < b.src : a.dst < b.dst; });
  return out;
}

}  // namespace simfab
