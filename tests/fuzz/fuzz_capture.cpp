// Fuzz target: the capture trace reader, the cross-rank alignment and both converters of
// `simfab convert` (src/capture/). The input is up to 8 rank files separated by lines "%%"; a
// first byte 'S' turns salvage on. Ranks are parsed from memory (read_capture), aligned, and
// written as TI and GOAL into memory. Bad input must be an InputError, never a crash or a failed
// SIMFAB_CHECK.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "capture/capture_goal_writer.hpp"
#include "capture/capture_run.hpp"
#include "capture/capture_ti_writer.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool salvage = !text.empty() && text.front() == 'S';
  if (salvage) text.remove_prefix(1);
  std::vector<std::string_view> files;
  while (files.size() < 8) {
    const size_t sep = text.find("\n%%\n");
    if (sep == std::string_view::npos) break;
    files.push_back(text.substr(0, sep + 1));
    text.remove_prefix(sep + 4);
  }
  files.push_back(text);
  try {
    std::vector<RankCapture> ranks;
    for (size_t i = 0; i < files.size(); ++i)
      ranks.push_back(read_capture("rank-" + std::to_string(i) + ".txt", files[i],
                                   ReadOptions{salvage, static_cast<int32_t>(files.size())}));
    const CaptureRun run = CaptureRun::align(std::move(ranks), CaptureRun::Options{salvage});
    ConvertOptions options;
    options.speed = (size & 1) ? 1e9 : 0;
    options.pinning = (size & 2) != 0;
    options.pin_a_us = 1;
    options.pin_b_us = 0.001;
    std::ostringstream out;
    for (int r = 0; r < run.num_ranks(); ++r) write_capture_ti_rank(run, r, options, out);
    write_capture_goal(run, options, out);
  } catch (const InputError&) {
  }
  return 0;
}
