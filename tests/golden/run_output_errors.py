#!/usr/bin/env python3
"""Bad output paths (issue 10): reported with exit 2 before the simulation, and nothing left
behind: no temporary file, no partial set of outputs, no statistics directory the run created.

  - --trace-out and --paje (or --json) naming one file
  - --json unwritable next to good --trace-out and --stats: none of them is written
  - --trace-out naming an existing directory
  - an input error after --stats made its directory: the directory is gone again
  - a reused --stats directory loses the energy.csv of an earlier run with power
  - simfab exec whose rank calls MPI_Abort: no .tmp file survives the _Exit

usage: run_output_errors.py BUILD_DIR SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
simfab = os.path.join(build, "simfab")
platform = os.path.join(src, "examples", "platforms", "cluster16.yaml")
trace = os.path.join(src, "examples", "ti", "allreduce16.ti")
env = dict(os.environ)
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(args, cwd):
    return subprocess.run([simfab, *args], capture_output=True, text=True, cwd=cwd, env=env)


with tempfile.TemporaryDirectory() as tmp:
    base = ["run", "--platform", platform, "--trace", trace, "--quiet"]
    p = run(base + ["--trace-out", "same", "--paje", "same"], tmp)
    check(p.returncode == 2 and "name the same path" in p.stderr, f"same path: {p.returncode} {p.stderr}")
    p = run(base + ["--trace-out", "x.json", "--json", "./x.json"], tmp)
    check(p.returncode == 2 and "name the same path" in p.stderr, f"same path via ./: {p.returncode} {p.stderr}")

    p = run(base + ["--json", "/nonexistent/r.json", "--trace-out", "t.json", "--stats", "st"], tmp)
    check(p.returncode == 2 and "/nonexistent/r.json" in p.stderr, f"bad --json: {p.returncode} {p.stderr}")

    os.mkdir(os.path.join(tmp, "adir"))
    p = run(base + ["--trace-out", "adir"], tmp)
    check(p.returncode == 2 and "it is a directory" in p.stderr, f"--trace-out DIR: {p.returncode} {p.stderr}")

    p = run(["run", "--trace", trace, "--stats", "st2"], tmp)  # a TI trace without --platform: input error
    check(p.returncode == 2, f"input error: {p.returncode}")
    check(not os.path.exists(os.path.join(tmp, "st2")), "--stats directory left behind by a failed run")

    energy = [os.path.join(src, "examples", "energy", "taurus16.xml"), os.path.join(src, "examples", "energy", "bsp16.ti")]
    p = run(["run", "--platform", energy[0], "--trace", energy[1], "--stats", "reused", "--quiet"], tmp)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "reused", "energy.csv")), "energy.csv not written")
    p = run(base + ["--stats", "reused"], tmp)
    check(p.returncode == 0 and not os.path.exists(os.path.join(tmp, "reused", "energy.csv")),
          "a stale energy.csv survived in a reused --stats directory")

    cc = os.path.join(build, "simfab-cc")
    if os.path.exists(cc):
        prog = os.path.join(tmp, "abort.c")
        with open(prog, "w") as f:
            f.write("#include <mpi.h>\nint main(int c, char** v) { int r; MPI_Init(&c, &v);\n"
                    "MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r == 1) MPI_Abort(MPI_COMM_WORLD, 3);\n"
                    "MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n")
        subprocess.run([cc, "-o", os.path.join(tmp, "abort"), prog], check=True, env=env)
        p = run(["exec", "-np", "2", "--trace-out", "a.json", "--paje", "a.paje", "--stats", "sa", "--json", "a.res",
                 "./abort"], tmp)
        check(p.returncode == 3, f"MPI_Abort(3): exit {p.returncode}")
    left = sorted(n for n in os.listdir(tmp) if ".tmp." in n or n in ("t.json", "st", "same", "x.json", "sa", "a.json"))
    check(not left, f"left behind: {left}")

for f in failures:
    print("FAIL:", f)
print("output errors:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
