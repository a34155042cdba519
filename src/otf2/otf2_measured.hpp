// The measured run an OTF2 archive records, told to the run outputs as if simfab had predicted it,
// so that `simfab report MEASURED.otf2 PREDICTED.json` puts a real run beside a prediction.
//
// Per rank, from the aligned records (otf2_reader.hpp): each MPI call is a call interval at its
// measured Enter..Leave (named as the MPI function, classed p2p / wait / collective / other as TI
// replay classes its actions), the time between calls a "compute" interval; the rank finishes at
// its MPI_Finalize's return, the run at the latest. Each point-to-point send is a message at its
// call time (sent = arrived: OTF2 does not say when the data arrived); collectives move no
// messages here (OTF2 records only their byte totals). No platform: link statistics stay empty.
// The result's model is "measured", its format "otf2 (measured)".
// Cost: O(records) time beyond reading the archive; the trace-event output is streamed.
#pragma once

#include <ostream>
#include <string>

namespace simfab {

// Writes the archive's run as `simfab run --trace-out` would (report/trace_event_writer.hpp, with
// the result and statistics `simfab report` reads). Throws InputError.
void write_measured_trace_events(const std::string& anchor, std::ostream& out);

}  // namespace simfab
