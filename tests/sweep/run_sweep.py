#!/usr/bin/env python3
"""simfab sweep (issue 31, the local half): a 3 x 4 grid over cluster16 + stencil16 (network/model x
loggops/G) gives, row for row in grid order, the makespans of single `simfab run`s of the same
points; -j1 and -j2 write byte-identical CSVs apart from wall_s; a sweep killed midway (SIGTERM)
leaves a valid partial CSV and no temporary files, and rerunning it runs only the missing points
(--dry-run counts them; the rows kept keep their wall_s); so does a pre-written partial CSV; points
with bad input, a deadlock or a timeout are rows with their status and error, and the sweep goes on;
a bad spec exits 2 naming spec:line and runs nothing; another sweep's output is refused; relative
paths start at the spec's directory; the short form `run --sweep` gives the same makespans.

usage: run_sweep.py SIMFAB SOURCE_DIR
"""
import csv
from decimal import Decimal
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
# --quick (the sanitizer build): every path once; the killed sweeps have 24 points instead of 48,
# and a third of the grid's rows is checked against single runs.
QUICK = "--quick" in sys.argv[3:]
REPS = 2 if QUICK else 4
LONG_POINTS = 12 * REPS
PLATFORM = os.path.join(SRC, "examples/platforms/cluster16.yaml")
TRACE = os.path.join(SRC, "examples/ti/stencil16.ti")
MODELS = ["loggops", "flow", "smpi"]
GAPS = ["0.01ns", "0.02ns", "0.04ns", "0.08ns"]
WORK = tempfile.mkdtemp(prefix="simfab-sweep-test.")
TMPDIR = os.path.join(WORK, "tmp")  # the sweeps' temporary files go here: checked empty
os.makedirs(TMPDIR)
ENV = dict(os.environ, TMPDIR=TMPDIR)


def eq(name, actual, expected, info=None):
    return check(name, actual == expected, expected, actual if info is None else info)


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def sweep(args, **kw):
    return subprocess.run([SIMFAB, "sweep"] + args, capture_output=True, text=True, timeout=300, env=ENV, **kw)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def without_wall(path):
    """The CSV's text with the wall_s column blanked."""
    table = rows(path)
    col = table[0].index("wall_s")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for r in table:
        w.writerow(r[:col] + ["-" if r is not table[0] else "wall_s"] + r[col + 1:])
    return out.getvalue()


def dry_run_todo(spec, out):
    p = sweep([spec, "-o", out, "--dry-run"])
    return [line.split("\t")[2] for line in p.stdout.splitlines() if "\tto run\t" in line]


GRID = write("grid.yaml", f"""# 3 x 4: the network models, LogGOPS's gap per byte
platform: {PLATFORM}
trace: {TRACE}
axes:
  network/model: [{", ".join(MODELS)}]
  loggops/G: [{", ".join(GAPS)}]
""")

# The grid against single runs.
out1 = os.path.join(WORK, "j1.csv")
p = sweep([GRID, "-o", out1, "-j1", "--quiet"])
eq("grid -j1: exit 0", p.returncode, 0, p.stderr)
table = rows(out1) if os.path.exists(out1) else [[]]
eq("grid: header", table[0], ["network/model", "loggops/G", "makespan_ps", "makespan_s", "energy_j", "messages",
                                 "wall_s", "status", "error"], table[0])
expected_order = [[m, g] for m in MODELS for g in GAPS]
eq("grid: 12 rows in grid order (first axis slowest)", [r[:2] for r in table[1:]], expected_order,
      [r[:2] for r in table[1:]])
for r in table[1::3] if QUICK else table[1:]:
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        q = subprocess.run([SIMFAB, "run", "--platform", PLATFORM, "--trace", TRACE, "--cfg", "network/model=" + r[0],
                            "--cfg", "loggops/G=" + r[1], "--json", j, "--quiet"], capture_output=True, text=True)
        single = json.load(open(j)) if q.returncode == 0 else {}
    eq(f"grid {r[0]} G={r[1]}: makespan_ps as simfab run", r[2], str(single.get("makespan_ps")), r)
    eq(f"grid {r[0]} G={r[1]}: messages as simfab run", r[5], str(single.get("messages")), r)
    eq(f"grid {r[0]} G={r[1]}: status ok", (r[7], r[8]), ("ok", ""), r)
    eq(f"grid {r[0]} G={r[1]}: makespan_s is makespan_ps exactly", Decimal(r[3]) * 10**12, Decimal(r[2]))
eq("grid: loggops/G changes the loggops makespan", len({r[2] for r in table[1:5]}), 4, [r[2] for r in table[1:5]])

# -j2: the same bytes but wall_s.
out2 = os.path.join(WORK, "j2.csv")
p = sweep([GRID, "-o", out2, "-j", "2", "--quiet"])
eq("grid -j2: exit 0", p.returncode, 0, p.stderr)
eq("grid -j1 and -j2: byte-identical apart from wall_s", without_wall(out2), without_wall(out1), "differ")

# A pre-written partial CSV: only the missing points run; the rows kept are kept as they were.
part = os.path.join(WORK, "partial.csv")
with open(out1) as f:
    lines = f.read().splitlines(keepends=True)
with open(part, "w") as f:
    f.writelines([lines[0]] + lines[1:4] + lines[9:11])  # points 1-3, 9-10
todo = dry_run_todo(GRID, part)
eq("partial: --dry-run lists the 7 missing points", len(todo), 7, todo)
p = sweep([GRID, "-o", part, "-j2", "--quiet"])
eq("partial: exit 0", p.returncode, 0, p.stderr)
after = rows(part)
eq("partial: 12 rows in grid order", [r[:2] for r in after[1:]], expected_order, [r[:2] for r in after[1:]])
kept = [r for r in csv.reader(lines[1:4] + lines[9:11])]
eq("partial: the rows already there kept their wall_s (not rerun)", [after[i] for i in (1, 2, 3, 9, 10)], kept,
      after)
eq("partial: same results as the whole sweep", without_wall(part), without_wall(out1), "differ")
eq("partial: a complete sweep has nothing to run", dry_run_todo(GRID, part), [], "points to run")

# Killed midway: a valid partial CSV, no temporary file; the rerun completes only what is missing.
LONG = write("long.yaml", open(GRID).read() + f"repetitions: {REPS}\n")
killed = os.path.join(WORK, "killed.csv")
proc = subprocess.Popen([SIMFAB, "sweep", LONG, "-o", killed, "-j1", "--quiet"], env=ENV,
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 120
while time.time() < deadline and (not os.path.exists(killed) or len(rows(killed)) < 6):
    time.sleep(0.01)
proc.send_signal(signal.SIGTERM)
_, err = proc.communicate(timeout=60)
eq("killed: exit 143", proc.returncode, 143, err)
check("killed: the line says the CSV keeps the points finished", "killed.csv keeps the points finished" in err,
      "... killed.csv keeps the points finished: run the same command to complete it", err)
done_before = rows(killed)
check(f"killed: the CSV holds a part of the {LONG_POINTS} points", 5 <= len(done_before) - 1 < LONG_POINTS,
      f"5..{LONG_POINTS - 1} rows",
      len(done_before) - 1)
time.sleep(0.2)
check("killed: no temporary file left (TMPDIR, the output's directory)",
      os.listdir(TMPDIR) == [] and not [n for n in os.listdir(WORK) if ".tmp." in n],
      [], (os.listdir(TMPDIR), os.listdir(WORK)))
todo = dry_run_todo(LONG, killed)
eq("killed: --dry-run lists only the missing points", len(todo), LONG_POINTS - (len(done_before) - 1), len(todo))
p = sweep([LONG, "-o", killed, "-j2", "--quiet"])
eq("killed, rerun: exit 0", p.returncode, 0, p.stderr)
final = rows(killed)
eq(f"killed, rerun: {LONG_POINTS} rows, rep column", (len(final) - 1, final[0][2]), (LONG_POINTS, "rep"),
   (len(final) - 1, final[0]))
eq("killed, rerun: rows done before the kill untouched", final[:len(done_before)], done_before, "changed")
eq("killed, rerun: every row ok", {r[-2] for r in final[1:]}, {"ok"}, {r[-2] for r in final[1:]})

# Failed points are rows; the sweep goes on. Relative paths start at the spec's directory.
os.makedirs(os.path.join(WORK, "sub"), exist_ok=True)
write("sub/bad.ti", "0 init\n0 frobnicate 3\n")
write("sub/deadlock.ti", "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n")
write("sub/two.yaml", "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\nlinks:\n"
      "  - {name: l, bandwidth: 1GBps, latency: 1us}\nroutes:\n  - {src: a, dst: b, links: [l]}\n")
FAIL = write("sub/fail.yaml", f"""platform: {PLATFORM}
axes:
  trace: [{TRACE}, bad.ti]
points:
  - {{trace: deadlock.ti, platform: two.yaml}}
  - {{trace: {TRACE}, energy/governor: ondemand}}
""")
failed = os.path.join(WORK, "failed.csv")
p = sweep([FAIL, "-o", failed, "-j2"])
eq("failed points: exit 0", p.returncode, 0, p.stderr)
check("failed points: the summary counts them", "1 ok, 3 failed" in p.stderr, "1 ok, 3 failed", p.stderr)
f = rows(failed) if os.path.exists(failed) else [[]] * 5
status = {r[1]: (r[-2], r[-1]) for r in f[1:]}
eq("failed: header (trace, platform, energy/governor)", f[0][:3], ["trace", "platform", "energy/governor"], f[0])
check("bad input point: status bad_input, error names bad.ti:2", f[2][-2] == "bad_input" and "bad.ti:2" in f[2][-1],
      "bad_input, bad.ti:2:...", f[2])
eq("deadlock point: status deadlock", (f[3][-2], "deadlock" in f[3][-1]), ("deadlock", True), f[3])
eq("governor point: bad_input naming energy/governor", (f[4][-2], "energy/governor" in f[4][-1]), ("bad_input", True),
      f[4])
eq("fixed platform shown in the platform column", f[1][1], PLATFORM, f[1])
p = sweep([FAIL, "-o", failed, "--dry-run"])
eq("failed points are done (not rerun) by default", p.stdout.count("\tto run\t"), 0, p.stdout)
p = sweep([FAIL, "-o", failed, "--dry-run", "--retry-failed"])
eq("--retry-failed runs them again", p.stdout.count("\tto run\t"), 3, p.stdout)

# A timeout kills the point and records it.
TIMEOUT = write("timeout.yaml", f"platform: {PLATFORM}\ntrace: {TRACE}\ntimeout: 0.000001\n"
                "points:\n  - {network/model: flow}\n")
tout = os.path.join(WORK, "timeout.csv")
p = sweep([TIMEOUT, "-o", tout, "--quiet"])
t = rows(tout) if os.path.exists(tout) else [[], []]
eq("timeout: exit 0, status timeout", (p.returncode, t[1][-2] if len(t) > 1 else None), (0, "timeout"), (p.stderr, t))

# Bad specs: exit 2, spec:line, nothing run or written.
BAD = [
    ("unknown top-level key", "platform: {P}\ntrace: {T}\naxis:\n  network/model: [flow]\n", ":3:", "did you mean 'axes'"),
    ("empty axis", "platform: {P}\ntrace: {T}\naxes:\n  network/model: []\n", ":4:", "is empty"),
    ("unknown cfg key", "platform: {P}\ntrace: {T}\naxes:\n  network/modle: [flow]\n", ":4:",
     "did you mean 'network/model'"),
    ("bad cfg value", "platform: {P}\ntrace: {T}\naxes:\n  network/model: [flow, flaw]\n", ":4:", "flaw"),
    ("bad cfg value (time)", "platform: {P}\ntrace: {T}\ncfg:\n  loggops/L: fast\naxes:\n  network/model: [flow]\n",
     ":4:", "loggops/L"),
    ("missing input file", "platform: {P}\ntrace: nowhere.ti\naxes:\n  network/model: [flow]\n", ":2:", "cannot read"),
    ("no application", "platform: {P}\naxes:\n  network/model: [flow]\n", ":2:", "no application"),
    ("two applications", "platform: {P}\ntrace: {T}\npoints:\n  - {{goal: {T}}}\n", ":4:", "two applications"),
    ("duplicate point", "platform: {P}\ntrace: {T}\naxes:\n  network/model: [flow]\npoints:\n"
     "  - {{network/model: smpi}}\n  - {{network/model: smpi}}\n", ":7:", "point 2 again"),
    ("no axes nor points", "platform: {P}\ntrace: {T}\n", ":1:", "axes:"),
    ("axis not a list", "platform: {P}\ntrace: {T}\naxes:\n  network/model: flow\n", ":4:", "list"),
    ("unknown setting", "platform: {P}\ntrace: {T}\naxes:\n  tracee: [a]\n", ":4:", "did you mean 'trace'"),
]
for name, text, where, what in BAD:
    spec = write("bad.yaml", text.format(P=PLATFORM, T=TRACE))
    out = os.path.join(WORK, "bad.csv")
    p = sweep([spec, "-o", out])
    eq(f"bad spec ({name}): exit 2", p.returncode, 2, p.stderr)
    check(f"bad spec ({name}): names bad.yaml{where} and says '{what}'", "bad.yaml" + where in p.stderr and
          what in p.stderr, f"bad.yaml{where} ... {what}", p.stderr)
    eq(f"bad spec ({name}): nothing written", os.path.exists(out), False, out)

# Another sweep's output is refused, untouched.
p = sweep([FAIL, "-o", out1])
eq("another sweep's CSV: exit 2, untouched", (p.returncode, without_wall(out1) == without_wall(out2)), (2, True),
      p.stderr)

# The progress line over the whole sweep.
prog = os.path.join(WORK, "prog.csv")
p = sweep([GRID, "-o", prog, "-j2", "--progress", "always"])
check("--progress always: points, rate and ETA", "/12 points" in p.stderr and "points/min" in p.stderr and
      "left" in p.stderr, "simfab sweep: N/12 points, ..., P points/min, ~T left", p.stderr[-300:])

# The short form runs its settings the same way and gives the same makespans.
p = subprocess.run([SIMFAB, "run", "--platform", PLATFORM, "--trace", TRACE, "--cfg", "network/model=loggops",
                    "--sweep", "loggops/G=" + ",".join(GAPS), "--json", os.path.join(WORK, "short.json")],
                   capture_output=True, text=True, env=ENV)
short = json.load(open(os.path.join(WORK, "short.json"))) if p.returncode == 0 else {"sweep": []}
eq("run --sweep: the loggops makespans of the grid", [str(r["makespan_ps"]) for r in short["sweep"]],
      [r[2] for r in table[1:5]], short)
eq("no temporary file left at the end", os.listdir(TMPDIR), [], os.listdir(TMPDIR))

# ---- Platform variables: ${NAME} in the platform, $NAME settings in the spec ----------------------
FAMILY = os.path.join(SRC, "examples/platforms/cluster_family.yaml")
links_csv = os.path.join(WORK, "links.csv")
p = sweep([os.path.join(SRC, "examples/sweep/link_speeds.yaml"), "-o", links_csv, "--quiet"])
links = rows(links_csv) if os.path.exists(links_csv) else [[]]
eq("platform variables: header has the $bw and $backbone_bw columns", links[0][:3],
   ["network/model", "$bw", "$backbone_bw"], links[0])


def literal_makespan(model, bw, backbone_bw):
    """The makespan on cluster16.yaml with the two bandwidths written in the file."""
    text = open(os.path.join(SRC, "examples/platforms/cluster16.yaml")).read()
    text = text.replace("bandwidth: 100Gbps", "bandwidth: " + bw)
    text = text.replace("bandwidth: 400Gbps", "bandwidth: " + backbone_bw)
    path = write("literal.yaml", text)
    q = subprocess.run([SIMFAB, "run", "--platform", path, "--trace", TRACE, "--cfg", "network/model=" + model,
                        "--json", os.path.join(WORK, "literal.json"), "--quiet"], capture_output=True, text=True)
    return str(json.load(open(os.path.join(WORK, "literal.json")))["makespan_ps"]) if q.returncode == 0 else q.stderr


for r in links[1:]:
    eq(f"platform variables: {r[0]} bw={r[1]} backbone={r[2]}: the makespan of the file written out",
       r[3], literal_makespan(r[0], r[1], r[2]), r)
eq("platform variables: flow sees the backbone, loggops does not",
   (len({r[3] for r in links[1:] if r[0] == "flow" and r[1] == "25Gbps"}),
    len({r[3] for r in links[1:] if r[0] == "loggops" and r[1] == "25Gbps"})), (2, 1), links)
p = subprocess.run([SIMFAB, "run", "--platform", FAMILY, "--trace", TRACE, "--json", os.path.join(WORK, "d.json"),
                    "--quiet"], capture_output=True, text=True)
eq("platform variables: the defaults give cluster16.yaml's run",
   str(json.load(open(os.path.join(WORK, "d.json")))["makespan_ps"]) if p.returncode == 0 else p.stderr,
   literal_makespan("loggops", "100Gbps", "400Gbps"))
XML_FAMILY = write("family.xml", """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- ${bw} in a comment is left alone -->
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-${last:-15}" speed="1Gf" bw="${bw}" lat="${lat:-50us}"/>
</platform>
""")
XML_LITERAL = write("literal.xml", open(XML_FAMILY).read().replace("${last:-15}", "15").replace('"${bw}"', '"125MBps"')
                    .replace("${lat:-50us}", "50us"))
outs = []
for platform, extra in ((XML_FAMILY, ["--platform-var", "bw=125MBps"]), (XML_LITERAL, [])):
    q = subprocess.run([SIMFAB, "run", "--platform", platform, "--trace", TRACE, "--cfg", "network/model=smpi",
                        "--json", os.path.join(WORK, "x.json"), "--quiet"] + extra, capture_output=True, text=True)
    outs.append(json.load(open(os.path.join(WORK, "x.json")))["makespan_ps"] if q.returncode == 0 else q.stderr)
eq("platform variables in SimGrid XML: the same run as the file written out", outs[0], outs[1], outs)
BAD_VARS = [
    (["--platform", FAMILY, "--platform-var", "bww=1Gbps"], "platform variable 'bww' is not used by"),
    (["--platform", XML_FAMILY], "family.xml:5:"),
    (["--platform-var", "bw=1Gbps"], "platform variables need a platform file"),
    (["--platform", FAMILY, "--platform-var", "bw"], "a platform variable is NAME=VALUE"),
    (["--platform", FAMILY, "--platform-var", "bw=fast"], "cluster_family.yaml:15:"),
]
for args, what in BAD_VARS:
    q = subprocess.run([SIMFAB, "run", "--trace", TRACE] + args, capture_output=True, text=True)
    eq(f"platform variables, bad input {args[-1]}: exit 2 saying '{what}'", (q.returncode, what in q.stderr),
       (2, True), q.stderr)
spec = write("badvar.yaml", f"platform: {FAMILY}\ntrace: {TRACE}\naxes:\n  $b-w: [1Gbps]\n")
p = sweep([spec, "-o", os.path.join(WORK, "badvar.csv")])
eq("platform variables: a bad $NAME in a spec is refused at its line", (p.returncode, "badvar.yaml:4:" in p.stderr),
   (2, True), p.stderr)
spec = write("typo.yaml", f"platform: {FAMILY}\ntrace: {TRACE}\naxes:\n  $bww: [1Gbps]\n")
typo_csv = os.path.join(WORK, "typo.csv")
p = sweep([spec, "-o", typo_csv, "--quiet"])
t = rows(typo_csv) if os.path.exists(typo_csv) else [[], []]
eq("platform variables: a variable the platform does not use fails its points, saying so",
   (p.returncode, t[1][-2], "'bww' is not used by" in t[1][-1]), (0, "bad_input", True), t)

# ---- Under mpirun: the same CSV, the points spread over the worker processes ---------------------
MPIRUN = shutil.which("mpirun")
SWEEP_MPI = os.path.join(os.path.dirname(SIMFAB), "simfab-sweep-mpi")
if MPIRUN and os.path.exists(SWEEP_MPI):
    # ASAN_OPTIONS: in the sanitizer build, Open MPI's own allocations are not ours to report.
    MPI_ENV = dict(ENV, ASAN_OPTIONS="detect_leaks=0", OMPI_MCA_plm="isolated", OMPI_MCA_btl="self,vader",
                   OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")

    def mpi_sweep(np, args, **kw):
        return subprocess.run([MPIRUN, "-np", str(np), SIMFAB, "sweep"] + args, capture_output=True, text=True,
                              env=MPI_ENV, timeout=300, **kw)

    out3 = os.path.join(WORK, "mpi3.csv")
    p = mpi_sweep(3, [GRID, "-o", out3])
    eq("mpirun -np 3: exit 0", p.returncode, 0, p.stderr)
    check("mpirun -np 3: the summary names the 2 workers", "12 ok, 0 failed (2 workers)" in p.stderr,
          "12 points in ...: 12 ok, 0 failed (2 workers)", p.stderr)
    eq("mpirun -np 3: the local sweep's CSV apart from wall_s", without_wall(out3) if os.path.exists(out3) else "",
       without_wall(out1), "differ")
    out2w = os.path.join(WORK, "mpi2j3.csv")
    p = mpi_sweep(2, [GRID, "-o", out2w, "-j", "3"])
    eq("mpirun -np 2 -j 3 (one worker, 3 points at once): the same CSV", (p.returncode, without_wall(out2w)
       if os.path.exists(out2w) else ""), (0, without_wall(out1)), p.stderr)
    failed_mpi = os.path.join(WORK, "failed_mpi.csv")
    p = mpi_sweep(3, [FAIL, "-o", failed_mpi])
    eq("mpirun: failed points are rows, as in the local sweep", (p.returncode, without_wall(failed_mpi)
       if os.path.exists(failed_mpi) else ""), (0, without_wall(failed)), p.stderr)

    # Killed midway (SIGTERM to mpirun reaches every process): the CSV keeps the points finished;
    # the same command completes it. Three times the local kill test's points: mpirun passes the
    # signal on after a while, and two workers run fast.
    LONG = write("long_mpi.yaml", open(GRID).read() + f"repetitions: {3 * REPS}\n")
    LONG_POINTS = 36 * REPS
    killed_mpi = os.path.join(WORK, "killed_mpi.csv")
    proc = subprocess.Popen([MPIRUN, "-np", "3", SIMFAB, "sweep", LONG, "-o", killed_mpi, "--quiet"], env=MPI_ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and (not os.path.exists(killed_mpi) or len(rows(killed_mpi)) < 6):
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    before = rows(killed_mpi)
    check(f"mpirun killed: the CSV holds a part of the {LONG_POINTS} points", 5 <= len(before) - 1 < LONG_POINTS,
          f"5..{LONG_POINTS - 1} rows",
          len(before) - 1)
    p = mpi_sweep(3, [LONG, "-o", killed_mpi, "--dry-run"])
    todo = [line for line in p.stdout.splitlines() if "\tto run\t" in line]
    eq("mpirun killed: --dry-run (printed once, by process 0) lists only the missing points",
       (p.returncode, len(todo), p.stdout.count("points, ")), (0, LONG_POINTS - (len(before) - 1), 1), p.stdout[-300:])
    p = mpi_sweep(3, [LONG, "-o", killed_mpi, "--quiet"])
    final = rows(killed_mpi)
    eq(f"mpirun killed, rerun: {LONG_POINTS} rows, those done before untouched, every row ok",
       (p.returncode, len(final) - 1, {tuple(r) for r in before} <= {tuple(r) for r in final},
        {r[-2] for r in final[1:]}), (0, LONG_POINTS, True, {"ok"}), p.stderr[-500:])

    # Bad input: exit 2, the message once (process 0's), nothing written.
    spec = write("bad_mpi.yaml", f"platform: {PLATFORM}\ntrace: {TRACE}\naxes:\n  network/modle: [flow]\n")
    bad_out = os.path.join(WORK, "bad_mpi.csv")
    p = mpi_sweep(3, [spec, "-o", bad_out])
    eq("mpirun, bad spec: exit 2, one message naming bad_mpi.yaml:4, nothing written",
       (p.returncode != 0, p.stderr.count("bad_mpi.yaml:4:"), "did you mean 'network/model'" in p.stderr,
        os.path.exists(bad_out)), (True, 1, True, False), p.stderr)
    p = mpi_sweep(3, [GRID, "-o", bad_out, "--jobz", "2"])
    eq("mpirun, unknown option: one message", (p.returncode != 0, p.stderr.count("unknown option '--jobz'")),
       (True, 1), p.stderr)
else:
    print("SKIP: the sweep under mpirun (no mpirun or no simfab-sweep-mpi)")

golden_check.finish("run_sweep.py")
