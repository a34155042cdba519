#!/usr/bin/env bash
# Stability of measured computation in simfab exec (issue 26): bench/memory_churn.c (per-iteration
# MB-sized temporaries, as codes with per-step work arrays) on 8 ranks, run 5 times under
# online/compute=measured; prints each run's predicted time per iteration and the spread
# (max/min - 1, the issue's target: within 5 %); then the machine's own noise floor for the same
# code: the program run natively 5 times as one Open MPI process (no simulator: a rank's iteration
# as the hardware runs it), with its spread, and once with 8 processes for scale. Not a test:
# wall-clock figures depend on the machine's load.
#   bash bench/measured_stability.sh BUILD_DIR [MB] [ITERS]
set -u
build=$(cd "${1:?usage: measured_stability.sh BUILD_DIR [MB] [ITERS]}" && pwd)
mb=${2:-8}
iters=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/simfab-cc" -O2 -o "$tmp/churn" "$root/bench/memory_churn.c" || exit 1
per_iter() { sed -n 's/.*: \([0-9.]*\) s per iteration.*/\1/p'; }
values=()
for run in 1 2 3 4 5; do
  v=$("$build/simfab" exec -np 8 --quiet "$tmp/churn" "$mb" "$iters" | per_iter)
  values+=("$v")
  printf "simfab exec run %d: %s s per iteration\n" "$run" "$v"
done
spread() {
  awk '{ if (NR == 1 || $1 < min) min = $1; if ($1 > max) max = $1 }
    END { printf "spread (max/min - 1): %.1f %%\n", (max / min - 1) * 100 }'
}
printf "%s\n" "${values[@]}" | spread
if command -v mpicc > /dev/null && command -v mpirun > /dev/null; then
  mpicc -O2 -o "$tmp/churn_real" "$root/bench/memory_churn.c" || exit 1
  real=()
  for run in 1 2 3 4 5; do
    v=$(mpirun --allow-run-as-root -np 1 "$tmp/churn_real" "$mb" "$iters" | per_iter)
    real+=("$v")
    printf "native, 1 Open MPI process, run %d: %s s per iteration\n" "$run" "$v"
  done
  printf "%s\n" "${real[@]}" | spread | sed 's/^/native /'
  mpirun --allow-run-as-root --oversubscribe -np 8 "$tmp/churn_real" "$mb" "$iters" |
    sed 's/^/Open MPI, 8 processes on this machine: /'
fi
