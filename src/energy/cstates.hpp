// C-states: an optional idle model (issue 27; seed 001 §2.13 lists them as not modelled, §5 as
// future work). A host whose platform lists C-states (cstates="C1:80:2us, C6:45:300us", shallowest
// first, each with its power and the latency of entering and leaving it) does not idle at a flat
// P_idle: in each idle period of length L (no computation on the host) its processor enters one
// C-state, chosen as Linux's menu governor does, by the idle length it expects:
//     k = the deepest state whose target residency, residency x latency_k (energy/cstate-residency,
//         default 2), is at most the predicted length; none when no state qualifies
//     predicted length = the host's previous idle period (menu, the default: what a real governor
//         can know) or this one (energy/cstates=oracle: the best any governor could do)
//     energy of the period = P_idle x min(L, latency_k) + P_k x max(0, L - latency_k)
// (entering and leaving take latency_k at idle power; a period shorter than that never reaches the
// state). The meter adds energy_change() = (P_k - P_idle) x max(0, L - latency_k) <= 0 per period.
// Energy only: leaving a C-state does not delay the next computation. Under energy/polling=busy a
// waiting rank spins on its core, which never idles, so C-states apply with energy/polling=idle
// only. Cost: O(C-states) per idle period.
#pragma once

#include <vector>

#include "platform/cpu_profile.hpp"

namespace simfab::energy {

enum class CStateRule { kOff, kMenu, kOracle };

// The C-state (index into `states`) for an idle period predicted to last `predicted_s`, or -1.
int choose_cstate(const std::vector<CState>& states, double predicted_s, double residency);
// The energy an idle period of `length_s` saves (a negative change) in state `k` (-1: none)
// against idle power `idle_w`.
double cstate_energy_change(const std::vector<CState>& states, int k, double length_s, double idle_w);

// Per host: the previous idle period (the menu rule's prediction) and the energy change so far.
class CStateIdle {
 public:
  CStateIdle(CStateRule rule, double residency, size_t hosts) : rule_(rule), residency_(residency), last_(hosts, 0.0) {}
  bool on() const { return rule_ != CStateRule::kOff; }
  // An idle period of host `h` (C-states `states`, idle power idle_w) of length_s seconds: its
  // energy change against flat idle power.
  double idle_period(size_t h, const std::vector<CState>& states, double length_s, double idle_w);

 private:
  CStateRule rule_;
  double residency_;
  std::vector<double> last_;  // per host: its previous idle period, s
};

}  // namespace simfab::energy
