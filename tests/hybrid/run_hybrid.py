#!/usr/bin/env python3
"""Hybrid execution (issue 25, seed 002): real MPI programs built with Debian's Open MPI (mpicc,
mpicxx, mpif90; never recompiled for simfab) run under `simfab hybrid`, on the real MPI, with
simfab supplying the network. Checks, with real expected values:
  - R6 communicator hiding: MPI_COMM_WORLD has N ranks 0..N-1 (size, group, split, dup), N = 2, 3, 4;
  - R3 a ping-pong's virtual round trip is what simfab predicts for it: exactly simfab exec's for
    the same source (8 B eager, 64 KiB and 1 MiB rendezvous), whatever the real transport
    (shared memory or TCP);
  - R1 seed 002's own model (network/model=riesen): the round trip is 2 delta(s) with
    delta = s / (alpha B) + beta L, for hybrid/bw-scale and hybrid/lat-scale; hybrid/coll-scale=0
    gives zero-cost collectives;
  - R4 the receive rule t3 = max(t1, tx + delta), both ways;
  - R5 a bandwidth sweep (10, 1, 0.1 Gb/s links): a communication-bound ping-pong slows down
    monotonically, a compute-only program stays flat; hybrid/compute-scale=2 doubles its time;
  - identical numerical output with and without simfab (examples/mpi: collectives, non-blocking
    calls with wildcards, cancel and persistent requests, communicators, datatypes, a stencil;
    a C++ program; a Fortran 90 ring);
  - agreement with replay: the same communication-only program captured by libsimfab-capture,
    converted and replayed by simfab run gives the hybrid run's prediction (loggops, flow);
    --ti-out replays to the same prediction;
  - R8 statistics: --stats matrix and seed 002's x4 size buckets;
  - R9 intrusion freedom: a pause in the event path changes the wall time, not the virtual time;
  - real third-party programs: NetPIPE (NPopenmpi) reports simfab's latency; HPC Challenge
    (hpcc: HPL, PTRANS, ...) runs to its end and passes its checks, on 2 and 4 ranks;
  - the plain form: mpirun -np N+1 -x LD_PRELOAD=libsimfab-hybrid.so;
  - bad input: an unknown key, a platform with fewer hosts than ranks, MPI_Abort, a crash, a
    deadlock of the real program, a killed simulator, a job without the simulator's process:
    clear message, non-zero status, no hang, no output left behind.

usage: run_hybrid.py BUILD_DIR ROOT [--quick]   (--quick: the checks that take under a few seconds)"""
import csv
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB = os.path.join(BUILD, "simfab")
LIB = os.path.join(BUILD, "libsimfab-hybrid.so")
TMP = tempfile.mkdtemp(prefix="simfab-hybrid-")
CLUSTER = os.path.join(ROOT, "examples", "platforms", "cluster16.yaml")
HERE = os.path.join(ROOT, "tests", "hybrid")
MPIRUN = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def sh(cmd, timeout=300, env=None, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd or TMP)


def build(compiler, source, name):
    out = os.path.join(TMP, name)
    p = sh([compiler, "-O2", "-o", out, source])
    check(f"{name} builds with {compiler}", p.returncode == 0, "exit 0", p.stderr[-400:])
    return out


def hybrid(np, *args, expect=0, timeout=300, env=None):
    """simfab hybrid -np NP ARGS...; returns (json result or None, process)."""
    out = os.path.join(TMP, "out.json")
    if os.path.exists(out):
        os.remove(out)
    args = list(args)
    split = args.index("--")
    cmd = [SIMFAB, "hybrid", "-np", str(np), "--quiet", "--json", out] + args[:split] + args[split:]
    p = sh(cmd, timeout=timeout, env=env)
    if p.returncode != expect:
        check(f"exit status of simfab hybrid {' '.join(args)}", False, f"exit {expect}",
              f"exit {p.returncode}: {p.stdout[-300:]} {p.stderr[-600:]}")
        return None, p
    return (json.load(open(out)) if expect == 0 and os.path.exists(out) else None), p


def field(text, name):
    m = re.search(re.escape(name) + r"\s*([-0-9.e+]+)", text)
    return float(m.group(1)) if m else None


NONE = ["--cfg", "hybrid/compute=none"]
pingpong = build("mpicc", os.path.join(HERE, "hy_pingpong.c"), "hy_pingpong")
checks = build("mpicc", os.path.join(HERE, "hy_checks.c"), "hy_checks")

# ---- R6: the simulator is hidden -----------------------------------------------------------------
for n in ([2, 4] if QUICK else [2, 3, 4]):
    _, p = hybrid(n, "--", checks, "hide")
    check(f"MPI_COMM_WORLD has {n} ranks (size, group, split, dup)", f"hide OK size {n}" in p.stdout,
          f"hide OK size {n}", p.stdout[-300:] + p.stderr[-300:])

# ---- R3: the virtual round trip is simfab's prediction, whatever the real network ------------------
sim_pingpong = os.path.join(TMP, "hy_pingpong_sim")
b = sh([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", sim_pingpong, os.path.join(HERE, "hy_pingpong.c")])
check("hy_pingpong builds with simfab-cc too", b.returncode == 0, "exit 0", b.stderr[-300:])
for size in ([8, 65536] if QUICK else [8, 65536, 1 << 20]):
    args = ["-s", str(size), "-n", "20", "-w", "2"]
    e = sh([SIMFAB, "exec", "-np", "2", "--platform", CLUSTER, "--cfg", "online/compute=declared", "--quiet",
            sim_pingpong, *args])
    j, p = hybrid(2, "--platform", CLUSTER, *NONE, "--", pingpong, *args)
    rtt_exec, rtt = field(e.stdout, "rtt_us"), field(p.stdout, "rtt_us")
    check(f"{size} B: the virtual round trip is simfab exec's prediction", rtt is not None and rtt == rtt_exec,
          rtt_exec, rtt)
    check(f"{size} B: the data is right (checksum as in simfab exec)", field(p.stdout, "checksum") ==
          field(e.stdout, "checksum"), field(e.stdout, "checksum"), field(p.stdout, "checksum"))
    if size == 65536:
        _, tcp = hybrid(2, "--platform", CLUSTER, *NONE, "--mpirun-arg", "--mca", "--mpirun-arg", "btl",
                        "--mpirun-arg", "self,tcp", "--", pingpong, *args)
        check("over TCP instead of shared memory: the same virtual round trip", field(tcp.stdout, "rtt_us") == rtt,
              rtt, field(tcp.stdout, "rtt_us"))

# ---- R1/R3 with seed 002's own model: delta(s) = s / (alpha B) + beta L, round trip = 2 delta --------
# The default cluster: B = 10 Gb/s = 1.25e9 B/s, L = 2 x 1 us on a route between two hosts.
RIESEN = ["--cfg", "network/model=riesen", *NONE]
for size, extra, alpha, beta in [(8, [], 1, 1), (1 << 20, [], 1, 1), (1 << 20, ["--cfg", "hybrid/bw-scale=2"], 2, 1),
                                 (1 << 20, ["--cfg", "hybrid/lat-scale=0.5"], 1, 0.5)]:
    _, p = hybrid(2, *RIESEN, *extra, "--", pingpong, "-s", str(size), "-n", "5", "-q")
    delta_us = size / (alpha * 1.25e9) * 1e6 + beta * 2.0
    check(f"riesen {size} B alpha {alpha} beta {beta}: round trip = 2 delta(s) = {2 * delta_us:.4f} us",
          field(p.stdout, "rtt_us") is not None and abs(field(p.stdout, "rtt_us") - 2 * delta_us) < 1e-6,
          2 * delta_us, field(p.stdout, "rtt_us"))
allreduce = build("mpicc", os.path.join(ROOT, "examples", "mpi", "allreduce_loop.c"), "allreduce_loop")
spans = {}
for gamma in ["1", "0"]:
    j, p = hybrid(4, *RIESEN, "--cfg", "hybrid/coll-scale=" + gamma, "--", allreduce, "1024", "20")
    spans[gamma] = j["makespan_ps"] if j and "OK" in p.stdout else None
check("riesen, hybrid/coll-scale=0: zero-cost collectives (an allreduce-only program takes no time)",
      spans["0"] == 0 and spans["1"] and spans["1"] > 0, "0 (and > 0 with gamma = 1)", spans)

# ---- R4: t3 = max(t1, tx + delta), both ways -------------------------------------------------------
_, p = hybrid(2, "--", checks, "rule", "20")
m = re.search(r"rule late ([0-9.]+) ([0-9.]+) early ([0-9.]+) ([0-9.]+)", p.stdout)
if check("the receive rule runs", m is not None, "rule late T1 T3 early TX T3", p.stdout[-300:]):
    t1, t3_late, tx, t3_early = map(float, m.groups())
    # The receive's own cost is its measured CPU time: about 3 us alone, but tens of microseconds
    # when other tests share the 2 cores (18.5 us seen under the sanitizers in CI, 48.6 us in the
    # optimised build beside the unit tests). Delta itself is 2 us, and a rule broken either way
    # is off by milliseconds (t1 ~ 20 ms), so 100 us still tells them apart.
    own = 100
    check(f"late receiver (message there long before): t3 = t1 + the receive's own cost (< {own} us)",
          0 <= t3_late - t1 < own and t1 > 15000, f"0 <= t3 - t1 < {own} us, t1 ~ 20 ms", (t1, t3_late))
    check(f"early receiver: t3 = tx + delta (delta of a 8-B message: 2 us, plus the receive's cost: < {own} us)",
          2 <= t3_early - tx < own and tx > t1, f"2 <= t3 - tx < {own} us", (tx, t3_early))

# ---- R5: a bandwidth sweep -------------------------------------------------------------------------
if not QUICK:
    rtts, computes = [], []
    for gbps in [10, 1, 0.1]:
        plat = os.path.join(TMP, f"bw{gbps}.yaml")
        with open(plat, "w") as f:
            f.write(f"clusters:\n  - {{name: c, prefix: n, count: 4, speed: 1Gf, bandwidth: {gbps}Gbps, latency: 1us}}\n")
        _, p = hybrid(2, "--platform", plat, "--cfg", "network/model=flow", *NONE, "--", pingpong, "-s", "1048576",
                      "-n", "5", "-w", "1", "-q")
        rtts.append(field(p.stdout, "rtt_us"))
        _, p = hybrid(2, "--platform", plat, "--", checks, "compute", "10", "5")
        computes.append(field(p.stdout, "compute_us"))
    check("bandwidth sweep: a communication-bound ping-pong slows down as the links slow down",
          None not in rtts and rtts[0] < rtts[1] < rtts[2] and abs(rtts[1] / rtts[0] - 10) < 1,
          "increasing, x10 per step", rtts)
    check("bandwidth sweep: a compute-only program stays flat (50 ms of computation)",
          None not in computes and max(computes) / min(computes) < 1.3 and 35000 < min(computes), "~50,000 us",
          computes)
    _, p = hybrid(2, "--cfg", "hybrid/compute-scale=2", "--", checks, "compute", "10", "5")
    check("hybrid/compute-scale=2: the computation takes twice as long", None not in computes and
          field(p.stdout, "compute_us") is not None and 1.5 < field(p.stdout, "compute_us") / min(computes) < 2.6,
          2 * min(computes) if None not in computes else None, field(p.stdout, "compute_us"))

# ---- identical numerical output with and without simfab ------------------------------------------
programs = ["collectives", "nonblocking", "comm_split", "datatypes", "stencil2d"]
if QUICK:
    programs = ["nonblocking", "comm_split"]
for name in programs:
    exe = build("mpicc", os.path.join(ROOT, "examples", "mpi", name + ".c"), "ex_" + name)
    plain = sh(MPIRUN + ["-np", "4", exe])
    _, hy = hybrid(4, "--cfg", "hybrid/stall-timeout=20s", "--", exe)
    strip = lambda s: re.sub(r";[^;]*s per sweep", "", s).strip()  # noqa: E731 (stencil2d's timing)
    check(f"{name}: the same output as without simfab", plain.returncode == 0 and "OK" in plain.stdout and
          strip(plain.stdout) == strip(hy.stdout), strip(plain.stdout), strip(hy.stdout) + hy.stderr[-300:])
hello = build("mpicxx", os.path.join(ROOT, "examples", "mpi", "hello.cpp"), "hello_cxx")
_, p = hybrid(3, "--", hello)
check("a C++ program (mpicxx) runs in hybrid mode", "OK" in p.stdout and p.returncode == 0, "OK", p.stdout[-300:])
ring = build("mpif90", os.path.join(HERE, "hy_ring.f90"), "hy_ring")
_, p = hybrid(4, *NONE, "--", ring)
_, p2 = hybrid(2, *NONE, "--", pingpong, "-s", "4", "-n", "10", "-w", "0")
lap, rtt4 = field(p.stdout, "lap_us"), field(p2.stdout, "rtt_us")
check("a Fortran 90 program (mpif90, use mpi): 4 ranks, token 10, sum 6", "ranks 4 token 10" in p.stdout and
      field(p.stdout, "sum") == 6, "ranks 4 token 10 ... sum 6", p.stdout[-300:] + p.stderr[-300:])
check("Fortran ring lap = 4 one-way trips of 4 B (= 2 C ping-pong round trips, within 0.1 %)", lap is not None and rtt4 and
      abs(lap - 2 * rtt4) < 1e-3 * lap, 2 * rtt4 if rtt4 else None, lap)

# ---- agreement with replay -------------------------------------------------------------------------
capdir = os.path.join(TMP, "capture")
args = ["-s", "1048576", "-n", "10", "-w", "2", "-q"]
p = sh(MPIRUN + ["-np", "2", "-x", "LD_PRELOAD=" + os.path.join(BUILD, "libsimfab-capture.so"), "-x",
                 "SIMFAB_CAPTURE_DIR=" + capdir, pingpong, *args])
c = sh([SIMFAB, "convert", capdir, "--ti", os.path.join(TMP, "cap.ti"), "--speed", "10Gf"])
if check("the ping-pong is captured and converted", p.returncode == 0 and c.returncode == 0, "exit 0",
         p.stderr[-300:] + c.stderr[-300:]):
    # Communication only on both sides: the captured computations are dropped, hybrid/compute=none.
    nocomp = os.path.join(TMP, "cap_nocompute")
    os.makedirs(nocomp, exist_ok=True)
    files = sorted(glob.glob(os.path.join(TMP, "cap.ti_files", "*")))
    for fpath in files:
        with open(fpath) as src, open(os.path.join(nocomp, os.path.basename(fpath)), "w") as dst:
            dst.writelines(line for line in src if " compute " not in line)
    with open(os.path.join(nocomp, "list.txt"), "w") as f:
        f.write("\n".join(os.path.basename(x) for x in files) + "\n")
    for model in ["loggops", "flow"]:
        r = sh([SIMFAB, "run", "--platform", CLUSTER, "--trace", os.path.join(nocomp, "list.txt"), "--cfg",
                "network/model=" + model, "--quiet", "--json", os.path.join(TMP, "replay.json")])
        j, _ = hybrid(2, "--platform", CLUSTER, "--cfg", "network/model=" + model, *NONE, "--", pingpong, *args)
        if r.returncode == 0 and j:
            a = json.load(open(os.path.join(TMP, "replay.json")))["makespan_ps"]
            check(f"{model}: hybrid = capture + replay of the same program (within 1 %)",
                  abs(j["makespan_ps"] - a) <= 0.01 * a, a, j["makespan_ps"])
tiout = os.path.join(TMP, "stream.ti")
j, _ = hybrid(2, "--platform", CLUSTER, *NONE, "--ti-out", tiout, "--", pingpong, "-s", "65536", "-n", "10")
r = sh([SIMFAB, "run", "--platform", CLUSTER, "--trace", tiout, "--quiet", "--json", os.path.join(TMP, "r.json")])
if j and r.returncode == 0:
    check("--ti-out replays (simfab run) to the hybrid run's prediction", json.load(
        open(os.path.join(TMP, "r.json")))["makespan_ps"] == j["makespan_ps"], j["makespan_ps"],
        json.load(open(os.path.join(TMP, "r.json")))["makespan_ps"])
    # The intrusion-free trace as a GOAL schedule (seed 002 §5.4): simfab goal exports it and
    # simfab run --goal predicts the same run.
    goal = os.path.join(TMP, "stream.goal")
    g = sh([SIMFAB, "goal", "--trace", tiout, "--platform", CLUSTER, "-o", goal, "--quiet"])
    r = sh([SIMFAB, "run", "--platform", CLUSTER, "--goal", goal, "--quiet", "--json", os.path.join(TMP, "g.json")])
    got = json.load(open(os.path.join(TMP, "g.json")))["makespan_ps"] if g.returncode == r.returncode == 0 else None
    check("... and as GOAL (simfab goal, then run --goal) to the same prediction", got == j["makespan_ps"],
          j["makespan_ps"], got)

trace_out = os.path.join(TMP, "timeline.json")
j, _ = hybrid(2, *NONE, "--trace-out", trace_out, "--", pingpong, "-s", "8", "-n", "5")
if j and check("--trace-out writes the timeline in virtual time", os.path.exists(trace_out), trace_out, "missing"):
    events = json.load(open(trace_out))["traceEvents"]
    last_us = max(e.get("ts", 0) + e.get("dur", 0) for e in events if e.get("ph") == "X")
    check("... its last call ends at the predicted makespan", abs(last_us - j["makespan_ps"] / 1e6) < 1e-3,
          j["makespan_ps"] / 1e6, last_us)

# ---- R8: statistics --------------------------------------------------------------------------------
stats = os.path.join(TMP, "stats")
j, _ = hybrid(2, "--stats", stats, *NONE, "--", pingpong, "-s", "1000", "-n", "10", "-w", "0")
if j:
    matrix = {(r["src"], r["dst"]): (int(r["messages"]), int(r["bytes"]))
              for r in csv.DictReader(open(os.path.join(stats, "matrix.csv")))}
    # 10 x 1000 B each way, and one 1-B message each way per barrier (2 ranks, 2 barriers).
    check("--stats matrix: 10 messages of 1000 B each way plus the 2 barriers' 1-B messages",
          matrix == {("0", "1"): (12, 10002), ("1", "0"): (12, 10002)}, "12 messages, 10002 B each way", matrix)
    sizes = list(csv.DictReader(open(os.path.join(stats, "sizes.csv"))))
    bucket = next((r for r in sizes if r["upper_bytes"] == "1024"), None)
    check("--stats sizes: seed 002's x4 buckets; the 20 messages of 1000 B in (256, 1024]",
          bucket is not None and int(bucket["p2p_messages"]) == 20 and int(bucket["p2p_bytes"]) == 20000,
          "20 messages, 20000 B", bucket)
    small = next((r for r in sizes if r["upper_bytes"] == "16"), None)
    check("--stats sizes: the barriers' 4 messages of 1 B in the first bucket, as collective traffic",
          small is not None and int(small["collective_messages"]) == 4 and int(small["p2p_messages"]) == 0,
          "4 collective messages", small)

# ---- R9: intrusion freedom -------------------------------------------------------------------------
if not QUICK:
    env = dict(os.environ, SIMFAB_HYBRID_TEST_DELAY_US="2000")
    j0, p0 = hybrid(2, *NONE, "--", pingpong, "-s", "8", "-n", "100", "-w", "0")
    j1, p1 = hybrid(2, *NONE, "--mpirun-arg", "-x", "--mpirun-arg", "SIMFAB_HYBRID_TEST_DELAY_US", "--", pingpong,
                    "-s", "8", "-n", "100", "-w", "0", env=env)
    # The library counts its pauses (no wall-clock test: the machine may be loaded).
    pauses = [int(m) for m in re.findall(r"paused (\d+) times", p1.stderr)] if p1 else []
    check("a 2 ms pause in every message to the simulator: both ranks paused (100 round trips: >= 100 each)",
          len(pauses) == 2 and min(pauses) >= 100, ">= 100 pauses per rank", pauses)
    check("... and the virtual time does not change at all", j0 and j1 and j0["makespan_ps"] == j1["makespan_ps"]
          and field(p0.stdout, "rtt_us") == field(p1.stdout, "rtt_us"), j0 and j0["makespan_ps"],
          j1 and j1["makespan_ps"])
    j2, p2 = hybrid(2, "--mpirun-arg", "-x", "--mpirun-arg", "SIMFAB_HYBRID_TEST_DELAY_US", "--", checks,
                    "compute", "10", "5", env=env)
    check("... and with measured computation, the pause is not charged as computation (50 ms of work: < 60 ms)",
          field(p2.stdout, "compute_us") is not None and field(p2.stdout, "compute_us") < 60000, "< 60,000 us",
          field(p2.stdout, "compute_us"))

# ---- real third-party programs ---------------------------------------------------------------------
netpipe = shutil.which("NPopenmpi")
if check("NetPIPE (netpipe-openmpi) is installed", netpipe is not None, "NPopenmpi on the PATH", netpipe):
    # NetPIPE repeats each size for a fixed virtual time (~600 k round trips up to 1 KiB): the
    # sanitizer build (QUICK) stops at 2 bytes, which the 1-byte check below needs, to stay far
    # from the timeout on a loaded machine.
    j, p = hybrid(2, *NONE, "--", netpipe, "-l", "1", "-u", "2" if QUICK else "1024", "-p", "0", "-o",
                  os.path.join(TMP, "np.out"), timeout=600)
    rows = [line.split() for line in open(os.path.join(TMP, "np.out"))] if j else []
    _, pp = hybrid(2, *NONE, "--", pingpong, "-s", "1", "-n", "20", "-w", "2")
    one_way = field(pp.stdout, "rtt_us") / 2 if field(pp.stdout, "rtt_us") else None
    # NetPIPE times itself with gettimeofday (microseconds) over many round trips: its one-way
    # time (column 3, seconds) is the simulated one to a fraction of a microsecond.
    check("NetPIPE (it times itself with gettimeofday) reports simfab's one-way time for 1 byte",
          rows and one_way and abs(float(rows[0][2]) * 1e6 - one_way) < 0.05, f"{one_way} us", rows[:1])
hpcc = shutil.which("hpcc")
if check("HPC Challenge (hpcc) is installed", hpcc is not None, "hpcc on the PATH", hpcc):
    inp = open("/usr/share/doc/hpcc/examples/_hpccinf.txt").read()
    for n, (ps, qs) in ([(2, (1, 2))] if QUICK else [(2, (1, 2)), (4, (2, 2))]):
        d = os.path.join(TMP, f"hpcc{n}")
        os.makedirs(d, exist_ok=True)
        text = re.sub(r"^1000 +Ns", "200          Ns", inp, flags=re.M)
        text = re.sub(r"^80 +NBs", "20           NBs", text, flags=re.M)
        text = re.sub(r"^2 +Ps", f"{ps}            Ps", text, count=1, flags=re.M)
        text = re.sub(r"^2 +Qs", f"{qs}            Qs", text, count=1, flags=re.M)
        open(os.path.join(d, "hpccinf.txt"), "w").write(text)
        out = os.path.join(d, "out.json")
        p = sh([SIMFAB, "hybrid", "-np", str(n), "--quiet", "--json", out, "--", hpcc], cwd=d, timeout=600)
        res = open(os.path.join(d, "hpccoutf.txt")).read() if os.path.exists(os.path.join(d, "hpccoutf.txt")) else ""
        check(f"hpcc on {n} ranks: runs to its end in hybrid mode, HPL passes, a prediction is written",
              p.returncode == 0 and "End of HPC Challenge tests." in res and "PASSED" in res and
              "FAILED" not in res and os.path.exists(out), "exit 0, PASSED, End of HPC Challenge tests.",
              f"exit {p.returncode}: {p.stderr[-300:]}")
        lat = field(res, "AvgPingPongLatency_usec=")
        # The network part is about 2 us on the default cluster; the rest is hpcc's own loop between
        # calls, measured as real compute time, which grows when the machine is loaded (4.07 us seen
        # in CI beside other tests). A real oversubscribed Open MPI ping-pong takes tens of us.
        check(f"hpcc on {n} ranks reports its ping-pong latency in simulated time (2-6 us on the default cluster)",
              lat is not None and 2 <= lat <= 6, "2-6 us", lat)

# ---- the plain form --------------------------------------------------------------------------------
p = sh(MPIRUN + ["-np", "3", "-x", "LD_PRELOAD=" + LIB, "-x", "SIMFAB_HYBRID_OPTS=--cfg\x1fhybrid/compute=none",
                 pingpong, "-s", "8", "-n", "5"])
check("mpirun -np N+1 -x LD_PRELOAD=libsimfab-hybrid.so: the program runs on N ranks and simfab prints the "
      "prediction", p.returncode == 0 and "rtt_us" in p.stdout and "predicted makespan" in p.stdout and
      "(hybrid, 2 ranks)" in p.stdout, "rtt and the summary", p.stdout[-400:] + p.stderr[-300:])

# ---- bad input -------------------------------------------------------------------------------------
_, p = hybrid(2, "--cfg", "network/modle=flow", "--", pingpong, expect=2)
check("an unknown key: exit 2 before the job starts, with a suggestion", "did you mean 'network/model'" in p.stderr,
      "did you mean", p.stderr[-300:])
_, p = hybrid(20, "--platform", CLUSTER, "--", pingpong, expect=2)
check("a platform with fewer hosts than ranks: exit 2", "16 hosts" in p.stderr, "16 hosts", p.stderr[-300:])
_, p = hybrid(2, "--", sim_pingpong, expect=2, timeout=60)
check("a program built with simfab-cc (for simfab exec): exit 2 at once, saying to rebuild it with mpicc",
      "built with simfab's compiler wrappers" in p.stderr and "mpicc" in p.stderr, "the reason", p.stderr[-300:])
_, p = hybrid(2, "--cfg", "hybrid/compute-scale=fast", "--", pingpong, expect=2)
check("a bad hybrid/compute-scale: exit 2 naming it", "hybrid/compute-scale" in p.stderr, "hybrid/compute-scale",
      p.stderr[-300:])
abort_src = os.path.join(TMP, "hy_fail.c")
with open(abort_src, "w") as f:
    f.write("""#include <mpi.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(argv[1], "abort") && rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
  if (!strcmp(argv[1], "crash") && rank == 1) { volatile int* p = 0; *p = 1; }
  if (!strcmp(argv[1], "deadlock")) MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (!strcmp(argv[1], "long")) sleep(30);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
""")
fail = build("mpicc", abort_src, "hy_fail")
out = os.path.join(TMP, "left.json")
p = sh([SIMFAB, "hybrid", "-np", "2", "--quiet", "--json", out, "--", fail, "abort"], timeout=120)
check("MPI_Abort(7) in the application: the job ends with status 7, no JSON left behind", p.returncode == 7 and
      not glob.glob(out + "*"), "exit 7, nothing written", (p.returncode, glob.glob(out + "*")))
p = sh([SIMFAB, "hybrid", "-np", "2", "--quiet", "--json", out, "--", fail, "crash"], timeout=120)
check("a crashing rank: non-zero status, no JSON left behind", p.returncode != 0 and not glob.glob(out + "*"),
      "non-zero, nothing written", (p.returncode, glob.glob(out + "*")))
t0 = time.time()
p = sh([SIMFAB, "hybrid", "-np", "2", "--quiet", "--cfg", "hybrid/stall-timeout=2s", "--", fail, "deadlock"],
       timeout=120)
# Both receives reach the simulator before the ranks wait: the simulated run deadlocks (exit 3,
# naming them), or, had a rank not said so yet, the stall check ends it.
check("a program that deadlocks in the real run: exit 3, naming the ranks' receives",
      p.returncode == 3 and "deadlock" in p.stderr and re.search("recv|MPI_Recv", p.stderr) is not None and
      time.time() - t0 < 60, "exit 3, deadlock ... recv", f"exit {p.returncode}: {p.stderr[-400:]}")
proc = subprocess.Popen([SIMFAB, "hybrid", "-np", "2", "--quiet", "--", fail, "long"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True, cwd=TMP)
time.sleep(3)
# This job's simulator only: simfab hybrid -> mpirun -> the simulator.
launcher = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
for pid in launcher:
    for sim in subprocess.run(["pgrep", "-P", pid, "-f", "simfab-hybrid-sim"], capture_output=True,
                              text=True).stdout.split():
        os.kill(int(sim), signal.SIGKILL)
try:
    _, err = proc.communicate(timeout=60)
    check("the simulator killed: the job ends with a non-zero status (no hang)", proc.returncode != 0,
          "non-zero", proc.returncode)
except subprocess.TimeoutExpired:
    proc.kill()
    check("the simulator killed: the job ends (no hang)", False, "ends within 60 s", "hung")
p = sh(MPIRUN + ["-np", "1", "-x", "LD_PRELOAD=" + LIB, pingpong])
check("one process only (no room for the simulator): exit 2 with the reason", p.returncode != 0 and
      "N + 1 processes" in p.stderr, "needs N + 1 processes", p.stderr[-300:])

print(f"run_hybrid: {golden_check.passed} passed, {golden_check.failed} failed")
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(1 if golden_check.failed else 0)
