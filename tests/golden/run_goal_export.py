#!/usr/bin/env python3
"""CLI tests for `simfab goal` (replay/ti_to_goal.hpp): a trace exported to GOAL replays to the
same prediction as the trace itself (`simfab run --trace T` vs `simfab run --goal T.goal`: makespan,
per-rank finish times, messages, bytes), under LogGOPS and flow, with forced algorithms and both
selectors; the export is byte-identical when rerun; one export is checked byte for byte against
tests/golden/expected/pingpong-two-hosts.goal:
  rank 0: compute 1e6 flops on alice (2 Gf) = 5e-4 s = 500000000 ps, send 1024 B, recv 1 MiB
  rank 1: recv 1024 B, compute 5e5 flops = 250000000 ps, send 1 MiB; each op requires the previous.
MPI_PROC_NULL, wildcard sources, sendrecv and rsend, non-blocking collectives and communicators
(split into two colours with collectives and point-to-point on each half, dup, create with a
non-member, free) round-trip too; what GOAL cannot express (ssend, bsend, probe, cancel of a
receive, waitany/waitsome) exits 2 naming file:line and leaves no output file.

usage: run_goal_export.py SIMFAB SOURCE_DIR [--update] [--quick]

--quick (the sanitizer build's ctest case; the optimised build runs everything): every simfab call
costs about 0.3 s under AddressSanitizer whatever its input, so --quick makes 66 calls instead of
143 while every export feature, front-end and model is still exercised once, and every round trip
it makes is still compared. It leaves out:
  - coll8.ti (coll5.ti's collectives again, on 8 ranks) and the pingpong.ti round trip (its ops are
    a subset of p2p4.ti's; pingpong.ti's export is still checked against its golden file);
  - the flow round trips except stencil16.ti, p2p4.ti and nonblocking4.ti (collectives and
    communicators under flow come from the MPICH-selector case on split8.ti below);
  - of the forced algorithms and selectors: all four stay on coll5.ti; allreduce16.ti keeps only
    Rabenseifner + pipeline (the power-of-two case) and split8.ti only MPICH + flow;
  - the rerun of each export (byte-identical output), kept for split8.ti under LogGOPS only.
The bad inputs, the golden export and `simfab help` are all kept.
Prints "Expectation: ... Actual: ..." for every failed check and a closing "N passed, N failed".
"""
import json
import os
import subprocess
import sys
import tempfile

import golden_check
from golden_check import check

SIMFAB, SRC = sys.argv[1], sys.argv[2]
UPDATE = "--update" in sys.argv
QUICK = "--quick" in sys.argv
CLUSTER16 = os.path.join(SRC, "examples/platforms/cluster16.yaml")
TWO_HOSTS = os.path.join(SRC, "examples/platforms/two-hosts.yaml")


def simfab(args):
    p = subprocess.run([SIMFAB] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def prediction(name, args, d):
    out = os.path.join(d, "out.json")
    code, err = simfab(["run"] + args + ["--json", out, "--reproducible", "--quiet"])
    check(name + " exits 0", code == 0, "exit 0", f"exit {code}: {err.strip()}")
    if code != 0:
        return None
    j = json.load(open(out))
    return {"makespan_ps": j["makespan_ps"], "finish": [r["finish_ps"] for r in j["ranks"]],
            "messages": j["messages"], "bytes": j["bytes"]}


def round_trip(name, trace, platform, cfgs, may_refuse=False, rerun=True):
    """may_refuse: a bundled example may use what GOAL cannot express (rows8.ti: ssend, probe); then
    the export must refuse it clearly (exit 2, "cannot export '...' to GOAL", no file).
    rerun: export twice and compare the bytes (determinism)."""
    cfg_args = [a for c in cfgs for a in ("--cfg", c)]
    with tempfile.TemporaryDirectory() as d:
        goal = os.path.join(d, "t.goal")
        code, err = simfab(["goal", "--trace", trace, "--platform", platform, "-o", goal, "--quiet"] + cfg_args)
        if may_refuse and code == 2 and "cannot export '" in err:
            check(name + ": refused without a file", not os.path.exists(goal), "no output file", "t.goal exists")
            return
        check(name + ": export exits 0", code == 0, "exit 0", f"exit {code}: {err.strip()}")
        if code != 0:
            return
        if rerun:
            text = open(goal, "rb").read()
            again = os.path.join(d, "again.goal")
            simfab(["goal", "--trace", trace, "--platform", platform, "--output", again, "--quiet"] + cfg_args)
            check(name + ": export is deterministic", os.path.exists(again) and open(again, "rb").read() == text,
                  "byte-identical export on a rerun", "different bytes")
        a = prediction(name + ": run --trace", ["--trace", trace, "--platform", platform] + cfg_args, d)
        b = prediction(name + ": run --goal", ["--goal", goal, "--platform", platform] + cfg_args, d)
        check(name + ": same prediction", a is not None and a == b, a, b)


def every_collective(p):
    """Every TI collective on p ranks, compute between, v-counts that agree."""
    lines = []
    for r in range(p):
        c = lambda f: " ".join(str(f(i)) for i in range(p))
        lines += [f"{r} init", f"{r} compute {(r + 1) * 100000}", f"{r} barrier", f"{r} bcast 1000 {2 % p}",
                  f"{r} reduce 500 100000 {1 % p}", f"{r} allreduce 4096 200000", f"{r} alltoall 64 64",
                  f"{r} alltoallv 0 {c(lambda j: 10 * (r + 1) + j)} 0 {c(lambda j: 10 * (j + 1) + r)}",
                  f"{r} gather 100 100 {3 % p}", f"{r} gatherv {20 + r} {c(lambda i: 20 + i)} 0",
                  f"{r} allgather 128 128", f"{r} allgatherv {30 + r} {c(lambda i: 30 + i)}",
                  f"{r} scatter 100 100 {1 % p}", f"{r} scatterv {c(lambda i: 40 + i)} {40 + r} {2 % p}",
                  f"{r} reducescatter {c(lambda i: 8 * (i + 1))} 100000", f"{r} allreduce 1000000 0 1",
                  f"{r} finalize"]
    return "\n".join(lines) + "\n"


P2P = """0 init
1 init
2 init
3 init
0 compute 1e6
0 isend 1 3 100
0 isend 2 4 20000
0 irecv 3 5 70000
0 wait 0 2 4
0 waitall
1 irecv 0 3 800
1 send 2 7 128
1 wait 0 1 3
1 recv 3 -1 16
2 recv 1 7 128
2 irecv 0 4 20000
2 isend 3 9 1000000
2 wait 2 3 9
2 compute 5e5
2 wait 0 2 4
3 isend 0 5 70000
3 send 1 11 16
3 irecv 2 9 1000000
3 compute 2e5
3 wait 3 0 5
0 finalize
1 finalize
2 finalize
3 finalize
"""

PROC_NULL = """0 compute 1e6
0 send -666 1 5
0 isend -666 2 5
0 rsend 1 4 2000
0 irsend 2 5 30000
0 ssend -666 1 5
0 wait 0 -666 2
0 wait 0 2 5
0 testall
1 recv -666 1 5
1 irecv 0 4 2000
1 iprobe 0 4
1 wait 0 1 4
1 sendrecv 2 9 100 -666 9 100
1 sendrecv -666 9 100 3 10 4000
2 irecv -555 5 30000
2 recv 1 9 100
2 wait -555 2 5
2 sendrecv 3 11 5000 3 12 5000
3 send 1 10 4000
3 sendrecv 2 12 5000 2 11 5000
3 irecv -333 20 64
3 waitall
0 send 3 20 64
"""


def split_trace():
    """8 ranks split by parity (key -r: reverse order), collectives and p2p on each half, world after."""
    lines = []
    for r in range(8):
        local, c = 3 - r // 2, f" comm={1 + r % 2}"
        lines += [f"{r} compute {(r + 1) * 100000}", f"{r} comm_split {r % 2} {-r} {1 + r % 2}",
                  f"{r} bcast 1000 1{c}", f"{r} allreduce 4096 1e5{c}", f"{r} barrier{c}",
                  f"{r} alltoallv 0 {' '.join(str(10 + j) for j in range(4))} 0 {' '.join(str(10 + local) for j in range(4))}{c}"]
        if r % 2:
            lines += [f"{r} sendrecv {(local + 1) % 4} 4 640 {(local + 3) % 4} 4 640{c}"]
        else:
            lines += [f"{r} isend {(local + 1) % 4} 5 {100 * r}{c}", f"{r} irecv -555 5 1000{c}", f"{r} waitall"]
        lines += [f"{r} allreduce 64 0", f"{r} finalize"]
    return "\n".join(lines) + "\n"


def create_trace():
    """5 ranks: dup, create without rank 2, collectives and requests on both, free, id 7 reused."""
    lines = []
    each = lambda f: [lines.append(f"{r} {f(r)}") for r in range(5) if f(r)]
    each(lambda r: f"compute {(r + 1) * 100000}")
    each(lambda r: "comm_dup 3")
    each(lambda r: "allreduce 4000 1e4 comm=3")
    each(lambda r: f"comm_create {'7' if r != 2 else '-1'} 4 4 3 0 1")
    each(lambda r: "barrier comm=7" if r != 2 else "compute 1e6")
    each(lambda r: "bcast 2000 2 comm=7" if r != 2 else "")
    lines += ["4 isend 3 9 500 comm=7", "1 irecv 0 9 500 comm=7", "4 wait 0 3 9 comm=7", "1 wait 0 3 9 comm=7",
              "0 send 1 1 700 comm=3", "1 recv 0 1 700 comm=3"]
    each(lambda r: "comm_free 7" if r != 2 else "")
    each(lambda r: "comm_dup 7 comm=3")
    each(lambda r: "alltoall 100 100 comm=7")
    each(lambda r: "barrier comm=3")
    each(lambda r: "comm_free 3")
    each(lambda r: "comm_free 7")
    return "\n".join(lines) + "\n"


def nonblocking_trace():
    lines = []
    for r in range(4):
        lines += [f"{r} compute {(r + 1) * 1e5}", f"{r} iallreduce 40000 1e5", f"{r} compute 2e5", f"{r} ibcast 3000 1",
                  f"{r} waitall", f"{r} scan 800 1e4", f"{r} ibarrier"]
    return "\n".join(lines) + "\n"


BAD = [("ssend", "0 ssend 1 0 8\n1 recv 0 0 8\n", "bad.ti:1:1: cannot export 'ssend' to GOAL: GOAL has no synchronous-mode send"),
       ("issend", "0 issend 1 0 8\n0 wait 0 1 0\n1 recv 0 0 8\n", "bad.ti:1:1: cannot export 'issend'"),
       ("bsend", "0 bsend 1 0 8\n1 recv 0 0 8\n", "bad.ti:1:1: cannot export 'bsend' to GOAL: GOAL has no buffered-mode send"),
       ("ibsend", "0 ibsend 1 0 8\n0 wait 0 1 0\n1 recv 0 0 8\n", "bad.ti:1:1: cannot export 'ibsend'"),
       ("probe", "0 send 1 0 8\n1 probe 0 0\n1 recv 0 0 8\n", "bad.ti:2:1: cannot export 'probe' to GOAL: GOAL has no probe"),
       ("cancel", "0 send 1 0 8\n1 irecv 0 0 8\n1 cancel 0 1 0\n1 wait 0 1 0\n", "bad.ti:3:1: cannot export 'cancel'"),
       ("waitany", "0 send 1 0 8\n1 irecv 0 0 8\n1 waitany\n", "bad.ti:3:1: cannot export 'waitany' to GOAL: GOAL has no any-of"),
       ("waitsome", "0 send 1 0 8\n1 irecv 0 0 8\n1 waitsome 1 0 1 0\n", "bad.ti:3:1: cannot export 'waitsome'"),
       ("tag any with a creation", "0 comm_dup 1\n1 comm_dup 1\n0 recv 1 -1 8 comm=1\n1 send 0 3 8 comm=1\n",
        "bad.ti:3:1: a receive with tag -1 (MPI_ANY_TAG) cannot be exported together with collectives"),
       ("creation never completes", "0 comm_split 0 0 1\n1 compute 5\n", "bad.ti:1:1: comm_split of rank 0"),
       ("sub-communicator tag too large", "0 comm_dup 1\n1 comm_dup 1\n0 send 1 268435456 8 comm=1\n1 recv 0 268435456 8 comm=1\n",
        "bad.ti:3:1: tag 268435456 on communicator 1 is too large")]

with tempfile.TemporaryDirectory() as work:
    traces = [os.path.join(SRC, "examples/ti", f) for f in sorted(os.listdir(os.path.join(SRC, "examples/ti")))
              if f.endswith(".ti")]
    for name, text in [("p2p4.ti", P2P), ("coll5.ti", every_collective(5)), ("coll8.ti", every_collective(8)),
                       ("procnull4.ti", PROC_NULL), ("split8.ti", split_trace()), ("create5.ti", create_trace()),
                       ("nonblocking4.ti", nonblocking_trace())]:
        path = os.path.join(work, name)
        open(path, "w").write(text)
        traces.append(path)
    # --quick: what it keeps (see the header).
    quick_skip = {"coll8.ti", "pingpong.ti"}
    quick_flow = {"stencil16.ti", "p2p4.ti", "nonblocking4.ti"}
    quick_rerun = {"split8.ti"}
    for t in traces:
        base = os.path.basename(t)
        bundled = not t.startswith(work)
        if QUICK and base in quick_skip:
            continue
        round_trip(base + " loggops", t, CLUSTER16, [], bundled, rerun=not QUICK or base in quick_rerun)
        if not QUICK or base in quick_flow:
            round_trip(base + " flow", t, CLUSTER16, ["network/model=flow"], bundled, rerun=not QUICK)
    forced = (["mpi/allreduce=ring"], ["mpi/allreduce=rabenseifner", "mpi/bcast=pipeline"],
              ["mpi/coll-selector=ompi"], ["mpi/coll-selector=mpich", "network/model=flow"])
    quick_forced = {"allreduce16.ti": [1], "coll5.ti": [0, 1, 2, 3], "split8.ti": [3]}  # indices into forced
    for t in [os.path.join(SRC, "examples/ti/allreduce16.ti"), os.path.join(work, "coll5.ti"),
              os.path.join(work, "split8.ti")]:
        base = os.path.basename(t)
        for i, cfgs in enumerate(forced):
            if QUICK and i not in quick_forced[base]:
                continue
            round_trip(base + " " + " ".join(cfgs), t, CLUSTER16, cfgs, rerun=not QUICK)

    # What GOAL cannot express: exit 2, file:line and why, no output file left.
    for name, text, expected in BAD:
        bad = os.path.join(work, "bad.ti")
        open(bad, "w").write(text)
        out = os.path.join(work, "bad.goal")
        code, err = simfab(["goal", "--trace", bad, "--platform", CLUSTER16, "-o", out, "--quiet"])
        check(f"bad input ({name}): exit 2", code == 2, "exit 2", f"exit {code}: {err.strip()}")
        check(f"bad input ({name}): message", expected in err, expected, err.strip())
        check(f"bad input ({name}): no file", not os.path.exists(out), "no bad.goal", "bad.goal exists")

    # Golden export of the bundled ping-pong.
    out = os.path.join(work, "pp.goal")
    code, err = simfab(["goal", "--trace", os.path.join(SRC, "examples/ti/pingpong.ti"), "--platform", TWO_HOSTS,
                        "-o", out])
    check("pingpong export exits 0", code == 0, "exit 0", f"exit {code}: {err.strip()}")
    expected = os.path.join(SRC, "tests/golden/expected/pingpong-two-hosts.goal")
    if UPDATE and code == 0:
        open(expected, "wb").write(open(out, "rb").read())
    got = open(out, "rb").read() if os.path.exists(out) else None
    want = open(expected, "rb").read() if os.path.exists(expected) else None
    check("pingpong export matches golden", got == want, expected, "differs (rerun with --update after review)")
    p = subprocess.run([SIMFAB, "help"], capture_output=True, text=True)
    check("help lists simfab goal", "simfab goal --trace FILE" in p.stdout, "simfab goal in the usage", p.stdout)

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
