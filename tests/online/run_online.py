#!/usr/bin/env python3
"""Online-mode end-to-end test (ctest `online_examples`).

    run_online.py SIMFAB_BUILD_DIR SOURCE_DIR [-v] [-k SUBSTRING] [--quick]

Builds every example of SOURCE_DIR/examples/mpi with SIMFAB_BUILD_DIR/simfab-cc (hello.cpp with
simfab-cxx) and the misuse programs of tests/online/bad/, then runs them with
`SIMFAB_BUILD_DIR/simfab exec` and checks:
  - every example exits 0 and prints its "<name>: ... OK" line, at several rank counts, with
    declared compute (deterministic);
  - the LogGOPS closed forms on the default cluster (1 us, 10 Gb/s links, host-switch-host):
    L = 2 us, G = 800 ps/B, o = 1.5 ns, so an eager message of s bytes costs 2o + L + (s-1)G:
    pingpong's half round trip for s in {1, 8, 1024, 65535} to the picosecond, and ring's lap
    (N hops of an 8-byte message) to the printed nanosecond;
  - the examples under network/model=smpi and on examples/platforms/cluster16.yaml, and with a
    hostfile that puts two ranks on one host;
  - determinism: two runs of stencil2d with --json --reproducible give byte-identical JSON;
  - privatization at 12,000 ranks: more than guarded stacks' memory mappings allow, so the stacks
    are pooled (src/online/memory_maps.hpp); every rank still sees only its own globals;
  - the misuse programs: the exit status (2 usage error, 3 deadlock, 4 crash, the rank's own
    status or MPI_Abort code) and the phrases of the diagnostic on stderr.
Prints a summary table; exits 1 on any failure (with what went wrong), 0 otherwise.
Runs the cases in parallel (one worker per CPU); about 5 s on 2 cores in a Release build.

--quick (the sanitizer build's ctest case; the optimised build runs everything): a `simfab exec`
costs about 0.35 s of CPU under AddressSanitizer whatever the rank count (the same program at 8
ranks costs what it costs at 1), so --quick makes 48 runs instead of 70, leaving out no program,
network model, platform or misuse:
  - each rank-count sweep keeps its largest count and its largest count that is not a power of
    two (collective algorithms branch on that): 1, 2, 4, 7, 8 becomes 7, 8; 1, 2, 4, 8 becomes 8;
    ring's closed-form laps keep 7 hops (2 and 4 hops check the same formula). np=1 is kept where
    the program's calls have one-rank cases of their own: ring (a message to itself), stencil2d
    (MPI_PROC_NULL neighbours), collectives, comm_split, nonblocking and onesided (one-rank
    communicators and windows); allreduce_loop, privatization, sampling, hello and dvfs at np=1
    are smaller copies of their other runs;
  - the determinism check (stencil2d run twice, byte-identical JSON): the same run, repeated.
Every program is still built; the closed forms, the smpi and flow models, cluster16.yaml, the
hostfile, load balancing, measured compute and every misuse program still run.
"""
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# ---- the LogGOPS closed forms of the default cluster (ps) --------------------------------------
O_PS = 1500            # loggops/o
L_PS = 2 * 1_000_000   # two 1 us links: host -> switch -> host
G_PS = 800             # 10 Gb/s = 1.25e9 B/s = 800 ps/B


def eager_ps(size):
    """One eager message of `size` bytes between two hosts of the default cluster."""
    return 2 * O_PS + L_PS + (size - 1) * G_PS


DECLARED = ["--cfg", "online/compute=declared"]
QUICK = "--quick" in sys.argv


def rank_counts(nps, keep_one=False):
    """The rank counts of a sweep that run: all of them, or under --quick the largest, the largest
    that is not a power of two and, with keep_one, np=1."""
    if not QUICK:
        return list(nps)
    others = [n for n in nps if n & (n - 1)]
    keep = {max(nps)} | ({max(others)} if others else set()) | ({1} if keep_one else set())
    return [n for n in nps if n in keep]


class Case:
    def __init__(self, name, program, np, args=(), opts=(), expect_rc=0, ok=None, stderr_has=(),
                 check=None, quiet=True):
        self.name = name
        self.program = program        # key into the built programs
        self.np = np
        self.args = list(args)        # the program's own arguments
        self.opts = list(opts)        # extra simfab exec options
        self.expect_rc = expect_rc
        self.ok = ok                  # regex the stdout must match (None: none)
        self.stderr_has = list(stderr_has)
        self.check = check            # f(stdout, stderr) -> error message or None
        self.quiet = quiet


def examples_cases(src):
    cases = []

    def ex(prog, nps, args=(), opts=(), label=None, keep_one=False, **kw):
        for n in rank_counts(nps, keep_one):
            name = f"{label or prog} np={n}"
            cases.append(Case(name, prog, n, args, DECLARED + list(opts), ok=rf"(?m)^{prog}: .*\bOK\b", **kw))

    ex("ring", [1], )
    for n in rank_counts((2, 4, 7)):
        cases.append(Case(f"ring np={n} (lap = {n} hops)", "ring", n, opts=DECLARED, ok=r"(?m)^ring: .*\bOK\b",
                          check=ring_check(n)))
    ex("allreduce_loop", [1, 2, 7, 8])
    ex("stencil2d", [1, 2, 4, 8], keep_one=True)
    ex("stencil2d", [7], args=["56", "10"], label="stencil2d 56x56")
    cases.append(Case("pingpong np=2 (half RTT = 2o+L+(s-1)G)", "pingpong", 2, opts=DECLARED,
                      ok=r"(?m)^pingpong: .*\bOK\b", check=pingpong_check))
    ex("datatypes", [2, 3])
    ex("comm_split", [1, 2, 4, 7, 8], keep_one=True)
    ex("collectives", [1, 2, 4, 7, 8], keep_one=True)
    ex("nonblocking", [1, 2, 4, 7, 8], keep_one=True)
    ex("privatization", [1, 4, 8])
    if not QUICK:  # beyond guarded stacks' mapping budget: pooled stacks (about 4 s; unit-tested under ASan)
        cases.append(Case("privatization np=12000 (pooled stacks)", "privatization", 12000, opts=DECLARED,
                          ok=r"(?m)^privatization: 12000 ranks, .*\bOK\b"))
    ex("sampling", [1, 4])
    ex("hello", [1, 4], label="hello (C++)")
    ex("onesided", [1, 2, 4, 5, 8], keep_one=True)
    ex("cart", [6])
    # DVFS (issue 8): simfab_set_pstate on a platform with pstates.
    ex("dvfs", [1, 2], opts=["--platform", os.path.join(src, "examples/platforms/energy_taurus.yaml")])
    # Measured computation (not declared): the CPU time between calls, scaled by
    # cpu/reference-speed / host speed (1 Gf/s on the default cluster).
    for speed, ratio in (("0", "1"), ("2Gf", "2")):
        cases.append(Case(f"measured compute, reference speed {speed}", "measured", 2, args=[ratio],
                          opts=["--cfg", f"cpu/reference-speed={speed}"], ok=r"(?m)^measured: .*\bOK\b"))

    # mpi/first-call (issue 28): each rank's first MPI_Allreduce pays the library's set-up once,
    # as in TI replays; 10 calls at 0.25 s each would take 2.5 s.
    def first_call_check(out, err):
        m = re.search(r"predicted makespan: (\d+) ps", out)
        t = int(m.group(1)) / 1e12 if m else -1
        return None if 0.25 <= t < 0.3 else f"makespan {t} s, expected 0.25 s (one first call) plus the loop"
    cases.append(Case("allreduce_loop np=2, mpi/first-call allreduce=0.25", "allreduce_loop", 2, args=["8", "10"],
                      opts=DECLARED + ["--cfg", "mpi/first-call=allreduce=0.25"], ok=r"(?m)^allreduce_loop: .*\bOK\b",
                      check=first_call_check, quiet=False))

    # Other network models and platforms.
    smpi = ["--cfg", "network/model=smpi"]
    ex("allreduce_loop", [4], opts=smpi, label="allreduce_loop smpi")
    ex("stencil2d", [4], opts=smpi, label="stencil2d smpi")
    plat = ["--platform", os.path.join(src, "examples/platforms/cluster16.yaml")]
    ex("allreduce_loop", [8], opts=plat, label="allreduce_loop cluster16")
    ex("stencil2d", [8], opts=plat, label="stencil2d cluster16")
    ex("collectives", [7], opts=plat + ["--cfg", "network/model=flow"], label="collectives cluster16 flow")
    return cases


def ring_check(n):
    def check(out, err):
        m = re.search(r"; ([0-9.]+) s per lap", out)
        if not m:
            return "no 's per lap' in the output"
        expect = f"{n * eager_ps(8) * 1e-12:.9f}"
        if m.group(1) != expect:
            return f"lap time {m.group(1)} s, expected {expect} s ({n} hops of {eager_ps(8)} ps)"
        return None
    return check


def pingpong_check(out, err):
    got = {int(s): float(t) for s, t in re.findall(r"(?m)^pingpong: (\d+) B: ([0-9.]+) s$", out)}
    problems = []
    for size in (1, 8, 1024, 65535):
        if size not in got:
            problems.append(f"no line for {size} B")
            continue
        ps = round(got[size] * 1e12)
        if ps != eager_ps(size):
            problems.append(f"{size} B: half round trip {ps} ps, expected 2o+L+(s-1)G = {eager_ps(size)} ps")
    big = got.get(1 << 20)
    if big is None:
        problems.append("no line for 1048576 B")
    elif round(big * 1e12) < eager_ps(1 << 20):  # rendezvous: at least the eager cost
        problems.append(f"1 MiB: half round trip {big} s is below the eager cost")
    return "; ".join(problems) or None


def bad_cases():
    def bad(name, np, rc, stderr_has, opts=()):
        return Case(f"bad/{name}", f"bad/{name}", np, opts=DECLARED + list(opts), expect_rc=rc, stderr_has=stderr_has)

    def deadlock_check(out, err):
        for r in (0, 1):
            if not re.search(rf"rank {r}: in MPI_Recv", err):
                return f"the deadlock report does not show rank {r} in MPI_Recv"
        return None

    cases = [
        bad("mpi_before_init", 2, 2, ["rank 0", "MPI_Send", "before MPI_Init"]),
        bad("double_free", 2, 2, ["MPI_Request_free"]),
        bad("bad_comm", 2, 2, ["MPI_Send", "invalid communicator"]),
        bad("crash", 3, 4, ["rank 1 crashed"]),
        # one suggestion that works at once (the process stack, ulimit -s), not a doubling per try
        bad("overflow", 2, 4, ["rank 0", "overflowed its stack (65536 bytes); raise it with --cfg online/stack-size=8MiB"],
            opts=["--cfg", "online/stack-size=64KiB"]),
        bad("deadlock", 2, 3, ["deadlock", "MPI_Recv"]),
        bad("abort", 3, 7, ["MPI_Abort"]),
        bad("exit_nonzero", 4, 5, ["rank 2"]),
        bad("truncate", 2, 2, ["MPI_ERR_TRUNCATE"]),
        bad("unimplemented", 2, 2, ["MPI_Comm_spawn"]),
        bad("bad_type", 2, 2, ["MPI_Send", "not committed"]),
        bad("bad_pstate", 1, 2, ["simfab_set_pstate", "pstate 1 is out of range", "has 1 pstate"]),
    ]
    cases[5].check = deadlock_check
    cases.append(Case("bad/overflow at the suggested online/stack-size=8MiB", "bad/overflow", 2,
                      opts=DECLARED + ["--cfg", "online/stack-size=8MiB"]))
    return cases


class Runner:
    def __init__(self, build, src, work, verbose):
        self.simfab = os.path.join(build, "simfab")
        self.cc = os.path.join(build, "simfab-cc")
        self.cxx = os.path.join(build, "simfab-cxx")
        self.src = src
        self.work = work
        self.verbose = verbose
        self.programs = {}  # key -> path of the built shared object
        self.build_errors = {}
        # Under AddressSanitizer (an ASan build of simfab), leak reports at exit would replace
        # the exit statuses under test; the programs themselves are not instrumented.
        self.env = dict(os.environ)
        # In a sanitizer build, no leak check for simfab exec: a run that stops at an error
        # abandons its ranks' fibers (never unwound, online/fiber.hpp), whose stacks held the only
        # pointers to some heap blocks, and the programs' own leaks are not simfab's.
        self.env["ASAN_OPTIONS"] = (self.env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")

    def compile(self, key, source, cxx=False, flags=("-O2",)):
        out = os.path.join(self.work, key.replace("/", "_"))
        cmd = [self.cxx if cxx else self.cc, *flags, "-o", out, source]
        if not cxx:
            cmd.append("-lm")
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            return key, None, f"{' '.join(cmd)}\n{p.stdout}{p.stderr}"
        return key, out, None

    def run(self, case, argv_extra=None):
        prog = self.programs.get(case.program)
        if prog is None:
            return case, None, 0.0, f"program {case.program} did not build", "", ""
        cmd = [self.simfab, "exec", "-np", str(case.np), *case.opts]
        if case.quiet:
            cmd.append("--quiet")
        if argv_extra:
            cmd += argv_extra
        cmd += [prog, *case.args]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=self.env, cwd=self.work)
        except subprocess.TimeoutExpired as e:
            return case, None, time.monotonic() - t0, "timed out after 60 s", str(e.stdout or ""), str(e.stderr or "")
        dt = time.monotonic() - t0
        problems = []
        if p.returncode != case.expect_rc:
            problems.append(f"exit status {p.returncode}, expected {case.expect_rc}")
        if case.ok and not re.search(case.ok, p.stdout):
            problems.append(f"stdout does not match /{case.ok}/")
        for phrase in case.stderr_has:
            if phrase not in p.stderr:
                problems.append(f"stderr lacks '{phrase}'")
        if case.check and not problems:
            msg = case.check(p.stdout, p.stderr)
            if msg:
                problems.append(msg)
        if problems:
            problems.append("command: " + " ".join(cmd))
        return case, p.returncode, dt, "; ".join(problems), p.stdout, p.stderr


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv
    only = None
    if "-k" in sys.argv:
        i = sys.argv.index("-k")
        only = sys.argv[i + 1]
        args.remove(only)
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    build, src = (os.path.abspath(a) for a in args)
    for tool in ("simfab", "simfab-cc", "simfab-cxx"):
        if not os.access(os.path.join(build, tool), os.X_OK):
            print(f"run_online: {os.path.join(build, tool)} is missing (build the simfab target)", file=sys.stderr)
            return 1
    start = time.monotonic()
    work = tempfile.mkdtemp(prefix="simfab-online-")
    r = Runner(build, src, work, verbose)
    ex_dir = os.path.join(src, "examples", "mpi")
    bad_dir = os.path.join(src, "tests", "online", "bad")
    jobs = []
    for f in sorted(os.listdir(ex_dir)):
        base, ext = os.path.splitext(f)
        if ext == ".c":
            jobs.append((base, os.path.join(ex_dir, f), False, ("-O2", "-Wall")))
        elif ext == ".cpp":
            jobs.append((base, os.path.join(ex_dir, f), True, ("-O2", "-Wall")))
    for f in sorted(os.listdir(bad_dir)):
        base, ext = os.path.splitext(f)
        if ext == ".c":
            # simfab-cc refuses a call simfab lacks at link (--no-undefined); linked anyway, the
            # program is refused when loaded (tests/buildsys checks the link error).
            flags = ("-O0", "-Wl,--unresolved-symbols=ignore-all") if base == "unimplemented" else ("-O0",)
            jobs.append(("bad/" + base, os.path.join(bad_dir, f), False, flags))
    workers = max(2, os.cpu_count() or 2)
    failures = []
    rows = []
    with cf.ThreadPoolExecutor(max_workers=workers) as pool:
        for key, path, err in pool.map(lambda j: r.compile(*j), jobs):
            if path:
                r.programs[key] = path
            else:
                failures.append(f"build {key}: {err}")
                rows.append((f"build {key}", "-", "FAIL", 0.0))
        compiled = time.monotonic()

        cases = examples_cases(src) + bad_cases()
        if only:
            cases = [c for c in cases if only in c.name]
        futures = [pool.submit(r.run, c) for c in cases]

        # Hostfile: two ranks on node3 of cluster16.yaml (a hostfile names a platform's hosts):
        # the summary shows both there, and no message crosses the network (no 2.5 us latency).
        hostfile = os.path.join(work, "hosts")
        with open(hostfile, "w") as f:
            f.write("node3:2\n")

        def hostfile_check(out, err):
            if not (re.search(r"rank 0 on node3:", out) and re.search(r"rank 1 on node3:", out)):
                return "the summary does not put ranks 0 and 1 on node3"
            for size, t in re.findall(r"(?m)^pingpong: (\d+) B: ([0-9.]+) s$", out):
                if float(t) >= 1e-6:
                    return f"{size} B between two ranks of one host took {t} s (a network latency?)"
            return None
        hf = Case("pingpong hostfile (2 ranks on node3)", "pingpong", 2,
                  opts=DECLARED + ["--platform", os.path.join(src, "examples/platforms/cluster16.yaml"),
                                   "--hostfile", hostfile],
                  ok=r"(?m)^pingpong: .*\bOK\b", check=hostfile_check, quiet=False)
        if not only or only in hf.name:
            futures.append(pool.submit(r.run, hf))

        # Load balancing (issue 8): 3 ranks on node-0, 1 on node-1 (single-core hosts); GreedyLB
        # evens them out after the first iteration: 3 + 9 x 2 = 21 s instead of 10 x 3 = 30 s.
        lb_hosts = os.path.join(work, "lb_hosts")
        with open(lb_hosts, "w") as f:
            f.write("node-0:3\nnode-1\n")
        lb_plat = ["--platform", os.path.join(src, "tests/online/lb2.yaml"), "--hostfile", lb_hosts]
        for label, extra, total in (("no balancing", [], "30"),
                                    ("GreedyLB", ["--cfg", "lb/balancer=greedy"], "21")):
            c = Case(f"migrate np=4 {label} ({total} s)", "migrate", 4, args=[total], opts=DECLARED + lb_plat + extra,
                     ok=r"(?m)^migrate: .*\bOK\b")
            if not only or only in c.name:
                futures.append(pool.submit(r.run, c))

        # Determinism: stencil2d twice with --json --reproducible, byte-identical (not under --quick).
        det = []
        if not QUICK and (not only or "determinism" in only):
            for k in (1, 2):
                c = Case(f"determinism run {k}", "stencil2d", 4, opts=DECLARED + ["--reproducible"],
                         ok=r"(?m)^stencil2d: .*\bOK\b")
                j = os.path.join(work, f"det{k}.json")
                det.append(j)
                futures.append(pool.submit(r.run, c, ["--json", j]))

        for fut in futures:
            case, rc, dt, problem, out, err = fut.result()
            rows.append((case.name, "-" if rc is None else str(rc), "FAIL" if problem else "ok", dt))
            if problem:
                failures.append(f"{case.name}: {problem}\n  stdout: {out.strip()[-800:]}\n  stderr: {err.strip()[-800:]}")
            elif verbose:
                print(f"--- {case.name}\n{out}{err}")

    if det:
        name = "determinism: identical JSON"
        try:
            a, b = (open(p, "rb").read() for p in det)
            same = a == b and len(a) > 0
        except OSError as e:
            same, a = False, str(e)
        rows.append((name, "-", "ok" if same else "FAIL", 0.0))
        if not same:
            failures.append(f"{name}: the two --reproducible JSON files differ (or are missing): {det}")

    total = time.monotonic() - start
    width = max(len(n) for n, *_ in rows) if rows else 10
    print(f"{'case':<{width}}  {'exit':>4}  {'result':<6}  {'time':>7}")
    for name, rc, status, dt in rows:
        print(f"{name:<{width}}  {rc:>4}  {status:<6}  {dt:6.2f}s")
    print(f"run_online: {len(rows) - len(failures)} of {len(rows)} passed; build {compiled - start:.1f} s, "
          f"total {total:.1f} s ({workers} workers)")
    if failures:
        print("\nrun_online: FAILURES:", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        print(f"(programs kept in {work})", file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
