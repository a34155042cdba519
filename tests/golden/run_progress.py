#!/usr/bin/env python3
"""The progress line (report/progress_meter.hpp): shown on stderr when it is a terminal (here a
pseudo-terminal made by util-linux's `script`), never when stderr is a file or a pipe, and not with
--progress never or --quiet (unless --progress always), nor by default for simfab exec, whose program
writes to the same terminal. The trace is a 32-rank ring of 1,000
isend/irecv/waitall rounds per rank (about 96,000 events, over the 65,536 after which the event
loop first polls the meter).

usage: run_progress.py SIMFAB ROOT"""
import os
import shutil
import subprocess
import sys
import tempfile

simfab = os.path.abspath(sys.argv[1])
platform = os.path.join(sys.argv[2], "examples", "platforms", "dragonfly_9g.yaml")
ranks, rounds = 32, 1000
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, "ring.ti")
    with open(trace, "w") as f:
        for r in range(ranks):
            f.write(f"{r} init\n")
            nxt, prv = (r + 1) % ranks, (r - 1) % ranks
            for _ in range(rounds):
                f.write(f"{r} isend {nxt} 0 8\n{r} irecv {prv} 0 8\n{r} waitall\n")
            f.write(f"{r} finalize\n")
    run = [simfab, "run", "--platform", platform, "--trace", trace, "--quiet"]

    # Not a terminal: nothing on stderr.
    p = subprocess.run(run, capture_output=True, text=True)
    check(p.returncode == 0, f"plain run failed: {p.stderr}")
    check(p.stderr == "", f"progress written to a pipe: {p.stderr!r}")

    # --progress always: the status line, erased at the end.
    p = subprocess.run(run + ["--progress", "always"], capture_output=True)  # bytes: keep the \r
    err = p.stderr.decode()
    check(p.returncode == 0, "--progress always failed")
    check("events/s" in err and f"/{ranks} ranks finished" in err and "% of the application" in err,
          f"--progress always printed {err!r}")
    check(err.startswith("\r\033[K") and err.endswith("\r\033[K"), f"the status line is not redrawn in place: {err!r}")

    if shutil.which("script"):
        cmd = " ".join(run[:-1])  # without --quiet, which keeps the terminal free of progress too
        p = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, text=True)
        check(p.returncode == 0, "run under a terminal failed")
        check("ranks finished" in p.stdout, f"no progress on a terminal: {p.stdout!r}")
        for extra in (" --progress never", " --quiet"):
            p = subprocess.run(["script", "-qec", cmd + extra, "/dev/null"], capture_output=True, text=True)
            check("ranks finished" not in p.stdout, f"{extra.strip()} still printed progress on a terminal")
        # simfab exec: the program writes to the same terminal, so auto draws no status line over
        # its lines (issue 35); --progress always still does.
        cc = os.path.join(os.path.dirname(simfab), "simfab-cc")
        prog = os.path.join(tmp, "allreduce_loop")
        b = subprocess.run([cc, "-O2", "-o", prog, os.path.join(sys.argv[2], "examples", "mpi", "allreduce_loop.c")],
                           capture_output=True, text=True)
        check(b.returncode == 0, f"simfab-cc failed: {b.stderr}")
        exe = f"{simfab} exec -np 8 --cfg online/compute=declared {prog} 16 3000"
        p = subprocess.run(["script", "-qec", exe, "/dev/null"], capture_output=True, text=True)
        check(p.returncode == 0 and "predicted makespan" in p.stdout, f"exec under a terminal failed: {p.stdout!r}")
        check("ranks finished" not in p.stdout, f"exec drew a status line among the program's output: {p.stdout!r}")
        p = subprocess.run(["script", "-qec", exe.replace(" exec ", " exec --progress always "), "/dev/null"],
                           capture_output=True, text=True)
        check("ranks finished" in p.stdout, f"exec --progress always drew no status line: {p.stdout!r}")
    else:
        print("note: util-linux `script` is absent; the terminal cases were not run")

    p = subprocess.run(run + ["--progress", "sometimes"], capture_output=True, text=True)
    check(p.returncode == 2 and "--progress expects auto, always or never" in p.stderr, "bad --progress value")

for f in failures:
    print("FAIL:", f)
print("progress:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
