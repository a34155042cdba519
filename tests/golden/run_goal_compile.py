#!/usr/bin/env python3
"""Compiled GOAL schedules (issue 29; replay/goal_binary.hpp): ctest `goal_compile`.

    run_goal_compile.py SIMFAB SOURCE_DIR [--quick]     (--quick: 60 corrupted files, not 300)

1. Every examples/goal/*.goal and a generated 4,096-rank dissemination, compiled with
   `simfab goal --compile`, replays exactly as its text: the same makespan, per-rank finish
   times, messages, bytes and events (JSON with --reproducible), and the summary says "compiled".
2. Runtime reports cite the source text: a deadlocked schedule's report names its .goal line.
3. Bad input gets exit 2 and writes nothing: compiling a compiled file or broken text (naming the
   line), a missing -o, a truncated file at many lengths, a wrong version, a changed kind; and 300
   randomly corrupted files (fixed seed) never crash or hang simfab (exit 0, 2 or 3 only).
Exits 1 on any failure.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

SIMFAB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
FUZZ_CASES = 60 if QUICK else 300
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def run(args, cwd, timeout=120):
    return subprocess.run([SIMFAB] + args, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)


def result(d, goal, tag):
    js = os.path.join(d, tag + ".json")
    r = run(["run", "--goal", goal, "--json", js, "--reproducible"], d)
    if r.returncode != 0:
        return r, None
    doc = json.load(open(js))
    keep = {k: doc[k] for k in ("makespan_ps", "num_ranks", "ranks", "messages", "bytes", "events")}
    return r, keep


def dissemination(n):
    lines = [f"num_ranks {n}"]
    for r in range(n):
        lines.append(f"rank {r} {{")
        k, prev = 0, None
        while (1 << k) < n:
            lines.append(f"s{k}: send 8b to {(r + (1 << k)) % n} tag 0")
            lines.append(f"r{k}: recv 8b from {(r - (1 << k)) % n} tag 0")
            if prev is not None:
                lines.append(f"s{k} requires {prev}")
            prev, k = f"r{k}", k + 1
        lines.append("}")
    return "\n".join(lines) + "\n"


with tempfile.TemporaryDirectory() as d:
    # 1. The same run from either form.
    goals = sorted(os.path.join(SRC, "examples", "goal", f) for f in os.listdir(os.path.join(SRC, "examples", "goal")))
    big = os.path.join(d, "diss4096.goal")
    open(big, "w").write(dissemination(4096))
    for goal in goals + [big]:
        name = os.path.basename(goal)
        sgb = os.path.join(d, name + ".sgb")
        c = run(["goal", "--compile", goal, "-o", sgb], d)
        check(c.returncode == 0 and "simfab: compiled" in c.stdout, f"1: {name} compiles ({c.stderr.strip()[:200]})")
        rt, text = result(d, goal, "text")
        rb, binary = result(d, sgb, "bin")
        check(text is not None and text == binary, f"1: {name}: the compiled form replays exactly as the text")
        check("(goal, compiled," in rb.stdout, f"1: {name}: the summary says it read the compiled form")
        check("(goal, compiled," not in rt.stdout, f"1: {name}: and not for the text")

    # 2. A deadlock's report cites the source text's line.
    dead = os.path.join(d, "dead.goal")
    open(dead, "w").write("num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 5\n}\nrank 1 {\nl1: calc 100\n}\n")
    run(["goal", "--compile", dead, "-o", "dead.sgb"], d)
    r = run(["run", "--goal", "dead.sgb"], d)
    check(r.returncode == 3 and "dead.goal:3" in r.stdout + r.stderr,
          f"2: a deadlock in a compiled schedule names dead.goal:3 (exit {r.returncode}: {(r.stdout + r.stderr)[-300:]})")

    # 3. Bad input.
    def refused(args, where, what):
        before = set(os.listdir(d))
        r = run(args, d)
        check(r.returncode == 2 and where in r.stderr and set(os.listdir(d)) == before,
              f"3: {what}: exit 2 naming {where!r}, nothing written (exit {r.returncode}: {r.stderr.strip()[:200]})")

    sgb = os.path.join(d, "dissemination8.goal.sgb")
    refused(["goal", "--compile", sgb, "-o", "again.sgb"], "already a compiled GOAL", "compiling a compiled file")
    open(os.path.join(d, "broken.goal"), "w").write("num_ranks 1\nrank 0 {\na: send 8b to 3 tag 0\n}\n")
    refused(["goal", "--compile", "broken.goal", "-o", "broken.sgb"], "broken.goal:3", "broken text")
    refused(["goal", "--compile", "broken.goal"], "-o FILE.sgb", "no -o")
    data = open(sgb, "rb").read()
    for cut in sorted({0, 8, 16, 20, 30, 50, len(data) // 3, len(data) // 2, len(data) - 4, len(data) - 1}):
        f = os.path.join(d, "cut.sgb")
        open(f, "wb").write(data[:cut])
        # a cut inside the magic leaves a file that is not compiled: then it is bad GOAL text
        r = run(["run", "--goal", f], d)
        check(r.returncode == 2 and "cut.sgb" in r.stderr, f"3: truncated to {cut} of {len(data)} bytes: exit 2 ({r.stderr.strip()[:120]})")
        os.remove(f)
    version = bytearray(data)
    version[16] = 7
    open(os.path.join(d, "v.sgb"), "wb").write(version)
    refused(["run", "--goal", "v.sgb"], "version 7", "a wrong version")
    os.remove(os.path.join(d, "v.sgb"))
    # The first op's kind byte: after the header (16 + 4 + 4 + 16 + 16 + 4), the source name, the
    # switches (none) and rank_begin (9 x 4 bytes); the kind is byte 20 of the 24-byte record.
    name_len = int.from_bytes(data[56:60], "little")
    kind_at = 60 + name_len + 9 * 4 + 20
    bad = bytearray(data)
    bad[kind_at] = 9
    open(os.path.join(d, "k.sgb"), "wb").write(bad)
    refused(["run", "--goal", "k.sgb"], "bad kind", "a changed kind")
    os.remove(os.path.join(d, "k.sgb"))

    rng = random.Random(29)
    seen = {}
    for i in range(FUZZ_CASES):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        f = os.path.join(d, "fuzz.sgb")
        open(f, "wb").write(b)
        r = run(["run", "--goal", f, "--quiet"], d, timeout=60)
        seen[r.returncode] = seen.get(r.returncode, 0) + 1
        if r.returncode not in (0, 2, 3):
            open(os.path.join(d, f"crash{i}.sgb"), "wb").write(b)
            print(f"fuzz case {i}: exit {r.returncode}: {r.stderr[-300:]}")
    check(set(seen) <= {0, 2, 3}, f"3: {FUZZ_CASES} corrupted files: exit codes {seen} (0, 2 or 3 only: no crash)")

print(f"{len(failures)} failure(s)" if failures else "goal_compile: all checks passed")
sys.exit(1 if failures else 0)
