#include "sim/model_switch.hpp"

#include <charconv>
#include <chrono>
#include <map>

#include "core/error.hpp"
#include "core/units.hpp"
#include "net/network_registry.hpp"
#include "nic/nic_params.hpp"
#include "nic/nic_registry.hpp"

namespace simfab {

namespace {

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void bad_switch(const std::string& spec, const std::string& what) {
  throw InputError(SourceLoc{"--switch", 0, 0}, "'" + spec + "': " + what);
}

// The keys network models read: what a switch may change.
const Config& network_keys() {
  static const Config keys = [] {
    Config c;
    register_network_keys(c);
    nic::register_nic_keys(c);
    return c;
  }();
  return keys;
}

// A time with units (2ms, 500us) or a bare number of seconds, as --trace-window takes it.
std::optional<SimTime> switch_time(std::string_view s) {
  double seconds = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), seconds);
  if (!s.empty() && ec == std::errc() && end == s.data() + s.size() && seconds >= 0 && seconds < 9.2e6)
    return SimTime::from_seconds(seconds);
  const auto t = units::parse_time(s);
  if (!t || *t < SimTime::zero()) return std::nullopt;
  return t;
}

}  // namespace

ModelSwitchSpec parse_model_switch(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos)
    bad_switch(spec, "expected TIME:key=value[,key=value...] (e.g. 2ms:network/model=packet)");
  ModelSwitchSpec s;
  s.text = spec;
  const auto t = switch_time(std::string_view(spec).substr(0, colon));
  if (!t) bad_switch(spec, "'" + spec.substr(0, colon) + "' is not a time (10us, 2ms, or seconds)");
  s.at = *t;
  std::string_view rest = std::string_view(spec).substr(colon + 1);
  while (!rest.empty() || s.changes.empty()) {
    const size_t comma = std::min(rest.find(','), rest.size());
    const std::string_view item = rest.substr(0, comma);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      bad_switch(spec, "expected key=value after the time, got '" + std::string(item) + "'");
    s.changes.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    rest = comma < rest.size() ? rest.substr(comma + 1) : std::string_view();
  }
  return s;
}

ModelSwitch::ModelSwitch(Engine& engine, const Platform& platform, const Config& run_cfg, Network& first,
                         std::vector<ModelSwitchSpec> switches)
    : engine_(engine), nets_{&first}, wall0_(wall_now()) {
  const Config& keys = network_keys();
  // A configuration's identity: the text of every network key's value.
  auto signature = [&](const Config& c) {
    std::string s;
    for (const auto& [name, key] : keys.keys()) s += name + '=' + c.value_text(name) + '\n';
    return s;
  };
  Config cfg = run_cfg;
  std::map<std::string, uint8_t> built{{signature(cfg), 0}};
  int nics = nic::nic_params(cfg).enabled ? 1 : 0;
  phases_.push_back(Phase{});
  SimTime last = SimTime::zero();
  for (ModelSwitchSpec& sw : switches) {
    if (sw.at < last) bad_switch(sw.text, "switch times must not decrease");
    last = sw.at;
    for (const auto& [key, value] : sw.changes) {
      if (!keys.keys().contains(key)) {
        if (cfg.keys().contains(key))
          bad_switch(sw.text, key + " cannot change during a run: a switch changes the keys network models read "
                                    "(network/*, loggops/*, flow/*, packet/*, nic/*, SimGrid's network keys)");
        bad_switch(sw.text, "unknown key '" + key + "'" +
                                (keys.nearest_key(key).empty() ? "" : "; did you mean '" + keys.nearest_key(key) + "'?"));
      }
      cfg.set(key, value, SourceLoc{"--switch " + sw.text, 0, 0});
    }
    Phase ph;
    const std::string sig = signature(cfg);
    if (const auto it = built.find(sig); it != built.end()) {
      ph.model = it->second;
    } else {
      if (nets_.size() == 8) bad_switch(sw.text, "a run may use at most 8 distinct model configurations");
      const bool nic = nic::nic_params(cfg).enabled;
      if (platform.is_ideal() && (nic || cfg.choice("network/model") != "loggops"))
        bad_switch(sw.text, std::string(nic ? "nic/model=portals" : "network/model=" + cfg.choice("network/model")) +
                                " needs a platform with links (--platform)");
      if (nic && ++nics > 1) bad_switch(sw.text, "a run may use one nic/model=portals configuration only");
      const EventKinds kinds{static_cast<EventKind>(static_cast<int>(EventKind::kModel1) + nets_.size() - 1),
                             EventKind::kDelivery};
      owned_.push_back(nic::make_mpi_network(engine, platform, cfg, kinds));
      ph.model = static_cast<uint8_t>(nets_.size());
      nets_.push_back(owned_.back().get());
      built.emplace(sig, ph.model);
    }
    ph.spec = std::move(sw);
    phases_.push_back(std::move(ph));
  }
  phases_[0].started = true;
  phases_[0].wall_at = wall0_;
}

ModelSwitch::~ModelSwitch() = default;

std::vector<Network*> ModelSwitch::models() const { return nets_; }

void ModelSwitch::enter(size_t phase) {
  Phase& p = phases_[phase];
  p.started = true;
  p.events_at = engine_.events_processed();
  p.wall_at = wall_now();
  current_ = phase;
}

uint8_t ModelSwitch::model(RankId, SimTime t) {
  while (current_ + 1 < phases_.size() && phases_[current_ + 1].spec.at <= t) enter(current_ + 1);
  return phases_[current_].model;
}

NetworkStats ModelSwitch::statistics() const {
  NetworkStats all;
  std::map<std::string, size_t> link_index;
  for (const Network* net : nets_) {
    NetworkStats s = net->statistics();
    if (!s.present) continue;
    all.present = true;
    all.flows += s.flows;
    all.peak_flows = std::max(all.peak_flows, s.peak_flows);
    all.solves += s.solves;
    all.recomputed += s.recomputed;
    all.flow_seconds += s.flow_seconds;
    all.packet = all.packet || s.packet;
    all.packets += s.packets;
    all.packet_hops += s.packet_hops;
    all.fecn += s.fecn;
    all.becn += s.becn;
    if (s.packet && all.queues.empty()) {
      all.queue_bin = s.queue_bin;
      all.queues = std::move(s.queues);
    }
    for (LinkUsage& l : s.links) {
      const auto [it, fresh] = link_index.try_emplace(l.name, all.links.size());
      if (fresh) {
        all.links.push_back(std::move(l));
        continue;
      }
      LinkUsage& a = all.links[it->second];
      a.bytes += l.bytes;
      a.busy = a.busy + l.busy;
      a.flows += l.flows;
      a.peak_flows = std::max(a.peak_flows, l.peak_flows);
      a.packets += l.packets;
      a.credit_stall = a.credit_stall + l.credit_stall;
      a.fecn += l.fecn;
      a.peak_queue_bytes = std::max(a.peak_queue_bytes, l.peak_queue_bytes);
      a.mean_queue_bytes += l.mean_queue_bytes;
    }
  }
  return all;
}

std::vector<PhaseResult> ModelSwitch::phases(SimTime makespan, uint64_t events) const {
  std::vector<PhaseResult> out;
  const double wall_end = wall_now();
  for (size_t i = 0; i < phases_.size(); ++i) {
    const Phase& p = phases_[i];
    PhaseResult r;
    r.from = i == 0 ? SimTime::zero() : p.spec.at;
    r.to = i + 1 < phases_.size() ? std::max(r.from, std::min(makespan, phases_[i + 1].spec.at)) : makespan;
    r.from = std::min(r.from, makespan);
    r.to = std::max(r.to, r.from);
    r.changes = p.spec.changes;
    r.model = nets_[p.model]->name();
    if (p.started) {
      // Up to the next phase that started, or the end.
      size_t j = i + 1;
      while (j < phases_.size() && !phases_[j].started) ++j;
      const uint64_t ev_end = j < phases_.size() ? phases_[j].events_at : events;
      const double w_end = j < phases_.size() ? phases_[j].wall_at : wall_end;
      r.events = ev_end - p.events_at;
      r.wall_s = w_end - p.wall_at;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace simfab
