#!/usr/bin/env python3
"""Seed 001 tests 20 and 21: the imbalanced BSP workload shaped like the thesis's Ondes3D run
(bsp16.ti) on taurus16.xml under each DVFS governor, and its 4x over-decomposition (bsp64.ti) under
GreedyLB every k iterations. Prints the tables of examples/energy/README.md; checks each run's
makespan and energy against the golden file expected.json (exact: runs are deterministic), each
governor's time ratio and energy change against the thesis's Table 9.3 (within 5 percentage
points, with polling=idle as the thesis's replays counted waiting), its ranking, and the idle-time
tables 9.2 and 9.4 where simfab reproduces them (README.md says where it does not, and why).
usage: check_governors.py SIMFAB SOURCE_DIR [--update | --quick]

--quick (the sanitizer build's ctest case; the optimised build runs everything) makes 11 of the 23
runs: every governor with polling=idle (all the thesis comparisons), and GreedyLB every 5
iterations on bsp64.ti. It leaves out the governors under polling=busy and Adagio with one
schedule per host (the same decisions, only the meter or the schedule's key differ), the 64-rank
run without balancing and GreedyLB every 10, 15, 20, 25 and 30 iterations (the same balancer at
other periods, each a run 4x the size of bsp16's). The runs it makes are still checked against
expected.json, with the checks they support; the checks that compare the left-out runs are
skipped and say so.
"""
import json
import os
import subprocess
import sys
import tempfile

positional = [a for a in sys.argv[1:] if not a.startswith("--")]
unknown = [a for a in sys.argv[1:] if a.startswith("--") and a not in ("--update", "--quick")]
if len(positional) != 2 or unknown:
    print("usage: check_governors.py SIMFAB SOURCE_DIR [--update | --quick]\n"
          "  e.g. python3 examples/energy/check_governors.py build/simfab .", file=sys.stderr)
    sys.exit(2)
simfab, src = positional
update = "--update" in sys.argv
quick = "--quick" in sys.argv
if update and quick:
    sys.exit("check_governors.py: --update needs every run: drop --quick")
here = os.path.join(src, "examples", "energy")
governors = ["performance", "powersave", "ondemand", "conservative", "adagio", "adagio-improved", "lagrange"]
# Table 9.3: makespan ratio and energy change against the performance governor.
THESIS = {"performance": (1.0, 0.0), "powersave": (677.152 / 339.747, 47.665), "ondemand": (339.757 / 339.747, -0.281),
          "conservative": (339.755 / 339.747, -0.474), "adagio": (667.189 / 339.747, 46.171),
          "adagio-improved": (340.129 / 339.747, -2.227), "lagrange": (340.146 / 339.747, -2.533)}
busy_governors = [] if quick else governors
lb_periods = [5] if quick else [0, 5, 10, 15, 20, 25, 30]
variants = [(g, "idle", []) for g in governors] + [(g, "busy", []) for g in busy_governors]
if not quick:
    variants.append(("adagio-host", "idle", ["--cfg", "energy/governor=adagio", "--cfg", "energy/adagio-schedule=host"]))
runs = {}
with tempfile.TemporaryDirectory() as tmp:
    for g, polling, extra in variants:
        out = os.path.join(tmp, f"{g}-{polling}.json")
        subprocess.run([simfab, "run", "--platform", os.path.join(here, "taurus16.xml"), "--trace",
                        os.path.join(here, "bsp16.ti"), "--cfg", f"energy/governor={g}", "--cfg",
                        f"energy/polling={polling}", "--json", out, "--reproducible", "--quiet"] + extra
                       if not extra else
                       [simfab, "run", "--platform", os.path.join(here, "taurus16.xml"), "--trace",
                        os.path.join(here, "bsp16.ti"), "--cfg", f"energy/polling={polling}", "--json", out,
                        "--reproducible", "--quiet"] + extra, check=True)
        j = json.load(open(out))
        idle = [h["idle_s"] / j["makespan_s"] for h in j["hosts"]]
        runs[f"{g}/{polling}"] = {"makespan_ps": j["makespan_ps"], "energy_j": round(j["energy_j"], 3),
                                  "idle_pct": [round(100 * x, 1) for x in idle],
                                  "pstate_changes": j["energy"]["governor_changes"]}

    # Test 21: 64 ranks on 16 hosts, performance governor, GreedyLB every k iterations.
    for k in lb_periods:
        out = os.path.join(tmp, f"lb{k}.json")
        lb = ["--cfg", "lb/balancer=greedy", "--cfg", f"lb/every={k}"] if k else []
        subprocess.run([simfab, "run", "--platform", os.path.join(here, "taurus16.xml"), "--trace",
                        os.path.join(here, "bsp64.ti"), "--hostfile", os.path.join(here, "bsp64.hostfile"),
                        "--cfg", "energy/polling=idle", "--json", out, "--reproducible", "--quiet"] + lb, check=True)
        j = json.load(open(out))
        idle = sorted(h["idle_s"] / j["makespan_s"] for h in j["hosts"])
        runs[f"greedylb-{k}/idle" if k else "overdecomposed/idle"] = {
            "makespan_ps": j["makespan_ps"], "energy_j": round(j["energy_j"], 3), "most_idle_host": round(idle[-1], 4),
            "hosts_under_12pct_idle": sum(1 for x in idle if x < 0.12), "migrations": j["energy"]["migrations"]}

failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def skip(what):
    print("skip " + what + " (--quick: not every run was made)")

print(f"{'governor/polling':28} {'makespan (s)':>13} {'time':>8} {'energy (J)':>12} {'energy':>8} {'thesis':>17}")
for g, polling, _ in variants:
    r = runs[f"{g}/{polling}"]
    base = runs[f"performance/{polling}"]
    r["time_ratio"] = round(r["makespan_ps"] / base["makespan_ps"], 4)
    r["energy_delta_pct"] = round(100 * (r["energy_j"] / base["energy_j"] - 1), 2)
    t = THESIS.get(g.replace("-host", ""))
    thesis = f"{t[0]:.4f}x {t[1]:+.2f}%" if t and polling == "idle" else ""
    print(f"{g + '/' + polling:28} {r['makespan_ps'] * 1e-12:13.3f} {r['time_ratio']:7.4f}x {r['energy_j']:12.0f} "
          f"{r['energy_delta_pct']:+7.2f}% {thesis:>17}")
print()
print("idle % per host (taurus-01 .. 16), polling=idle; thesis: Tables 9.2 (performance), 9.4 (lagrange), "
      "9.5 (adagio-improved), 9.6 (ondemand), 9.7 (conservative)")
for g in ["performance", "lagrange", "adagio-improved", "ondemand", "conservative"]:
    print(f"  {g:16}", " ".join(f"{x:5.1f}" for x in runs[f"{g}/idle"]["idle_pct"]))
print()
print(f"{'64 ranks, polling=idle':28} {'makespan (s)':>13} {'time':>8} {'energy (J)':>12} {'energy':>8} {'hosts <12% idle':>15}")
perf16 = runs["performance/idle"]
for k in lb_periods:
    name = f"greedylb-{k}/idle" if k else "overdecomposed/idle"
    r = runs[name]
    r["time_ratio"] = round(r["makespan_ps"] / perf16["makespan_ps"], 4)
    r["energy_delta_pct"] = round(100 * (r["energy_j"] / perf16["energy_j"] - 1), 2)
    print(f"{name:28} {r['makespan_ps'] * 1e-12:13.3f} {r['time_ratio']:7.3f}x {r['energy_j']:12.0f} "
          f"{r['energy_delta_pct']:+7.2f}% {r['hosts_under_12pct_idle']:15d}")

golden = os.path.join(here, "expected.json")
if update:
    json.dump(runs, open(golden, "w"), indent=2, sort_keys=True)
    open(golden, "a").write("\n")
expected = json.load(open(golden))
for k, r in runs.items():
    check(expected.get(k) == r, f"{k} matches expected.json")

# Table 9.3 (polling=idle, as the thesis's replays): each governor within 5 percentage points of
# the thesis in time ratio and energy change, except Adagio with one schedule per task (README.md).
def near(g, run):
    r, t = runs[run], THESIS[g]
    return abs(r["time_ratio"] - t[0]) <= 0.05 and abs(r["energy_delta_pct"] - t[1]) <= 5


for g in governors[1:]:
    r = runs[f"{g}/idle"]
    if g == "adagio":
        check(r["time_ratio"] > 1.5 and r["pstate_changes"] > 0,
              f"adagio (a schedule per task) ratchets down ({r['time_ratio']}x, {r['energy_delta_pct']:+}%; thesis "
              f"1.964x, +46.2 %; not within 5 points: see README.md)")
        continue
    check(near(g, f"{g}/idle"), f"{g}: {r['time_ratio']}x, {r['energy_delta_pct']:+}% within 5 points of Table 9.3 "
          f"({THESIS[g][0]:.4f}x, {THESIS[g][1]:+}%)")
if quick:
    skip("adagio with one schedule per host (SimGrid's implementation) ratchets to about powersave")
else:
    r = runs["adagio-host/idle"]
    check(r["time_ratio"] > 1.85 and abs(r["energy_delta_pct"] - THESIS["adagio"][1]) <= 5,
          f"adagio with one schedule per host (SimGrid's implementation) ratchets to about powersave "
          f"({r['time_ratio']}x, {r['energy_delta_pct']:+}%; thesis 1.964x, +46.2 %)")
energy = {g: runs[f"{g}/idle"]["energy_delta_pct"] for g in governors}
order = ["lagrange", "adagio-improved", "conservative", "ondemand", "performance"]
check(all(energy[a] < energy[b] for a, b in zip(order, order[1:])),
      "energy ranking lagrange < adagio-improved < conservative < ondemand < performance (" +
      ", ".join(f"{g} {energy[g]:+}%" for g in order) + ")")
# Tables 9.2 and 9.4: idle time per host.
perf, lag = runs["performance/idle"]["idle_pct"], runs["lagrange/idle"]["idle_pct"]
table_9_2 = [4.00, 25.14, 25.37, 1.65, 24.78, 51.86, 52.17, 25.61, 25.01, 52.14, 51.98, 25.58, 2.94, 25.29, 25.49, 0.66]
check(all(abs(a - b) <= 1.5 for a, b in zip(perf, table_9_2)),
      "performance: every host's idle share within 1.5 points of Table 9.2")
centre, edges = [5, 6, 9, 10], [1, 2, 4, 7, 8, 11, 13, 14]
check(all(lag[h] < 21 for h in centre) and all(4 < lag[h] < 9 for h in edges),
      f"lagrange cuts the centre hosts' idle share from about 52 % to {min(lag[h] for h in centre)}-"
      f"{max(lag[h] for h in centre)} % (thesis 20-20.5 %) and the edge hosts' to {min(lag[h] for h in edges)}-"
      f"{max(lag[h] for h in edges)} % (thesis 6.0-6.7 %)")
# Test 21: load balancing beats DVFS; less time and energy; monotone in k; residual idle small.
lb = [runs[f"greedylb-{k}/idle"] for k in lb_periods if k]
check(-0.26 < lb[0]["time_ratio"] - 1 < -0.19,
      f"GreedyLB every 5 iterations cuts the makespan by {100 * (1 - lb[0]['time_ratio']):.1f} % (thesis 21.7 %)")
check(-15 < lb[0]["energy_delta_pct"] < -10,
      f"... and the energy by {-lb[0]['energy_delta_pct']:.1f} % (thesis 11.4 %)")
if quick:
    skip("balancing less often is worse: k = 5 best, k = 20-30 slower than k = 5-15")
    skip("with k = 10, most of the 16 hosts idle less than 12 %")
else:
    often, rarely = sum(r["makespan_ps"] for r in lb[:3]), sum(r["makespan_ps"] for r in lb[3:])
    check(min(lb, key=lambda r: r["makespan_ps"]) is lb[0] and rarely > often,
          "balancing less often is worse: k = 5 best, k = 20-30 slower than k = 5-15 (the thesis: strictly "
          "monotone; here k = 20 is the worst, within the drift's effect)")
    check(lb[1]["hosts_under_12pct_idle"] >= 12,
          f"with k = 10, {lb[1]['hosts_under_12pct_idle']} of 16 hosts idle less than 12 % (thesis: most)")
best_dvfs = min(energy.values())
check(lb[0]["energy_delta_pct"] < best_dvfs,
      f"load balancing saves more energy ({lb[0]['energy_delta_pct']:+} %) than the best governor ({best_dvfs:+} %)")
if failures:
    sys.exit(1)
