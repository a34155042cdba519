#!/usr/bin/env python3
"""Switching network models during a run by simulated time (`--switch T:key=value,...`; issue 24,
first part) through the simfab command:
  - a switch to the same model and keys changes nothing: makespan, every finish time and the event
    count equal the run without it, for loggops, flow, smpi, packet and the NIC model;
  - two phases separated at a round trip's end: the total is exactly the sum of each round run
    alone under its model (loggops then flow, flow then packet);
  - a transfer in flight at the switch finishes in the model that started it (a 100 MB flow
    transfer switched to LogGOPS after 1 us takes exactly its flow time);
  - phases in the JSON and the summary: times, changes, model names, events summing to the run's;
  - keys other than network/* change too (flow/bw-factor halves the second phase's rate);
  - simfab exec takes --switch;
  - bad input: unknown key (with a suggestion), a key no network model reads, a bad value, a bad
    time, decreasing times, a model the platform cannot run: exit 2 naming --switch.

usage: run_switch.py BUILD_DIR ROOT [--quick]   (--quick: the same checks; nothing is slow)"""
import json
import os
import subprocess
import sys
import tempfile

BUILD = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB = os.path.join(BUILD, "simfab")
TMP = tempfile.mkdtemp(prefix="simfab-switch-")
CLUSTER = os.path.join(ROOT, "examples", "platforms", "cluster16.yaml")
STENCIL = os.path.join(ROOT, "examples", "ti", "stencil16.ti")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(*args, expect=0):
    out = os.path.join(TMP, "out.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [SIMFAB, args[0], "--json", out, "--reproducible", "--quiet", *args[1:]]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        check("exit status of " + " ".join(args), False, f"exit {expect}", f"exit {p.returncode}: {p.stderr[-600:]}")
        return None, p
    return (json.load(open(out)) if expect == 0 else None), p


def same_run(a, b):
    return (a["makespan_ps"], [r["finish_ps"] for r in a["ranks"]], a["events"], a["messages"]) == \
           (b["makespan_ps"], [r["finish_ps"] for r in b["ranks"]], b["events"], b["messages"])


# ---- A -> A changes nothing -----------------------------------------------------------------------
for model in ["loggops", "flow", "smpi", "packet", "portals"]:
    cfg = ["--cfg", "nic/model=portals"] if model == "portals" else ["--cfg", f"network/model={model}"]
    key = "nic/model=portals" if model == "portals" else f"network/model={model}"
    plain, _ = run("run", "--platform", CLUSTER, "--trace", STENCIL, *cfg)
    same, _ = run("run", "--platform", CLUSTER, "--trace", STENCIL, *cfg, "--switch", f"5ms:{key}",
                  "--switch", f"0.012:{key}")
    if plain and same:
        check(f"{model} -> {model}: the same run", same_run(plain, same), plain["makespan_ps"], same["makespan_ps"])
        check(f"{model} -> {model}: three phases, one model", len(same["phases"]) == 3 and
              len({p["model"] for p in same["phases"]}) == 1, "3 phases of one model", same.get("phases"))


# ---- two rounds, one per model: the sum of each round alone -------------------------------------
def rounds(n, size):
    r0 = "".join(f"s{i}: send {size}b to 1 tag {i}\nr{i}: recv {size}b from 1 tag {i}\nr{i} requires s{i}\n" +
                 (f"s{i} requires r{i - 1}\n" if i else "") for i in range(n))
    r1 = "".join(f"r{i}: recv {size}b from 0 tag {i}\ns{i}: send {size}b to 0 tag {i}\ns{i} requires r{i}\n" +
                 (f"r{i} requires s{i - 1}\n" if i else "") for i in range(n))
    return write(f"rounds{n}_{size}.goal", f"num_ranks 2\nrank 0 {{\n{r0}}}\nrank 1 {{\n{r1}}}\n")


for a, b in [("loggops", "flow"), ("flow", "packet")]:
    one, two = rounds(1, 1 << 20), rounds(2, 1 << 20)
    ja, _ = run("run", "--platform", CLUSTER, "--goal", one, "--cfg", f"network/model={a}")
    jb, _ = run("run", "--platform", CLUSTER, "--goal", one, "--cfg", f"network/model={b}")
    if ja and jb:
        t = ja["makespan_ps"]
        js, _ = run("run", "--platform", CLUSTER, "--goal", two, "--cfg", f"network/model={a}", "--switch",
                    f"{t / 1e12:.12f}:network/model={b}")
        if js:
            want = ja["makespan_ps"] + jb["makespan_ps"]
            check(f"{a} then {b}: each round as alone under its model", abs(js["makespan_ps"] - want) <= want * 1e-9,
                  want, js["makespan_ps"])
            ph = js["phases"]
            check(f"{a} then {b}: phases", [p["model"] for p in ph] == [a, b] and ph[1]["from_ps"] == t and
                  ph[1]["to_ps"] == js["makespan_ps"] and ph[1]["changes"] == {"network/model": b},
                  f"[{a}, {b}] split at {t}", ph)
            check(f"{a} then {b}: phase events sum to the run's", sum(p["events"] for p in ph) == js["events"],
                  js["events"], [p["events"] for p in ph])

# ---- in flight at the switch: finishes in the model that started it ------------------------------
big = write("big.goal", "num_ranks 2\nrank 0 { s: send 100000000b to 1 tag 0 }\nrank 1 { r: recv 100000000b from 0 tag 0 }\n")
flow_alone, _ = run("run", "--platform", CLUSTER, "--goal", big, "--cfg", "network/model=flow")
switched, _ = run("run", "--platform", CLUSTER, "--goal", big, "--cfg", "network/model=flow", "--switch",
                  "1us:network/model=loggops")
logg, _ = run("run", "--platform", CLUSTER, "--goal", big)
if flow_alone and switched and logg:
    check("a transfer in flight keeps its model", switched["makespan_ps"] == flow_alone["makespan_ps"] !=
          logg["makespan_ps"], flow_alone["makespan_ps"], switched["makespan_ps"])

# ---- any network key: flow/bw-factor ------------------------------------------------------------
two = rounds(2, 1 << 24)
full, _ = run("run", "--platform", CLUSTER, "--goal", rounds(1, 1 << 24), "--cfg", "network/model=flow")
if full:
    half, _ = run("run", "--platform", CLUSTER, "--goal", two, "--cfg", "network/model=flow", "--switch",
                  f"{full['makespan_ps'] / 1e12:.12f}:flow/bw-factor=0:0.5")
    if half:
        second = half["makespan_ps"] - full["makespan_ps"]
        lat = 2 * 2_500_000
        check("flow/bw-factor=0.5 from the switch on: the second round's data take twice as long",
              abs((second - lat) / (full["makespan_ps"] - lat) - 2) < 1e-6, 2, (second - lat) / (full["makespan_ps"] - lat))

# ---- simfab exec ------------------------------------------------------------------------------------
prog = os.path.join(TMP, "allreduce_loop")
b = subprocess.run([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", prog,
                    os.path.join(ROOT, "examples", "mpi", "allreduce_loop.c")], capture_output=True, text=True)
check("allreduce_loop builds", b.returncode == 0, "exit 0", b.stderr[-300:])
e1, _ = run("exec", "-np", "4", "--platform", CLUSTER, "--cfg", "online/compute=declared", prog, "1024", "20")
e2, _ = run("exec", "-np", "4", "--platform", CLUSTER, "--cfg", "online/compute=declared", "--switch",
            "200us:network/model=flow", prog, "1024", "20")
if e1 and e2:
    check("exec: two phases, loggops then flow", [p["model"] for p in e2["phases"]] == ["loggops", "flow"],
          ["loggops", "flow"], [p["model"] for p in e2["phases"]])
    check("exec: the switch changes the prediction", e1["makespan_ps"] != e2["makespan_ps"], "different",
          e2["makespan_ps"])

# ---- bad input ---------------------------------------------------------------------------------------
one = rounds(1, 1024)
bad = [
    (["--platform", CLUSTER], "1ms:network/modle=flow", "did you mean 'network/model'"),
    (["--platform", CLUSTER], "1ms:mpi/coll-selector=ompi", "cannot change during a run"),
    (["--platform", CLUSTER], "1ms:network/model=bogus", "network/model"),
    (["--platform", CLUSTER], "soon:network/model=flow", "is not a time"),
    (["--platform", CLUSTER], "1ms", "expected TIME:key=value"),
    (["--platform", CLUSTER], "1ms:", "expected key=value"),
    ([], "1ms:network/model=packet", "platform"),
]
for plat, spec, phrase in bad:
    _, p = run("run", *plat, "--goal", one, "--switch", spec, expect=2)
    check(f"--switch {spec}: exit 2 naming '{phrase}'", phrase in p.stderr and "--switch" in p.stderr, phrase,
          p.stderr[-300:])
_, p = run("run", "--platform", CLUSTER, "--goal", one, "--switch", "2ms:network/model=flow", "--switch",
           "1ms:network/model=packet", expect=2)
check("decreasing switch times: exit 2", "must not decrease" in p.stderr, "must not decrease", p.stderr[-300:])

print(f"run_switch: {golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
