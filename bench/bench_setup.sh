# Shared set-up of the benchmarks that use a build tree's tools (nic_bench.sh, switch_bench.sh,
# hybrid_bench.sh):
#   source "$HERE/bench_setup.sh" NAME "TOOL..." "$@"
# reads [BUILD_DIR] [--reps N] (BUILD_DIR defaults to the repo's build/, N to 3), checks the
# tools are in BUILD_DIR, makes TMP under $SIMFAB_BENCH_TMP (default /tmp; removed at exit) and a
# private copy of simfab in it (a rebuild during the run does not disturb it). Sets BUILD, REPS,
# TMP and SIMFAB.
bench_name="$1"
bench_tools="$2"
shift 2
BUILD="$(dirname "${BASH_SOURCE[0]}")/../build"
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then BUILD="$1"; shift; fi
REPS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS="$2"; shift ;;
    *) echo "$bench_name: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
BUILD="$(cd "$BUILD" && pwd)"
for tool in $bench_tools; do
  [ -x "$BUILD/$tool" ] || { echo "$bench_name: no $tool in $BUILD (build first)" >&2; exit 2; }
done
TMP="$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-${bench_name%.sh}.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
cp "$BUILD/simfab" "$TMP/simfab"
echo "simfab: $BUILD/simfab (modified $(date -r "$BUILD/simfab" '+%F %T'))"
SIMFAB="$TMP/simfab"
