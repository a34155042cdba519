#!/usr/bin/env python3
"""CLI tests for `simfab convert` (issue 9 part 1): real-run capture traces -> TI traces and GOAL.

usage: run_convert.py SIMFAB SOURCE_DIR
  1. seed 004 §6 test 6: the thesis's Appendix C traces (liballprof) give its Appendix D schedule,
     line for line (trailing spaces and blank lines aside: GoalWriter writes no blank lines);
     Appendix I's traces give Appendix I's schedule without its "durations" calcs
  2. --pinning, --speed on those traces; TI and GOAL of them predict the same run
  3. tests/capture/fixtures/ring4 (ANY_SOURCE, isend/irecv/waitall, a wildcard Irecv resolved by
     its Wait, sendrecv, probe, comm_split with a bcast and an allreduce on it, a world allreduce):
     the TI names the real sources and replays on examples/platforms/cluster16.yaml
  4. the closed form of fixtures/pingpong2 under LogGOPS
  5. every bad input of the issue: exit 2, the message, nothing written
  6. --salvage: damaged ring4 copies give a consistent prefix that replays, one warning per cut rank
  7. determinism: two conversions are byte-identical
  8. with mpicc, mpirun and libsimfab-capture.so: a real Open MPI run of tests/capture/capture_probe.c,
     captured, converted and replayed
Prints "Expectation: ... Actual: ..." for every failed check and a closing "N passed, N failed".
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
APPC = os.path.join(SRC, "tests", "capture", "appc")
FIX = os.path.join(SRC, "tests", "capture", "fixtures")
CLUSTER = os.path.join(SRC, "examples", "platforms", "cluster16.yaml")
LOGGOPS = ["--cfg", "loggops/L=2500", "--cfg", "loggops/o=1500", "--cfg", "loggops/g=1000",
           "--cfg", "loggops/G=6", "--cfg", "loggops/O=0", "--cfg", "loggops/S=65535"]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402  (the shared check counter of the CLI test scripts)
from golden_check import check  # noqa: E402


def run(args, cwd=None):
    p = subprocess.run([SIMFAB] + args, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def lines_of(path):
    """The file's lines without trailing spaces, blank lines dropped."""
    return [l.rstrip() for l in open(path).read().split("\n") if l.strip()]


def convert(name, inputs, out_dir, extra=(), goal=True, ti=True):
    args = ["convert"] + list(inputs)
    if ti:
        args += ["--ti", os.path.join(out_dir, "out.ti")]
    if goal:
        args += ["--goal", os.path.join(out_dir, "out.goal")]
    code, so, se = run(args + list(extra) + ["--quiet"])
    check(name + " converts", code == 0, "exit 0", f"exit {code}: {se.strip()}")
    return code, se


def replay(name, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, so, se = run(["run", "--platform", CLUSTER] + args + ["--json", out, "--reproducible", "--quiet"])
        check(name + " replays", code == 0, "exit 0", f"exit {code}: {se.strip()}")
        return json.load(open(out)) if code == 0 else None


def ti_lines(out_dir, r):
    return open(os.path.join(out_dir, "out.ti_files", f"rank-{r}.ti")).read().split("\n")


# What an OTF2 archive of a capture keeps (convert --otf2-out, read back with convert --otf2): per
# rank the same sequence of MPI calls with the same peers, tags, bytes and communicators. Not kept
# (OTF2 has no record for them): probes, whose measured time joins the computation around them;
# counts are bytes of BYTE; every communicator constructor but dup comes back as comm_split, its
# colour the parent rank of the new rank 0 and its key the new rank (the same communicators);
# reductions charge one flop per 8 bytes, so flops and computation amounts are not compared.
DT_SIZE = {"6": 1, "3": 2, "1": 4, "0": 8, "14": 16, "27": 32, "2": 1, "5": 4, "4": 8}
P2P = {"send", "isend", "recv", "irecv", "ssend", "issend", "bsend", "ibsend", "rsend", "irsend"}


def canonical(lines):
    out = []
    for l in lines:
        t = l.split()
        if not t or l.startswith("#") or t[1] in ("sleep", "compute", "probe"):
            continue
        comm = [x for x in t if x.startswith("comm=")]
        a = [x for x in t[2:] if not x.startswith("comm=")]
        if t[1] in P2P:
            out.append((t[1], a[0], a[1], int(float(a[2])) * DT_SIZE[a[3] if len(a) > 3 else "6"], *comm))
        elif t[1] == "sendrecv":
            out.append((t[1], a[0], a[1], int(a[2]) * DT_SIZE[a[6]], a[3], a[4], int(a[5]) * DT_SIZE[a[7]], *comm))
        elif t[1] in ("comm_split", "comm_create"):
            out.append(("creation", a[2] if t[1] == "comm_split" else a[0], *comm))
        elif t[1] in ("init", "finalize", "wait", "waitall", "location", "comm_free", "comm_dup"):
            out.append(tuple(t[1:]))
        else:
            out.append((t[1], *comm))
    # the call site of a dropped probe: a location line with no call before the next one
    return [x for i, x in enumerate(out) if not (x[0] == "location" and i + 1 < len(out) and out[i + 1][0] == "location")]


def otf2_same_run(name, inputs, d, extra=(), same_messages=True):
    """Capture -> TI directly, and capture -> OTF2 -> TI: the same calls, and replays that move the
    same messages (with same_messages; a run with probes and comm_create moves other messages)."""
    a, b, arch = os.path.join(d, "direct"), os.path.join(d, "via-otf2"), os.path.join(d, "archive")
    os.makedirs(a, exist_ok=True)
    os.makedirs(b, exist_ok=True)
    code, _, se = run(["convert"] + list(inputs) + ["--ti", os.path.join(a, "out.ti"), "--otf2-out", arch, "--quiet"]
                      + list(extra))
    check(name + ": convert --otf2-out", code == 0 and os.path.isfile(os.path.join(arch, "traces.otf2")), "exit 0",
          se.strip())
    code, _, se = run(["convert", "--otf2", os.path.join(arch, "traces.otf2"), "--ti", os.path.join(b, "out.ti"),
                       "--quiet"] + list(extra))
    check(name + ": convert --otf2", code == 0, "exit 0", se.strip())
    if code != 0:
        return
    n = len([f for f in os.listdir(os.path.join(a, "out.ti_files"))])
    for r in range(n):
        x, y = canonical(ti_lines(a, r)), canonical(ti_lines(b, r))
        check(f"{name}: rank {r} makes the same calls through OTF2", x == y, x, y)
    lib_a, lib_b = ti_lines(a, 0)[0], ti_lines(b, 0)[0]
    check(name + ": the archive keeps the MPI library", lib_a == lib_b, lib_a, lib_b)
    ta = replay(name + " direct", ["--trace", os.path.join(a, "out.ti")])
    tb = replay(name + " via OTF2", ["--trace", os.path.join(b, "out.ti")])
    if ta and tb:
        same = [(k, ta[k], tb[k]) for k in ("messages", "bytes", "unmatched_messages")]
        check(name + ": both replays move the same messages" if same_messages else name + ": both replay, all matched",
              all(x == y for _, x, y in same) if same_messages else ta["unmatched_messages"] == tb["unmatched_messages"] == 0,
              "equal", same)
    return ta, tb


# ---- 1. Appendix C -> Appendix D --------------------------------------------------------------
with tempfile.TemporaryDirectory() as d:
    convert("appendix C", [APPC], d)
    got = lines_of(os.path.join(d, "out.goal"))
    want = lines_of(os.path.join(APPC, "expected.goal"))
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    check("appendix C -> appendix D exactly", got == want, f"{len(want)} lines of expected.goal",
          f"{len(got)} lines; first difference at line {first + 1}: "
          f"{got[first] if first < len(got) else 'EOF'!r} vs {want[first] if first < len(want) else 'EOF'!r}")
    # The files given one by one are the same run.
    d2 = os.path.join(d, "files")
    os.mkdir(d2)
    convert("appendix C by file", [os.path.join(APPC, f"pmpi-trace-rank-{r}.txt") for r in (1, 0)], d2)
    check("file list = directory", open(os.path.join(d2, "out.goal")).read() == open(os.path.join(d, "out.goal")).read(),
          "the same GOAL", "different")
    # TI: sleeps exact to the ps; the list names the per-rank files; TI and GOAL predict alike.
    check("appendix C TI list", open(os.path.join(d, "out.ti")).read() == "out.ti_files/rank-0.ti\nout.ti_files/rank-1.ti\n",
          "two relative paths", open(os.path.join(d, "out.ti")).read())
    r0 = ti_lines(d, 0)
    check("appendix C TI rank 0 starts", r0[:4] == ["0 init", "0 sleep 0.000073", "0 send 1 0 100000 1", "0 sleep 0.000015"],
          "init, sleep 73 us, send 100000 INT, sleep 15 us", r0[:4])
    check("appendix C TI rank 0 ends", r0[-3:] == ["0 sleep 0.006769", "0 finalize", ""], "sleep 6769 us, finalize", r0[-3:])
    a = replay("appendix C TI", ["--trace", os.path.join(d, "out.ti")])
    b = replay("appendix C GOAL", ["--goal", os.path.join(d, "out.goal")])
    if a and b:
        check("appendix C TI = GOAL", a["makespan_ps"] == b["makespan_ps"], b["makespan_ps"], a["makespan_ps"])

# Appendix I's traces (Irecv, Send, Wait, a 2-rank Allreduce): Appendix I's schedule without the
# thesis's "durations" calcs, i.e. what plain Schedgen writes (tests/capture/appi/expected-schedgen.goal,
# derived by hand: the wait is a calc 0 requiring the Irecv, the Allreduce one send and one recv
# with tag 1000000 after its gap, seed 004 §6 test 7).
APPI = os.path.join(SRC, "tests", "capture", "appi")
with tempfile.TemporaryDirectory() as d:
    # No reduction flops: the TI replay must then take exactly the GOAL schedule's time.
    convert("appendix I", [APPI], d, ["--reduce-flops", "0"])
    got, want = lines_of(os.path.join(d, "out.goal")), lines_of(os.path.join(APPI, "expected-schedgen.goal"))
    check("appendix I -> Schedgen's schedule", got == want, want, got)
    check("appendix I TI wait", "0 wait 1 0 123" in ti_lines(d, 0), "0 wait 1 0 123", ti_lines(d, 0))
    a = replay("appendix I TI", ["--trace", os.path.join(d, "out.ti")])
    b = replay("appendix I GOAL", ["--goal", os.path.join(d, "out.goal")])
    if a and b:
        check("appendix I TI = GOAL", a["makespan_ps"] == b["makespan_ps"], b["makespan_ps"], a["makespan_ps"])

# ---- 2. --pinning and --speed -------------------------------------------------------------------
with tempfile.TemporaryDirectory() as d:
    convert("pinning", [APPC], d, ["--pinning", "165.894,0.00301695"])
    text = open(os.path.join(d, "out.goal")).read()
    # One new buffer per rank: 165.894 + 0.00301695 x 400000 = 1372.674 us, before the first transfer.
    pins = re.findall(r"^(l\d+): calc 1372674000$", text, re.M)
    check("pinning: one charge per rank", len(pins) == 2, "2 x calc 1372674000", pins)
    check("pinning: shape", "l1 requires l2\nl3: calc 1372674000\nl1 requires l3\nl3 requires l2\n" in text,
          "op requires the pin calc, which requires the gap", text[:200])
    r0 = ti_lines(d, 0)
    check("pinning TI", r0[1:4] == ["0 sleep 0.000073", "0 sleep 0.001372674", "0 send 1 0 100000 1"],
          "gap, pinning sleep, send", r0[1:4])
    a = replay("pinning TI", ["--trace", os.path.join(d, "out.ti")])
    b = replay("pinning GOAL", ["--goal", os.path.join(d, "out.goal")])
    if a and b:
        check("pinning TI = GOAL", a["makespan_ps"] == b["makespan_ps"], b["makespan_ps"], a["makespan_ps"])
with tempfile.TemporaryDirectory() as d:
    convert("speed", [APPC], d, ["--speed", "2Gf"], goal=False)
    r0 = ti_lines(d, 0)
    check("speed: compute flops", r0[1] == "0 compute 146000", "0 compute 146000 (73 us x 2 Gf)", r0[1])
    code, _, se = run(["convert", APPC, "--ti", os.path.join(d, "x.ti"), "--speed", "fast"])
    check("bad --speed", code == 2 and "--speed expects" in se, "exit 2, '--speed expects'", f"{code}: {se.strip()}")
    code, _, se = run(["convert", APPC, "--ti", os.path.join(d, "x.ti"), "--pinning", "1"])
    check("bad --pinning", code == 2 and "--pinning expects" in se, "exit 2, '--pinning expects'", f"{code}: {se.strip()}")
    code, _, se = run(["convert", APPC, "--ti", os.path.join(d, "x.ti"), "--reduce-flops", "-1"])
    check("bad --reduce-flops", code == 2 and "--reduce-flops expects" in se, "exit 2", f"{code}: {se.strip()}")
    code, _, se = run(["convert", APPC, "--ti", os.path.join(d, "x.ti"), "--comm-creation", "free"])
    check("bad --comm-creation", code == 2 and "--comm-creation expects" in se, "exit 2", f"{code}: {se.strip()}")
    code, _, se = run(["convert", APPC])
    check("no output", code == 2 and "give an output" in se, "exit 2", f"{code}: {se.strip()}")

# ---- 3. the 4-rank fixture: resolution, communicators, replay ---------------------------------
RING = os.path.join(FIX, "ring4")
with tempfile.TemporaryDirectory() as d:
    convert("ring4", [RING], d)
    r0, r1, r3 = ti_lines(d, 0), ti_lines(d, 1), ti_lines(d, 3)
    check("ANY_SOURCE resolved from the status", "0 recv 2 7 10 1" in r0 and "0 recv 1 7 10 1" in r0
          and r0.index("0 recv 2 7 10 1") < r0.index("0 recv 1 7 10 1"), "recv from 2, then from 1", r0[:6])
    check("wildcard Irecv resolved by its Wait", "3 irecv 1 9 2 0" in r3 and "3 wait 1 3 9" in r3,
          "irecv 1 9 2 0 and wait 1 3 9", [l for l in r3 if "9" in l])
    check("probe resolved", "0 probe 3 11" in r0, "0 probe 3 11", [l for l in r0 if "probe" in l])
    check("waitall of every open request", "0 waitall" in r0, "0 waitall", r0)
    check("comm_split with TI ids", "0 comm_split 0 0 1" in r0 and "1 comm_split 1 1 2" in r1,
          "colour 0 -> id 1, colour 1 -> id 2", [l for l in r0 + r1 if "split" in l])
    check("collectives on the new communicator", "1 bcast 16 0 0 comm=2" in r1 and "1 allreduce 4 4 0 comm=2" in r1,
          "bcast/allreduce with comm=2, 1 flop per reduced element", [l for l in r1 if "comm=" in l])
    # Every member spent 3 us in MPI_Comm_split: its measured cost precedes the modelled exchange.
    split = next(i for i, l in enumerate(r1) if "comm_split" in l)
    check("measured creation cost", r1[split - 1] == "1 sleep 0.000003", "1 sleep 0.000003", r1[split - 2:split + 1])
    # TI and GOAL compared as schedules: without the TI-only reduction flops and creation costs.
    convert("ring4 exact", [RING], d, ["--reduce-flops", "0", "--comm-creation", "simulated"])
    check("comm_free", "1 comm_free 2" in r1, "1 comm_free 2", r1)
    check("iprobe and comm_size left out", not any("iprobe" in l for l in r0), "no iprobe line", r0)
    t = replay("ring4 TI", ["--trace", os.path.join(d, "out.ti")])
    g = replay("ring4 GOAL", ["--goal", os.path.join(d, "out.goal")])
    if t and g:
        same = [(k, t[k], g[k]) for k in ("messages", "bytes", "unmatched_messages")]
        check("ring4: TI and GOAL move the same messages", all(a == b for _, a, b in same)
              and t["messages"] == 32 and t["unmatched_messages"] == 0, "32 messages in both, none unmatched", same)
    # GOAL has no probe: rank 0 posts its receive at once instead of 100 ns after the message
    # arrived, so the GOAL run is 100 ns shorter (the next collective passes it to every rank).
    if t and g:
        check("ring4 TI - GOAL = the probe's 100 ns", t["makespan_ps"] - g["makespan_ps"] == 100000,
              100000, t["makespan_ps"] - g["makespan_ps"])
with tempfile.TemporaryDirectory() as d:
    otf2_same_run("ring4 through OTF2", [RING], d)

# ---- 4. closed form -------------------------------------------------------------------------------
# Rank 0 computes a = 5 us, sends s = 1000 B, computes 7 us; rank 1 computes 2 us, receives,
# computes d = 11 us. LogGOPS eager (L=2500 o=1500 G=6 ps): the receive completes at
# a + o + (s-1)G + L + o; rank 1 finishes at a + L + 2o + (s-1)G + d = 16,011,494 ps; rank 0 at
# a + o + 7 us = 12,001,500 ps.
with tempfile.TemporaryDirectory() as d:
    convert("pingpong2", [os.path.join(FIX, "pingpong2")], d)
    a, o, L, G, s, dd = 5_000_000, 1500, 2500, 6, 1000, 11_000_000
    want = [a + o + 7_000_000, a + L + 2 * o + (s - 1) * G + dd]
    for kind in ("trace", "goal"):
        res = replay("pingpong2 " + kind, ["--" + kind, os.path.join(d, "out.ti" if kind == "trace" else "out.goal")] + LOGGOPS)
        if res:
            got = [r["finish_ps"] for r in res["ranks"]]
            check(f"pingpong2 closed form ({kind})", got == want and res["makespan_ps"] == want[1], want, got)


# ---- 5. bad input ------------------------------------------------------------------------------------
def copy_ring(d):
    dst = os.path.join(d, "in")
    shutil.copytree(RING, dst)
    return dst


def edit(path, fn):
    text = open(path).read()
    open(path, "w").write(fn(text))


def bad(name, prepare, expects, extra=()):
    with tempfile.TemporaryDirectory() as d:
        src = copy_ring(d)
        inputs = prepare(src) or [src]
        out = os.path.join(d, "out")
        os.mkdir(out)
        code, so, se = run(["convert"] + inputs + ["--ti", os.path.join(out, "o.ti"),
                                                   "--goal", os.path.join(out, "o.goal")] + list(extra))
        problems = []
        if code != 2:
            problems.append(f"exit {code}")
        for e in expects:
            if not re.search(e, se):
                problems.append(f"stderr lacks {e!r}")
        if os.listdir(out):
            problems.append(f"files were written: {os.listdir(out)}")
        if "internal error" in se or "Sanitizer" in se:
            problems.append("crash")
        check("bad input: " + name, not problems, "exit 2, " + ", ".join(expects), "; ".join(problems) + " | " + se.strip())


R = lambda src, r: os.path.join(src, f"rank-{r}.txt")
bad("no '# end'", lambda s: edit(R(s, 1), lambda t: t.replace("# end\n", "")),
    [r"rank-1\.txt:\d+", r"truncated: no '# end' line"])
bad("no MPI_Finalize", lambda s: edit(R(s, 2), lambda t: re.sub(r"MPI_Finalize.*\n# end\n", "", t)),
    [r"rank-2\.txt", "ends without an MPI_Finalize record"])
bad("record cut mid-line", lambda s: edit(R(s, 3), lambda t: t[:t.index("MPI_Sendrecv") + 30]),
    [r"rank-3\.txt:\d+", "cut mid-line"])
bad("unknown function", lambda s: edit(R(s, 1), lambda t: t.replace("MPI_Waitall", "MPI_Waitfor", 1)),
    [r"rank-1\.txt:\d+", "unknown function 'MPI_Waitfor'"])
bad("wrong number of fields", lambda s: edit(R(s, 2), lambda t: t.replace(":0:7:1,2,4:", ":0:1,2,4:", 1)),
    [r"rank-2\.txt:12", "wrong number of fields: MPI_Send has 6 field"])
bad("non-numeric field", lambda s: edit(R(s, 2), lambda t: t.replace(":0:7:1,2,4:", ":0:seven:1,2,4:", 1)),
    [r"rank-2\.txt:12", r"field 5 \(tag\) of MPI_Send: expected a tag", "seven"])
bad("times going backwards", lambda s: edit(R(s, 0), lambda t: t.replace("MPI_Recv:6500:", "MPI_Recv:5500:", 1)),
    [r"rank-0\.txt:13", "times go backwards"])
bad("two files claim a rank", lambda s: shutil.copy(R(s, 1), os.path.join(s, "copy-5.txt")) and None,
    ["two files claim rank 1", r"rank-1\.txt", r"copy-5\.txt"])
bad("missing rank", lambda s: os.remove(R(s, 3)), ["no file for rank 3"])
# A line of rank 2 (its world rank in the comm field) among rank 1's.
bad("interleaved lines", lambda s: edit(R(s, 1), lambda t: t.replace(":0:7:1,1,4:", ":0:7:1,2,4:", 1)),
    [r"rank-1\.txt:\d+", "says rank 2 of 4, but this file is rank 1", "interleaved"])
bad("different runs", lambda s: edit(R(s, 2), lambda t: t.replace("# run: 5f2c0a9e1b7d4c31", "# run: 0123456789abcdef")),
    ["traces of different runs", "5f2c0a9e1b7d4c31", "0123456789abcdef", r"rank-0\.txt", r"rank-2\.txt"])
def extra_send(t):
    # One more send, to rank 2 with tag 42, between rank 1's last call and MPI_Finalize.
    last = int(re.findall(r":(\d+)\nMPI_Finalize", t)[0])
    return t.replace("MPI_Finalize", f"MPI_Send:{last + 100}:140735615211488:1:3,4,4:2:42:1,1,4:{last + 200}\nMPI_Finalize")


bad("unmatched send", lambda s: edit(R(s, 1), extra_send),
    [r"rank-1\.txt:\d+", r"unmatched point-to-point messages on channel \(MPI_COMM_WORLD, world rank 1 -> world rank 2, tag 42\)",
     r"1 send\(s\) but 0 receive\(s\)"])
bad("collective mismatch", lambda s: edit(R(s, 3), lambda t: re.sub(r"MPI_Allreduce:(\d+):\d+:\d+:1:3,4,4:3:1,3,4:(\d+)",
                                                                     r"MPI_Barrier:\1:1,3,4:\2", t)),
    [r"rank-3\.txt:\d+", "collective mismatch", "MPI_Barrier here, but MPI_Allreduce"])
bad("wait on an unknown request", lambda s: edit(R(s, 3), lambda t: t.replace("MPI_Wait:", "MPI_Wait:").replace(":3/1/9/16:", ":9/1/9/16:")),
    [r"rank-3\.txt:\d+", "MPI_Wait completes request 9, which no earlier MPI_Isend/MPI_Irecv"])
bad(".part without --salvage", lambda s: os.rename(R(s, 2), R(s, 2) + ".part"), [r"rank-2\.txt\.part", "--salvage"])
bad("not a capture", lambda s: edit(R(s, 0), lambda t: "hello\n" + t), [r"rank-0\.txt", "not a capture trace"])
bad("no such input", lambda s: [os.path.join(s, "nothing-here")], ["no such file or directory"])


# ---- 6. --salvage ---------------------------------------------------------------------------------
def salvage(name, prepare, want_warnings, check_lines=None):
    with tempfile.TemporaryDirectory() as d:
        src = copy_ring(d)
        prepare(src)
        out = os.path.join(d, "out")
        os.mkdir(out)
        code, so, se = run(["convert", src, "--ti", os.path.join(out, "out.ti"), "--goal",
                            os.path.join(out, "out.goal"), "--salvage", "--quiet"])
        check(name + " exits 0", code == 0, "exit 0", f"{code}: {se.strip()}")
        warnings = [l for l in se.split("\n") if l]
        check(name + " warnings", len(warnings) == len(want_warnings) and all(
            re.search(w, l) for w, l in zip(want_warnings, warnings)), want_warnings, warnings)
        if code == 0:
            if check_lines:
                check_lines(out)
            replay(name + " TI", ["--trace", os.path.join(out, "out.ti")])
            replay(name + " GOAL", ["--goal", os.path.join(out, "out.goal")])


def crash_rank2(s):
    # rank 2 died inside its Comm_split call: a .part file whose last line is cut.
    text = open(R(s, 2)).read()
    open(R(s, 2) + ".part", "w").write(text[:text.index("MPI_Comm_split") + 20])
    os.remove(R(s, 2))


def crash_rank2_lines(out):
    for r in range(4):
        lines = ti_lines(out, r)
        check(f"salvage crash: rank {r} ends before the split", not any("comm_split" in l for l in lines)
              and lines[-2] == f"{r} finalize", "no comm_split, then finalize", lines[-4:])


salvage("salvage crash", crash_rank2,
        [r"rank-0\.txt:\d+: warning: rank 0 cut here \(collective #0 on MPI_COMM_WORLD is not reached by rank 2\); kept 9 of 15 records",
         r"rank-1\.txt:17: warning: rank 1 cut here .*kept 6 of 12 records",
         r"rank-2\.txt\.part:17: warning: rank 2 cut here \(the file ends inside a record.*\); kept 6 of 7 records",
         r"rank-3\.txt:19: warning: rank 3 cut here .*kept 8 of 14 records"], crash_rank2_lines)


def lost_send(s):
    # rank 3's file stops before its tag-11 send: rank 0's probe and receive of it must go too.
    text = open(R(s, 3)).read()
    open(R(s, 3) + ".part", "w").write(text[:text.index("MPI_Send:")])
    os.remove(R(s, 3))


def lost_send_lines(out):
    r0 = ti_lines(out, 0)
    check("salvage lost send: rank 0 stops before its probe", not any("probe" in l for l in r0) and "0 waitall" in r0,
          "waitall kept, no probe", r0)


salvage("salvage lost send", lost_send,
        [r"rank-0\.txt:\d+: warning: rank 0 cut here \(its message was cut: channel \(MPI_COMM_WORLD, world rank 3 -> world rank 0, tag 11\)\)",
         r"rank-1\.txt:\d+: warning: rank 1 cut here",
         r"rank-2\.txt:\d+: warning: rank 2 cut here",
         r"rank-3\.txt\.part:\d+: warning: rank 3 cut here \(truncated: the file ends without an MPI_Finalize record"],
        lost_send_lines)
salvage("salvage intact", lambda s: None, [])

# ---- 7. determinism ---------------------------------------------------------------------------------
with tempfile.TemporaryDirectory() as d:
    outs = []
    for k in range(2):
        o = os.path.join(d, f"o{k}")
        os.mkdir(o)
        convert(f"determinism {k}", [RING], o, ["--pinning", "1,0.001"])
        files = {}
        for root, _, names in os.walk(o):
            for n in names:
                files[os.path.relpath(os.path.join(root, n), o)] = open(os.path.join(root, n), "rb").read()
        outs.append(files)
    check("two conversions are byte-identical", outs[0] == outs[1] and len(outs[0]) == 6, "6 identical files",
          sorted(outs[0]) if outs[0] != outs[1] else len(outs[0]))

# ---- 8. a real capture (optional) -----------------------------------------------------------------
# tests/capture/capture_probe.c run by Open MPI's mpirun on 4 ranks with libsimfab-capture.so (next
# to the simfab binary) preloaded: every record kind the library writes, MPI_Cart_create/Cart_sub in
# MPI_Comm_split's form included. Its TI and GOAL replay and move the same messages. (Their
# makespans differ where GOAL cannot say what the TI trace says -- probes, synchronous and buffered
# sends -- by an amount that depends on the real run's timing, so they are not compared.)
LIB = os.path.join(os.path.dirname(os.path.abspath(SIMFAB)), "libsimfab-capture.so")
if shutil.which("mpirun") and shutil.which("mpicc") and os.path.exists(LIB):
    with tempfile.TemporaryDirectory() as d:
        probe = os.path.join(d, "probe")
        p = subprocess.run(["mpicc", "-O1", "-o", probe, os.path.join(SRC, "tests", "capture", "capture_probe.c")],
                           capture_output=True, text=True)
        check("real capture: mpicc", p.returncode == 0, "exit 0", p.stderr)
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("SIMFAB_CAPTURE_")}
        env.update({"SIMFAB_CAPTURE_DIR": os.path.join(d, "cap"), "SIMFAB_CAPTURE_SPEED": "2e9"})
        cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "--mca",
               "btl_vader_single_copy_mechanism", "none", "-np", "4", "-x", "SIMFAB_CAPTURE_DIR", "-x",
               "SIMFAB_CAPTURE_SPEED", "-x", f"LD_PRELOAD={LIB}", probe]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=d, timeout=120) if p.returncode == 0 else p
        check("real capture: mpirun", p.returncode == 0, "exit 0", p.stderr[-2000:])
        if p.returncode == 0:
            out = os.path.join(d, "out")
            os.mkdir(out)
            convert("real capture", [os.path.join(d, "cap")], out, ["--speed", "10Gf"])
            r0 = ti_lines(out, 0)
            check("real capture: Cart_create as comm_split", any(l.startswith("0 comm_split") and "comm=" in l for l in r0),
                  "a comm_split on a communicator (Cart_sub)", [l for l in r0 if "comm_" in l])
            # The capture names its library; the TI keeps it and the replay runs Open MPI's collectives
            # unless told otherwise (issue 28). The GOAL schedule holds Schedgen's expansion.
            check("real capture: the TI names the MPI library", r0[0].startswith("# mpi-library: Open MPI"),
                  "'# mpi-library: Open MPI ...' first", r0[:2])
            check("real capture: the TI names the nodes", r0[1] == "# mpi-nodes: 1", "'# mpi-nodes: 1' second", r0[:3])
            ti = os.path.join(out, "out.ti")
            # A platform calibrated with another library, or across nodes, is refused at the trace's line.
            for cfg, want in (("calibration/library=MPICH Version 4.0.2", ["rank-0.ti:1:", "captured with Open MPI v4.1.4",
                                                                          "calibrated with MPICH Version 4.0.2"]),
                              ("calibration/nodes=2", ["rank-0.ti:2:", "ran on 1 node(s)", "calibrated on 2"])):
                code, _, err = run(["run", "--platform", CLUSTER, "--trace", ti, "--cfg", cfg, "--quiet"])
                check("real capture: " + cfg + " is refused", code == 2 and all(w in err for w in want),
                      "exit 2 naming " + str(want), (code, err))
            code, _, err = run(["run", "--platform", CLUSTER, "--trace", ti, "--cfg", "calibration/nodes=1", "--cfg",
                                "calibration/library=Open MPI v4.1.4, package: another build", "--quiet"])
            check("real capture: the calibrated setup is accepted", code == 0, "exit 0", (code, err))
            default = replay("real capture TI", ["--trace", ti])
            ompi = replay("real capture TI, ompi", ["--trace", ti, "--cfg", "mpi/coll-selector=ompi"])
            t = replay("real capture TI, schedgen", ["--trace", ti, "--cfg", "mpi/coll-selector=schedgen"])
            g = replay("real capture GOAL", ["--goal", os.path.join(out, "out.goal")])
            if default and ompi and t:
                check("real capture: Open MPI's collectives by default",
                      default["makespan_s"] == ompi["makespan_s"] and default["messages"] == ompi["messages"]
                      and default["messages"] != t["messages"],
                      "the ompi selector's messages, not Schedgen's",
                      (default["messages"], ompi["messages"], t["messages"]))
            if t and g:
                same = [(k, t[k], g[k]) for k in ("messages", "bytes", "unmatched_messages")]
                check("real capture: TI and GOAL move the same messages", all(a == b for _, a, b in same)
                      and t["unmatched_messages"] == 0, "equal messages and bytes, none unmatched", same)
            # The same real run as an OTF2 archive (opens in Vampir) converts to the same calls.
            via = os.path.join(d, "otf2")
            os.mkdir(via)
            otf2_same_run("real capture through OTF2", [os.path.join(d, "cap")], via, ["--speed", "10Gf"], False)
            # SIMFAB_CAPTURE_FORMAT=otf2: the run itself leaves <dir>/otf2/traces.otf2 beside the
            # rank files (rank 0 converts them at MPI_Finalize); a bad format stops it at MPI_Init.
            for fmt, want in (("otf2", 0), ("xml", 2)):
                env2 = dict(env, SIMFAB_CAPTURE_DIR=os.path.join(d, "cap-" + fmt), SIMFAB_CAPTURE_FORMAT=fmt)
                p = subprocess.run(cmd[:-3] + ["-x", "SIMFAB_CAPTURE_FORMAT"] + cmd[-3:], capture_output=True,
                                   text=True, env=env2, cwd=d, timeout=120)
                anchor = os.path.join(d, "cap-" + fmt, "otf2", "traces.otf2")
                if fmt == "otf2":
                    check("SIMFAB_CAPTURE_FORMAT=otf2 writes an archive", p.returncode == 0 and os.path.isfile(anchor),
                          "exit 0 and cap-otf2/otf2/traces.otf2", p.stderr[-1000:])
                    res = replay("the run's own OTF2 archive", ["--otf2", anchor])
                    check("the run's own OTF2 archive replays with all messages matched",
                          res is not None and res["unmatched_messages"] == 0, "0 unmatched", res and res["unmatched_messages"])
                else:
                    check("SIMFAB_CAPTURE_FORMAT=xml is refused", p.returncode != 0 and "SIMFAB_CAPTURE_FORMAT='xml' is not a format"
                          in p.stderr and not os.path.exists(anchor), "the job stopped, naming the value", p.stderr[-500:])
else:
    print("note: no mpirun/mpicc or no " + LIB + ": the real-capture section is skipped")

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
