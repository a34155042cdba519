#include "sim/model_switch.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>

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

// The keys network models read: a model instance's identity.
const Config& network_keys() {
  static const Config keys = [] {
    Config c;
    register_network_keys(c);
    nic::register_nic_keys(c);
    return c;
  }();
  return keys;
}

// What a switch may change: the network models' keys and the collectives' choice.
const Config& switchable_keys() {
  static const Config keys = [] {
    Config c = network_keys();
    coll::register_coll_keys(c);
    return c;
  }();
  return keys;
}

// A configuration's identity: the text of every network key's value.
std::string signature(const Config& c) {
  std::string s;
  for (const auto& [name, key] : network_keys().keys()) s += name + '=' + c.value_text(name) + '\n';
  return s;
}

// Applies `changes` to cfg: each key must be switchable; InputError naming `origin`.
void check_changes(Config& cfg, const ConfigChanges& changes, const std::string& origin) {
  const Config& keys = switchable_keys();
  for (const auto& [key, value] : changes) {
    if (!keys.keys().contains(key)) {
      if (cfg.keys().contains(key))
        throw InputError(SourceLoc{origin, 0, 0},
                         key + " cannot change during a run: a switch changes the keys network models read "
                               "(network/*, loggops/*, flow/*, packet/*, nic/*, SimGrid's network keys) and the "
                               "collectives' (mpi/coll-selector, mpi/<collective>, smpi/coll-selector, smpi/<collective>)");
      const std::string near = keys.nearest_key(key);
      throw InputError(SourceLoc{origin, 0, 0},
                       "unknown key '" + key + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    cfg.set(key, value, SourceLoc{origin, 0, 0});
  }
}

}  // namespace

std::string changes_text(const ConfigChanges& c) {
  std::string s;
  for (const auto& [k, v] : c) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

std::optional<ConfigChanges> parse_changes(std::string_view text) {
  ConfigChanges out;
  auto sep = [](char c) { return c == ' ' || c == ',' || c == '\t'; };
  size_t i = 0;
  for (;;) {
    while (i < text.size() && sep(text[i])) ++i;
    if (i == text.size()) break;
    size_t j = i;
    while (j < text.size() && !sep(text[j])) ++j;
    const std::string_view item = text.substr(i, j - i);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) return std::nullopt;
    out.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    i = j;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

ModelSwitchSpec parse_model_switch(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos)
    bad_switch(spec, "expected TIME:key=value[,key=value...] (e.g. 2ms:network/model=packet)");
  ModelSwitchSpec s;
  s.text = spec;
  const auto t = units::parse_time_or_seconds(std::string_view(spec).substr(0, colon));
  if (!t) bad_switch(spec, "'" + spec.substr(0, colon) + "' is not a time (10us, 2ms, or seconds)");
  s.at = *t;
  const auto changes = parse_changes(std::string_view(spec).substr(colon + 1));
  if (!changes) bad_switch(spec, "expected key=value[,key=value...] after the time");
  s.changes = *changes;
  return s;
}

std::pair<int, ConfigChanges> parse_pcontrol(const std::string& spec) {
  const size_t colon = spec.find(':');
  int level = 0;
  const char* end_level = spec.data() + (colon == std::string::npos ? 0 : colon);
  const auto [end, ec] = std::from_chars(spec.data(), end_level, level);
  if (colon == std::string::npos || colon == 0 || ec != std::errc() || end != end_level)
    throw InputError(SourceLoc{"--pcontrol", 0, 0}, "'" + spec +
                                                         "': expected LEVEL:key=value[,key=value...] (an MPI_Pcontrol "
                                                         "level, e.g. 1:network/model=packet)");
  const auto changes = parse_changes(std::string_view(spec).substr(colon + 1));
  if (!changes)
    throw InputError(SourceLoc{"--pcontrol", 0, 0}, "'" + spec + "': expected key=value[,key=value...] after the level");
  return {level, *changes};
}

SwitchAfter parse_switch_after(const std::string& spec) {
  auto bad = [&](const std::string& what) {
    throw InputError(SourceLoc{"--switch-after", 0, 0}, "'" + spec + "': " + what);
  };
  const size_t c1 = spec.find(':');
  const size_t c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
  if (c2 == std::string::npos || c1 == 0) bad("expected COLLECTIVE:K:key=value[,key=value...] (e.g. allreduce:10:network/model=loggops)");
  SwitchAfter a;
  a.text = spec;
  a.collective = spec.substr(0, c1);
  const auto [end, ec] = std::from_chars(spec.data() + c1 + 1, spec.data() + c2, a.k);
  if (ec != std::errc() || end != spec.data() + c2 || a.k == 0) bad("K must be a number of calls, 1 or more");
  const auto changes = parse_changes(std::string_view(spec).substr(c2 + 1));
  if (!changes) bad("expected key=value[,key=value...] after K");
  a.changes = *changes;
  return a;
}

ModelSwitch::ModelSwitch(Engine& engine, const Platform& platform, const Config& run_cfg, Network& first,
                         int num_ranks, std::vector<ModelSwitchSpec> switches, std::map<int, ConfigChanges> pcontrol,
                         std::vector<SwitchAfter> after)
    : engine_(engine),
      platform_(platform),
      nets_{&first},
      colls_{coll::CollChoice::from(run_cfg)},
      logical_cfg_(run_cfg),
      rank_logical_(static_cast<size_t>(num_ranks), 0),
      pcontrol_(std::move(pcontrol)),
      after_(std::move(after)),
      after_count_(after_.size(), std::vector<uint32_t>(static_cast<size_t>(num_ranks), 0)) {
  built_.emplace(signature(run_cfg), 0);
  nics_ = nic::nic_params(run_cfg).enabled ? 1 : 0;
  Config cfg = run_cfg;
  phases_.push_back(Phase{});
  SimTime last = SimTime::zero();
  for (ModelSwitchSpec& sw : switches) {
    if (sw.at < last) bad_switch(sw.text, "switch times must not decrease");
    last = sw.at;
    Phase ph;
    ph.id = static_cast<uint32_t>(phases_.size());
    ph.setting = setting_for(cfg, sw.changes, "--switch " + sw.text);
    ph.spec = std::move(sw);
    phases_.push_back(std::move(ph));
  }
  for (const auto& [level, changes] : pcontrol_) {  // checked now, built when a rank gets there
    Config probe = run_cfg;
    check_changes(probe, changes, "--pcontrol " + std::to_string(level) + ":" + changes_text(changes));
  }
  for (const SwitchAfter& a : after_) {
    Config probe = run_cfg;
    check_changes(probe, a.changes, "--switch-after " + a.text);
  }
  start(phases_[0], SimTime::zero());
}

ModelSwitch::~ModelSwitch() = default;

ModelSwitch::Setting ModelSwitch::setting_for(Config& cfg, const ConfigChanges& changes, const std::string& origin) {
  check_changes(cfg, changes, origin);
  const coll::CollChoice choice = coll::CollChoice::from(cfg);
  auto known = std::find(colls_.begin(), colls_.end(), choice);
  if (known == colls_.end()) {
    if (colls_.size() == 256)
      throw InputError(SourceLoc{origin, 0, 0}, "a run may use at most 256 distinct collective choices");
    known = colls_.insert(colls_.end(), choice);
  }
  return Setting{model_for(cfg, origin), static_cast<uint8_t>(known - colls_.begin())};
}

uint8_t ModelSwitch::model_for(const Config& cfg, const std::string& origin) {
  const std::string sig = signature(cfg);
  if (const auto it = built_.find(sig); it != built_.end()) return it->second;
  auto fail = [&](const std::string& what) { throw InputError(SourceLoc{origin, 0, 0}, what); };
  if (nets_.size() == 8) fail("a run may use at most 8 distinct model configurations");
  const bool nic = nic::nic_params(cfg).enabled;
  if (platform_.is_ideal() && (nic || cfg.choice("network/model") != "loggops"))
    fail(std::string(nic ? "nic/model=portals" : "network/model=" + cfg.choice("network/model")) +
         " needs a platform with links (--platform)");
  if (nic && ++nics_ > 1) fail("a run may use one nic/model=portals configuration only");
  const EventKinds kinds{static_cast<EventKind>(static_cast<int>(EventKind::kModel1) + nets_.size() - 1),
                         EventKind::kDelivery};
  owned_.push_back(nic::make_mpi_network(engine_, platform_, cfg, kinds));
  const uint8_t m = static_cast<uint8_t>(nets_.size());
  nets_.push_back(owned_.back().get());
  built_.emplace(sig, m);
  return m;
}

void ModelSwitch::start(Phase& p, SimTime at) {
  p.started = true;
  p.spec.at = at;
  p.events_at = engine_.events_processed();
  p.wall_at = wall_now();
}

const ModelSwitch::Setting& ModelSwitch::setting(RankId r, SimTime t) {
  while (current_ + 1 < phases_.size() && phases_[current_ + 1].spec.at <= t) {
    ++current_;
    start(phases_[current_], phases_[current_].spec.at);
    if (phases_[current_].spec.at < latest().spec.at) continue;  // a logical switch came after it
    latest_logical_ = false;
    latest_ = current_;
  }
  const uint32_t k = rank_logical_[static_cast<size_t>(r)];
  if (k > 0 && logical_[k - 1].phase.spec.at >= phases_[current_].spec.at) return logical_[k - 1].phase.setting;
  return phases_[current_].setting;
}

uint8_t ModelSwitch::model(RankId r, SimTime t, Bytes bytes) {
  const uint8_t m = setting(r, t).model;
  Phase& counting = latest();
  counted_ = counting.id;
  ++counting.messages;
  counting.bytes += bytes;
  return m;
}

void ModelSwitch::switch_point(RankId r, SimTime t, std::string_view text, SwitchWhere where) {
  if (const uint32_t k = rank_logical_[static_cast<size_t>(r)]; k < logical_.size() && text == logical_[k].given) {
    ++rank_logical_[static_cast<size_t>(r)];  // the first rank's very words: nothing to parse
    ++logical_[k].reached;
    return;
  }
  const auto changes = parse_changes(text);
  if (!changes)
    throw InputError(SourceLoc{where(), 0, 0},
                     "a model switch expects key=value[,key=value...], got '" + std::string(text) + "'");
  const uint32_t k = rank_logical_[static_cast<size_t>(r)]++;
  const std::string c = changes_text(*changes);
  if (k == logical_.size()) {  // the first rank at this switch defines it
    Logical l;
    l.first = r;
    l.given = text;
    l.phase.id = static_cast<uint32_t>(phases_.size() + logical_.size());
    l.phase.spec.changes = *changes;
    l.phase.spec.text = c;
    // Once per switch, by its first rank. `where` can cost a scan of the trace (a TI line number):
    // only an error formats it.
    static const std::string kLogical = "a logical model switch";
    try {
      l.phase.setting = setting_for(logical_cfg_, *changes, kLogical);
    } catch (const InputError& e) {
      if (e.loc().file != kLogical) throw;
      throw InputError(SourceLoc{where(), 0, 0}, e.message(), e.text());
    }
    l.where = std::move(where);
    start(l.phase, t);
    const bool latest_now = t >= latest().spec.at;  // (online ranks may arrive out of time order)
    logical_.push_back(std::move(l));
    if (latest_now) {
      latest_logical_ = true;
      latest_ = logical_.size() - 1;
    }
  } else if (logical_[k].phase.spec.text != c) {
    throw InputError(SourceLoc{where(), 0, 0},
                     "rank " + std::to_string(r) + "'s model switch " + std::to_string(k + 1) + " asks " + c +
                         " but rank " + std::to_string(logical_[k].first) + "'s (" + logical_[k].where() + ") asked " +
                         logical_[k].phase.spec.text + ": every rank must reach the same switches in the same order");
  }
  ++logical_[k].reached;
}

void ModelSwitch::pcontrol(RankId r, SimTime t, int level, SwitchWhere where) {
  const auto it = pcontrol_.find(level);
  if (it != pcontrol_.end()) switch_point(r, t, changes_text(it->second), std::move(where));
}

void ModelSwitch::collective_done(RankId r, SimTime t, std::string_view name) {
  for (size_t i = 0; i < after_.size(); ++i) {
    const SwitchAfter& a = after_[i];
    if (a.collective != name || ++after_count_[i][static_cast<size_t>(r)] != a.k) continue;
    switch_point(r, t, changes_text(a.changes), [text = a.text] { return "--switch-after " + text; });
  }
}

void ModelSwitch::check_complete() const {
  for (size_t k = 0; k < logical_.size(); ++k) {
    if (logical_[k].reached == static_cast<int>(rank_logical_.size())) continue;
    RankId missing = 0;
    while (rank_logical_[static_cast<size_t>(missing)] > k) ++missing;
    throw InputError(SourceLoc{logical_[k].where(), 0, 0},
                     "rank " + std::to_string(missing) + " never reached model switch " + std::to_string(k + 1) +
                         " (" + logical_[k].phase.spec.text + "), which rank " + std::to_string(logical_[k].first) +
                         " reached here: every rank must reach every switch");
  }
}

// The phases' statistics merged. Their carried-bytes timelines (NetworkStats::carried) are not:
// a phase under a model without one (loggops) would leave holes in them, so a run with model
// switches draws the offered load of its messages instead (report/run_stats.hpp), and says so.
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
    all.reroutes += s.reroutes;
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
  std::vector<const Phase*> all;
  for (const Phase& p : phases_)
    if (p.started) all.push_back(&p);
  for (const Logical& l : logical_) all.push_back(&l.phase);
  std::stable_sort(all.begin(), all.end(), [](const Phase* a, const Phase* b) { return a->spec.at < b->spec.at; });
  std::vector<PhaseResult> out;
  const double wall_end = wall_now();
  for (size_t i = 0; i < all.size(); ++i) {
    const Phase& p = *all[i];
    const bool last = i + 1 == all.size();
    PhaseResult r;
    r.id = p.id;
    r.from = std::min(p.spec.at, makespan);
    r.to = last ? makespan : std::max(r.from, std::min(makespan, all[i + 1]->spec.at));
    r.changes = p.spec.changes;
    r.model = nets_[p.setting.model]->name();
    r.events = (last ? events : all[i + 1]->events_at) - p.events_at;
    r.wall_s = (last ? wall_end : all[i + 1]->wall_at) - p.wall_at;
    r.messages = p.messages;
    r.bytes = p.bytes;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace simfab
