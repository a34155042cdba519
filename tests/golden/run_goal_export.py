#!/usr/bin/env python3
"""CLI tests for `simfab goal` (replay/ti_to_goal.hpp): a trace exported to GOAL replays to the
same prediction as the trace itself (`simfab run --trace T` vs `simfab run --goal T.goal`: makespan,
per-rank finish times, messages, bytes), under LogGOPS and flow, with forced algorithms and both
selectors; the export is byte-identical when rerun; one export is checked byte for byte against
tests/golden/expected/pingpong-two-hosts.goal:
  rank 0: compute 1e6 flops on alice (2 Gf) = 5e-4 s = 500000000 ps, send 1024 B, recv 1 MiB
  rank 1: recv 1024 B, compute 5e5 flops = 250000000 ps, send 1 MiB; each op requires the previous.
(Bad input is in run_bad_input.py.)

usage: run_goal_export.py SIMFAB SOURCE_DIR [--update]
Prints "Expectation: ... Actual: ..." for every failed check and a closing "N passed, N failed".
"""
import json
import os
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
UPDATE = "--update" in sys.argv
CLUSTER16 = os.path.join(SRC, "examples/platforms/cluster16.yaml")
TWO_HOSTS = os.path.join(SRC, "examples/platforms/two-hosts.yaml")
passed = failed = 0


def check(name, cond, expectation, actual):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}\n  Expectation: {expectation}\n  Actual: {actual}")


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


def round_trip(name, trace, platform, cfgs):
    cfg_args = [a for c in cfgs for a in ("--cfg", c)]
    with tempfile.TemporaryDirectory() as d:
        goal = os.path.join(d, "t.goal")
        code, err = simfab(["goal", "--trace", trace, "--platform", platform, "-o", goal, "--quiet"] + cfg_args)
        check(name + ": export exits 0", code == 0, "exit 0", f"exit {code}: {err.strip()}")
        if code != 0:
            return
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

with tempfile.TemporaryDirectory() as work:
    traces = [os.path.join(SRC, "examples/ti", f) for f in sorted(os.listdir(os.path.join(SRC, "examples/ti")))
              if f.endswith(".ti")]
    for name, text in [("p2p4.ti", P2P), ("coll5.ti", every_collective(5)), ("coll8.ti", every_collective(8))]:
        path = os.path.join(work, name)
        open(path, "w").write(text)
        traces.append(path)
    for t in traces:
        base = os.path.basename(t)
        round_trip(base + " loggops", t, CLUSTER16, [])
        round_trip(base + " flow", t, CLUSTER16, ["network/model=flow"])
    for t in [os.path.join(SRC, "examples/ti/allreduce16.ti"), os.path.join(work, "coll5.ti")]:
        base = os.path.basename(t)
        for cfgs in (["mpi/allreduce=ring"], ["mpi/allreduce=rabenseifner", "mpi/bcast=pipeline"],
                     ["mpi/coll-selector=ompi"], ["mpi/coll-selector=mpich", "network/model=flow"]):
            round_trip(base + " " + " ".join(cfgs), t, CLUSTER16, cfgs)

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

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
