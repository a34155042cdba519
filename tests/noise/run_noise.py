#!/usr/bin/env python3
"""OS noise from the command line (issue 33, src/noise/): the keys are listed; a trace and fixed
offsets give the hand-computed finish times of the 8-rank dissemination (tests/unit/noise_test.cpp
derives them); the text line, the JSON section and ranks.csv's noise_s column; cosched gives every
rank the same stretch; seeds are reproducible (same seed: byte-identical JSON, another: other
offsets); synthetic noise; TI replay is stretched too; a run without noise keys prints no noise
line nor noise keys; bad inputs exit 2 naming the file:line or the key, and write nothing.

usage: run_noise.py SIMFAB SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
GOAL = os.path.join(SRC, "examples/goal/dissemination8.goal")
TRACE = os.path.join(SRC, "examples/noise/detour_1100ns.txt")
LOGGOPS = ["--cfg", "loggops/L=0", "--cfg", "loggops/o=50000", "--cfg", "loggops/g=100000", "--cfg", "loggops/G=6000"]
OFFSETS = "0," + ",".join(["5us"] * 7)


def run(args, cwd=SRC):
    p = subprocess.run([SIMFAB] + args, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def run_json(args):
    """(exit, parsed JSON or None, raw text, stdout, stderr) of simfab run ARGS --json ... --reproducible."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, so, se = run(["run"] + args + ["--json", out, "--reproducible"])
        text = open(out).read() if os.path.exists(out) else None
    return code, json.loads(text) if text else None, text, so, se


def finishes(j):
    return [r["finish_ps"] for r in j["ranks"]] if j else None


# The keys are declared.
code, so, _ = run(["config", "--list"])
for key in ["noise/trace", "noise/period", "noise/duration", "noise/rule", "noise/cosched", "noise/seed", "noise/offsets",
            "noise/histogram", "noise/collectives", "noise/classes"]:
    check("config --list " + key, code == 0 and key + " (" in so, key, so[:200])

# Without noise keys: no noise line, no noise section; config lists the noise/* keys at their
# defaults, as it lists every key.
code, j, _, so, se = run_json(["--goal", GOAL] + LOGGOPS)
check("no noise: exit 0", code == 0, 0, se)
check("no noise: finishes", finishes(j) == [3522000] * 8, [3522000] * 8, finishes(j))
check("no noise: no line", not any(l.startswith("noise:") for l in so.splitlines()), "no noise line", so)
check("no noise: no JSON section, the keys at their defaults", j is not None and "noise" not in j and
      j["config"].get("noise/trace") == "none" and j["config"].get("noise/period") == 0,
      "no noise section, defaults", j and {k: v for k, v in j["config"].items() if k.startswith("noise")})

# The hand computation: the detour at 1100 ns hits rank 0's first receive overhead only.
HAND = [3542000, 3522000] * 4
for rule in ["loggopsim", "preempt"]:
    args = ["--goal", GOAL] + LOGGOPS + ["--cfg", "noise/trace=" + TRACE, "--cfg", "noise/offsets=" + OFFSETS,
                                         "--cfg", "noise/rule=" + rule]
    code, j, _, so, se = run_json(args)
    check(rule + ": exit 0", code == 0, 0, se)
    check(rule + ": hand-computed finishes", finishes(j) == HAND, HAND, finishes(j))
    n = j and j.get("noise")
    check(rule + ": JSON noise", n and n["total_ps"] == 20000 and n["detours"] == 1 and n["rule"] == rule and
          n["offsets"] == "fixed" and n["period_ps"] == 10000000 and n["ranks"][0]["noise_ps"] == 20000 and
          n["ranks"][1] == {"rank": 1, "offset_ps": 5000000, "noise_ps": 0, "detours": 0},
          "20000 ps in 1 detour on rank 0", n)
    line = f"noise: 20 ns injected in 1 detour (rule {rule}, fixed offsets), most on rank 0: 20 ns"
    check(rule + ": text line", line in so, line, so)

# Co-scheduled at one offset: every rank shifts by the detour.
code, j, _, _, se = run_json(["--goal", GOAL] + LOGGOPS + ["--cfg", "noise/trace=" + TRACE, "--cfg", "noise/offsets=0"])
check("all at offset 0", finishes(j) == [3542000] * 8, [3542000] * 8, finishes(j) or se)

# Synthetic noise, drawn offsets: cosched gives every rank the same offset and stretch; seeds repeat.
SYN = ["--goal", GOAL] + LOGGOPS + ["--cfg", "noise/period=1us", "--cfg", "noise/duration=100ns"]
code, co, _, _, se = run_json(SYN + ["--cfg", "noise/cosched=yes", "--cfg", "noise/seed=3"])
check("cosched exit 0", code == 0, 0, se)
if co:
    offs = {r["offset_ps"] for r in co["noise"]["ranks"]}
    stretch = {r["noise_ps"] for r in co["noise"]["ranks"]}
    check("cosched: one offset", len(offs) == 1 and co["noise"]["offsets"] == "co-scheduled", "one offset", offs)
    check("cosched: same stretch and finish", len(stretch) == 1 and len(set(finishes(co))) == 1 and
          finishes(co)[0] > 3522000, "equal", (stretch, finishes(co)))
code, a, ta, _, _ = run_json(SYN + ["--cfg", "noise/seed=11"])
code, b, tb, _, _ = run_json(SYN + ["--cfg", "noise/seed=11"])
code, c, tc, _, _ = run_json(SYN + ["--cfg", "noise/seed=12"])
check("same seed: byte-identical JSON", ta is not None and ta == tb, "identical", "different")
if a and c:
    oa = [r["offset_ps"] for r in a["noise"]["ranks"]]
    oc = [r["offset_ps"] for r in c["noise"]["ranks"]]
    check("another seed: other offsets", oa != oc, "different offsets", (oa, oc))
    check("independent offsets differ", len(set(oa)) > 1 and a["noise"]["offsets"] == "independent", "several", oa)

# --stats: ranks.csv gains noise_s.
with tempfile.TemporaryDirectory() as d:
    code, so, se = run(["run", "--goal", GOAL] + LOGGOPS + ["--cfg", "noise/trace=" + TRACE, "--cfg",
                                                            "noise/offsets=" + OFFSETS, "--stats", d])
    rows = open(os.path.join(d, "ranks.csv")).read().splitlines() if code == 0 else []
    check("ranks.csv noise_s", rows and rows[0].endswith(",idle_s,noise_s") and rows[1].endswith(",0.000000020000")
          and rows[2].endswith(",0.000000000000"), "noise_s column", rows[:3] or se)
    code, so, se = run(["run", "--goal", GOAL] + LOGGOPS + ["--stats", d])
    rows = open(os.path.join(d, "ranks.csv")).read().splitlines() if code == 0 else []
    check("ranks.csv without noise", rows and rows[0].endswith(",idle_s"), "no noise_s", rows[:1] or se)

# TI replay is stretched too (a computation and the overheads of a ping-pong).
TI = ["--trace", os.path.join(SRC, "examples/ti/pingpong.ti"), "--platform", os.path.join(SRC, "examples/platforms/cluster16.yaml")]
code, quiet, _, _, se = run_json(TI)
code2, noisy, _, _, se2 = run_json(TI + ["--cfg", "noise/period=10us", "--cfg", "noise/duration=1us", "--cfg", "noise/offsets=0"])
check("TI with noise", code == 0 and code2 == 0 and noisy["makespan_ps"] > quiet["makespan_ps"] and
      noisy["noise"]["total_ps"] > 0, "longer makespan", (se, se2, quiet and quiet["makespan_ps"], noisy and noisy.get("noise")))

# Drawn detour lengths (noise/distribution): two ranks compute 1 s under a detour every 1 ms of
# mean 10 us, so each gains about 1000 x 10 us = 10 ms (the sum of ~1000 draws: within 1 ms for
# either law); fixed lengths give exactly 1000 or 1001 detours; the same seed gives the same run,
# another seed another; a trace refuses the key.
with tempfile.TemporaryDirectory() as d:
    goal = os.path.join(d, "one_second.goal")
    open(goal, "w").write("num_ranks 2\nrank 0 {\nc: calc 1000000000000\n}\nrank 1 {\nc: calc 1000000000000\n}\n")
    DRAWN = ["--goal", goal, "--cfg", "noise/period=1ms", "--cfg", "noise/duration=10us"]
    code, j, _, _, se = run_json(DRAWN)
    fixed = [r["noise_ps"] for r in j["noise"]["ranks"]] if j else None
    check("fixed lengths: 1000 or 1001 detours of 10 us", fixed is not None and
          all(n in (10000000000, 10010000000) for n in fixed), "10 ms or 10.01 ms", fixed or se)
    for law in ["exponential", "uniform"]:
        code, j, text, _, se = run_json(DRAWN + ["--cfg", "noise/distribution=" + law, "--cfg", "noise/seed=3"])
        got = [r["noise_ps"] for r in j["noise"]["ranks"]] if j else None
        check(law + ": about 10 ms per rank", got is not None and all(9e9 < n < 11e9 for n in got) and
              len(set(got)) == 2 and j["noise"]["source"] == "synthetic, " + law + " durations",
              "9-11 ms each, ranks differ", got or se)
        _, _, text2, _, _ = run_json(DRAWN + ["--cfg", "noise/distribution=" + law, "--cfg", "noise/seed=3"])
        check(law + ": the same seed, the same run", text is not None and text == text2, "byte-identical", "differs")
        _, j3, _, _, _ = run_json(DRAWN + ["--cfg", "noise/distribution=" + law, "--cfg", "noise/seed=4"])
        check(law + ": another seed, another run", j3 is not None and
              [r["noise_ps"] for r in j3["noise"]["ranks"]] != got, "differs", "the same")

# Detour lengths from a histogram (noise/distribution=histogram, noise/histogram): one bin of 10 us
# with a detour every 1 ms at offset 0 gives each 1 s calc the detour in progress at 0 and those
# starting at 1..999 ms: 1000 x 10 us = 10 ms exactly; two bins of 5 and 15 us (mean 10 us) give
# 5 us n5 + 15 us n15 with n5 + n15 = 1000, about 10 ms; the same seed repeats byte for byte.
with tempfile.TemporaryDirectory() as d:
    goal = os.path.join(d, "one_second.goal")
    open(goal, "w").write("num_ranks 2\nrank 0 {\nc: calc 1000000000000\n}\nrank 1 {\nc: calc 1000000000000\n}\n")
    one, two = os.path.join(d, "one.txt"), os.path.join(d, "two.csv")
    open(one, "w").write("# FTQ-like\n10000 1\n")
    open(two, "w").write("duration_ns,weight\n5000,1\n15000,1\n")
    HIST = ["--goal", goal, "--cfg", "noise/period=1ms", "--cfg", "noise/distribution=histogram"]
    code, j, _, so, se = run_json(HIST + ["--cfg", "noise/histogram=" + one, "--cfg", "noise/offsets=0"])
    got = [(r["noise_ps"], r["detours"]) for r in j["noise"]["ranks"]] if j else None
    check("histogram, one bin: 1000 x 10 us", got == [(10000000000, 1000)] * 2 and
          j["noise"]["source"] == "synthetic, histogram durations from " + one, [(10000000000, 1000)] * 2, got or se)
    code, j, text, _, se = run_json(HIST + ["--cfg", "noise/histogram=" + two, "--cfg", "noise/seed=3"])
    got = [r["noise_ps"] for r in j["noise"]["ranks"]] if j else None
    check("histogram, two bins: about 10 ms, 5 us steps", got is not None and
          all(9e9 < n < 11e9 and n % 5000000 == 0 for n in got) and len(set(got)) == 2, "9-11 ms each", got or se)
    _, _, text2, _, _ = run_json(HIST + ["--cfg", "noise/histogram=" + two, "--cfg", "noise/seed=3"])
    check("histogram: the same seed, byte-identical JSON", text is not None and text == text2, "identical", "differs")
    _, j3, _, _, _ = run_json(HIST + ["--cfg", "noise/histogram=" + two, "--cfg", "noise/seed=4"])
    check("histogram: another seed, another run", j3 is not None and
          [r["noise_ps"] for r in j3["noise"]["ranks"]] != got, "differs", "the same")

# Noise on collectives only (noise/collectives=yes, LogGOPSim's collnoise): two ranks compute 1 ms
# (1 Mflop at 1 Gf) then meet in a barrier (LogGOPS, L = 1 us from the link, o = 1.5 ns: each rank
# sends, the message flies L, it is received: makespan 1 ms + o + L + o = 1,001,003,000 ps);
# 5 us of noise every 100 us, every rank at offset 0.
# Everywhere: the compute meets the detour in progress at 0 and those at 100..900 us: 50 us per
# rank; the barrier, from 1.05 ms (trace time 50 us), meets none: makespan + 50 us.
# Collectives only: the compute is left alone and the barrier starts at 1 ms, trace time 0, inside
# a detour: each rank's send overhead ends 5 us later (one detour per rank); the message still
# leaves at 1 ms + o (LogGOPS: noise delays the CPU, not the wire) and waits for the receiver's
# CPU: makespan 1 ms + (o + 5 us) + o = 1,005,003,000 ps (+ 4 us: 1 us hides behind L).
with tempfile.TemporaryDirectory() as d:
    plat, ti = os.path.join(d, "p.yaml"), os.path.join(d, "b.ti")
    open(plat, "w").write("hosts:\n  - {name: a, speed: 1Gf, noise_class: io}\n  - {name: b, speed: 1Gf}\n"
                          "links:\n  - {name: l, bandwidth: 1GBps, latency: 1us}\n"
                          "routes:\n  - {src: a, dst: b, links: [l]}\n")
    open(ti, "w").write("0 compute 1000000\n1 compute 1000000\n0 barrier\n1 barrier\n")
    TIB = ["--trace", ti, "--platform", plat]
    NOISE = ["--cfg", "noise/period=100us", "--cfg", "noise/duration=5us", "--cfg", "noise/offsets=0"]
    code, base, _, _, se = run_json(TIB)
    code2, every, _, _, se2 = run_json(TIB + NOISE)
    code3, coll, ctext, so3, se3 = run_json(TIB + NOISE + ["--cfg", "noise/collectives=yes"])
    ok = base and every and coll
    check("collectives: no noise, the closed form", base and base["makespan_ps"] == 1001003000, 1001003000,
          base and base["makespan_ps"])
    check("collectives: everywhere, 50 us per rank", ok and
          [(r["noise_ps"], r["detours"]) for r in every["noise"]["ranks"]] == [(50000000, 10)] * 2
          and every["makespan_ps"] == 1051003000, "+50 us", (se, se2, every and every.get("noise")))
    check("collectives only: the barrier's send overhead, 5 us per rank", ok and
          [(r["noise_ps"], r["detours"]) for r in coll["noise"]["ranks"]] == [(5000000, 1)] * 2 and
          coll["makespan_ps"] == 1005003000 and coll["noise"].get("collectives_only") is True,
          "1,005,003,000 ps, 1 detour each", (se3, coll and coll.get("noise"), coll and coll["makespan_ps"]))
    check("collectives only: text line", "(rule loggopsim, fixed offsets, collectives only)" in so3, "collectives only", so3)
    check("without noise/collectives: no collectives_only field", every and "collectives_only" not in every["noise"],
          "absent", every and every["noise"])
    _, _, ctext2, _, _ = run_json(TIB + NOISE + ["--cfg", "noise/collectives=yes"])
    check("collectives only: byte-identical rerun", ctext is not None and ctext == ctext2, "identical", "differs")

    # Noise per host class: host a is of class io, host b has none. io: 1 us every 100 us; no
    # global noise: rank 0 gains 10 us in its compute (as above), rank 1 nothing; with global noise
    # of 2 us every 500 us, rank 1 gains the detours at 0 and 500 us: 4 us; io:off silences rank 0.
    CLS = ["--cfg", "noise/offsets=0", "--cfg", "noise/classes=io:period=100us,duration=1us"]
    code, j, text, so, se = run_json(TIB + CLS)
    got = [(r.get("class"), r["noise_ps"], r["detours"]) for r in j["noise"]["ranks"]] if j else None
    check("classes: io only", got == [("io", 10000000, 10), (None, 0, 0)] and j["noise"]["source"] == "none" and
          j["noise"]["classes"] == [{"name": "io", "source": "synthetic", "period_ps": 100000000, "detours_per_period": 1}],
          [("io", 10000000, 10), (None, 0, 0)], got or se)
    check("classes: text line", "(rule loggopsim, fixed offsets, 1 host class)" in so, "1 host class", so)
    GLOBAL = ["--cfg", "noise/period=500us", "--cfg", "noise/duration=2us"]
    code, j, _, _, se = run_json(TIB + CLS + GLOBAL)
    got = [r["noise_ps"] for r in j["noise"]["ranks"]] if j else None
    check("classes: io and the global noise", got == [10000000, 4000000], [10000000, 4000000], got or se)
    code, j, _, _, se = run_json(TIB + GLOBAL + ["--cfg", "noise/offsets=0", "--cfg", "noise/classes=io:off"])
    got = [r["noise_ps"] for r in j["noise"]["ranks"]] if j else None
    check("classes: io off", got == [0, 4000000], [0, 4000000], got or se)
    _, _, text2, _, _ = run_json(TIB + CLS)
    check("classes: byte-identical rerun", text is not None and text == text2, "identical", "differs")
    code, so, se = run(["run"] + TIB + ["--cfg", "noise/classes=gpu:off"])
    check("classes: a class no host has", code == 2 and "no host of the platform has noise_class 'gpu' (its classes: io)" in se,
          "exit 2", (code, se))

# Bad input: exit 2, the place and what was expected, nothing written.
BAD = [
    ("malformed line", "1100 20\n2000\n", [], ["t.txt:2:1:", "expected `<start_ns> <duration_ns>`", "2000"]),
    ("negative duration", "1100 -20\n", [], ["t.txt:1:6:", "a negative duration"]),
    ("non-numeric", "1100 twenty\n", [], ["t.txt:1:6:", "'twenty' is not a number of nanoseconds"]),
    ("unsorted", "1100 20\n900 5\n", [], ["t.txt:2:1:", "sorted by start", "line 1"]),
    ("overlapping", "1100 20\n1110 5\n", [], ["t.txt:2:1:", "starts inside the one at line 1"]),
    ("empty trace", "# nothing\n", [], ["t.txt", "the noise trace is empty"]),
    ("trace and period", "1100 20\n2000 0\n", ["--cfg", "noise/period=1us", "--cfg", "noise/duration=10ns"],
     ["not both"]),
    ("missing trace", None, ["--cfg", "noise/trace=nope.txt"], ["nope.txt", "cannot open the noise trace"]),
    ("period <= duration", None, ["--cfg", "noise/period=10ns", "--cfg", "noise/duration=10ns"],
     ["--cfg noise/period", "must be longer than noise/duration"]),
    ("period without duration", None, ["--cfg", "noise/period=10us"], ["needs both noise/period and noise/duration"]),
    ("distribution with a trace", "1100 20\n2000 0\n", ["--cfg", "noise/distribution=uniform"],
     ["--cfg noise/distribution", "a noise/trace gives its own"]),
    ("rule without noise", None, ["--cfg", "noise/rule=preempt"], ["noise/rule says how to inject OS noise"]),
    ("offsets count", "1100 20\n2000 0\n", ["--cfg", "noise/offsets=0,1,2"], ["3 offsets for 8 ranks"]),
    ("collectives with GOAL", "1100 20\n2000 0\n", ["--cfg", "noise/collectives=yes"],
     ["--cfg noise/collectives", "a GOAL schedule marks no collectives"]),
    ("classes syntax", None, ["--cfg", "noise/period=1us", "--cfg", "noise/duration=10ns", "--cfg", "noise/classes=io"],
     ["--cfg noise/classes", "expected CLASS:off or CLASS:KEY=VALUE"]),
    ("classes without platform classes", None, ["--cfg", "noise/classes=io:off"],
     ["no host of the platform has noise_class 'io'", "declares no noise class"]),
]
# Histograms: the file:line of the bad bin and what was expected.
HBAD = [
    ("negative duration", "10 1\n-5 1\n", [], ["h.txt:2:1:", "a negative duration"]),
    ("negative weight", "10 -1\n", [], ["h.txt:1:4:", "a negative weight"]),
    ("malformed line", "10 1\n20\n", [], ["h.txt:2:1:", "expected `<duration_ns> <count>`"]),
    ("zero total weight", "10 0\n", [], ["h.txt", "weights add up to 0"]),
    ("bin longer than the period", "10 1\n2000 1\n", [], ["h.txt:2:1:", "a detour of 2000 ns does not fit noise/period"]),
    ("mean above half the period", "10 1\n990 3\n", [], ["h.txt", "mean length (745 ns) is more than half of noise/period (1000 ns)"]),
    ("missing file", None, [], ["h.txt", "cannot open the detour histogram"]),
    ("histogram with duration", "10 1\n", ["--cfg", "noise/duration=10ns"], ["--cfg noise/duration", "leave noise/duration out"]),
]
for name, content, extra, words in HBAD:
    with tempfile.TemporaryDirectory() as d:
        if content is not None:
            open(os.path.join(d, "h.txt"), "w").write(content)
        args = ["run", "--goal", GOAL, "--json", "r.json", "--cfg", "noise/period=1us", "--cfg",
                "noise/distribution=histogram", "--cfg", "noise/histogram=h.txt"] + extra
        code, so, se = run(args, cwd=d)
        left = sorted(f for f in os.listdir(d) if f != "h.txt")
        check("bad histogram " + name + ": exit 2", code == 2, 2, f"exit {code}: {se}")
        check("bad histogram " + name + ": message", all(w in se for w in words), words, se)
        check("bad histogram " + name + ": nothing written", left == [] and so == "", "no file, no stdout", (left, so))

for name, content, extra, words in BAD:
    with tempfile.TemporaryDirectory() as d:
        args = ["run", "--goal", GOAL, "--json", "r.json", "--stats", "st"] + extra
        if content is not None:
            open(os.path.join(d, "t.txt"), "w").write(content)
            args += ["--cfg", "noise/trace=t.txt"]
        code, so, se = run(args, cwd=d)
        left = sorted(f for f in os.listdir(d) if f != "t.txt")
        check("bad " + name + ": exit 2", code == 2, 2, f"exit {code}: {se}")
        check("bad " + name + ": message", all(w in se for w in words), words, se)
        check("bad " + name + ": nothing written", left == [] and so == "", "no file, no stdout", (left, so))

golden_check.finish("run_noise.py")
