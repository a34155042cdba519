#!/usr/bin/env python3
"""Seed 001 test 20: the imbalanced BSP workload (bsp16.ti) on taurus16.xml under each DVFS
governor. Prints the table of examples/energy/README.md; checks each run's makespan and energy
against the golden file expected.json (exact: runs are deterministic) and the ranking the thesis
reports where simfab reproduces it (README.md says where it does not, and why).
usage: check_governors.py SIMFAB SOURCE_DIR [--update]
"""
import json
import os
import subprocess
import sys
import tempfile

simfab, src = sys.argv[1], sys.argv[2]
update = "--update" in sys.argv
here = os.path.join(src, "examples", "energy")
governors = ["performance", "powersave", "ondemand", "conservative", "adagio", "adagio-improved"]
runs = {}
with tempfile.TemporaryDirectory() as tmp:
    for polling in ["busy", "idle"]:
        for g in governors:
            out = os.path.join(tmp, f"{g}-{polling}.json")
            subprocess.run([simfab, "run", "--platform", os.path.join(here, "taurus16.xml"), "--trace",
                            os.path.join(here, "bsp16.ti"), "--cfg", f"energy/governor={g}", "--cfg",
                            f"energy/polling={polling}", "--json", out, "--reproducible", "--quiet"], check=True)
            j = json.load(open(out))
            idle = sorted(h["idle_s"] / j["makespan_s"] for h in j["hosts"])
            runs[f"{g}/{polling}"] = {"makespan_ps": j["makespan_ps"], "energy_j": round(j["energy_j"], 3),
                                      "most_idle_host": round(idle[-1], 4), "pstate_changes": j["energy"]["governor_changes"]}

failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)

print(f"{'governor/polling':28} {'makespan (s)':>13} {'time':>8} {'energy (J)':>12} {'energy':>8} {'most idle host':>15}")
for polling in ["busy", "idle"]:
    base = runs[f"performance/{polling}"]
    for g in governors:
        r = runs[f"{g}/{polling}"]
        r["time_ratio"] = round(r["makespan_ps"] / base["makespan_ps"], 4)
        r["energy_delta_pct"] = round(100 * (r["energy_j"] / base["energy_j"] - 1), 2)
        print(f"{g + '/' + polling:28} {r['makespan_ps'] * 1e-12:13.3f} {r['time_ratio']:7.3f}x {r['energy_j']:12.0f} "
              f"{r['energy_delta_pct']:+7.2f}% {100 * r['most_idle_host']:14.1f}%")

golden = os.path.join(here, "expected.json")
if update:
    json.dump(runs, open(golden, "w"), indent=2, sort_keys=True)
    open(golden, "a").write("\n")
expected = json.load(open(golden))
for k, r in runs.items():
    check(expected.get(k) == r, f"{k} matches expected.json")

# The thesis's ranking (Table 9.3), where simfab reproduces it.
b = runs["performance/busy"]
ps, od, cs, ad = runs["powersave/busy"], runs["ondemand/busy"], runs["conservative/busy"], runs["adagio/busy"]
check(1.8 < ps["time_ratio"] < 2.0, f"powersave takes about twice as long ({ps['time_ratio']}x; thesis 1.99x)")
check(ps["energy_delta_pct"] > 25, f"powersave costs much more energy ({ps['energy_delta_pct']:+}%; thesis +47.7 %)")
check(od["time_ratio"] < 1.01 and cs["time_ratio"] < 1.01,
      f"ondemand and conservative keep the makespan ({od['time_ratio']}x, {cs['time_ratio']}x; thesis +0.003 %)")
check(od["energy_delta_pct"] < 0 and cs["energy_delta_pct"] < 0,
      f"ondemand and conservative save energy ({od['energy_delta_pct']:+}%, {cs['energy_delta_pct']:+}%; thesis -0.28 %, -0.47 %)")
check(ad["time_ratio"] > 1.5, f"Adagio ratchets down and never speeds up ({ad['time_ratio']}x; thesis 1.96x)")
check(b["most_idle_host"] > 0.45, f"the centre hosts idle about half the time at full speed ({100 * b['most_idle_host']:.1f}%; thesis 52 %)")
if failures:
    sys.exit(1)
