#!/usr/bin/env python3
"""CLI test of the timeline outputs: `simfab run ... --trace-out T.json --paje P.trace`
(report/trace_event_writer.hpp, report/paje_writer.hpp) on a 4-rank TI trace with blocking and
non-blocking point-to-point and three collectives (tests/data/ti/equivalence.txt).

  golden       T.json (its "simfab" metadata emptied) and P.trace byte for byte against expected/,
               after a determinism rerun
  tiling       each rank's MPI slices tile [0, finish_ps] exactly (integer picoseconds, read from
               the decimal text without floating point); one slice per trace action, named after it
  flows        every "s" has one "f" with its id, later or at the same time, on the right ranks;
               one flow per message of the run; the application's two messages with their bytes
  filters      --trace-ranks 1-2 and --trace-window keep exactly the slices and flows of the full
               run that the rules select (kept ranks; whole intervals overlapping the window)
  paje         pj_dump accepts P.trace (skipped with a note when pajeng is not installed): one
               MPI state per action on each rank, tiling [0, finish]; one link per flow

usage: run.py SIMFAB SOURCE_DIR [--update]   (--update rewrites expected/ after review)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, SRC = sys.argv[1], sys.argv[2]
UPDATE = "--update" in sys.argv
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")
PLATFORM = "examples/platforms/cluster16.yaml"
TRACE = "tests/data/ti/equivalence.txt"
NUM_RANKS = 4


def run(args):
    p = subprocess.run([SIMFAB] + args, cwd=SRC, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def simulate(tmp, name, extra):
    """One run with both timelines and the JSON result; returns (trace text, paje text, result)."""
    t, p, r = (os.path.join(tmp, name + ext) for ext in (".json", ".trace", ".result.json"))
    code, _, err = run(["run", "--platform", PLATFORM, "--trace", TRACE, "--trace-out", t, "--paje", p,
                        "--json", r, "--reproducible"] + extra)
    check(name + " exits 0", code == 0, "exit 0", f"exit {code}: {err.strip()}")
    read = lambda f: open(f).read() if os.path.exists(f) else None  # noqa: E731
    result = json.loads(read(r)) if read(r) else None
    return read(t), read(p), result


def ps(decimal_us):
    """Exact picoseconds of a trace-event time (microseconds as decimal text)."""
    v = Decimal(decimal_us) * 1000000
    assert v == v.to_integral_value(), decimal_us
    return int(v)


def events(text):
    return json.loads(text, parse_float=Decimal)["traceEvents"] if text else []


def slices(evs, tid_pred):
    """(pid, tid, begin_ps, end_ps, name, cat) of the complete events on the threads selected."""
    out = []
    for e in evs:
        if e["ph"] == "X" and tid_pred(e["tid"]):
            b = ps(e["ts"])
            out.append((e["pid"], e["tid"], b, b + ps(e["dur"]), e["name"], e["cat"]))
    return out


def flows(evs):
    """{id: (src, sent_ps, dst, arrived_ps, cat, bytes, tag)} with the pairing checked."""
    starts, ends = {}, {}
    for e in evs:
        if e["ph"] in ("s", "f"):
            side = starts if e["ph"] == "s" else ends
            check(f"flow {e['id']} {e['ph']} unique", e["id"] not in side, "one per id", "duplicate")
            side[e["id"]] = e
    check("flows pair up", sorted(starts) == sorted(ends), sorted(starts), sorted(ends))
    out = {}
    for i, s in starts.items():
        f = ends.get(i)
        if f is None:
            continue
        check(f"flow {i} binds to the enclosing slice", f.get("bp") == "e", "bp e", f.get("bp"))
        check(f"flow {i} on the MPI thread", s["tid"] == 0 and f["tid"] == 0, "tid 0", (s["tid"], f["tid"]))
        out[i] = (s["pid"], ps(s["ts"]), f["pid"], ps(f["ts"]), s["cat"], s["args"]["bytes"], s["args"]["tag"])
        check(f"flow {i} goes forward in time", out[i][1] <= out[i][3], "sent <= arrived", out[i])
    return out


def trace_actions():
    """Per rank, the action names of the TI trace in order."""
    actions = defaultdict(list)
    for line in open(os.path.join(SRC, TRACE)):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            actions[int(fields[0])].append(fields[1].lower())
    return actions


def check_tiling(label, mpi, finish):
    for r in range(NUM_RANKS):
        mine = sorted((b, e) for (pid, _, b, e, _, _) in mpi if pid == r)
        t, gaps = 0, []
        for b, e in mine:
            if b != t:
                gaps.append((t, b))
            t = e
        check(f"{label}: rank {r} MPI slices tile [0, finish]", not gaps and t == finish[r],
              f"no gap, end {finish[r]}", f"gaps {gaps}, end {t}")


def golden(name, text):
    path = os.path.join(EXPECTED, name)
    if UPDATE and text:
        os.makedirs(EXPECTED, exist_ok=True)
        open(path, "w").write(text)
    want = open(path).read() if os.path.exists(path) else None
    check(name + " matches golden", text == want, path, "differs (rerun with --update after review)")


def pj_dump(label, path):
    """pj_dump's states {(container, type): [(begin_ps, end_ps, value)]} and link count, or None
    (with a note) when pajeng is not installed."""
    if shutil.which("pj_dump") is None:
        print(f"NOTE {label}: pj_dump not found (apt package pajeng): its Paje checks are skipped")
        return None
    p = subprocess.run(["pj_dump", "-l", "12", path], capture_output=True, text=True, timeout=120)
    check(label + ": pj_dump accepts the Paje trace", p.returncode == 0, "exit 0", p.stderr.strip()[:500])
    states, links = defaultdict(list), 0
    for line in p.stdout.splitlines():
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State":  # State, container, type, begin, end, duration, imbrication, value
            states[(f[1], f[2])].append((int(Decimal(f[3]) * 10**12), int(Decimal(f[4]) * 10**12), f[7]))
        elif f[0] == "Link":
            links += 1
    return states, links


def check_paje(label, path, finish, actions, num_links):
    dumped = pj_dump(label, path)
    if dumped is None:
        return
    states, links = dumped
    for r in range(NUM_RANKS):
        mine = sorted(states.get((f"rank {r}", "MPI"), []))
        check(f"{label}: rank {r} has one MPI state per action", [s[2] for s in mine] == actions[r],
              actions[r], [s[2] for s in mine])
        ends = [b for b, _, _ in mine[1:]] + [finish[r]]
        check(f"{label}: rank {r} MPI states tile [0, finish]",
              bool(mine) and mine[0][0] == 0 and all(e == n for (_, e, _), n in zip(mine, ends)),
              f"contiguous from 0 to {finish[r]}", mine)
    check(f"{label}: one link per flow", links == num_links, num_links, links)


def check_paje_counts(label, path, mpi_states, num_links):
    """The filtered Paje traces: MPI states per rank container and links, as the JSON kept them."""
    dumped = pj_dump(label, path)
    if dumped is None:
        return
    states, links = dumped
    got = {r: len(states.get((f"rank {r}", "MPI"), [])) for r in range(NUM_RANKS)}
    check(f"{label}: MPI states per rank", got == mpi_states, mpi_states, got)
    check(f"{label}: links", links == num_links, num_links, links)


def main():
    code, out, err = run(["help"])
    if "--trace-out" not in out + err:
        check("simfab run knows --trace-out", False, "--trace-out in `simfab help`", "absent")
        return
    actions = trace_actions()
    with tempfile.TemporaryDirectory() as tmp:
        text, paje, result = simulate(tmp, "full", [])
        again, paje_again, _ = simulate(tmp, "rerun", [])
        check("trace-event output is deterministic", text == again, "identical bytes", "different")
        check("Paje output is deterministic", paje == paje_again, "identical bytes", "different")
        if not text or not paje or not result:
            return
        # The timeline byte for byte; the "simfab" value (the run's result and statistics, checked by
        # their own tests) is emptied so that a new config key does not touch this golden file.
        cut = text.rfind('\n],"simfab":')
        check("the \"simfab\" key closes the document", cut > 0, '\n],"simfab":{...}}', text[-80:])
        golden("equivalence.json", text[:cut] + '\n],"simfab":{}}\n')
        meta = json.loads(text)["simfab"]
        check("\"simfab\" holds the run's result", meta.get("result", {}).get("makespan_ps") == result["makespan_ps"],
              result["makespan_ps"], meta.get("result", {}).get("makespan_ps"))
        golden("equivalence.trace", paje)

        doc = json.loads(text)
        check("top-level keys", list(doc) == ["displayTimeUnit", "traceEvents", "simfab"],
              ["displayTimeUnit", "traceEvents", "simfab"], list(doc))
        finish = [r["finish_ps"] for r in result["ranks"]]
        evs = events(text)
        mpi = slices(evs, lambda tid: tid == 0)
        cpu = slices(evs, lambda tid: tid >= 1)
        check_tiling("full", mpi, finish)
        for r in range(NUM_RANKS):
            names = [n for (pid, _, b, _, n, _) in sorted(mpi, key=lambda s: (s[0], s[2])) if pid == r]
            check(f"rank {r}: one MPI slice per trace action, in order", names == actions[r], actions[r], names)
        check("CPU slices have CPU names", {s[4] for s in cpu} <= {"compute", "send overhead", "recv overhead"},
              "compute/send overhead/recv overhead", {s[4] for s in cpu})
        check("no empty CPU slice", all(s[3] > s[2] for s in cpu), "dur > 0", [s for s in cpu if s[3] <= s[2]])
        fl = flows(evs)
        check("one flow per message", len(fl) == result["messages"], result["messages"], len(fl))
        app = sorted((v[0], v[2], v[5], v[6]) for v in fl.values() if v[4] == "p2p")
        check("the application's messages", app == [(0, 1, 100, 5), (2, 3, 2000, 6)],
              [(0, 1, 100, 5), (2, 3, 2000, 6)], app)
        check_paje("full", os.path.join(tmp, "full.trace"), finish, actions, len(fl))

        # --trace-ranks 1-2: the same slices for ranks 1 and 2, flows with an end among them.
        text2, _, _ = simulate(tmp, "ranks", ["--trace-ranks", "1-2"])
        evs2 = events(text2)
        want = sorted(s for s in mpi + cpu if s[0] in (1, 2))
        got = sorted(slices(evs2, lambda tid: True))
        check("--trace-ranks 1-2 keeps ranks 1-2's slices", got == want, f"{len(want)} slices", f"{len(got)} slices")
        want_fl = {i: v for i, v in fl.items() if v[0] in (1, 2) or v[2] in (1, 2)}
        check("--trace-ranks 1-2 keeps their flows", flows(evs2) == want_fl, sorted(want_fl), sorted(flows(evs2)))
        check_paje_counts("--trace-ranks 1-2", os.path.join(tmp, "ranks.trace"),
                          {r: len(actions[r]) if r in (1, 2) else 0 for r in range(NUM_RANKS)}, len(want_fl))

        # --trace-window: whole intervals overlapping [t0, t1], flows overlapping it.
        makespan = max(finish)
        t0, t1 = makespan // 3 // 1000000 * 1000000, makespan * 2 // 3 // 1000000 * 1000000  # whole us
        text3, paje3, _ = simulate(tmp, "window", ["--trace-window", f"{t0 // 1000000}us:{t1 // 1000000}us"])
        evs3 = events(text3)
        want = sorted(s for s in mpi + cpu if s[3] >= t0 and s[2] <= t1)
        got = sorted(slices(evs3, lambda tid: True))
        check("--trace-window keeps the overlapping slices", got == want and 0 < len(got) < len(mpi + cpu),
              f"{len(want)} of {len(mpi + cpu)} slices", f"{len(got)} slices")
        want_fl = {i: v for i, v in fl.items() if v[3] >= t0 and v[1] <= t1}
        check("--trace-window keeps the overlapping flows", flows(evs3) == want_fl, sorted(want_fl),
              sorted(flows(evs3)))
        check_paje_counts("--trace-window", os.path.join(tmp, "window.trace"),
                          {r: sum(1 for x in want if x[1] == 0 and x[0] == r) for r in range(NUM_RANKS)},
                          len(want_fl))
        # Bare numbers are seconds: the same window gives the same bytes.
        text4, _, _ = simulate(tmp, "window_s", ["--trace-window", f"{Decimal(t0) / 10**12}:{Decimal(t1) / 10**12}"])
        check("--trace-window in seconds = in microseconds", text4 == text3, "identical bytes", "different")


if __name__ == "__main__":
    main()
    print(f"{golden_check.passed} passed, {golden_check.failed} failed")
    sys.exit(1 if golden_check.failed else 0)
