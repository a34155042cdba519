#include "report/stats_csv.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <ostream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "report/nic_report.hpp"
#include "core/csv.hpp"
#include "report/time_format.hpp"

namespace simfab {

namespace {

// A CSV field: as is, or quoted (quotes doubled) when it holds a comma, quote or line break.
std::string field(const std::string& s) { return csv_field(s); }

// Reals that are not times (bandwidths, utilisations, joules).
std::string real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

// Bytes per bin: an integral count exactly (offered-load timelines), carried bytes as reals.
std::string bytes_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) return std::to_string(static_cast<int64_t>(v));
  return real(v);
}

using Rows = std::function<void(std::ostream&)>;

void write_table(const std::string& dir, const char* file, const char* header, const Rows& rows) {
  const std::string path = (std::filesystem::path(dir) / file).string();
  write_file_atomically(path, std::string("the statistics file ") + file, [&](std::ostream& os) {
    os << header << '\n';
    rows(os);
  });
}

}  // namespace

void prepare_stats_dir(const std::string& dir, const std::string& what) {
  const SourceLoc loc{dir, 0, 0};
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw InputError(loc, "the " + what + " is an existing file, not a directory");
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(loc, "cannot create the " + what + ": " + ec.message());
  // access(W_OK) says yes to root on a read-only file system: create a file instead.
  const std::string probe = (std::filesystem::path(dir) / (".simfab-probe." + std::to_string(::getpid()))).string();
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) throw InputError(loc, "cannot write into the " + what + ": " + std::strerror(errno));
  std::fclose(f);
  std::remove(probe.c_str());
}

void write_stats_csv(const StatsReport& s, const std::string& dir) {
  const bool noise = !s.noise.empty();
  write_table(dir, "ranks.csv",
              noise ? "rank,host,finish_s,compute_s,p2p_s,collective_s,wait_s,other_s,idle_s,noise_s"
                    : "rank,host,finish_s,compute_s,p2p_s,collective_s,wait_s,other_s,idle_s",
              [&](std::ostream& os) {
                for (size_t i = 0; i < s.ranks.size(); ++i) {
                  const RankTimes& t = s.ranks[i];
                  os << t.rank << ',' << field(t.host);
                  for (SimTime v : {t.finish, t.compute, t.p2p, t.collective, t.wait, t.other, t.idle})
                    os << ',' << seconds_text(v);
                  if (noise) os << ',' << seconds_text(i < s.noise.size() ? s.noise[i] : SimTime::zero());
                  os << '\n';
                }
              });
  write_table(dir, "matrix.csv", "src,dst,messages,bytes", [&](std::ostream& os) {
    for (const MatrixEntry& e : s.matrix) os << e.src << ',' << e.dst << ',' << e.messages << ',' << e.bytes << '\n';
  });
  write_table(dir, "sizes.csv", "upper_bytes,p2p_messages,p2p_bytes,collective_messages,collective_bytes",
              [&](std::ostream& os) {
                for (const SizeBucket& b : s.histogram)
                  os << (b.upper_bytes ? std::to_string(*b.upper_bytes) : std::string()) << ',' << b.p2p_messages
                     << ',' << b.p2p_bytes << ',' << b.collective_messages << ',' << b.collective_bytes << '\n';
              });
  write_table(dir, "collectives.csv", "name,algorithm,calls,time_s,max_s", [&](std::ostream& os) {
    for (const CollectiveRow& c : s.collectives)
      os << field(c.name) << ',' << field(c.algorithm.value_or("")) << ',' << c.calls << ','
         << seconds_text(c.time) << ',' << seconds_text(c.max) << '\n';
  });
  write_table(dir, "links.csv", "name,bandwidth_Bps,bytes,busy_s,utilisation", [&](std::ostream& os) {
    for (const LinkRow& l : s.links)
      os << field(l.name) << ',' << real(l.bandwidth_Bps) << ',' << l.bytes << ','
         << (l.busy ? seconds_text(*l.busy) : std::string()) << ',' << real(l.utilisation) << '\n';
  });
  write_table(dir, "link_timeline.csv", "link,bin,start_s,end_s,bytes", [&](std::ostream& os) {
    for (const TimelineSeries& t : s.timeline)
      for (size_t i = 0; i < t.bytes.size(); ++i) {
        const SimTime start = SimTime::ps(static_cast<int64_t>(i) * s.bin.ps());
        os << field(t.name) << ',' << i << ',' << seconds_text(start) << ',' << seconds_text(start + s.bin) << ','
           << bytes_text(t.bytes[i]) << '\n';
      }
  });
  if (s.packet) {
    write_table(dir, "ports.csv", "name,packets,credit_stall_s,fecn,queue_mean_bytes,queue_peak_bytes",
                [&](std::ostream& os) {
                  for (const LinkUsage& l : s.ports)
                    os << field(l.name) << ',' << l.packets << ',' << seconds_text(l.credit_stall) << ',' << l.fecn
                       << ',' << real(l.mean_queue_bytes) << ',' << l.peak_queue_bytes << '\n';
                });
    write_table(dir, "port_queues.csv", "port,bin,start_s,end_s,mean_bytes", [&](std::ostream& os) {
      for (const NetworkStats::QueueSeries& q : s.queues)
        for (size_t i = 0; i < q.mean_bytes.size(); ++i) {
          const SimTime start = SimTime::ps(static_cast<int64_t>(i) * s.queue_bin.ps());
          os << field(q.name) << ',' << i << ',' << seconds_text(start) << ',' << seconds_text(start + s.queue_bin)
             << ',' << real(q.mean_bytes[i]) << '\n';
        }
    });
  } else {  // as for energy.csv below: no stale packet tables from an earlier run
    std::filesystem::remove(std::filesystem::path(dir) / "ports.csv");
    std::filesystem::remove(std::filesystem::path(dir) / "port_queues.csv");
  }
  if (!s.phases.empty()) {
    write_table(dir, "phases.csv", "phase,from_s,to_s,model,changes,messages,bytes,events",
                [&](std::ostream& os) {
                  for (size_t i = 0; i < s.phases.size(); ++i) {
                    const PhaseResult& p = s.phases[i];
                    os << i << ',' << seconds_text(p.from) << ',' << seconds_text(p.to) << ',' << field(p.model) << ','
                       << field(changes_text(p.changes)) << ',' << p.messages << ',' << p.bytes << ',' << p.events << '\n';
                  }
                });
    write_table(dir, "phase_matrix.csv", "phase,src,dst,messages,bytes", [&](std::ostream& os) {
      for (const PhaseMatrixEntry& p : s.phase_matrix)
        os << p.phase << ',' << p.entry.src << ',' << p.entry.dst << ',' << p.entry.messages << ',' << p.entry.bytes
           << '\n';
    });
    write_table(dir, "phase_links.csv", "phase,link,bytes", [&](std::ostream& os) {
      for (const PhaseLinkRow& l : s.phase_links) os << l.phase << ',' << field(l.name) << ',' << l.bytes << '\n';
    });
  } else {
    for (const char* f : {"phases.csv", "phase_matrix.csv", "phase_links.csv"})
      std::filesystem::remove(std::filesystem::path(dir) / f);
  }
  if (s.nic.present)
    write_table(dir, "nics.csv",
                "host,commands,inline,pio,dma,gets,responses,wire_messages,ptl_acks,bxi_acks,quick_acks,"
                "retransmissions,given_up,dropped,inflight_stalls,pcie_bytes,pcie_busy_s,tx_busy_s,rx_busy_s,energy_j",
                [&](std::ostream& os) {
                  for (size_t h = 0; h < s.nic.counters.size(); ++h) {
                    if (!nic_active(s.nic, h)) continue;
                    const nic::NicCounters& k = s.nic.counters[h];
                    os << field(s.nic.hosts[h]);
                    for (uint64_t v : {k.commands, k.inline_puts, k.pio_puts, k.dma_puts, k.gets, k.responses,
                                       k.wire_messages, k.ptl_acks, k.bxi_acks, k.quick_acks, k.retransmissions,
                                       k.given_up, k.dropped, k.inflight_stalls, k.pcie_bytes})
                      os << ',' << v;
                    for (SimTime t : {k.pcie_busy, k.tx_busy, k.rx_busy}) os << ',' << seconds_text(t);
                    os << ',' << (s.nic.energy_j.empty() ? std::string() : real(s.nic.energy_j[h])) << '\n';
                  }
                });
  else
    std::filesystem::remove(std::filesystem::path(dir) / "nics.csv");
  if (s.energy_known)
    write_table(dir, "energy.csv", "host,energy_j,off_s", [&](std::ostream& os) {
      for (const HostEnergyRow& h : s.energy_hosts)
        os << field(h.name) << ',' << real(h.energy_j) << ',' << real(h.off_s) << '\n';
    });
  else  // a directory reused from a run with power must not keep that run's energy
    std::filesystem::remove(std::filesystem::path(dir) / "energy.csv");
  if (!s.regions.empty())
    write_table(dir, "regions.csv", "region,executions,given_s,charged_s,factor", [&](std::ostream& os) {
      for (const RegionRow& r : s.regions)
        os << field(r.name) << ',' << r.executions << ',' << seconds_text(SimTime::ps(static_cast<int64_t>(r.given_ps)))
           << ',' << seconds_text(SimTime::ps(static_cast<int64_t>(r.charged_ps))) << ',' << real(r.factor) << '\n';
    });
  else
    std::filesystem::remove(std::filesystem::path(dir) / "regions.csv");
}

}  // namespace simfab
