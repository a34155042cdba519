#!/usr/bin/env python3
"""CLI and golden-file tests for `simfab run`: values from the seeds and closed forms, byte-exact
golden JSON for the bundled examples, determinism (two runs, identical bytes), TI/GOAL agreement.

usage: run_golden.py SIMFAB SOURCE_DIR [--update]   (--update rewrites tests/golden/expected/*)
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
EXPECTED = os.path.join(SRC, "tests", "golden", "expected")


def run(args, cwd=SRC):
    p = subprocess.run([SIMFAB] + args, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def run_json(name, args):
    """Runs simfab with --json into a temp file; returns (exit, json_text, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.json")
        code, so, se = run(args + ["--json", out, "--reproducible"])
        text = open(out).read() if os.path.exists(out) else None
    check(name + " exits 0", code == 0, "exit 0", f"exit {code}: {se.strip()}")
    return text, so


def finishes(text):
    return [r["finish_ps"] for r in json.loads(text)["ranks"]] if text else None


LOGGOPSIM_DEFAULTS = ["--cfg", "loggops/L=2500", "--cfg", "loggops/o=1500", "--cfg", "loggops/g=1000",
                      "--cfg", "loggops/G=6", "--cfg", "loggops/O=0", "--cfg", "loggops/S=65535"]


def golden(name, args):
    """Byte-exact comparison with tests/golden/expected/NAME.json, plus a determinism rerun."""
    text, _ = run_json(name, args)
    again, _ = run_json(name + " (rerun)", args)
    check(name + " is deterministic", text == again, "identical JSON on a rerun", "different bytes")
    path = os.path.join(EXPECTED, name + ".json")
    if UPDATE and text:
        open(path, "w").write(text)
    want = open(path).read() if os.path.exists(path) else None
    check(name + " matches golden", text == want, path, "differs (rerun with --update after review)")
    return text


# Seed 004 §3.1: the worked example; both ranks finish at 5654 ps (defaults are LogGOPSim's).
text = golden("loggops-example", ["run", "--goal", "examples/goal/loggops-example.goal"])
check("worked example", finishes(text) == [5654, 5654], [5654, 5654], finishes(text))
if text:
    j = json.loads(text)
    for key in ["version", "config", "makespan_ps", "makespan_s", "ranks", "messages", "bytes", "events", "wall_s"]:
        check("json has " + key, key in j, key, sorted(j))
    check("makespan_ps", j["makespan_ps"] == 5654, 5654, j["makespan_ps"])
    check("makespan_s", abs(j["makespan_s"] - 5.654e-9) < 1e-21, 5.654e-9, j["makespan_s"])
    check("ranks entries", j["ranks"][1] == {"rank": 1, "host": "ideal1", "finish_ps": 5654},
          {"rank": 1, "host": "ideal1", "finish_ps": 5654}, j["ranks"][1])
    check("config records defaults", j["config"].get("loggops/L") == 2500 and j["config"].get("network/model") == "loggops",
          "loggops/L=2500, network/model=loggops", j["config"])
    check("messages/bytes", (j["messages"], j["bytes"]) == (2, 20), (2, 20), (j["messages"], j["bytes"]))

# Units on the command line: 2.5ns is 2500 ps, 6ps per byte is 6.
text, _ = run_json("units", ["run", "--goal", "examples/goal/loggops-example.goal", "--cfg", "loggops/L=2.5ns",
                             "--cfg", "loggops/G=6ps", "--cfg", "loggops/o=1.5ns"])
check("units", finishes(text) == [5654, 5654], [5654, 5654], finishes(text))
text, _ = run_json("units change the result", ["run", "--goal", "examples/goal/loggops-example.goal", "--cfg", "loggops/L=1us"])
check("L=1us", finishes(text) == [5654 - 2500 + 1000000] * 2, [5654 - 2500 + 1000000] * 2, finishes(text))

# Seed 004 §3.2: 8-rank dissemination of 180 B.
text, _ = run_json("dissemination set 1", ["run", "--goal", "examples/goal/dissemination8.goal", "--cfg", "loggops/L=0",
                                           "--cfg", "loggops/o=50000", "--cfg", "loggops/g=100000", "--cfg", "loggops/G=6000"])
check("dissemination set 1", finishes(text) == [3522000] * 8, [3522000] * 8, finishes(text))
zero = sum((["--cfg", f"loggops/{k}=0"] for k in "LogGO"), [])
text, _ = run_json("dissemination zero", ["run", "--goal", "examples/goal/dissemination8.goal"] + zero)
check("dissemination all-zero", finishes(text) == [0] * 8, [0] * 8, finishes(text))

# A TI trace and the equivalent GOAL schedule give the same prediction (1 flop = 1 ps).
plat = "tests/data/platforms/ideal-tera.yaml"
ti, _ = run_json("pingpong ti", ["run", "--platform", plat, "--trace", "examples/ti/pingpong.ti"] + LOGGOPSIM_DEFAULTS)
goal, _ = run_json("pingpong goal", ["run", "--platform", plat, "--goal", "examples/goal/pingpong.goal"] + LOGGOPSIM_DEFAULTS)
check("TI == GOAL", finishes(ti) == finishes(goal) and finishes(ti) is not None, finishes(goal), finishes(ti))
# Closed form: rank 1 gets 1024 B at 1e6+o+L, done after o+1023G; computes 5e5; its 1 MiB reply is a
# rendezvous matched on arrival by rank 0's posted recv, which completes the sender then (its
# timers rise to the arrival time); rank 0 is done o+(2^20-1)G after the arrival.
t1 = 1000000 + 1500 + 2500 + 1500 + 1023 * 6
t1_send = t1 + 500000
arrival = t1_send + 1500 + 2500
t0 = arrival + 1500 + (1048576 - 1) * 6
check("pingpong closed form", finishes(ti) == [t0, arrival], [t0, arrival], finishes(ti))

# The bundled `make run` example, byte-exact.
golden("stencil16", ["run", "--platform", "examples/platforms/cluster16.yaml", "--trace", "examples/ti/stencil16.ti"])

# The same run under the flow model: contention makes it slower than LogGOPS (golden + rerun).
flow = golden("stencil16-flow", ["run", "--platform", "examples/platforms/cluster16.yaml", "--trace",
                                 "examples/ti/stencil16.ti", "--cfg", "network/model=flow"])
lg = json.loads(open(os.path.join(EXPECTED, "stencil16.json")).read())
if flow:
    fj = json.loads(flow)
    check("flow is slower than loggops here", fj["makespan_ps"] > lg["makespan_ps"], "> " + str(lg["makespan_ps"]), fj["makespan_ps"])
    check("flow model recorded", fj["model"] == "flow" and fj["config"]["network/model"] == "flow", "flow", fj["model"])

# Seed 003 §IV-B on the bundled graphene platform: a 4 MiB exchange both ways gives each flow 0.75 B
# (1 Gb links, limiter factor 1.5): 4 MiB / 93.75e6 B/s = 44739242666.7 ps, plus two 50 us host
# links of latency. The JSON reports the limiters as the busiest links (2 flows each, 1.5 B).
sr, _ = run_json("graphene sendrecv", ["run", "--platform", "examples/platforms/graphene.yaml", "--goal",
                                       "examples/goal/sendrecv4m.goal", "--cfg", "network/model=flow"])
if sr:
    sj = json.loads(sr)
    want = round(4194304 / 93.75e6 * 1e12) + 2 * 50000000
    check("graphene sendrecv makespan", sj["makespan_ps"] == want, want, sj["makespan_ps"])
    lims = [l for l in sj["network"]["links"] if l["name"].startswith("graphene_limiter_")]
    check("graphene limiters carry both flows", len(lims) == 2 and all(l["flows"] == 2 and l["peak_flows"] == 2 for l in lims),
          "2 limiters with 2 flows each", lims)

# Human summary: makespan and per-rank lines.
code, so, se = run(["run", "--goal", "examples/goal/loggops-example.goal"])
check("summary", code == 0 and "predicted makespan: 5654 ps (5.654 ns)" in so and "rank 1 on ideal1: 5654 ps" in so,
      "makespan and rank lines", so + se)

# config --list documents every key with its default.
code, so, se = run(["config", "--list"])
for key in ["network/model", "loggops/L", "loggops/o", "loggops/g", "loggops/G", "loggops/O", "loggops/S"]:
    check("config --list " + key, code == 0 and key + " (" in so, key, so[:200])

# A deadlock exits 3, names the blocked rank and writes no JSON.
with tempfile.TemporaryDirectory() as d:
    g = os.path.join(d, "dead.goal")
    open(g, "w").write("num_ranks 2\nrank 0 {\n a: recv 8b from 1 tag 4\n}\nrank 1 {\n b: calc 10\n}\n")
    out = os.path.join(d, "o.json")
    code, so, se = run(["run", "--goal", g, "--json", out])
    check("deadlock exit 3", code == 3, 3, code)
    check("deadlock report", "rank 0:" in se and "dead.goal:3: recv of 8 B from rank 1 tag 4" in se, "blocked rank 0 named", se)
    check("deadlock writes no JSON", not os.path.exists(out), "no file", os.listdir(d))

# SMPI writes an MPI_Irecv's MPI_PROC_NULL and MPI_ANY_SOURCE alike (-333): the recorded stencil2d
# replays, and a deadlock on a -333 irecv left a wildcard says it may have been MPI_PROC_NULL.
code, so, se = run(["run", "--platform", "examples/platforms/cluster16.xml", "--trace",
                    "examples/ti/smpi/stencil4.txt"])
check("smpi stencil2d recording replays", code == 0, "exit 0", f"exit {code}: {se.strip()[:400]}")
with tempfile.TemporaryDirectory() as d:
    t = os.path.join(d, "dead333.txt")
    open(t, "w").write("0 irecv -333 7 8 0\n0 wait -333 0 7\n0 send 1 1 8 0\n1 recv 0 1 8 0\n1 send 0 7 8 0\n")
    code, so, se = run(["run", "--platform", "examples/platforms/cluster16.xml", "--trace", t])
    check("-333 deadlock exit 3", code == 3, 3, code)
    check("-333 deadlock hint", "rank 0:" in se and "MPI_Irecv from MPI_PROC_NULL" in se, "the hint for rank 0", se)

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
