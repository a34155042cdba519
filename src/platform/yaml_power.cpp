// Pstates and power in simfab's YAML platform (yaml_power.hpp).
#include "platform/yaml_power.hpp"

#include <climits>
#include <string>
#include <vector>

#include "platform/yaml_quantity.hpp"

namespace simfab {
namespace {

constexpr std::string_view kPowerForms =
    "a list of [Idle, OneCore, AllCores] triples in watts, one per pstate (e.g. [[93.75, 110, 179.25]]), or "
    "SimGrid's \"Idle:OneCore:AllCores, ...\"";

bool any_number(double) { return true; }

std::string key_of(const YamlMap& m, const YamlField& f) { return "'" + f.key + "' in " + m.what(); }

// A number of watts at `item` (an element of f's list), for messages about f.
double watts_at(const YamlMap& m, const YamlField& f, const YAML::Node& item, std::string_view expected) {
  return m.number(YamlField{f.key, f.key_node, item}, expected, any_number);
}

}  // namespace

CpuProfile read_yaml_cpu(const YamlMap& m, std::string_view speed_hint) {
  CpuProfile p;
  const YamlField& speed_f = m.require("speed", speed_hint);
  if (speed_f.value.IsSequence()) {
    for (const YAML::Node& item : m.list(speed_f, "speeds, one per pstate"))
      p.speeds.push_back(read_speed(m, YamlField{speed_f.key, speed_f.key_node, item}));
    if (p.speeds.empty())
      throw m.error(speed_f, key_of(m, speed_f) + " lists no speed; give one speed, or one per pstate");
  } else {
    p.speeds.push_back(read_speed(m, speed_f));
  }
  const YamlField* pstate_f = m.find("pstate");
  if (pstate_f) p.initial_pstate = static_cast<int>(m.integer(*pstate_f, INT_MIN, INT_MAX));

  // The power: `power_items` are the triples' nodes in the list form (empty for the string form).
  const YamlField* power_f = m.find("power");
  std::vector<YAML::Node> power_items;
  if (power_f) {
    if (power_f->value.IsScalar()) {
      std::string why;
      auto power = parse_watt_per_state(power_f->value.Scalar(), &why);
      if (!power) throw m.error(*power_f, "bad " + key_of(m, *power_f) + ": " + why);
      p.power = std::move(*power);
    } else if (power_f->value.IsSequence()) {
      power_items = m.list(*power_f, "triples");
      if (power_items.empty()) throw m.error(*power_f, key_of(m, *power_f) + " is empty; expected " + std::string(kPowerForms));
      for (size_t i = 0; i < power_items.size(); ++i) {
        const YAML::Node& t = power_items[i];
        const std::string at = key_of(m, *power_f) + ", pstate " + std::to_string(i);
        if (!t.IsSequence() || t.size() != 3)
          throw m.error(YamlField{power_f->key, power_f->key_node, t},
                        at + ": expected [Idle, OneCore, AllCores] (three numbers of watts), got " + describe_node(t) +
                            (t.IsSequence() ? " with " + std::to_string(t.size()) + " values" : ""));
        const std::string expected = "a number of watts (" + at + ")";
        p.power.push_back(PstatePower{watts_at(m, *power_f, t[0], expected), watts_at(m, *power_f, t[1], expected),
                                      watts_at(m, *power_f, t[2], expected)});
      }
    } else {
      throw m.error(*power_f, key_of(m, *power_f) + " must be " + std::string(kPowerForms) + ", got " +
                                  describe_node(power_f->value));
    }
  }
  const YamlField* off_f = m.find("power_off");
  if (off_f) p.power_off_w = m.number(*off_f, "a number of watts >= 0", any_number);
  const YamlField* cstates_f = m.find("cstates");
  if (cstates_f) {
    std::string why;
    auto cs = parse_cstates(m.scalar(*cstates_f, "C-states \"name:watts:latency, ...\""), &why);
    if (!cs) throw m.error(*cstates_f, "bad " + key_of(m, *cstates_f) + ": " + why);
    p.cstates = std::move(*cs);
  }
  // Switching off and on (cpu/host_power.hpp): boot_time, boot_energy, shutdown_time, shutdown_energy.
  const YamlField* transition_f = nullptr;
  for (const YamlField& f : m.fields()) {
    PowerTransition* t = f.key == "boot_time" || f.key == "boot_energy"             ? &p.boot
                         : f.key == "shutdown_time" || f.key == "shutdown_energy" ? &p.shutdown
                                                                                  : nullptr;
    if (!t) continue;
    if (f.key.ends_with("_time")) t->time_s = read_latency(m, f).seconds();
    else t->energy_j = m.number(f, "a number of joules >= 0", any_number);
    if (!transition_f) transition_f = &f;
  }

  using Field = CpuProfileError::Field;
  const CpuProfileError e = diagnose_cpu_profile(p);
  switch (e.field) {
    case Field::kNone:
      break;
    case Field::kSpeeds:
      throw m.error(speed_f, "bad " + key_of(m, speed_f) + ": " + e.text);
    case Field::kInitialPstate:
      throw m.error(*pstate_f, "bad " + key_of(m, *pstate_f) + ": " + e.text);
    case Field::kPower: {
      // The list form points at the offending triple; the string form at the whole value.
      const bool item = e.pstate >= 0 && static_cast<size_t>(e.pstate) < power_items.size();
      const YamlField at = item ? YamlField{power_f->key, power_f->key_node, power_items[static_cast<size_t>(e.pstate)]}
                                : *power_f;
      throw m.error(at, "bad " + key_of(m, *power_f) + ": " + e.text);
    }
    case Field::kPowerOff:
      throw m.error(*off_f, "bad " + key_of(m, *off_f) + ": " + e.text);
    case Field::kBoot:
    case Field::kShutdown:
      throw m.error(*transition_f, "bad " + key_of(m, *transition_f) + ": " + e.text);
    case Field::kCStates:
      throw m.error(*cstates_f, "bad " + key_of(m, *cstates_f) + ": " + e.text);
  }
  for (const YamlField* needs : {off_f, transition_f, cstates_f})
    if (needs && !power_f) throw m.error(*needs, key_of(m, *needs) + " needs 'power' too (the power per pstate)");
  return p;
}

int add_cpu_profile_if_needed(Platform& p, CpuProfile profile) {
  if (profile.pstates() == 1 && !profile.has_power()) return -1;
  return p.add_cpu_profile(std::move(profile));
}

std::pair<double, double> read_yaml_link_power(const YamlMap& m, const YamlField& f) {
  std::pair<double, double> w;
  if (f.value.IsScalar()) {
    std::string why;
    auto range = parse_wattage_range(f.value.Scalar(), &why);
    if (!range) throw m.error(f, "bad " + key_of(m, f) + ": " + why);
    w = *range;
  } else if (f.value.IsSequence() && f.value.size() == 2) {
    const std::string expected = "a number of watts (" + key_of(m, f) + ": [idle, busy])";
    w = {watts_at(m, f, f.value[0], expected), watts_at(m, f, f.value[1], expected)};
  } else {
    throw m.error(f, key_of(m, f) + " must be [idle, busy] in watts (e.g. [10, 20]) or \"Idle:Busy\", got " +
                         describe_node(f.value) +
                         (f.value.IsSequence() ? " with " + std::to_string(f.value.size()) + " values" : ""));
  }
  if (std::string bad = check_link_power(w.first, w.second); !bad.empty())
    throw m.error(f, "bad " + key_of(m, f) + ": " + bad);
  return w;
}

}  // namespace simfab
