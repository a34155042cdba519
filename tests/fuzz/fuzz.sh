#!/usr/bin/env bash
# Coverage-guided fuzzing of simfab's parsers with clang's libFuzzer (+ ASan/UBSan).
#   tests/fuzz/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      targets: goal ti platform capture calibrate otf2 availability
# Seeds come from tests/fuzz/corpus/<target>; the growing corpus lives in tests/fuzz/work/
# (ignored by git). A crash, leak or timeout is written to tests/fuzz/regressions/<target>/, where
# `make test` replays it forever after: fix the bug, keep the input.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-120}
shift || true
targets=${*:-goal ti platform capture calibrate otf2 availability}
build=$root/build-fuzz
mkdir -p "$build/obj" "$root/tests/fuzz/work"
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -I"$root/src"
       -DSIMFAB_VERSION=\"fuzz\" -Wno-unused-command-line-argument)
objs=()
# An object is stale when its source or any header is newer (headers are shared, so any change
# to one rebuilds everything: simple and never wrong).
newest_header=$(cd "$root" && find src -name '*.hpp' -newer "$build/obj/.stamp" 2>/dev/null | head -n 1 || true)
[ -f "$build/obj/.stamp" ] || newest_header=yes
[ -n "$newest_header" ] && rm -f "$build"/obj/*.o
touch "$build/obj/.stamp"
# Online mode (src/online) is no target's concern and needs its own headers and Boost.Context:
# left out. The objects go into an archive, so each target links only what it uses.
for src in $(cd "$root" && find src -name '*.cpp' ! -name '*_test.cpp' ! -path 'src/online/*' | sort); do
  obj="$build/obj/$(echo "$src" | tr / _).o"
  if [ ! -f "$obj" ] || [ "$root/$src" -nt "$obj" ]; then
    clang++ "${flags[@]}" -fsanitize=fuzzer-no-link -c "$root/$src" -o "$obj"
  fi
  objs+=("$obj")
done
rm -f "$build/libsimfab_fuzz.a"
ar rcs "$build/libsimfab_fuzz.a" "${objs[@]}"
status=0
for t in $targets; do
  clang++ "${flags[@]}" -fsanitize=fuzzer "$root/tests/fuzz/fuzz_$t.cpp" "$build/libsimfab_fuzz.a" -lyaml-cpp -lexpat -lotf2 \
      -o "$build/fuzz_$t"
  mkdir -p "$root/tests/fuzz/work/$t" "$root/tests/fuzz/regressions/$t"
  echo "== fuzzing $t for ${secs}s"
  "$build/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$root/tests/fuzz/regressions/$t/" \
      "$root/tests/fuzz/work/$t" "$root/tests/fuzz/corpus/$t" 2>&1 | tail -n 12 || status=1
done
exit $status
