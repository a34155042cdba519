#!/usr/bin/env python3
"""Ranks that fail in simfab exec (ctest `online_failures`, issue 35 item 2).

    run_failures.py SIMFAB_BUILD_DIR SOURCE_DIR

A rank's non-zero exit, MPI_Abort or missing MPI_Finalize does not stop the run before the other
ranks have had their turn (src/online/rank_failures.hpp): as under mpirun, every rank's message
comes out, then one line reports the failures in rank order, the same on every run.
  - examples/mpi/stencil2d.c on 3 ranks with grid 64 (not divisible by the 3x1 process grid),
    under the default measured compute, 5 times: rank 0's explanation every time, exit status 2,
    "ranks 0-2 exited with status 2", the same stderr every time;
  - failures.c partial: rank 1's unflushed, unended stdout text comes out (tagged under
    --tag-output), then "rank 1 exited with status 3" (exit 3), not a deadlock report;
  - cout.cpp: the same with C++'s std::cout out of sync with stdio (its own buffer);
  - failures.c mixed: a non-zero return, exit(3), MPI_Abort(7) and a missing MPI_Finalize on
    ranks 0-3 are all reported in one line, in rank order; exit status 2 (rank 0's);
  - failures.c talkers / pollers: ranks still exchanging messages, or polling for one that never
    comes (also under network/model=smpi), stop at their next wait: the run ends.
"""
import os
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
HERE = os.path.join(SOURCE, "tests", "online", "failures")
SIMFAB = os.path.join(BUILD, "simfab")
TMP = tempfile.mkdtemp(prefix="simfab-failures-")
ENV = dict(os.environ)
# A sanitizer build: a run that stops abandons its ranks' fibers (online/fiber.hpp); no leak check.
ENV["ASAN_OPTIONS"] = (ENV.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=TMP, env=ENV)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, -1, str(e.stdout or ""), f"timed out after 60 s: {e.stderr or ''}")


def build(source, wrapper="simfab-cc"):
    out = os.path.join(TMP, os.path.splitext(os.path.basename(source))[0])
    r = sh([os.path.join(BUILD, wrapper), "-O2", "-o", out, source, *(["-lm"] if wrapper == "simfab-cc" else [])])
    check(f"simfab-cc builds {os.path.basename(source)}", r.returncode == 0, r.stderr)
    return out


def exec_run(np, program, *args, opts=()):
    return sh([SIMFAB, "exec", "-np", str(np), "--quiet", *opts, program, *args])


stencil = build(os.path.join(SOURCE, "examples", "mpi", "stencil2d.c"))
explanation = "stencil2d: the grid size 64 must be divisible by the 3x1 process grid"
errs = []
for run in range(5):
    r = exec_run(3, stencil, "64", "10")
    errs.append(r.stderr)
    check(f"stencil2d bad grid, measured compute, run {run + 1}: rank 0's explanation, then every rank's "
          "status, exit 2", r.returncode == 2 and explanation in r.stderr and
          r.stderr.index(explanation) < r.stderr.find("simfab: ranks 0-2 exited with status 2; the run stops"),
          (r.returncode, r.stderr))
check("stencil2d bad grid: the same stderr on every run", len(set(errs)) == 1, errs)
r = exec_run(3, stencil, "64", "10", opts=["--cfg", "online/compute=declared"])
check("stencil2d bad grid, declared compute: the same report", r.returncode == 2 and r.stderr == errs[0],
      (r.returncode, r.stderr, errs[0]))

failures = build(os.path.join(HERE, "failures.c"))
for np in (2, 3):
    r = exec_run(np, failures, "partial")
    check(f"partial ({np} ranks): rank 1's unflushed text, its status, exit 3",
          r.returncode == 3 and r.stdout == "rank 1 was here" and
          r.stderr == "simfab: rank 1 exited with status 3; the run stops\n", (r.returncode, r.stdout, r.stderr))
r = exec_run(2, failures, "partial", opts=["--tag-output"])
check("partial under --tag-output: rank 1's unended line comes out tagged",
      r.returncode == 3 and r.stdout == "[1,1]<stdout>:rank 1 was here\n" and
      "simfab: rank 1 exited with status 3; the run stops" in r.stderr, (r.returncode, r.stdout, r.stderr))

cout = build(os.path.join(HERE, "cout.cpp"), "simfab-cxx")
r = exec_run(2, cout)
check("std::cout out of sync with stdio: its buffered text comes out, then rank 1's status",
      r.returncode == 3 and r.stdout == "rank 1 via std::cout" and
      r.stderr == "simfab: rank 1 exited with status 3; the run stops\n", (r.returncode, r.stdout, r.stderr))

mixed = ("simfab: rank 0 exited with status 2; rank 1 exited with status 3; rank 2 called MPI_Abort with error "
         "code 7; rank 3 called MPI_Init but ended without calling MPI_Finalize; the run stops\n")
for opts in ([], ["--cfg", "online/compute=declared"]):
    r = exec_run(4, failures, "mixed", opts=opts)
    check(f"mixed {' '.join(opts) or '(measured)'}: rank 0's explanation and every failure in rank order, exit 2",
          r.returncode == 2 and r.stderr == "failures: rank 0 explains what went wrong\n" + mixed,
          (r.returncode, r.stderr))

r = exec_run(3, failures, "talkers")
check("talkers: ranks that go on talking stop at their next wait", r.returncode == 1 and
      r.stderr == "simfab: rank 2 exited with status 1; the run stops\n", (r.returncode, r.stderr))
for opts in ([], ["--cfg", "network/model=smpi"]):
    r = exec_run(2, failures, "pollers", opts=opts)
    check(f"pollers {' '.join(opts)}: a rank polling for a message from a failed rank stops polling",
          r.returncode == 5 and r.stderr == "simfab: rank 1 exited with status 5; the run stops\n",
          (r.returncode, r.stderr))

golden_check.finish("run_failures")
