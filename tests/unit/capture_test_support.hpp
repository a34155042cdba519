// Helpers for the capture unit tests: simfab-format trace texts and runs aligned in memory.
#pragma once

#include <string>
#include <vector>

#include "capture/capture_run.hpp"
#include "core/error.hpp"

namespace simfab::testing {

// A simfab capture file of `rank` of `size` (world handle 1, self 2, times in ns) with these
// record lines, MPI_Init (returning at 1000) first; `# end` unless end is false.
inline std::string capture_text(int rank, int size, const std::vector<std::string>& records, bool end = true,
                                const std::string& run = "5f2c0a9e1b7d4c31") {
  std::string t = "# simfab-capture 1\n# run: " + run + "\n# rank: " + std::to_string(rank) + "\n# size: " +
                  std::to_string(size) + "\n# world: 1\n# self: 2\n# time-unit: ns\nMPI_Init:-:-:-:1000\n";
  for (const std::string& r : records) t += r + "\n";
  if (end) t += "# end\n";
  return t;
}

// The comm field of world rank r of `size`.
inline std::string world(int r, int size) { return "1," + std::to_string(r) + "," + std::to_string(size); }

// Aligns the ranks given as texts (file names rank-<i>.txt).
inline CaptureRun align_texts(const std::vector<std::string>& texts, bool salvage = false) {
  std::vector<RankCapture> ranks;
  for (size_t i = 0; i < texts.size(); ++i)
    ranks.push_back(read_capture("rank-" + std::to_string(i) + ".txt", texts[i],
                                 ReadOptions{salvage, static_cast<int32_t>(texts.size())}));
  return CaptureRun::align(std::move(ranks), CaptureRun::Options{salvage});
}

// The message of the InputError aligning `texts` throws ("file:line: message"), or "".
inline std::string align_error(const std::vector<std::string>& texts) {
  try {
    align_texts(texts);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace simfab::testing
