// An OTF2 archive as a TI trace, for `simfab run --otf2` (sim/simulation.cpp): the archive's records
// (otf2_reader.hpp) are aligned, and each rank's TI lines (capture/capture_ti_writer.hpp) are made
// when replay first reads that rank, into a stream trace (replay/ti_trace.hpp, open_stream).
// Computation gaps are sleeps, or flops at ConvertOptions::speed (the traced machine's core) that
// the target hosts' speeds turn back into time.
// Memory: the aligned records of the whole run, plus each rank's TI text once it is read.
#pragma once

#include <memory>
#include <string>

#include "capture/capture_convert.hpp"
#include "capture/capture_run.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

class Otf2Trace {
 public:
  // Reads and aligns the archive; converts with otf2_convert_defaults and `speed` (flop/s of the
  // traced core; 0: gaps are sleeps). Throws InputError.
  Otf2Trace(const std::string& anchor, double speed);
  TiTrace& trace() { return *trace_; }
  const CaptureRun& run() const { return run_; }
  // Where the run comes from, as a TI trace's header says it: the MPI library (a converted
  // capture's SIMFAB::MPI_LIBRARY property) and the number of nodes (distinct host names).
  TiOrigin origin(const std::string& anchor) const;

 private:
  std::string creator_;
  CaptureRun run_;
  ConvertOptions options_;
  std::unique_ptr<TiTrace> trace_;
};

}  // namespace simfab
