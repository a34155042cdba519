// `simfab calibrate`: from measurements of a real MPI installation to a simfab platform.
//
//   simfab calibrate program [-o FILE]
//       The MPI calibration program (C, MPI only; apps/calibrate/simfab_calibrate.c, embedded at
//       build time): build it with mpicc, run it on two ranks (`mpirun -np 2 ./simfab_calibrate -o
//       samples.csv`), one per host of the pair to model.
//   simfab calibrate fit SAMPLES.csv [-o PLATFORM.yaml] [--plot FIT.svg] [--json FIT.json]
//                        [--hosts N] [--breakpoints auto|B1,B2,...] [--max-segments K]
//                        [--min-samples M] [--weights relative|ordinary] [--outlier-factor X]
//                        [--quiet]
//       Fits simfab's flow model (os/or/ois tables, latency and bandwidth factors, protocol
//       thresholds), the platform link, its limiter, the host speed and LogGOPS to the
//       measurements (src/calibrate/calibration_fit.hpp has the method), prints a summary and
//       writes the platform (a cluster of N hosts, default 2, whose config: carries the fitted
//       keys), the plot and the JSON, each only on success.
//   simfab calibrate regions REFERENCE.csv MEASURED.csv [-o FACTORS.csv] [--quiet]
//       Seed 001 §2.11's per-region factors: for each code region both runs' regions.csv (--stats)
//       list, its mean time per execution in REFERENCE over MEASURED (mpi/region_times.hpp), as
//       the `"region",factor` CSV that --cfg cpu/region-factors reads.
// Bad input (options, a malformed CSV, a segment without enough measurements) exits 2.
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_calibrate(const std::vector<std::string>& args);

}  // namespace simfab
