# Sourced by the peer benchmarks: install_libsimgrid LOG installs Debian's SimGrid 3.32
# (libsimgrid-dev, plus the `simgrid` package where one exists) with apt-get. It returns 0 once
# installed; otherwise it prints why it could not ("SimGrid skipped: ...") and returns 1, so the
# caller exits 0 and bench/run.sh goes on. LOG receives apt-get's output.
candidate() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | head -n 1; }

install_libsimgrid() {
  local log=$1 cand sg
  if ! command -v apt-get > /dev/null 2>&1; then
    echo "SimGrid skipped: it is not installed and there is no apt-get to install it"
    return 1
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "SimGrid skipped: it is not installed; run 'apt-get install -y libsimgrid-dev' as root"
    return 1
  fi
  cand=$(candidate libsimgrid-dev)
  if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
    apt-get update > /dev/null 2>&1 || true
    cand=$(candidate libsimgrid-dev)
  fi
  if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
    echo "SimGrid skipped: the package libsimgrid-dev has no installation candidate here"
    return 1
  fi
  local pkgs=(libsimgrid-dev)
  sg=$(candidate simgrid)
  [ -n "$sg" ] && [ "$sg" != "(none)" ] && pkgs=(simgrid libsimgrid-dev)
  echo "installing ${pkgs[*]} ($cand) with apt-get"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y "${pkgs[@]}" > "$log" 2>&1; then
    echo "SimGrid skipped: apt-get install ${pkgs[*]} failed; see $log"
    return 1
  fi
}
