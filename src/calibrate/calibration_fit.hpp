// From calibration measurements (calibration_samples.hpp) to the parameters of simfab's network
// models: the flow model's size tables and protocol thresholds (seed 003 §IV-A, net/flow/
// flow_network.hpp), its platform link and limiter (seed 003 §IV-B), LogGOPS (seed 004 §2.1,
// §5.3) and the host speed.
//
// The model being calibrated (net/flow/flow_network.hpp) charges a k-byte message
//   sender:    os(k) for MPI_Send, ois(k) for MPI_Isend, before the data leaves
//   network:   T(k) = L * lat_factor(k) + k / (B * bw_factor(k))       (one flow alone)
//   receiver:  or(k) after the data has arrived
// and sends it in one of three protocols: asynchronous (k <= S_a: the data leaves at once),
// detached (S_a < k <= S_d: the sender returns, the data leaves when the receive is posted),
// synchronous (k > S_d: as detached, but the send returns when the data has arrived).
//
// 1. Outliers. A measurement more than outlier_factor times the median of its experiment at its
//    size (with 3 or more there) is dropped: a descheduled process, not the MPI library.
//    Best of the repetitions (keep_best, the default): of the measurements of one experiment at
//    one size, only the fastest is fitted, as seed 003 keeps the best of 5 runs; noise on a
//    shared machine only ever adds time. Spread: per experiment, the median over its sizes of
//      (median - best) / best     of the repetitions at that size (2 or more),
//    reported with the fit; fit_calibration refuses (InputError) a fit whose send, recv or
//    pingpong spread exceeds max_spread: a busy machine, whose platform would mislead.
// 2. Protocols, from late_recv (the receive posted D late) and send (posted early), per size:
//      waited     late - send >= D/2          (the send sat out the receiver's delay)
//      returned   late < D/2                  (it returned before the receive existed)
//      otherwise  undecided (a transfer as long as D hides it) and ignored;
//    S_d = the boundary that misclassifies fewest decided sizes (returned below, waited above;
//    reported as round_boundary between the two sizes around it). Among sizes <= S_d, a message
//    whose data waits for the receive has recv ~ T + or = pingpong/2 - os, an asynchronous one
//    recv = or:  rho(k) = recv / (pingpong/2 - send) >= 0.8 marks detached, and S_a is the
//    boundary that misclassifies fewest of them. A detached range with fewer than min_samples
//    measurements is dropped (S_a = S_d). Without late_recv every size is asynchronous.
// 3. Segments: send, recv, isend and pingpong/2 are fitted jointly (segmented_fit.hpp), S_a and
//    S_d being forced boundaries (or exactly the user's breakpoints, plus S_a and S_d).
// 4. Per segment, with the fitted lines S (send), R (recv), P (pingpong / 2), I (isend):
//      asynchronous   os = S         or = R                   T = P - S - R
//      detached       os = S         or = the last asynchronous segment's or (0 without one)
//                                                             T = R - or
//      synchronous    os = P - R     or = P - S               T = S + R - P
//    (synchronous: send = os + T, recv = T + or, pingpong/2 = os + T + or, with both receives
//    posted; detached: recv = T + or cannot tell T from or, hence the convention), ois = I.
//    When a synchronous segment has S + R < P somewhere (no os, or, T >= 0 reproduce all three:
//    seen with shared-memory rendezvous under noise), SimGrid's convention replaces it:
//    os = or = 0, T = P (SimGrid charges no os/or to synchronous messages), with a note.
//    Each line is made non-negative over the segment's sizes (segmented_fit.hpp non_negative).
//    Then L_j = T_j(0) and B_j = 1 / slope(T_j).
//    SMPI's paper subtracts only 2 or(k) from the round trip; simfab's model also charges os
//    before the data leaves, so its round trip is 2 (os + T + or), and so is the one fitted.
// 5. Platform link (SimGrid's convention): latency = L of the first segment (if > 0, else the
//    smallest positive L), bandwidth = the largest B_j (the flow model caps a message at
//    bw_factor * B and ignores factors above 1, so every factor must be <= 1):
//      lat_factor_j = L_j / latency,     bw_factor_j = B_j / bandwidth.
//    A cluster route crosses two private links (up, down) and no backbone, so each link gets
//    latency / 2.
// 6. Limiter (seed 003 §IV-B): oneway and bidir move k = 4 MiB and share the fixed cost
//    c = t_oneway - k / B(k) (B(k): the fitted bandwidth at k; c >= 0). Each direction of the
//    exchange runs at r_b = k / (t_bidir - c); measured (B_s + B_r) / B = 2 r_b / B(k). In the
//    model each of two opposite flows gets min(bw_factor B, limiter * B / 2), so the platform's
//    limiter_factor = 2 r_b / B, clamped to [0.5, 2] (1: single port, 2: independent directions;
//    below 1 the two directions together move less than one alone, as shared-memory copies on a
//    memory-bound node do: Open MPI's vader on this VM measures 0.83, and HPC Challenge's b_eff
//    exchanges of 2 MB both ways take 393 us where 1 would predict 348 us and 0.83 gives 403 us).
// 7. LogGOPS: o = os_1(0), O = slope of os_1, L = T_1(0) (first segment), G = 1 / B of the last
//    segment, g = median gap, S = S_d (LogGOPS's rendezvous is the synchronous protocol).
// 8. Host speed: the median flop rate of compute (flops / seconds). Reduction cost: the median
//    time per element of reduce, as flops per element at that speed (speed x s/element): what
//    `simfab convert --reduce-flops` takes, so a replayed reduction costs what MPI_Reduce_local
//    cost (memory-bound, unlike the daxpy kernel that sets the speed).
// 9. First calls (issue 28): an MPI library sets a collective up on its first use in a process
//    (Open MPI: 1-15 us per collective on shared memory). Per collective c with first_call and
//    next_call measurements: first_call_s[c] = max(0, first - next) of the fitted (best) ones;
//    the platform carries them as mpi/first-call, which replays charge to each rank's first
//    blocking call of c.
// Required experiments: send, recv, pingpong. Missing optional ones leave defaults and a note.
// Cost: O(N log N) for the per-size medians plus the segmented fit's O(K m^2 S).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibrate/calibration_samples.hpp"
#include "calibrate/segmented_fit.hpp"

namespace simfab::calibrate {

enum class Protocol : uint8_t { kAsynchronous, kDetached, kSynchronous };
const char* protocol_name(Protocol p);

struct CalibrationOptions {
  bool automatic = true;           // find breakpoints; false: exactly `breakpoints` (+ S_a, S_d)
  std::vector<Bytes> breakpoints;  // the last size of a segment, as seed 003 writes them
  size_t max_segments = 6;
  size_t min_samples = 6;          // per experiment and segment
  Weighting weighting = Weighting::kRelative;
  double outlier_factor = 3;       // 0 keeps every measurement
  bool keep_best = true;           // fit the fastest repetition per size; false: every kept one
  double max_spread = 0.5;         // refuse a fit noisier than this (0: never refuse)
};

struct Spread {
  Experiment experiment{};
  double median = 0;  // (median - best) / best of the repetitions, median over the sizes
  double worst = 0;   // the same, largest over the sizes
  size_t sizes = 0;   // sizes with 2 or more repetitions
};

struct SegmentParams {
  Bytes first = 0, last = UINT64_MAX;  // sizes covered
  double lo = 0, hi = 0;               // smallest and largest sample size in it
  Protocol protocol = Protocol::kAsynchronous;
  Line send, recv, isend, half_pingpong;  // the fitted lines (seconds, seconds per byte)
  std::array<double, 4> r2{};             // of send, recv, isend, pingpong
  std::array<size_t, 4> count{};
  Line os, orr, ois, transfer;            // derived (non-negative), what the tables carry
  double latency_s = 0, bandwidth_Bps = 0;  // T = latency + k / bandwidth (bandwidth inf: 0 slope)
  double lat_factor = 1, bw_factor = 1;
};

struct ContentionPoint {
  int pairs = 0;
  double aggregate_Bps = 0;  // p x 4 MiB / median time
};

struct CalibrationFit {
  std::string source;
  size_t samples_used = 0, outliers_dropped = 0;
  std::vector<Bytes> boundaries;
  std::vector<SegmentParams> segments;
  Bytes async_threshold = 0, detached_threshold = 0;  // S_a, S_d
  double link_latency_s = 0, link_bandwidth_Bps = 0;
  std::optional<double> bidir_ratio;     // measured (B_s + B_r) / B
  std::optional<double> limiter_factor;  // the platform's, in [1, 2]
  std::optional<double> host_speed_flops;
  std::optional<double> reduce_flops_per_element;  // needs compute and reduce measurements
  std::vector<ContentionPoint> contention;
  std::vector<std::pair<uint64_t, double>> first_call_s;  // (coll::CollOp number, extra seconds)
  // LogGOPS, in simfab's units (ps, ps per byte, bytes).
  double loggops_L_ps = 0, loggops_o_ps = 0, loggops_g_ps = 0, loggops_G_ps_per_byte = 0, loggops_O_ps_per_byte = 0;
  Bytes loggops_S = 0;
  std::vector<std::string> notes;  // what was assumed, clamped or missing
  std::vector<Spread> spread;      // per experiment with repetitions, in Experiment order
  bool best_of = true;             // the fit used the best repetition per size

  const SegmentParams& segment_of(Bytes k) const;
};

// Throws InputError (at the samples' file) when a required experiment is missing or a segment
// cannot be fitted.
CalibrationFit fit_calibration(const CalibrationSamples& samples, const CalibrationOptions& options);

// The measurements fit_calibration keeps (outliers dropped; with keep_best only the fastest per
// size), per experiment, as points.
std::array<std::vector<Point>, kExperimentCount> kept_points(const CalibrationSamples& samples, double outlier_factor,
                                                             size_t* dropped = nullptr, bool keep_best = false);
// The spread of each experiment's repetitions (after outliers), see above.
std::vector<Spread> measurement_spread(const CalibrationSamples& samples, double outlier_factor);

}  // namespace simfab::calibrate
