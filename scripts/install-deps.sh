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
  gfortran              # simfab-fc and mpif90: the Fortran programs of the exec and hybrid tests
  autoconf automake     # tests/autotools: a configure-based project built with simfab-cc
  netpipe-openmpi       # NPmpi, a real third-party MPI program: the hybrid tests run it
  hpcc                  # HPC Challenge (HPL and more), ditto
  libotf2-trace-dev     # OTF2 archives: simfab run --otf2, convert --otf2, --otf2-out
  otf2-tools            # otf2-print checks the archives simfab writes
  python3-otf2          # the OTF2 tests write archives with an independent writer (Debian's python3)
  pajeng                # pj_dump checks the Paje traces simfab writes (--paje)
  chromium              # headless browser test of the HTML report (playwright-core drives it)
)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-14-dev)  # libFuzzer and its sanitizer runtimes
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The HTML report's chart library (bundled into simfab at build time) and playwright-core for its
# browser test, from the npm registry with the machine's Node.js, pinned by web/package-lock.json.
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ -f "$here/web/package-lock.json" ] && [ ! -f "$here/web/node_modules/.package-lock.json" ]; then
  command -v npm >/dev/null || { echo "install-deps: npm is needed for web/ (the HTML report)" >&2; exit 1; }
  (cd "$here/web" && npm ci --no-audit --no-fund --loglevel=error)
fi
