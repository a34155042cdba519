// FlowParams: what distinguishes the two flow-level models FlowNetwork runs (one engine, two
// parameter sets, each read from its own configuration keys).
//
// network/model=flow (seed 003's hybrid model, flow/* keys): every flow has weight 1; a size
// factor below 1 caps the flow's rate at bw_factor * (slowest link); messages are ordered per
// stream; no cross traffic, no envelope bytes, no TCP window unless flow/tcp-gamma is set.
//
// network/model=smpi (SimGrid 3.32's SMPI network model: CM02 with SMPI's factors, as smpirun
// runs it; keys under SimGrid's own names, so a SimGrid user's --cfg lines carry over). Each rule
// below was measured against smpirun -replay 3.32 on one- and two-link platforms (the flow
// model's unit tests and validation/simgrid/ repeat the measurements):
//   payload      a message of k bytes moves k + 16 bytes ("MPI envelope": tag, source,
//                communicator); the factor tables are looked up with k + 16, exclusive
//                thresholds (piecewise.hpp, Dialect::kSimGrid).
//   latency      L * lat_factor(k + 16), L = sum of the route's link latencies.
//   rate         the max-min variable v is bounded by the slowest link of the route and by the
//                TCP window network/TCP-gamma / (2 L); the data moves at v * bw_factor(k + 16)
//                (the factor scales progress, not the link share: a factor above 1 makes a
//                message faster than its link).
//   sharing      weighted max-min: v_i proportional to 1 / penalty_i, penalty = L + sum over the
//                route's links of weight-S / bandwidth (network/weight-S = 8775); a route without
//                latency has penalty 1 (SimGrid creates the variable with weight 1 and never
//                applies the penalty).
//   cross traffic (network/crosstraffic = yes) each message also loads its reverse route at
//                5 % of v: usage 1 on the route's links, +0.05 on the links of the route from the
//                destination back (so a shared link crossed both ways counts 1.05; on a fatpipe
//                the larger of the two applies).
//   loopback     a host's message to itself with no route in the platform uses SimGrid's default
//                loopback: a fatpipe of network/loopback-bw (10 GBps) and network/loopback-lat (0).
//   protocols    k < smpi/async-small-thresh (0) eager; else k < smpi/send-is-detached-thresh
//                (65536) detached; else synchronous. Data of matched messages is not held in
//                the stream order (SimGrid matches at post time; the data then moves freely).
//   overheads    smpi/os, smpi/ois, smpi/or: "threshold:seconds:seconds_per_byte;..." per raw
//                size, exclusive thresholds (all 0 by default). As smpi_request.cpp does, a
//                blocking send pays os and a receive pays or only for a detached message
//                (below smpi/send-is-detached-thresh); an MPI_Isend pays ois whatever its size.
//                (SimGrid also charges os to an MPI_Ssend of any size; simfab does not yet.)
#pragma once

#include <string>

#include "core/config.hpp"
#include "net/flow/piecewise.hpp"

namespace simfab::flow {

struct FlowParams {
  const char* model = "flow";
  PiecewiseLinear os = PiecewiseLinear::constant(0), ois = PiecewiseLinear::constant(0),
                  orr = PiecewiseLinear::constant(0);
  PiecewiseLinear lat_factor = PiecewiseLinear::constant(1), bw_factor = PiecewiseLinear::constant(1);
  Bytes eager_below = 0;     // size < eager_below: eager (0: none)
  Bytes detached_below = 0;  // else size < detached_below: detached; else synchronous
  double tcp_gamma = 0;     // bytes; 0 = no window bound
  bool factor_scales_rate = false;  // smpi: progress = v * bw_factor; flow: v <= bw_factor * min bw
  double cross_traffic = 0;         // usage of the reverse route's links (smpi: 0.05)
  bool penalty_weights = false;     // smpi: weight 1 / (L + sum weight_s / bw); flow: weight 1
  double weight_s = 0;
  Bytes envelope = 0;               // bytes added to every message
  bool order_matched_data = true;   // flow: every transfer in stream order
  bool overheads_if_detached = false;  // smpi: os and or only below detached_below
  double loopback_bw = 0;           // bytes/s; 0 = a self message without route is free
  SimTime loopback_latency;
};

// The flow model's parameters from the flow/* keys; the smpi model's from SimGrid's keys.
// Throw InputError naming the key whose value is malformed.
FlowParams flow_params(const Config& cfg);
FlowParams smpi_params(const Config& cfg);

void register_flow_keys(Config& cfg);
void register_smpi_keys(Config& cfg);

}  // namespace simfab::flow
