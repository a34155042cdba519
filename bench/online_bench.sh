#!/usr/bin/env bash
# Online-mode benchmark (issue 7): the same MPI program, examples/mpi/allreduce_loop.c (ITERS
# iterations of 1 Mflop of declared computation and an MPI_Allreduce of 1000 doubles), run by
# `simfab exec` (built with simfab-cc) and by SimGrid 3.32's smpirun (built with smpicc, computation
# declared with smpi_execute_flops, not benchmarked), on the same SimGrid XML cluster
# (`gen_schedule platform-xml N`) and hostfile, both with SimGrid's SMPI network model and its
# default collective selector (simfab: --cfg network/model=smpi, online/compute=declared).
#
#   bash bench/online_bench.sh BUILD_DIR [--no-peer] [--quick]
#     --no-peer  simfab only          --quick  N <= 1024 only
#
# Per N (256, 1024, 4096 ranks), one row: simfab's wall time and peak RSS (GNU time, the whole
# process: program loading included), SimGrid's, their ratios, the predicted time per iteration
# each program prints (MPI_Wtime), and their relative difference; at the largest N both runs are
# repeated under bench/peak_memory.py for their peak PSS (physical memory: simfab's program copies
# share pages, which RSS counts once per copy). Then the same for bench/halo3d.c, a hydrodynamics-
# style halo-exchange proxy, at 512 ranks with measured computation (both simulators' default);
# 65,536 ranks of the allreduce loop (simfab only: SimGrid stops near 6,500) and of a program that
# only calls MPI_Init/MPI_Finalize (ranks per GiB, start-up time per rank); the MPI call overhead
# per simulated message (bench/online_pingpong.c: 400k messages of 8 B), and the fiber
# microbenchmark (build/fiber_bench: context switch, memory per fiber).
# Environment: SIMFAB_BENCH_TIMEOUT (seconds per run, default 600), SIMFAB_ONLINE_SIZES (the N of
# the allreduce table, default "256 1024 4096"; --quick: "256 1024").
set -u
build=$(cd "${1:?usage: online_bench.sh BUILD_DIR [--no-peer] [--quick]}" && pwd)
shift
peer=1
sizes=${SIMFAB_ONLINE_SIZES:-"256 1024 4096"}
for a in "$@"; do
  case "$a" in
    --no-peer) peer=0 ;;
    --quick) sizes="256 1024" ;;
    *) echo "online_bench.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
timeout=${SIMFAB_BENCH_TIMEOUT:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $peer -eq 1 ] && ! command -v smpicc > /dev/null; then
  echo "online_bench.sh: smpicc not found (bash bench/simgrid_install.sh installs SimGrid 3.32); running simfab only"
  peer=0
fi

"$build/simfab-cc" -O2 -o "$tmp/app_simfab" "$root/examples/mpi/allreduce_loop.c" || exit 1
"$build/simfab-cc" -O2 -o "$tmp/halo_simfab" "$root/bench/halo3d.c" -lm || exit 1
if [ $peer -eq 1 ]; then
  (cd "$tmp" && smpicc -O2 -DUSE_SMPI -o app_smpi "$root/examples/mpi/allreduce_loop.c" 2> smpicc.log &&
    smpicc -O2 -o halo_smpi "$root/bench/halo3d.c" -lm 2>> smpicc.log) || {
    echo "online_bench.sh: smpicc failed:"; cat "$tmp/smpicc.log"; exit 1; }
fi
mib() { python3 -c "print('%.0f' % ($1 / 1024))"; }
pss_pair() {  # pss_pair LABEL SIMFAB_CMD... -- SMPI_CMD...: peak RSS and PSS of both, sampled
  local label=$1 sf=() sg=()
  shift
  while [ "$1" != "--" ]; do sf+=("$1"); shift; done
  shift
  sg=("$@")
  python3 "$root/bench/peak_memory.py" "$tmp/sf.mem" --timeout "$timeout" -- "${sf[@]}" > /dev/null 2>&1
  read -r _ sf_r sf_p < "$tmp/sf.mem"
  local line="$label, peak memory sampled by bench/peak_memory.py: simfab RSS $(mib "$sf_r") MiB, PSS $(mib "$sf_p") MiB"
  if [ $peer -eq 1 ]; then
    (cd "$tmp" && python3 "$root/bench/peak_memory.py" "$tmp/sg.mem" --timeout "$timeout" -- "${sg[@]}" > /dev/null 2>&1)
    read -r _ sg_r sg_p < "$tmp/sg.mem"
    line="$line; SimGrid RSS $(mib "$sg_r") MiB, PSS $(mib "$sg_p") MiB (PSS ratio $(python3 -c "print('%.1f' % ($sg_p / $sf_p))")x)"
  fi
  echo "$line"
}

measure() {  # measure OUT_PREFIX CMD... -> OUT_PREFIX.out, OUT_PREFIX.time ("wall rss_kib")
  local out=$1
  shift
  /usr/bin/time -f "%e %M" -o "$out.time" timeout "$timeout" "$@" > "$out.out" 2> "$out.err"
  return $?
}
per_iter() { sed -n 's/.* \([0-9.e+-]*\) s per iteration.*/\1/p' "$1" | head -n 1; }

printf "%6s  %10s %10s  %10s %10s  %8s %8s  %14s %14s %10s\n" N "simfab s" "simfab MiB" "SimGrid s" "SimGrid MiB" \
  "wall x" "mem x" "simfab s/iter" "SimGrid s/iter" "rel. diff"
iters=10
for n in $sizes; do
  "$build/gen_schedule" platform-xml "$n" > "$tmp/p.xml"
  "$build/gen_schedule" hostfile "$n" > "$tmp/h.txt"
  measure "$tmp/sf" "$build/simfab" exec -np "$n" --platform "$tmp/p.xml" --hostfile "$tmp/h.txt" \
    --cfg network/model=smpi --cfg online/compute=declared --quiet "$tmp/app_simfab" 1000 $iters
  sf_rc=$?
  read -r sf_wall sf_rss < "$tmp/sf.time"
  sf_iter=$(per_iter "$tmp/sf.out")
  if [ $sf_rc -ne 0 ] || ! grep -q ": OK;" "$tmp/sf.out"; then
    echo "N=$n: simfab failed (status $sf_rc):"; head -5 "$tmp/sf.err"; continue
  fi
  sg_wall="-"; sg_mib="-"; sg_iter="-"; ratio="-"; mem_ratio="-"; diff="-"
  if [ $peer -eq 1 ]; then
    (cd "$tmp" && measure "$tmp/sg" smpirun -np "$n" -platform "$tmp/p.xml" -hostfile "$tmp/h.txt" \
      --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:dlopen --log=root.thres:critical \
      ./app_smpi 1000 $iters)
    sg_rc=$?
    if [ $sg_rc -eq 0 ] && grep -q ": OK;" "$tmp/sg.out"; then
      read -r sg_wall sg_rss < "$tmp/sg.time"
      sg_iter=$(per_iter "$tmp/sg.out")
      sg_mib=$(python3 -c "print('%.0f' % ($sg_rss / 1024))")
      ratio=$(python3 -c "print('%.1f' % ($sg_wall / max($sf_wall, 1e-3)))")
      mem_ratio=$(python3 -c "print('%.1f' % ($sg_rss / $sf_rss))")
      diff=$(python3 -c "print('%.2e' % (($sf_iter - $sg_iter) / $sg_iter))")
    else
      sg_wall="failed($sg_rc)"
      head -3 "$tmp/sg.err" | sed 's/^/    SimGrid: /'
    fi
  fi
  printf "%6s  %10s %10.0f  %10s %10s  %8s %8s  %14s %14s %10s\n" "$n" "$sf_wall" "$(python3 -c "print($sf_rss / 1024)")" \
    "$sg_wall" "$sg_mib" "$ratio" "$mem_ratio" "$sf_iter" "$sg_iter" "$diff"
done
last=${sizes##* }
if [ -n "$last" ]; then
  "$build/gen_schedule" platform-xml "$last" > "$tmp/p.xml"
  "$build/gen_schedule" hostfile "$last" > "$tmp/h.txt"
  pss_pair "allreduce loop, N=$last" "$build/simfab" exec -np "$last" --platform "$tmp/p.xml" --hostfile "$tmp/h.txt" \
    --cfg network/model=smpi --cfg online/compute=declared --quiet "$tmp/app_simfab" 1000 $iters -- \
    smpirun -np "$last" -platform "$tmp/p.xml" -hostfile "$tmp/h.txt" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/privatization:dlopen --log=root.thres:critical ./app_smpi 1000 $iters
fi

# The halo-exchange proxy, measured computation (each simulator's default), 20 steps of 16^3 cells.
echo
halo_per_step() { sed -n 's/.* \([0-9.e+-]*\) s per step.*/\1/p' "$1" | head -n 1; }
n=512
"$build/gen_schedule" platform-xml $n > "$tmp/p.xml"
"$build/gen_schedule" hostfile $n > "$tmp/h.txt"
measure "$tmp/hf" "$build/simfab" exec -np $n --platform "$tmp/p.xml" --hostfile "$tmp/h.txt" \
  --cfg network/model=smpi --quiet "$tmp/halo_simfab"
read -r hf_wall hf_rss < "$tmp/hf.time"
line="halo3d, $n ranks, measured compute: simfab $hf_wall s, $(mib "$hf_rss") MiB ($(grep -o 'VERIFIED\|FAILED' "$tmp/hf.out"))"
if [ $peer -eq 1 ]; then
  (cd "$tmp" && measure "$tmp/hg" smpirun -np $n -platform "$tmp/p.xml" -hostfile "$tmp/h.txt" \
    --cfg=smpi/privatization:dlopen --log=root.thres:critical ./halo_smpi)
  read -r hg_wall hg_rss < "$tmp/hg.time"
  line="$line; SimGrid $hg_wall s, $(mib "$hg_rss") MiB ($(grep -o 'VERIFIED\|FAILED' "$tmp/hg.out")): wall $(python3 -c "print('%.1f' % ($hg_wall / $hf_wall))")x, RSS $(python3 -c "print('%.1f' % ($hg_rss / $hf_rss))")x"
fi
echo "$line"
pss_pair "halo3d, $n ranks" "$build/simfab" exec -np $n --platform "$tmp/p.xml" --hostfile "$tmp/h.txt" \
  --cfg network/model=smpi --quiet "$tmp/halo_simfab" -- \
  smpirun -np $n -platform "$tmp/p.xml" -hostfile "$tmp/h.txt" --cfg=smpi/privatization:dlopen \
  --log=root.thres:critical ./halo_smpi

# MPI call overhead per simulated message, and ranks per GiB of a program that allocates little.
"$build/simfab-cc" -O2 -o "$tmp/pp" "$root/bench/online_pingpong.c" || exit 1
rounds=200000
measure "$tmp/pp" "$build/simfab" exec -np 2 --cfg online/compute=declared --quiet "$tmp/pp" $rounds
read -r pp_wall pp_rss < "$tmp/pp.time"
echo
python3 -c "print('MPI call overhead: %.2f us of wall time per simulated message (%d messages in %.2f s, 8 B ping-pong, declared compute)' % ($pp_wall / (2 * $rounds) * 1e6, 2 * $rounds, $pp_wall))"
for n in 4096 65536; do  # RSS and wall time from GNU time; PSS sampled (0.25 s) in a second run
  measure "$tmp/idle" "$build/simfab" exec -np $n --cfg online/compute=declared --quiet "$tmp/pp" 0
  read -r idle_wall idle_rss < "$tmp/idle.time"
  python3 "$root/bench/peak_memory.py" "$tmp/idle.mem" --timeout "$timeout" -- \
    "$build/simfab" exec -np $n --cfg online/compute=declared --quiet "$tmp/pp" 0 > /dev/null
  read -r _ _ idle_pss < "$tmp/idle.mem"
  python3 -c "print('$n ranks of a program that only calls MPI_Init/MPI_Finalize: %.2f s, %.1f us of start-up per rank; peak RSS %.0f MiB (%.0f ranks per GiB), sampled PSS %.0f MiB (%.0f ranks per GiB)' % ($idle_wall, $idle_wall / $n * 1e6, $idle_rss / 1024, $n / ($idle_rss / 1048576), $idle_pss / 1024, $n / max($idle_pss / 1048576, 1e-9)))"
done
measure "$tmp/big" "$build/simfab" exec -np 65536 --cfg online/compute=declared --quiet "$tmp/app_simfab" 1000 $iters
read -r big_wall big_rss < "$tmp/big.time"
echo "allreduce loop, 65536 ranks (default cluster, LogGOPS): $big_wall s, $(mib "$big_rss") MiB RSS: $(grep -o ': OK;\|WRONG' "$tmp/big.out" | tr -d ':;') $(per_iter "$tmp/big.out") s per iteration"

if [ -x "$build/fiber_bench" ]; then
  echo
  "$build/fiber_bench"
fi
