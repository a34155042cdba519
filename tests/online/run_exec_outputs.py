#!/usr/bin/env python3
"""Outputs of `simfab exec` (online mode reports its MPI calls: src/online/online_activity.cpp).

ring.c on 4 ranks: every rank's MPI track tiles [0, finish] with no gap (ranks.csv's `other` is 0
and the classes sum to finish), it holds one Send and one Recv per lap and hop, and no call that
takes no simulated time (Comm_rank, Wtime) appears. collectives.c on 4 ranks under
mpi/coll-selector=ompi: every collective row names the algorithm the selector chose; Allreduce of
a few integers on 4 ranks is OpenMPI 4.1's recursive doubling (select_ompi.hpp).

usage: run_exec_outputs.py BUILD_DIR SOURCE_DIR"""
import csv
import json
import os
import subprocess
import sys
import tempfile

build, src = sys.argv[1], sys.argv[2]
simfab, cc = os.path.join(build, "simfab"), os.path.join(build, "simfab-cc")
env = dict(os.environ)
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def ps(text):  # "0.000123456789" -> integer picoseconds
    whole, _, frac = text.partition(".")
    return int(whole) * 10**12 + int((frac + "0" * 12)[:12])


with tempfile.TemporaryDirectory() as tmp:
    for prog in ("ring", "collectives"):
        subprocess.run([cc, "-O2", "-o", os.path.join(tmp, prog), os.path.join(src, "examples", "mpi", prog + ".c"),
                        "-lm"], check=True, env=env)

    laps = 3
    stats, trace = os.path.join(tmp, "ring_stats"), os.path.join(tmp, "ring.json")
    p = subprocess.run([simfab, "exec", "-np", "4", "--stats", stats, "--trace-out", trace, "--quiet",
                        os.path.join(tmp, "ring"), str(laps)], capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"ring: exit {p.returncode}: {p.stderr}")
    if p.returncode == 0:
        for row in csv.DictReader(open(os.path.join(stats, "ranks.csv"))):
            parts = sum(ps(row[k]) for k in ("compute_s", "p2p_s", "collective_s", "wait_s", "other_s"))
            check(ps(row["other_s"]) == 0, f"ring rank {row['rank']}: {row['other_s']} s not covered by any call")
            check(parts == ps(row["finish_s"]), f"ring rank {row['rank']}: classes sum to {parts} ps, finish {row['finish_s']}")
        doc = json.load(open(trace))
        for r in range(4):
            names = [e["name"] for e in doc["traceEvents"] if e.get("ph") == "X" and e["pid"] == r and e["tid"] == 0]
            check(names.count("Send") == laps and names.count("Recv") == laps,
                  f"ring rank {r}: {names.count('Send')} Send and {names.count('Recv')} Recv slices, expected {laps} each")
            check(not {"Comm_rank", "Comm_size", "Wtime"} & set(names), f"ring rank {r}: time-less calls reported: {names}")
            check(names[0] == "compute" and "Init" in names and "Finalize" in names, f"ring rank {r}: {names[:4]}...")

    stats = os.path.join(tmp, "coll_stats")
    p = subprocess.run([simfab, "exec", "-np", "4", "--stats", stats, "--quiet", "--cfg", "mpi/coll-selector=ompi",
                        os.path.join(tmp, "collectives")], capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"collectives: exit {p.returncode}: {p.stderr}")
    if p.returncode == 0:
        rows = list(csv.DictReader(open(os.path.join(stats, "collectives.csv"))))
        check(len(rows) >= 10, f"collectives: only {len(rows)} rows")
        for row in rows:
            check(row["algorithm"] != "", f"collectives: {row['name']} has no algorithm")
            check(int(row["calls"]) % 4 == 0, f"collectives: {row['name']} called {row['calls']} times on 4 ranks")
        allreduce = [r for r in rows if r["name"] == "Allreduce"]
        check(allreduce and allreduce[0]["algorithm"] == "recursive-doubling",
              f"collectives: Allreduce ran {allreduce[0]['algorithm'] if allreduce else 'nothing'}")

for f in failures:
    print("FAIL:", f)
print("exec outputs:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
