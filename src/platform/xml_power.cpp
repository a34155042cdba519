// Pstates and energy properties of SimGrid platform XML (xml_platform.hpp has the format):
//   <host speed="s0,s1,..." pstate="k">, <cluster speed="s0,s1,...">   the pstates
//   <prop id="wattage_per_state" value="Idle:OneCore:AllCores, ..."/>   in <host> or <cluster>
//   <prop id="wattage_off" value="W"/>                                   in <host> or <cluster>
//   <prop id="wattage_range" value="Idle:Busy"/>                         in <link>
//   <prop id="boot_time" value="120s"/>, boot_energy (J), shutdown_time, shutdown_energy
//                                  in <host> or <cluster>: simfab's, for switching hosts off and on
//                                  (cpu/host_power.hpp); they need wattage_per_state
//   <prop id="cstates" value="C1:80:2us, C6:45:300us"/>  in <host> or <cluster>: simfab's idle
//                                  states (energy/cstates.hpp); it needs wattage_per_state
//   <prop id="noise_class" value="io"/>   in <host> or <cluster>: simfab's OS-noise class of its
//                                  hosts (Host::noise_class, noise/noise_classes.hpp); not energy,
//                                  but read with these props because it applies to the same hosts
// and SimGrid's older names watt_per_state, watt_off, watt_range. Props are children, read after
// the host, cluster or link is built: the profile (or the link's power) is applied at the end tag.
// A host with one speed and no power keeps cpu_profile = -1; the hosts of one cluster share one
// profile. Errors are InputErrors at the prop that is wrong (at the start tag for the pstate),
// naming the element and the attribute, with check_cpu_profile's / check_link_power's text.
#include <utility>

#include "platform/xml_builder.hpp"

namespace simfab {

std::vector<double> XmlBuilder::pstate_speeds(std::string_view el, const std::string& value) const {
  // One speed must be positive; in a list, a pstate may have speed 0 (SimGrid's "0f" booting or
  // off state, energy_boot.xml), as long as the host does not start in it (check_cpu_profile).
  const std::vector<std::string> fields = split_fields(value, ',');
  std::vector<double> speeds;
  for (const std::string& s : fields)
    speeds.push_back(fields.size() == 1 ? speed(el, "speed", s) : quantity(el, "speed", s, kSpeedUnits, "speed", false));
  return speeds;
}

void XmlBuilder::open_cpu(std::string owner, std::vector<double> speeds, int initial_pstate) {
  PendingCpu c;
  c.owner = std::move(owner);
  c.loc = here();
  c.first = platform_.host_count();
  c.profile.speeds = std::move(speeds);
  c.profile.initial_pstate = initial_pstate;
  cpu_ = std::move(c);
}

void XmlBuilder::read_energy_prop(const std::string& id, const std::string& value) {
  const bool on_link = stack_.back() == "link";
  if (on_link) {
    if (!link_power_ || (id != "wattage_range" && id != "watt_range")) return;
    PendingLink& l = *link_power_;
    if (l.prop)
      throw error("'" + id + "' of " + l.owner + " repeats '" + l.prop->key + "' given at " + where(l.prop->loc) +
                  "; give it once (watt_range is SimGrid's older name of wattage_range)");
    std::string why;
    auto range = parse_wattage_range(value, &why);
    if (!range) throw error("bad '" + id + "' of " + l.owner + ": " + why);
    if (std::string bad = check_link_power(range->first, range->second); !bad.empty())
      throw error("bad '" + id + "' of " + l.owner + ": " + bad);
    l.range = range;
    l.prop = PendingCpu::Prop{id, here()};
    return;
  }
  if (!cpu_) return;
  PendingCpu& c = *cpu_;
  const bool per_state = id == "wattage_per_state" || id == "watt_per_state";
  const bool off = id == "wattage_off" || id == "watt_off";
  if (id == "boot_time" || id == "boot_energy" || id == "shutdown_time" || id == "shutdown_energy") {
    PowerTransition& t = id[0] == 'b' ? c.profile.boot : c.profile.shutdown;
    if (id.ends_with("_time")) {
      t.time_s = latency("prop", id, value).seconds();
    } else {
      auto j = parse_watts(value);  // a plain decimal number
      if (!j) throw error("bad '" + id + "' '" + value + "' of " + c.owner + "; expected a number of joules, e.g. 1500");
      t.energy_j = *j;
    }
    if (!c.on_off) c.on_off = PendingCpu::Prop{id, here()};
    return;
  }
  if (id == "cstates") {
    std::string why;
    auto cs = parse_cstates(value, &why);
    if (!cs) throw error("bad 'cstates' of " + c.owner + ": " + why);
    c.profile.cstates = std::move(*cs);
    if (!c.on_off) c.on_off = PendingCpu::Prop{id, here()};
    return;
  }
  if (id == "noise_class") {  // not energy, but a property of the same hosts
    if (!c.noise_class.empty()) throw error("'noise_class' of " + c.owner + " is given twice; give it once");
    if (std::string why = Platform::noise_class_name_error(value); !why.empty())
      throw error("bad 'noise_class' '" + value + "' of " + c.owner + ": " + why);
    c.noise_class = value;
    return;
  }
  if (!per_state && !off) return;  // other properties mean nothing to simfab
  std::optional<PendingCpu::Prop>& slot = per_state ? c.power : c.off;
  if (slot)
    throw error("'" + id + "' of " + c.owner + " repeats '" + slot->key + "' given at " + where(slot->loc) +
                "; give it once (" + (per_state ? "watt_per_state" : "watt_off") + " is SimGrid's older name of " +
                (per_state ? "wattage_per_state" : "wattage_off") + ")");
  if (per_state) {
    std::string why;
    auto power = parse_watt_per_state(value, &why);
    if (!power) throw error("bad '" + id + "' of " + c.owner + ": " + why);
    c.profile.power = std::move(*power);
  } else {
    auto w = parse_watts(value);
    if (!w) throw error("bad '" + id + "' '" + value + "' of " + c.owner + "; expected a number of watts, e.g. 10");
    c.profile.power_off_w = *w;
  }
  slot = PendingCpu::Prop{id, here()};
}

void XmlBuilder::finish_cpu() {
  if (!cpu_) return;
  PendingCpu c = std::move(*cpu_);
  cpu_.reset();
  using Field = CpuProfileError::Field;
  const CpuProfileError e = diagnose_cpu_profile(c.profile);
  if (e.field != Field::kNone) {
    // Speeds and the pstate are checked at the start tag; what is left is about the props.
    const bool transition = e.field == Field::kBoot || e.field == Field::kShutdown || e.field == Field::kCStates;
    const std::optional<PendingCpu::Prop>& at = e.field == Field::kPowerOff ? c.off : transition ? c.on_off : c.power;
    if (at) throw error_at(at->loc, "bad '" + at->key + "' of " + c.owner + ": " + e.text);
    throw error_at(c.loc, "bad 'speed' of " + c.owner + ": " + e.text);
  }
  for (const std::optional<PendingCpu::Prop>* needs : {&c.off, &c.on_off})
    if (*needs && !c.power)
      throw error_at((*needs)->loc, "'" + (*needs)->key + "' of " + c.owner +
                                        " needs the power per pstate too: add <prop id=\"wattage_per_state\" "
                                        "value=\"Idle:OneCore:AllCores, ...\"/>");
  if (!c.noise_class.empty())
    for (HostId h = c.first; h < platform_.host_count(); ++h) platform_.set_noise_class(h, c.noise_class);
  if (c.profile.pstates() == 1 && !c.profile.has_power()) return;  // one speed, no power: no profile
  const int profile = platform_.add_cpu_profile(std::move(c.profile));
  for (HostId h = c.first; h < platform_.host_count(); ++h) platform_.set_cpu_profile(h, profile);
}

void XmlBuilder::finish_link_power() {
  if (!link_power_) return;
  PendingLink l = std::move(*link_power_);
  link_power_.reset();
  if (l.range) platform_.set_link_power(l.link, l.range->first, l.range->second);
}

}  // namespace simfab
