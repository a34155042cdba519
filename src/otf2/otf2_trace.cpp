// Otf2Trace (see otf2_trace.hpp).
#include "otf2/otf2_trace.hpp"

#include <sstream>

#include "capture/capture_ti_writer.hpp"
#include "otf2/otf2_reader.hpp"

namespace simfab {

Otf2Trace::Otf2Trace(const std::string& anchor, double speed) : run_(load_otf2_run(anchor, &creator_)) {
  options_ = otf2_convert_defaults(creator_);
  options_.speed = speed;
  trace_ = TiTrace::open_stream(run_.num_ranks(), anchor, [this](RankId r) {
    std::ostringstream text;
    write_capture_ti_rank(run_, r, options_, text);
    trace_->append(r, text.str());
    trace_->end_stream(r);
  });
}

TiOrigin Otf2Trace::origin(const std::string& anchor) const {
  TiOrigin o;
  o.library = run_.num_ranks() > 0 ? run_.rank(0).header.library : std::string();
  o.library_at = SourceLoc{anchor, 0, 0};
  o.nodes = creator_ == kOtf2PredictionCreator ? 0 : run_.node_count();  // a prediction's hosts are simulated
  o.nodes_at = o.library_at;
  return o;
}

}  // namespace simfab
