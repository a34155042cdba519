#include "report/sweep_progress.hpp"

namespace simfab {

SweepProgress::SweepProgress(size_t total, size_t done_before, std::FILE* out)
    : total_(total), done_(done_before), line_(out) {}

std::string SweepProgress::status(size_t done, size_t total, size_t failed, size_t running, size_t done_here,
                                  double elapsed_s) {
  std::string s = "simfab sweep: " + std::to_string(done) + "/" + std::to_string(total) + " points";
  if (failed > 0) s += " (" + std::to_string(failed) + " failed)";
  s += ", " + std::to_string(running) + " running";
  if (done_here > 0 && elapsed_s > 0) {
    const double per_s = static_cast<double>(done_here) / elapsed_s;
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f", per_s * 60);
    s += std::string(", ") + rate + " points/min";
    if (done < total) s += ", ~" + progress_duration(static_cast<double>(total - done) / per_s) + " left";
  }
  return s;
}

void SweepProgress::point_done(bool ok) {
  ++done_;
  ++done_here_;
  failed_ += ok ? 0 : 1;
}

void SweepProgress::draw(size_t running, bool force) {
  if (line_.due(force)) line_.draw(status(done_, total_, failed_, running, done_here_, line_.elapsed_s()));
}

void SweepProgress::done() { line_.erase(); }

}  // namespace simfab
