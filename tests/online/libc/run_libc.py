#!/usr/bin/env python3
"""Per-rank libc state in simfab exec (ctest `online_libc`, issue 26).

    run_libc.py SIMFAB_BUILD_DIR SOURCE_DIR

  - clocks.c: with online/virtual-clocks=yes (the default) gettimeofday, clock_gettime
    (CLOCK_MONOTONIC, CLOCK_REALTIME), clock and time measure what MPI_Wtime measures: a declared
    1e9 flops (1 s on the default cluster's 1 Gf/s hosts) plus sleep + usleep + nanosleep of 2.75 s
    = 3.750000 s each, and time() 3 s (whole seconds: floor differences); with
    online/virtual-clocks=no they measure the host (far less than the simulated 1.3 s);
  - chrono.cpp: std::chrono's steady_clock, system_clock and high_resolution_clock measure 1 s;
  - getopt_ranks.c: ranks parsing different argument vectors with getopt_long, interleaved by
    barriers, each see their own options (optind, optarg per rank);
  - tagged.c under --tag-output: every line of printf, fprintf(stderr), write(2), and a line
    written in two pieces around a barrier, whole and tagged [1,RANK]<stdout>: / <stderr>:.
"""
import os
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
HERE = os.path.join(SOURCE, "tests", "online", "libc")
SIMFAB = os.path.join(BUILD, "simfab")
TMP = tempfile.mkdtemp(prefix="simfab-libc-")


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=TMP)


def build(wrapper, source):
    out = os.path.join(TMP, os.path.splitext(source)[0])
    r = sh([os.path.join(BUILD, wrapper), "-O2", "-o", out, os.path.join(HERE, source)])
    check(f"{wrapper} builds {source}", r.returncode == 0, r.stderr)
    return out


def readings(out):
    """clocks' lines `clocks: NAME VALUE s` as {NAME: VALUE}."""
    return {l[len("clocks: "):].rsplit(" ", 2)[0]: l.rsplit(" ", 2)[1] for l in out.splitlines()}


clocks = build("simfab-cc", "clocks.c")
out = sh([SIMFAB, "exec", "-np", "2", "--quiet", "--cfg", "online/compute=declared", clocks]).stdout
got = readings(out)
for clock in ["MPI_Wtime", "gettimeofday", "clock_gettime(CLOCK_MONOTONIC)", "clock_gettime(CLOCK_REALTIME)", "clock"]:
    check(f"virtual clocks: {clock} measures 3.750000 s", got.get(clock) == "3.750000", out)
check("virtual clocks: time() measures 3 s", got.get("time") == "3", out)
out = sh([SIMFAB, "exec", "-np", "2", "--quiet", "--cfg", "online/compute=declared", "--cfg",
          "online/virtual-clocks=no", clocks, "20000"]).stdout
got = readings(out)
check("online/virtual-clocks=no: MPI_Wtime still 1.000000 s", got.get("MPI_Wtime") == "1.000000", out)
check("online/virtual-clocks=no: gettimeofday measures the host (under 0.5 s)",
      float(got.get("gettimeofday", "9")) < 0.5, out)

chrono = build("simfab-cxx", "chrono.cpp")
out = sh([SIMFAB, "exec", "-np", "2", "--quiet", "--cfg", "online/compute=declared", chrono]).stdout
check("chrono: steady_clock, system_clock, high_resolution_clock measure 1 s",
      "chrono: MPI_Wtime 1.000000 s, steady_clock 1.000000 s, system_clock 1.000000 s, "
      "high_resolution_clock 1.000000 s" in out, out)

getopt_ranks = build("simfab-cc", "getopt_ranks.c")
for np in [2, 5]:
    out = sh([SIMFAB, "exec", "-np", str(np), "--quiet", getopt_ranks]).stdout
    check(f"getopt_long per rank ({np} ranks)", f"getopt_ranks: {np} ranks parsed their own options: OK" in out, out)

tagged = build("simfab-cc", "tagged.c")
r = sh([SIMFAB, "exec", "-np", "3", "--quiet", "--tag-output", tagged])
out, err = r.stdout.splitlines(), r.stderr.splitlines()
for rank in range(3):
    for line in [f"hello from {rank}", f"raw write from {rank}", f"first half {rank}, second half {rank}"]:
        check(f"--tag-output: [1,{rank}]<stdout>:{line}", f"[1,{rank}]<stdout>:{line}" in out, out)
    check(f"--tag-output: [1,{rank}]<stderr>:warning from {rank}", f"[1,{rank}]<stderr>:warning from {rank}" in err, err)
check("--tag-output: every line tagged", r.returncode == 0 and len(out) == 9 and
      all(l.startswith("[1,") for l in out + err), (out, err))
r = sh([SIMFAB, "exec", "-np", "2", tagged])
check("without --tag-output: untagged, and the summary follows", "hello from 1" in r.stdout.splitlines() and
      "predicted makespan" in r.stdout, r.stdout)

golden_check.finish("run_libc")
