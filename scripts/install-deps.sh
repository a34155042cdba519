#!/usr/bin/env bash
# Installs what simfab needs to build and test, from Debian's archive only.
#   scripts/install-deps.sh          build, run and test (make run, make test)
#   scripts/install-deps.sh --fuzz   also clang's libFuzzer (make fuzz)
# Idempotent: packages already present are skipped, so `make run` / `make test` stay fast.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libyaml-cpp-dev       # native YAML platform files
  libexpat1-dev         # SimGrid platform XML
  nlohmann-json3-dev    # JSON results
  libgtest-dev          # unit tests (GoogleTest under ctest)
  python3               # golden-file and CLI tests
  libboost-context-dev  # online mode: ranks run as fibers (Boost.Context)
  libsimgrid-dev        # SimGrid 3.32's smpirun/smpicc: the simgrid_validation_quick test
  openmpi-bin           # real MPI runs: capture (libsimfab-capture.so), calibration, validation/real
  libopenmpi-dev        # mpicc and mpi.h for the capture library and the calibration program
)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-14-dev)  # libFuzzer and its sanitizer runtimes
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
