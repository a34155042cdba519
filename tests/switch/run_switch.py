#!/usr/bin/env python3
"""Switching network models during a run (issue 24) through the simfab command, by
simulated time (`--switch T:key=value,...`) and at logical points (a TI `switch` action,
simfab_switch, MPI_Pcontrol mapped by --pcontrol, --switch-after COLLECTIVE:K:...):
  - a switch to the same model and keys changes nothing: makespan, every finish time and the event
    count equal the run without it, for loggops, flow, smpi, packet and the NIC model;
  - two phases separated at a round trip's end: the total is exactly the sum of each round run
    alone under its model (loggops then flow, flow then packet);
  - a transfer in flight at the switch finishes in the model that started it (a 100 MB flow
    transfer switched to LogGOPS after 1 us takes exactly its flow time);
  - phases in the JSON and the summary: times, changes, model names, events summing to the run's;
  - keys other than network/* change too (flow/bw-factor halves the second phase's rate);
  - simfab exec takes --switch;
  - a TI `switch` action gives what the same switch by time gives; ranks disagreeing on a switch,
    or one never reaching it, stop the run (exit 2) naming the places; simfab goal refuses it;
  - a GOAL `switch` op gives what the same switch by time and the TI action give;
  - --switch-after allreduce:3 gives what TI switch actions after each rank's 3rd allreduce give,
    and works in simfab exec; a GOAL schedule (no collectives) and K = 0 are refused;
  - seed 000 test 19 in online mode (tests/switch/switch_protocol.c): 42 sent under A, 43 under
    B, both arrive; an Isend posted under A and waited for under B completes; simfab_switch and
    MPI_Pcontrol with --pcontrol give the same run, and an unmapped level switches nothing;
  - collective keys: mpi/allreduce switched by a TI action, --switch-after and by time give the
    same run, with the algorithms collectives.csv shows (the first allreduce under one, the second
    under the other); mpi/coll-selector=mpich from a switch on; a switch while members enter a
    collective: all run the first member's algorithm; the same in simfab exec;
  - --stats per phase: phase_matrix.csv adds up to matrix.csv and to phases.csv's totals; the flow
    phase's route bytes in phase_links.csv equal the flow model's own links.csv;
  - bad input: unknown key (with a suggestion), a key no switch may change, a bad value, a bad
    time, decreasing times, a model the platform cannot run: exit 2 naming --switch.

usage: run_switch.py BUILD_DIR ROOT [--quick]   (--quick: the same checks; nothing is slow)"""
import csv
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

# ---- logical switches: a TI action gives what the same switch by time gives ----------------------
def ti_rounds(switch_line):
    lines = []
    for i in range(2):
        if i == 1 and switch_line:
            lines += [f"0 {switch_line}", f"1 {switch_line}"]
        lines += ["0 send 1 0 1048576", "1 recv 0 0 1048576", "1 send 0 0 1048576", "0 recv 1 0 1048576"]
    return write(f"rounds_{len(switch_line)}.ti", "\n".join(lines) + "\n")


first, _ = run("run", "--platform", CLUSTER, "--trace", ti_rounds(""))
one_round = write("one_round.ti", "0 send 1 0 1048576\n1 recv 0 0 1048576\n1 send 0 0 1048576\n0 recv 1 0 1048576\n")
r1, _ = run("run", "--platform", CLUSTER, "--trace", one_round)
if first and r1:
    by_action, _ = run("run", "--platform", CLUSTER, "--trace", ti_rounds("switch network/model=flow"))
    by_time, _ = run("run", "--platform", CLUSTER, "--trace", ti_rounds(""), "--switch",
                     f"{r1['makespan_ps'] / 1e12:.12f}:network/model=flow")
    if by_action and by_time:
        check("TI switch action = the same switch by time", same_run(by_action, by_time), by_time["makespan_ps"],
              by_action["makespan_ps"])
        check("TI switch action: phases loggops then flow", [p["model"] for p in by_action["phases"]] ==
              ["loggops", "flow"], ["loggops", "flow"], [p["model"] for p in by_action["phases"]])
    _, p = run("run", "--platform", CLUSTER, "--trace", write("disagree.ti", "0 switch network/model=flow\n"
               "1 switch network/model=packet\n0 send 1 0 8\n1 recv 0 0 8\n"), expect=2)
    check("ranks disagreeing on a switch: exit 2 naming both", "rank 1's model switch 1 asks network/model=packet"
          in p.stderr and "disagree.ti:1" in p.stderr, "both places", p.stderr[-400:])
    _, p = run("run", "--platform", CLUSTER, "--trace", write("never.ti", "0 switch network/model=flow\n"
               "0 send 1 0 8\n1 recv 0 0 8\n"), expect=2)
    check("a rank that never reaches a switch: exit 2", "rank 1 never reached model switch 1" in p.stderr and
          "never.ti:1" in p.stderr, "rank 1 never reached ... never.ti:1", p.stderr[-400:])
    _, p = run("run", "--platform", CLUSTER, "--trace", write("badswitch.ti", "0 switch network/model\n"), expect=2)
    check("a switch action without key=value: exit 2 at its line", "badswitch.ti:1" in p.stderr and
          "key=value" in p.stderr, "badswitch.ti:1 ... key=value", p.stderr[-300:])
    _, p = run("run", "--platform", CLUSTER, "--trace", write("badkey.ti", "0 send 1 0 8\n1 recv 0 0 8\n"
               "0 switch network/modle=flow\n"), expect=2)
    check("a switch action with an unknown key: exit 2 at its line", "badkey.ti:3" in p.stderr and
          "did you mean 'network/model'" in p.stderr, "badkey.ti:3 ... did you mean", p.stderr[-300:])
    p = subprocess.run([SIMFAB, "goal", "--platform", CLUSTER, "--trace", ti_rounds("switch network/model=flow"),
                        "-o", os.path.join(TMP, "x.goal")], capture_output=True, text=True, timeout=60)
    check("simfab goal refuses a switch action (exit 2)", p.returncode == 2 and "switch" in p.stderr and
          "GOAL" in p.stderr and not os.path.exists(os.path.join(TMP, "x.goal")), "exit 2, a GOAL message",
          f"{p.returncode}: {p.stderr[-300:]}")

# ---- a GOAL switch op = the same switch by time -----------------------------------------------------
goal_sw = write("rounds_switch.goal", """num_ranks 2
rank 0 {
s0: send 1048576b to 1 tag 0
r0: recv 1048576b from 1 tag 0
w: switch network/model=flow
s1: send 1048576b to 1 tag 1
r1: recv 1048576b from 1 tag 1
r0 requires s0
w requires r0
s1 requires w
r1 requires s1
}
rank 1 {
r0: recv 1048576b from 0 tag 0
s0: send 1048576b to 0 tag 0
w: switch network/model=flow
r1: recv 1048576b from 0 tag 1
s1: send 1048576b to 0 tag 1
s0 requires r0
w requires s0
r1 requires w
s1 requires r1
}
""")
if first and r1:
    g_op, _ = run("run", "--platform", CLUSTER, "--goal", goal_sw)
    g_time, _ = run("run", "--platform", CLUSTER, "--goal", rounds(2, 1 << 20), "--switch",
                    f"{r1['makespan_ps'] / 1e12:.12f}:network/model=flow")
    if g_op and g_time:
        # the switch ops are zero calcs of their own: same times, a few more events
        check("GOAL switch op = the same switch by time", [x["finish_ps"] for x in g_op["ranks"]] ==
              [x["finish_ps"] for x in g_time["ranks"]], g_time["makespan_ps"], g_op["makespan_ps"])
        check("GOAL switch op = the TI switch action", by_action is not None and
              g_op["makespan_ps"] == by_action["makespan_ps"], by_action and by_action["makespan_ps"],
              g_op["makespan_ps"])
    _, p = run("run", "--platform", CLUSTER, "--goal", write("badgoal.goal", "num_ranks 1\nrank 0 {\n"
               "w: switch network/model\n}\n"), expect=2)
    check("a GOAL switch without key=value: exit 2 at its line", "badgoal.goal:3" in p.stderr and "key=value" in
          p.stderr, "badgoal.goal:3 ... key=value", p.stderr[-300:])

# ---- after the K-th call of a collective = a TI switch action there ----------------------------------
g = subprocess.run([os.path.join(BUILD, "gen_schedule"), "ti-allreduce", "4", "1048576", "6"], capture_output=True,
                   text=True)
allreduce = write("allreduce.ti", g.stdout)
marked, counts = [], {}
for line in g.stdout.splitlines():
    marked.append(line)
    rank, action = line.split()[:2]
    if action == "allreduce":
        counts[rank] = counts.get(rank, 0) + 1
        if counts[rank] == 3:
            marked.append(f"{rank} switch network/model=flow")
with_action = write("allreduce_switch.ti", "\n".join(marked) + "\n")
a1, _ = run("run", "--platform", CLUSTER, "--trace", allreduce, "--switch-after", "allreduce:3:network/model=flow")
a2, _ = run("run", "--platform", CLUSTER, "--trace", with_action)
a0, _ = run("run", "--platform", CLUSTER, "--trace", allreduce)
if a1 and a2 and a0:
    check("--switch-after allreduce:3 = a TI switch after each rank's 3rd allreduce", same_run(a1, a2) and
          not same_run(a1, a0), a2["makespan_ps"], a1["makespan_ps"])
e3, _ = run("exec", "-np", "4", "--platform", CLUSTER, "--cfg", "online/compute=declared", "--switch-after",
            "allreduce:5:network/model=flow", prog, "1024", "20")
if e1 and e3:
    check("exec --switch-after allreduce:5: loggops then flow", [p["model"] for p in e3["phases"]] ==
          ["loggops", "flow"] and e3["makespan_ps"] != e1["makespan_ps"], ["loggops", "flow"],
          [p["model"] for p in e3["phases"]])
_, p = run("run", "--goal", rounds(1, 8), "--switch-after", "allreduce:1:network/model=flow", expect=2)
check("--switch-after on a GOAL schedule: exit 2", "no collective calls" in p.stderr, "no collective calls",
      p.stderr[-300:])
_, p = run("run", "--platform", CLUSTER, "--trace", allreduce, "--switch-after", "allreduce:0:network/model=flow",
           expect=2)
check("--switch-after with K = 0: exit 2", "--switch-after" in p.stderr and "1 or more" in p.stderr, "K >= 1",
      p.stderr[-300:])

# ---- collective keys: mpi/allreduce switched at a logical point, by time, and after K calls -----------
def algorithms(stats_dir):
    with open(os.path.join(stats_dir, "collectives.csv")) as f:
        return sorted((r["algorithm"], int(r["calls"])) for r in csv.DictReader(f) if r["name"].lower() == "allreduce")


def coll_trace(name, middle):
    block = lambda action: [f"{r} {action}" for r in range(16)]
    lines = block("allreduce 1048576 0") + block("compute 1000000000") + [line for m in middle for line in block(m)]
    return write(name, "\n".join(lines + block("allreduce 1048576 0")) + "\n")


RD = ["--cfg", "mpi/allreduce=recursive-doubling"]
first_only = write("first_allreduce.ti", "".join(f"{r} allreduce 1048576 0\n" for r in range(16)))
j_first, _ = run("run", "--platform", CLUSTER, "--trace", first_only, *RD)
runs = {}
for label, trace, extra in [
        ("none", coll_trace("coll_none.ti", []), []),
        ("same", coll_trace("coll_same.ti", ["switch mpi/allreduce=recursive-doubling"]), []),
        ("action", coll_trace("coll_action.ti", ["switch mpi/allreduce=rabenseifner"]), []),
        ("after", coll_trace("coll_none.ti", []), ["--switch-after", "allreduce:1:mpi/allreduce=rabenseifner"]),
        ("time", coll_trace("coll_none.ti", []),
         ["--switch", f"{(j_first['makespan_ps'] + 1_000_000) / 1e12:.12f}:mpi/allreduce=rabenseifner"] if j_first else []),
        ("selector", coll_trace("coll_sel.ti", ["switch mpi/coll-selector=mpich"]), None)]:
    stats = os.path.join(TMP, f"coll_stats_{label}")
    j, _ = run("run", "--platform", CLUSTER, "--trace", trace, *(RD + extra if extra is not None else []), "--stats",
               stats)
    runs[label] = (j, algorithms(stats) if j else None)
if all(j for j, _ in runs.values()):
    check("collective key switched to the same value: the same run", same_run(runs["none"][0], runs["same"][0]),
          runs["none"][0]["makespan_ps"], runs["same"][0]["makespan_ps"])
    check("mpi/allreduce switched at a TI action: the first allreduce under recursive-doubling, the second "
          "under rabenseifner", runs["action"][1] == [("rabenseifner", 16), ("recursive-doubling", 16)],
          [("rabenseifner", 16), ("recursive-doubling", 16)], runs["action"][1])
    check("mpi/allreduce: the switch changes the prediction", runs["action"][0]["makespan_ps"] !=
          runs["none"][0]["makespan_ps"], "different", runs["action"][0]["makespan_ps"])
    check("collective key: TI action = --switch-after allreduce:1 = the same switch by time",
          same_run(runs["action"][0], runs["after"][0]) and same_run(runs["action"][0], runs["time"][0]),
          runs["action"][0]["makespan_ps"], (runs["after"][0]["makespan_ps"], runs["time"][0]["makespan_ps"]))
    check("mpi/coll-selector=mpich from the switch on: the first allreduce is Schedgen's (dissemination), the "
          "second MPICH's choice for 1 MiB on 16 ranks (rabenseifner)",
          runs["selector"][1] == [("dissemination", 16), ("rabenseifner", 16)],
          [("dissemination", 16), ("rabenseifner", 16)], runs["selector"][1])
    check("phases name the collective key", runs["action"][0]["phases"][1]["changes"] ==
          {"mpi/allreduce": "rabenseifner"}, {"mpi/allreduce": "rabenseifner"}, runs["action"][0]["phases"])
# A timed switch while the members are inside a collective: every member runs the algorithm of the
# first member to enter it (no mix, no deadlock): 32 calls of one algorithm for the two allreduces.
mid = coll_trace("coll_mid.ti", [])
stats = os.path.join(TMP, "coll_stats_mid")
j_mid, _ = run("run", "--platform", CLUSTER, "--trace", first_only, *RD, "--switch", "1ns:mpi/allreduce=rabenseifner",
               "--stats", stats)
if j_mid:
    check("a switch while members enter a collective: they all run the first member's algorithm",
          algorithms(stats) == [("recursive-doubling", 16)], [("recursive-doubling", 16)], algorithms(stats))
# simfab exec: simfab's own collective choice switched after the 5th MPI_Allreduce
stats = os.path.join(TMP, "coll_stats_exec")
e4, _ = run("exec", "-np", "4", "--platform", CLUSTER, "--cfg", "online/compute=declared", "--cfg",
            "mpi/allreduce=recursive-doubling", "--switch-after", "allreduce:5:mpi/allreduce=ring", "--stats", stats,
            prog, "1024", "20")
if e4:
    check("exec: mpi/allreduce switched after the 5th call (5 calls x 4 ranks, then 15 x 4)",
          algorithms(stats) == [("recursive-doubling", 20), ("ring", 60)],
          [("recursive-doubling", 20), ("ring", 60)], algorithms(stats))

# ---- seed test 19 in online mode; simfab_switch = MPI_Pcontrol ---------------------------------------
proto = os.path.join(TMP, "switch_protocol")
b = subprocess.run([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", proto,
                    os.path.join(ROOT, "tests", "switch", "switch_protocol.c")], capture_output=True, text=True)
check("switch_protocol builds", b.returncode == 0, "exit 0", b.stderr[-300:])


def protocol(*args):
    out = os.path.join(TMP, "proto.json")
    p = subprocess.run([SIMFAB, "exec", "-np", "2", "--platform", CLUSTER, "--cfg", "online/compute=declared",
                        "--json", out, "--reproducible", *args], capture_output=True, text=True, timeout=120)
    check(f"switch_protocol {' '.join(args)}: exit 0 and data OK", p.returncode == 0 and "42 and 43 arrived OK"
          in p.stdout, "exit 0, OK", f"{p.returncode}: {p.stdout[-200:]} {p.stderr[-300:]}")
    lat = [float(l.split()[1]) for l in p.stdout.splitlines() if l.startswith("pingpong-us")]
    return (json.load(open(out)) if p.returncode == 0 else None), (lat[0] if lat else None)


j_sw, lat_sw = protocol(proto)
j_pc, lat_pc = protocol("--pcontrol", "1:network/model=flow", proto, "-p")
j_none, lat_none = protocol("--pcontrol", "2:network/model=flow", proto, "-p")  # level 1 unmapped: no switch
j_flow, lat_flow = protocol("--cfg", "network/model=flow", proto)
if j_sw and j_pc and j_none and j_flow:
    check("simfab_switch = MPI_Pcontrol mapped by --pcontrol", same_run(j_sw, j_pc), j_sw["makespan_ps"],
          j_pc["makespan_ps"])
    check("after the switch the ping-pong runs under flow", lat_sw == lat_flow != lat_none, lat_flow, lat_sw)
    check("an unmapped Pcontrol level switches nothing", "phases" not in j_none, "no phases", j_none.get("phases"))

# ---- seed test 20's shape: OSU latency switching from the NIC model to LogGOPS after K iterations -------
osu = os.path.join(TMP, "osu_switch")
b = subprocess.run([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", osu,
                    os.path.join(ROOT, "tests", "switch", "osu_switch.c")], capture_output=True, text=True)
check("osu_switch builds", b.returncode == 0, "exit 0", b.stderr[-300:])
curve = {}
for k in range(0, 111, 10):
    out = os.path.join(TMP, "osu.json")
    p = subprocess.run([SIMFAB, "exec", "-np", "2", "--platform", CLUSTER, "--cfg", "online/compute=declared",
                        "--cfg", "nic/model=portals", "--json", out, "--reproducible", osu, "-k", str(k)],
                       capture_output=True, text=True, timeout=120)
    lat = [float(l.split()[1]) for l in p.stdout.splitlines() if l.startswith("latency-us")]
    if p.returncode == 0 and lat:
        curve[k] = (lat[0], json.load(open(out))["events"])
    else:
        check(f"osu_switch -k {k}", False, "exit 0", p.stderr[-300:])
if len(curve) == 12:
    lat = [curve[k][0] for k in sorted(curve)]
    ev = [curve[k][1] for k in sorted(curve)]
    check("test 20: switching at 0 and at 10 measure the same latency (warm-up is not timed)", lat[0] == lat[1],
          lat[0], lat[1])
    check("test 20: the latency moves from the coarse model's to the detailed one's as the switch comes later",
          all(a < b for a, b in zip(lat[1:], lat[2:])) and lat[0] < lat[-1], "increasing from K = 10", lat)
    check("test 20: the cost falls as the coarse share grows (events, the deterministic measure of wall time)",
          all(a < b for a, b in zip(ev, ev[1:])), "increasing with K", ev)

# ---- --trace-out marks each switch; --stats splits per phase ----------------------------------------
timeline = os.path.join(TMP, "switch-trace.json")
stats_dir = os.path.join(TMP, "switch-stats")
j, _ = run("run", "--platform", CLUSTER, "--trace", STENCIL, "--switch", "5ms:network/model=flow", "--switch",
           "12ms:network/model=packet", "--trace-out", timeline, "--stats", stats_dir)
if j:
    marks = [e for e in json.load(open(timeline))["traceEvents"] if e.get("cat") == "switch"]
    check("--trace-out: an instant event per switch", [(m["ts"], m["args"]["model"]) for m in marks] ==
          [(5000, "flow"), (12000, "packet")], [(5000, "flow"), (12000, "packet")],
          [(m["ts"], m["args"]["model"]) for m in marks])
    import csv
    rows = list(csv.DictReader(open(os.path.join(stats_dir, "phases.csv"))))
    check("--stats phases.csv: a row per phase, messages and bytes adding up to the run's",
          [r["model"] for r in rows] == ["loggops", "flow", "packet"] and
          sum(int(r["messages"]) for r in rows) == j["messages"] and sum(int(r["bytes"]) for r in rows) == j["bytes"]
          and sum(int(r["events"]) for r in rows) == j["events"], (j["messages"], j["bytes"]),
          [(r["model"], r["messages"], r["bytes"]) for r in rows])

# ---- --stats per phase: the matrix and the links' route bytes of each phase's messages -------------------
def table(stats_dir, name):
    with open(os.path.join(stats_dir, name)) as f:
        return list(csv.DictReader(f))


def by_phase(rows, key, fields):
    out = {}
    for r in rows:
        cell = out.setdefault((r["phase"], *(r[k] for k in key)), [0] * len(fields))
        for i, f in enumerate(fields):
            cell[i] += int(r[f])
    return out


split = os.path.join(TMP, "split_stats")
j, _ = run("run", "--platform", CLUSTER, "--trace", STENCIL, "--switch", "5ms:network/model=flow", "--switch",
           "12ms:network/model=loggops", "--stats", split)
if j:
    pm, pl, ph = table(split, "phase_matrix.csv"), table(split, "phase_links.csv"), table(split, "phases.csv")
    whole = {(r["src"], r["dst"]): [int(r["messages"]), int(r["bytes"])] for r in table(split, "matrix.csv")}
    summed = {}
    for (phase, src, dst), v in by_phase(pm, ["src", "dst"], ["messages", "bytes"]).items():
        cell = summed.setdefault((src, dst), [0, 0])
        cell[0] += v[0]
        cell[1] += v[1]
    check("phase_matrix.csv: the phases' matrices add up to matrix.csv", summed == whole, len(whole), len(summed))
    per_phase = {}
    for r in pm:
        cell = per_phase.setdefault(r["phase"], [0, 0])
        cell[0] += int(r["messages"])
        cell[1] += int(r["bytes"])
    check("phase_matrix.csv: each phase's messages and bytes are phases.csv's", per_phase ==
          {r["phase"]: [int(r["messages"]), int(r["bytes"])] for r in ph}, ph, per_phase)
    # links.csv is the flow model's own accounting (the only model of the three that keeps link
    # statistics): phase 1, the flow phase, carries exactly those bytes by route.
    flow_links = {r["name"]: int(r["bytes"]) for r in table(split, "links.csv")}
    check("phase_links.csv: the flow phase's route bytes = the flow model's own link bytes",
          {r["link"]: int(r["bytes"]) for r in pl if r["phase"] == "1"} == flow_links, flow_links,
          [r for r in pl if r["phase"] == "1"][:3])
    backbone = {r["phase"]: int(r["bytes"]) for r in pl if r["link"] == "cluster16_backbone"}
    check("phase_links.csv: every inter-host message crosses the backbone once",
          backbone == {r["phase"]: int(r["bytes"]) for r in ph}, [r["bytes"] for r in ph], backbone)
_, _ = run("run", "--platform", CLUSTER, "--trace", STENCIL, "--stats", split)
check("a run without switches leaves no phase tables", not any(os.path.exists(os.path.join(split, f)) for f in
      ["phases.csv", "phase_matrix.csv", "phase_links.csv"]), "none", os.listdir(split))

# ---- bad input ---------------------------------------------------------------------------------------
one = rounds(1, 1024)
bad = [
    (["--platform", CLUSTER], "1ms:network/modle=flow", "did you mean 'network/model'"),
    (["--platform", CLUSTER], "1ms:online/compute=declared", "cannot change during a run"),
    (["--platform", CLUSTER], "1ms:mpi/allreduce=bogus", "mpi/allreduce"),
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
