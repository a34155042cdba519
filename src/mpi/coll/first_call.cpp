#include "mpi/coll/first_call.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace simfab::coll {

FirstCallCosts FirstCallCosts::parse(std::string_view table, std::string& what) {
  FirstCallCosts out;
  what.clear();
  if (table == "none") return out;
  while (!table.empty()) {
    const size_t semi = table.find(';');
    std::string_view item = table.substr(0, semi);
    table = semi == std::string_view::npos ? std::string_view{} : table.substr(semi + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string_view name = item.substr(0, eq);
    size_t op = 0;
    while (op < static_cast<size_t>(CollOp::kCount) && name != coll_op_name(static_cast<CollOp>(op))) ++op;
    if (eq == std::string_view::npos || op == static_cast<size_t>(CollOp::kCount)) {
      what = "expected '<collective>=<seconds>' items separated by ';' (collectives: barrier, bcast, reduce, "
             "allreduce, allgather, alltoall, gather, scatter, allgatherv, alltoallv, gatherv, scatterv, "
             "reduce_scatter, scan, exscan), got '" + std::string(item) + "'";
      return {};
    }
    const std::string_view number = item.substr(eq + 1);
    double s = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), s);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !std::isfinite(s) || s < 0 ||
        s > 1e3) {
      what = "expected a time in seconds from 0 to 1000 after '" + std::string(name) + "=', got '" +
             std::string(number) + "'";
      return {};
    }
    out.cost_[op] = SimTime::from_seconds(s);
    out.any_ = out.any_ || out.cost_[op] > SimTime::zero();
  }
  return out;
}

FirstCallCosts FirstCallCosts::from(const Config& cfg) {
  std::string what;
  FirstCallCosts out = parse(cfg.text("mpi/first-call"), what);
  if (!what.empty())
    throw InputError(SourceLoc{"--cfg", 0, 0}, "bad value for mpi/first-call: " + what,
                     "mpi/first-call=" + cfg.text("mpi/first-call"));
  return out;
}

SimTime FirstCallCosts::charge(RankId r, CollOp op) {
  if (!any_) return SimTime::zero();
  if (static_cast<size_t>(r) >= called_.size()) called_.resize(static_cast<size_t>(r) + 1, 0);
  const auto bit = static_cast<uint16_t>(1u << static_cast<unsigned>(op));
  uint16_t& mask = called_[static_cast<size_t>(r)];
  if (mask & bit) return SimTime::zero();
  mask |= bit;
  return cost(op);
}

}  // namespace simfab::coll
