#!/usr/bin/env python3
"""Portals 4 programs under `simfab exec` (ctest; the Portals API of online mode, src/online/portals/).

    run_portals_programs.py BUILD_DIR SOURCE_DIR [--quick]

Builds every tests/online/portals/*.c (and examples/portals/*.c) with BUILD_DIR/simfab-cc, runs
each test program with
    BUILD_DIR/simfab exec -np 2 --cfg nic/model=portals --cfg online/compute=declared
and checks its exit status and its "... OK" lines (one per rank). Also checks the examples run,
that a Portals call without --cfg nic/model=portals is a usage error (exit 2, naming the call
and the option), and, without --quick, that a run is deterministic (same output twice).
Exits 1 on any failure, printing what went wrong."""
import glob
import os
import subprocess
import sys
import tempfile

EXEC = ["exec", "-np", "2", "--cfg", "nic/model=portals", "--cfg", "online/compute=declared"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    if len(args) != 2:
        print(__doc__)
        return 2
    build, source = args
    simfab, cc = os.path.join(build, "simfab"), os.path.join(build, "simfab-cc")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def compile_program(path):
            out = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0])
            r = subprocess.run([cc, "-O1", "-Wall", "-Wextra", "-Werror", "-o", out, path], capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{path}: does not compile:\n{r.stderr}")
                return None
            return out

        def run(program, extra=(), opts=EXEC):
            return subprocess.run([simfab, *opts, program, *extra], capture_output=True, text=True, timeout=120)

        tests = sorted(glob.glob(os.path.join(source, "tests/online/portals/*.c")))
        for path in tests:
            prog = compile_program(path)
            if not prog:
                continue
            r = run(prog)
            oks = [l for l in r.stdout.splitlines() if l.endswith("OK")]
            if r.returncode != 0 or len(oks) != 2:
                failures.append(f"{os.path.basename(path)}: exit {r.returncode}, {len(oks)} OK lines\n{r.stdout}{r.stderr}")
            else:
                print(f"ok   {os.path.basename(path)}")
        examples = sorted(glob.glob(os.path.join(source, "examples/portals/*.c")))
        for path in examples:
            prog = compile_program(path)
            if not prog:
                continue
            extra = ["-S", "4096", "-n", "20"] if "ptlperf" in path else []
            r = run(prog, extra)
            if r.returncode != 0:
                failures.append(f"{os.path.basename(path)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
            else:
                print(f"ok   {os.path.basename(path)}")
            if "ping" in path:
                bad = run(prog, opts=["exec", "-np", "2"])
                if bad.returncode != 2 or "PtlInit" not in bad.stderr or "nic/model=portals" not in bad.stderr:
                    failures.append(f"no NIC model: expected exit 2 naming PtlInit and nic/model=portals, got "
                                    f"{bad.returncode}: {bad.stderr}")
                else:
                    print("ok   usage error without nic/model=portals")
                if not quick:
                    again = run(prog)
                    mine = lambda out: [l for l in out.splitlines() if l.startswith(("initiator:", "target:"))]
                    if mine(again.stdout) != mine(r.stdout) or not mine(r.stdout):
                        failures.append("ping: two runs differ")
                    else:
                        print("ok   determinism")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
