#!/usr/bin/env python3
"""`simfab run --stats DIR`: the CSV statistics (src/report/run_stats.hpp documents every file).

Each case runs twice (identical bytes: determinism), is checked for consistency with closed forms
and with the run's --json result, then compared byte for byte with expected/<case>/<file>:
  ring4_loggops   tests/golden/stats/ring4.ti (4 ranks: isend/irecv/waitall ring, 16 B / 17 B, allreduce, bcast)
                  on examples/platforms/cluster16.yaml: link bytes from the routes
  ring4_flow      the same under network/model=flow: link bytes and busy time from the model
  ring4_energy    the same on examples/platforms/energy_taurus.yaml: energy.csv
  goal_worked     examples/goal/loggops-example.goal (seed 004 §3.1, no platform): a breakdown
                  without calls, from the CPU: compute 100 ps, send/receive overheads
Bad input: --stats /proc/forbidden exits 2 before simulating, naming the path.

usage: run.py SIMFAB SOURCE_DIR [--update]   (--update rewrites expected/* after review)
"""
import json
import os
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
UPDATE = "--update" in sys.argv
sys.path.insert(0, os.path.join(SRC, "tests", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

HERE = os.path.join(SRC, "tests", "golden", "stats")
EXPECTED = os.path.join(HERE, "expected")
TRACE = os.path.join(HERE, "ring4.ti")
CLUSTER = os.path.join(SRC, "examples", "platforms", "cluster16.yaml")
TAURUS = os.path.join(SRC, "examples", "platforms", "energy_taurus.yaml")
GOAL = os.path.join(SRC, "examples", "goal", "loggops-example.goal")
LOGGOPSIM_DEFAULTS = ["--cfg", "loggops/L=2500", "--cfg", "loggops/o=1500", "--cfg", "loggops/g=1000",
                      "--cfg", "loggops/G=6", "--cfg", "loggops/O=0", "--cfg", "loggops/S=65535"]

HEADERS = {
    "ranks.csv": "rank,host,finish_s,compute_s,p2p_s,collective_s,wait_s,other_s,idle_s",
    "matrix.csv": "src,dst,messages,bytes",
    "sizes.csv": "upper_bytes,p2p_messages,p2p_bytes,collective_messages,collective_bytes",
    "collectives.csv": "name,algorithm,calls,time_s,max_s",
    "links.csv": "name,bandwidth_Bps,bytes,busy_s,utilisation",
    "link_timeline.csv": "link,bin,start_s,end_s,bytes",
}


def ps(text):
    """Exact picoseconds of a seconds field written with 12 decimals ('' -> None)."""
    if text == "":
        return None
    whole, frac = text.split(".")
    assert len(frac) == 12, text
    return int(whole) * 10**12 + int(frac)


def run_stats(args):
    """Runs simfab with --stats and --json; returns (exit, stderr, {file: text}, json)."""
    with tempfile.TemporaryDirectory() as d:
        out, js = os.path.join(d, "stats"), os.path.join(d, "result.json")
        p = subprocess.run([SIMFAB, "run"] + args + ["--stats", out, "--json", js, "--reproducible", "--quiet"],
                           capture_output=True, text=True, timeout=300)
        files = {f: open(os.path.join(out, f)).read() for f in sorted(os.listdir(out))} if os.path.isdir(out) else {}
        result = json.load(open(js)) if os.path.exists(js) else None
    return p.returncode, p.stderr, files, result


def rows(text):
    lines = text.rstrip("\n").split("\n")
    return [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]


def check_consistency(case, files, result, with_calls):
    makespan = result["makespan_ps"]
    computed = any(float(r["compute_s"]) > 0 for r in rows(files.get("ranks.csv", "rank\n")))
    want_files = set(HEADERS) | ({"energy.csv"} if "energy_j" in result else set()) | (
        {"regions.csv"} if computed and with_calls else set())
    check(case + ": files", set(files) == want_files, sorted(want_files), sorted(files))
    if "regions.csv" in files:
        # No location lines: every computation is the one unnamed region, as given (no factors).
        regions = rows(files["regions.csv"])
        given = sum(ps(r["given_s"]) for r in regions)
        check(case + ": regions.csv sums the ranks' compute time", given == sum(ps(r["compute_s"]) for r in rows(files["ranks.csv"])),
              "the compute_s total", given)
        check(case + ": regions.csv, no factors: charged = given",
              all(r["given_s"] == r["charged_s"] and r["factor"] == "1" for r in regions), "factor 1", regions)
    for f, header in HEADERS.items():
        got = files.get(f, "").split("\n")[0]
        check(f"{case}: {f} header", got == header, header, got)

    # Ranks: finish as the result says; the columns tile [0, finish], idle the rest of the makespan.
    ranks = rows(files["ranks.csv"])
    check(case + ": one row per rank", len(ranks) == result["num_ranks"], result["num_ranks"], len(ranks))
    for r, row in zip(result["ranks"], ranks):
        t = {k[:-2]: ps(v) for k, v in row.items() if k.endswith("_s")}
        check(f"{case}: rank {r['rank']} finish", t["finish"] == r["finish_ps"], r["finish_ps"], t["finish"])
        check(f"{case}: rank {r['rank']} finish + idle = makespan", t["finish"] + t["idle"] == makespan, makespan,
              t["finish"] + t["idle"])
        parts = t["compute"] + t["p2p"] + t["collective"] + t["wait"] + t["other"]
        check(f"{case}: rank {r['rank']} columns sum to finish", parts == t["finish"], t["finish"], parts)
        if not with_calls:
            check(f"{case}: rank {r['rank']} no collective/other without calls",
                  t["collective"] == 0 and t["other"] == 0, "0, 0", (t["collective"], t["other"]))

    # Matrix and sizes: the result's message and byte totals, two ways.
    matrix = rows(files["matrix.csv"])
    n = sum(int(m["messages"]) for m in matrix)
    b = sum(int(m["bytes"]) for m in matrix)
    check(case + ": matrix messages = result messages", n == result["messages"], result["messages"], n)
    check(case + ": matrix bytes = result bytes", b == result["bytes"], result["bytes"], b)
    pairs = [(int(m["src"]), int(m["dst"])) for m in matrix]
    check(case + ": matrix sorted by (src, dst)", pairs == sorted(set(pairs)), sorted(set(pairs)), pairs)
    sizes = rows(files["sizes.csv"])
    check(case + ": 15 size buckets", len(sizes) == 15, 15, len(sizes))
    sn = sum(int(s["p2p_messages"]) + int(s["collective_messages"]) for s in sizes)
    sb = sum(int(s["p2p_bytes"]) + int(s["collective_bytes"]) for s in sizes)
    check(case + ": size buckets hold every message", (sn, sb) == (n, b), (n, b), (sn, sb))
    lower = 0
    for s in sizes:
        upper = int(s["upper_bytes"]) if s["upper_bytes"] else None
        for kind in ("p2p", "collective"):
            k, by = int(s[kind + "_messages"]), int(s[kind + "_bytes"])
            ok = by >= (lower + 1) * k if lower else True
            ok = ok and (upper is None or by <= upper * k)
            check(f"{case}: bucket <= {upper} {kind} sizes in range", ok, f"({lower}, {upper}] x {k}", by)
        lower = upper

    # Collectives: their time is the ranks' collective time.
    coll = rows(files["collectives.csv"])
    total = sum(ps(c["time_s"]) for c in coll)
    ranks_coll = sum(ps(r["collective_s"]) for r in ranks)
    check(case + ": collective time = ranks' collective time", total == ranks_coll, ranks_coll, total)
    for c in coll:
        check(f"{case}: {c['name']} max <= time", ps(c["max_s"]) <= ps(c["time_s"]), c["time_s"], c["max_s"])

    # Link timeline: bins of one width, each link's bins sum to at most its bytes.
    timeline = rows(files["link_timeline.csv"])
    links = {l["name"]: l for l in rows(files["links.csv"])}
    for name in sorted({t["link"] for t in timeline}):
        bins = [t for t in timeline if t["link"] == name]
        widths = {ps(t["end_s"]) - ps(t["start_s"]) for t in bins}
        check(f"{case}: {name} bins of one width", len(widths) == 1, "one width", widths)
        check(f"{case}: {name} bins cover the makespan", ps(bins[-1]["end_s"]) >= makespan > ps(bins[-1]["start_s"]),
              makespan, (bins[-1]["start_s"], bins[-1]["end_s"]))
    return ranks, matrix, links, timeline


def cluster_link_bytes(matrix):
    """Bytes per link on cluster16 (rank r on node r): link_<h> carries what rank h sends and
    receives, the backbone everything (every message joins two different nodes)."""
    want = {}
    for m in matrix:
        s, d, by = int(m["src"]), int(m["dst"]), int(m["bytes"])
        for link in (f"cluster16_link_{s}", f"cluster16_link_{d}", "cluster16_backbone"):
            want[link] = want.get(link, 0) + by
    return want


def compare_golden(case, files):
    d = os.path.join(EXPECTED, case)
    if UPDATE:
        os.makedirs(d, exist_ok=True)
        for f, text in files.items():
            open(os.path.join(d, f), "w").write(text)
    want = {f: open(os.path.join(d, f)).read() for f in sorted(os.listdir(d))} if os.path.isdir(d) else {}
    check(case + ": golden file set", sorted(want) == sorted(files), sorted(want), sorted(files))
    for f in sorted(files):
        check(f"{case}: {f} matches golden", files[f] == want.get(f), os.path.join(d, f),
              "differs (rerun with --update after review)")


def case(name, args, with_calls):
    code, err, files, result = run_stats(args)
    check(name + ": exits 0", code == 0, 0, f"{code}: {err.strip()}")
    if code != 0 or result is None:
        return None
    code2, _, again, _ = run_stats(args)
    check(name + ": deterministic", code2 == 0 and again == files, "identical files on a rerun", "different")
    out = check_consistency(name, files, result, with_calls)
    compare_golden(name, files)
    return files, result, out


# ---- ring4 under LogGOPS: link bytes from the routes --------------------------------------------
got = case("ring4_loggops", ["--platform", CLUSTER, "--trace", TRACE], with_calls=True)
if got:
    files, result, (ranks, matrix, links, timeline) = got
    want = cluster_link_bytes(matrix)
    have = {n: int(l["bytes"]) for n, l in links.items()}
    check("ring4_loggops: link bytes from the routes", have == want, want, have)
    check("ring4_loggops: busy unknown without a flow model", all(l["busy_s"] == "" for l in links.values()),
          "empty busy_s", [l["busy_s"] for l in links.values()])
    for name in have:
        s = sum(int(t["bytes"]) for t in timeline if t["link"] == name)
        check(f"ring4_loggops: {name} timeline sums to its bytes", s == have[name], have[name], s)
    # The trace's point-to-point messages: the ring (4 x 1000 B), 16 B and 17 B.
    sizes = rows(files["sizes.csv"])
    check("ring4_loggops: 16 B in the first bucket", (sizes[0]["p2p_messages"], sizes[0]["p2p_bytes"]) == ("1", "16"),
          ("1", "16"), (sizes[0]["p2p_messages"], sizes[0]["p2p_bytes"]))
    check("ring4_loggops: 17 B in the second bucket", (sizes[1]["p2p_messages"], sizes[1]["p2p_bytes"]) == ("1", "17"),
          ("1", "17"), (sizes[1]["p2p_messages"], sizes[1]["p2p_bytes"]))
    check("ring4_loggops: 1000 B ring in <= 1024", (sizes[3]["p2p_messages"], sizes[3]["p2p_bytes"]) == ("4", "4000"),
          ("4", "4000"), (sizes[3]["p2p_messages"], sizes[3]["p2p_bytes"]))
    coll = {c["name"]: c for c in rows(files["collectives.csv"])}
    check("ring4_loggops: allreduce and bcast, 4 calls each",
          sorted(coll) == ["allreduce", "bcast"] and all(c["calls"] == "4" for c in coll.values()),
          "allreduce, bcast x 4", {k: c["calls"] for k, c in coll.items()})
    # Rank 3 computes 4e6 flops at 10 Gf: 400 us = 4e8 ps.
    check("ring4_loggops: rank 3 compute = 4e6 flop / 10 Gf", ps(ranks[3]["compute_s"]) == 400 * 10**6, 400 * 10**6,
          ps(ranks[3]["compute_s"]))

# ---- ring4 under the flow model: links as the model saw them ------------------------------------
got = case("ring4_flow", ["--platform", CLUSTER, "--trace", TRACE, "--cfg", "network/model=flow"], with_calls=True)
if got:
    files, result, (ranks, matrix, links, timeline) = got
    model = {l["name"]: round(l["bytes"]) for l in result["network"]["links"]}
    have = {n: int(l["bytes"]) for n, l in links.items()}
    check("ring4_flow: link bytes are the model's", have == model, model, have)
    busy = {l["name"]: l["busy_s"] for l in result["network"]["links"]}
    got_busy = {n: ps(l["busy_s"]) / 1e12 for n, l in links.items()}
    check("ring4_flow: busy time is the model's", all(abs(got_busy[n] - busy[n]) <= 1e-12 for n in busy), busy, got_busy)

# ---- ring4 on a platform with power: energy.csv ---------------------------------------------------
got = case("ring4_energy", ["--platform", TAURUS, "--trace", TRACE], with_calls=True)
if got:
    files, result, (ranks, matrix, links, timeline) = got
    energy = rows(files.get("energy.csv", "host,energy_j,off_s\n"))
    want = {h["name"]: h["energy_j"] for h in result["hosts"]}
    have = {e["host"]: float(e["energy_j"]) for e in energy}
    check("ring4_energy: one row per host with power", sorted(have) == sorted(want), sorted(want), sorted(have))
    check("ring4_energy: energy.csv header", files.get("energy.csv", "").split("\n")[0] == "host,energy_j,off_s",
          "host,energy_j,off_s", files.get("energy.csv", "").split("\n")[0])
    check("ring4_energy: no host was switched off", all(float(e["off_s"]) == 0 for e in energy), 0, energy)
    check("ring4_energy: host energies are the result's",
          all(abs(have.get(n, 0) - v) <= 1e-11 * v for n, v in want.items()), want, have)
    # taurus-16 runs no rank: Idle = 93.75 W over the whole makespan.
    idle = 93.75 * result["makespan_ps"] * 1e-12
    check("ring4_energy: an idle host draws 93.75 W x makespan", abs(have.get("taurus-16", 0) - idle) <= 1e-11 * idle,
          idle, have.get("taurus-16"))

# ---- GOAL: no calls, the breakdown comes from the CPU ---------------------------------------------
# Seed 004 §3.1 with LogGOPSim's defaults: both ranks finish at 5654 ps; each computes 100 ps, pays
# o + (s-1)O = 1500 ps for its send and o + max((s-1)O, (s-1)G) = 1500 + 9 * 6 = 1554 ps for its
# receive (net/network.hpp): compute 100, p2p 3054, wait 5654 - 100 - 3054 = 2500, idle 0.
got = case("goal_worked", ["--goal", GOAL] + LOGGOPSIM_DEFAULTS, with_calls=False)
if got:
    files, result, (ranks, matrix, links, timeline) = got
    for r in ranks:
        t = (ps(r["compute_s"]), ps(r["p2p_s"]), ps(r["wait_s"]), ps(r["idle_s"]))
        check(f"goal_worked: rank {r['rank']} breakdown", t == (100, 3054, 2500, 0), (100, 3054, 2500, 0), t)
    check("goal_worked: no links on an ideal platform", links == {} and timeline == [], "none", (links, timeline))

# ---- bad input: an unwritable --stats directory, before the simulation -----------------------------
with tempfile.TemporaryDirectory() as d:
    js = os.path.join(d, "result.json")
    p = subprocess.run([SIMFAB, "run", "--platform", CLUSTER, "--trace", TRACE, "--stats", "/proc/forbidden",
                        "--json", js], capture_output=True, text=True, timeout=60)
    check("--stats /proc/forbidden exits 2", p.returncode == 2, 2, f"{p.returncode}: {p.stderr.strip()}")
    check("--stats /proc/forbidden names the path", "/proc/forbidden" in p.stderr, "/proc/forbidden in stderr",
          p.stderr.strip())
    check("--stats /proc/forbidden: nothing simulated", p.stdout == "" and not os.path.exists(js),
          "no summary, no JSON", (p.stdout, os.path.exists(js)))

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
