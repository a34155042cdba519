#include "report/portals_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "report/stats_csv.hpp"
#include "report/time_format.hpp"

namespace simfab {

namespace {

std::string file_name(size_t k) { return "log_" + std::to_string(k) + ".csv"; }

}  // namespace

PortalsLog::PortalsLog(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  made_dir_ = !std::filesystem::exists(dir_, ec);
  prepare_stats_dir(dir_, "Portals log directory");  // creates and probes it, naming it in errors
  if (made_dir_) register_pending_output(dir_, true);
}

PortalsLog::~PortalsLog() {
  if (file_) std::fclose(file_);
  if (committed_) return;
  for (const std::string& t : temps_) {
    std::remove(t.c_str());
    unregister_pending_output(t);
  }
  if (made_dir_) {
    std::error_code ec;
    std::filesystem::remove(dir_, ec);  // only if empty
    unregister_pending_output(dir_);
  }
}

void PortalsLog::open_next() {
  if (file_ && std::fclose(file_) != 0)
    throw InputError(SourceLoc{dir_, 0, 0}, std::string("cannot write the Portals log: ") + std::strerror(errno));
  const std::string tmp =
      (std::filesystem::path(dir_) / (file_name(temps_.size()) + ".tmp." + std::to_string(::getpid()))).string();
  file_ = std::fopen(tmp.c_str(), "w");
  if (!file_) throw InputError(SourceLoc{tmp, 0, 0}, std::string("cannot write the Portals log: ") + std::strerror(errno));
  temps_.push_back(tmp);
  register_pending_output(tmp);
  std::fputs("operation_type,initiator_nid,target_nid,start_time,end_time\n", file_);
}

void PortalsLog::row(nic::LogType type, HostId initiator, HostId target, SimTime start, SimTime end) {
  if (rows_ % kRowsPerFile == 0) open_next();
  ++rows_;
  std::fprintf(file_, "%s,%d,%d,%s,%s\n", nic::log_type_name(type), initiator, target, seconds_text(start).c_str(),
               seconds_text(end).c_str());
}

void PortalsLog::commit() {
  if (rows_ == 0) open_next();  // an empty log still has its first file and header
  const bool ok = std::ferror(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed)
    throw InputError(SourceLoc{dir_, 0, 0}, std::string("cannot write the Portals log: ") + std::strerror(errno));
  for (size_t k = 0; k < temps_.size(); ++k) {
    const std::string path = (std::filesystem::path(dir_) / file_name(k)).string();
    if (std::rename(temps_[k].c_str(), path.c_str()) != 0)
      throw InputError(SourceLoc{path, 0, 0}, std::string("cannot write the Portals log: ") + std::strerror(errno));
    unregister_pending_output(temps_[k]);
  }
  std::error_code ec;
  for (size_t k = temps_.size(); std::filesystem::remove(std::filesystem::path(dir_) / file_name(k), ec); ++k) {
  }
  committed_ = true;
  if (made_dir_) unregister_pending_output(dir_);
}

}  // namespace simfab
