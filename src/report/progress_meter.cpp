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

ProgressMeter::ProgressMeter(const Program& program, std::FILE* out)
    : program_(program), out_(out), start_(std::chrono::steady_clock::now()), last_(start_) {}

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
  const auto t = std::chrono::steady_clock::now();
  if (drawn_ && t - last_ < std::chrono::milliseconds(500)) return;
  last_ = t;
  const double elapsed = std::chrono::duration<double>(t - start_).count();
  int finished = 0;
  for (RankId r = 0; r < program_.num_ranks(); ++r) finished += program_.rank_finished(r) ? 1 : 0;
  const std::string line = status(now, elapsed > 0 ? static_cast<double>(events) / elapsed : 0, finished,
                                  program_.num_ranks(), program_.progress(), elapsed);
  std::fprintf(out_, "\r\033[K%s", line.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressMeter::done() {
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace simfab
