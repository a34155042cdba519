#include "report/progress_meter.hpp"

#include <string>

#include "report/summary.hpp"

namespace simfab {

namespace {

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string rate(double per_s) {
  if (per_s >= 1e6) return fixed(per_s / 1e6, 1) + " M";
  if (per_s >= 1e3) return fixed(per_s / 1e3, 1) + " k";
  return fixed(per_s, 0) + " ";
}

}  // namespace

std::string progress_duration(double s) {
  if (s < 90) return fixed(s, 0) + " s";
  if (s < 5400) return fixed(s / 60, 0) + " min";
  return fixed(s / 3600, 1) + " h";
}

bool StatusLine::due(bool force) {
  if (!out_) return false;
  const auto t = std::chrono::steady_clock::now();
  if (drawn_ && !force && t - last_ < std::chrono::milliseconds(500)) return false;
  last_ = t;
  return true;
}

void StatusLine::draw(const std::string& text) {
  std::fprintf(out_, "\r\033[K%s", text.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void StatusLine::erase() {
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

double StatusLine::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

ProgressMeter::ProgressMeter(const Program& program, std::FILE* out) : program_(program), line_(out) {}

std::string ProgressMeter::status(SimTime now, double events_per_s, int finished, int ranks, double fraction,
                                  double elapsed_s) {
  std::string s = "simfab: " + human_time(now) + " simulated, " + rate(events_per_s) + "events/s, " +
                  std::to_string(finished) + "/" + std::to_string(ranks) + " ranks finished";
  if (fraction >= 0) {
    s += ", " + fixed(100 * fraction, 0) + " % of the application";
    if (fraction > 0.001 && elapsed_s >= 1) s += ", ~" + progress_duration(elapsed_s * (1 - fraction) / fraction) + " left";
  }
  return s;
}

void ProgressMeter::poll(SimTime now, uint64_t events) {
  if (!line_.due()) return;
  const double elapsed = line_.elapsed_s();
  int finished = 0;
  for (RankId r = 0; r < program_.num_ranks(); ++r) finished += program_.rank_finished(r) ? 1 : 0;
  line_.draw(status(now, elapsed > 0 ? static_cast<double>(events) / elapsed : 0, finished, program_.num_ranks(),
                    program_.progress(), elapsed));
}

void ProgressMeter::done() { line_.erase(); }

}  // namespace simfab
