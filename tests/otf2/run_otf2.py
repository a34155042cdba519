#!/usr/bin/python3
"""CLI tests of OTF2 input and output (issue 30): `simfab run --otf2`, `simfab convert --otf2`,
`simfab run --otf2-out`.

usage: /usr/bin/python3 run_otf2.py SIMFAB SOURCE_DIR [--quick]
(Debian's own python3: the archives are written by python3-otf2, an independent OTF2 writer.)
  1. ping-pong: the closed form of tests/capture/run_convert.py section 4 under LogGOPS; a PAPI_FP_OPS
     counter's flops as the computation between calls
  2. non-blocking requests (isend, irecv completed by its wait, a failed test, a cancelled irecv,
     waitall, sendrecv): the exact TI, and replay equal to that TI's
  3. a communicator split, a rooted bcast on it, gatherv, alltoallv, allreduce, scan, an in-place
     reduce, comm_free: Score-P's byte totals decoded into the exact TI counts
  4. threads: a second location per rank (OpenMP-like regions) is folded away
  5. round trip: a TI program run with --otf2-out, read back with --otf2, gives the same makespan
     and finish times; otf2-print reads the archive; two runs write the same bytes
  6. bad input: exit 2 naming the location and event, nothing written
  7. simfab report: an archive's measured run beside the prediction of it
  8. determinism: two conversions are byte-identical
Prints "Expectation: ... Actual: ..." for every failed check and a closing "N passed, N failed".
"""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv
HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.join(SRC, "examples", "platforms", "cluster16.yaml")
LOGGOPS = ["--cfg", "loggops/L=2500", "--cfg", "loggops/o=1500", "--cfg", "loggops/g=1000",
           "--cfg", "loggops/G=6", "--cfg", "loggops/O=0", "--cfg", "loggops/S=65535"]
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
import otf2  # noqa: E402
from otf2_archives import Archive  # noqa: E402
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

Op = otf2.CollectiveOp


def run(args):
    p = subprocess.run([SIMFAB] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def replay(name, app, extra=()):
    """Runs simfab on cluster16 (`app`: ["--otf2", X] or ["--trace", Y]); the JSON result or None."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, _, se = run(["run", "--platform", CLUSTER] + app + list(extra) + ["--json", out, "--quiet"])
        check(name + " replays", code == 0, "exit 0", f"exit {code}: {se.strip()}")
        return json.load(open(out)) if code == 0 else None


def finishes(res):
    return None if res is None else ([r["finish_ps"] for r in res["ranks"]], res["makespan_ps"])


def convert(name, anchor, out_ti, extra=()):
    code, _, se = run(["convert", "--otf2", anchor, "--ti", out_ti, "--quiet"] + list(extra))
    check(name + " converts", code == 0, "exit 0", f"exit {code}: {se.strip()}")


def ti_rank(out_ti, r):
    return [l for l in open(f"{out_ti}_files/rank-{r}.ti").read().split("\n") if l and not l.startswith("#")]


def begin(a, n):
    for r in range(n):
        a.enter(r, 0, "main")
        a.call(r, "MPI_Init", 0, 1000)


def end(a, n, t):
    for r in range(n):
        a.call(r, "MPI_Finalize", t, t + 100)
        a.leave(r, t + 200, "main")
    a.close()


def write_ti(path, ranks):
    """A TI list file and one trace per rank; ranks = list of lists of action strings."""
    files = []
    for r, lines in enumerate(ranks):
        f = f"{path}_rank{r}.ti"
        open(f, "w").write("".join(f"{r} {l}\n" for l in lines))
        files.append(os.path.basename(f))
    open(path, "w").write("\n".join(files) + "\n")


# ---- 1. ping-pong, closed form ----------------------------------------------------------------------
def pingpong(d, extra=lambda a: None):
    """Rank 0 sends 1000 B to rank 1; `extra(a)` writes more events after both MPI_Inits."""
    a = Archive(d, 2)
    W = a.world
    begin(a, 2)
    extra(a)
    a.call(0, "MPI_Send", 6000, 7000, lambda w, t: w.mpi_send(t, 1, W, 0, 1000))
    a.call(1, "MPI_Recv", 3000, 7000, lambda w, t: w.mpi_recv(7000, 0, W, 0, 1000))
    a.call(0, "MPI_Finalize", 14000, 14500)
    a.call(1, "MPI_Finalize", 18000, 18500)
    for r in range(2):
        a.leave(r, 19000, "main")
    a.close()
    return os.path.join(d, "traces.otf2")


with tempfile.TemporaryDirectory() as d:
    anchor = pingpong(os.path.join(d, "pp"))
    # Rank 0 computes 5 us, sends 1000 B, computes 7 us; rank 1 computes 2 us, receives, computes
    # 11 us: LogGOPS eager finishes rank 0 at a + o + 7 us, rank 1 at a + L + 2o + (s-1)G + d.
    a, o, L, G, s, dd = 5_000_000, 1500, 2500, 6, 1000, 11_000_000
    want = ([a + o + 7_000_000, a + L + 2 * o + (s - 1) * G + dd], a + L + 2 * o + (s - 1) * G + dd)
    got = finishes(replay("pingpong", ["--otf2", anchor], LOGGOPS))
    check("pingpong closed form", got == want, want, got)
    ti = os.path.join(d, "pp.ti")
    convert("pingpong", anchor, ti)
    check("pingpong TI rank 0", ti_rank(ti, 0) == ["0 init", "0 location main 0", "0 sleep 0.000005",
                                                   "0 send 1 0 1000 6", "0 sleep 0.000007", "0 finalize"],
          "init, 5 us, send 1000 B, 7 us, finalize", ti_rank(ti, 0))
    # --speed: the gaps become flops of the traced core (2 Gf), which cluster16's 10 Gf hosts run in
    # a fifth of the time.
    res = replay("pingpong --speed", ["--otf2", anchor, "--speed", "2Gf"], LOGGOPS)
    got = finishes(res)
    check("pingpong --speed 2Gf on 10 Gf hosts", got is not None and got[0][0] == (a + 7_000_000) // 5 + o,
          (a + 7_000_000) // 5 + o, got)


# ---- 1b. computation counted by a PAPI counter -------------------------------------------------------
# Score-P records PAPI counters as metric events at each Enter and Leave (rank 0's before them,
# rank 1's after: both orders occur); the flops between two MPI calls become the TI's compute.
def counted(d):
    a = Archive(d, 2)
    W = a.world
    defs = a.trace.definitions
    cyc = defs.metric_member("PAPI_TOT_CYC", "cycles", otf2.MetricType.PAPI, otf2.MetricMode.ACCUMULATED_START,
                             value_type=otf2.Type.UINT64)
    fp = defs.metric_member("PAPI_FP_OPS", "flops", otf2.MetricType.PAPI, otf2.MetricMode.ACCUMULATED_START,
                            value_type=otf2.Type.UINT64)
    mc = defs.metric_class([cyc, fp])
    counts = {0: [(1000, 0), (6000, 3_000_000), (7000, 3_000_010), (14000, 8_000_010), (14500, 8_000_010)],
              1: [(1000, 100), (3000, 1_000_100), (7000, 1_000_100), (18000, 3_000_100), (18500, 3_000_100)]}
    steps = {0: [("MPI_Init", 0, 1000, None), ("MPI_Send", 6000, 7000, lambda w, t: w.mpi_send(t, 1, W, 0, 1000)),
                 ("MPI_Finalize", 14000, 14500, None)],
             1: [("MPI_Init", 0, 1000, None), ("MPI_Recv", 3000, 7000, lambda w, t: w.mpi_recv(t, 0, W, 0, 1000)),
                 ("MPI_Finalize", 18000, 18500, None)]}
    for r in range(2):
        w, value = a.writers[r], dict(counts[r])
        metric = lambda t: w.metric(t, mc, [7 * t, value[t]]) if t in value else None  # noqa: E731
        a.enter(r, 0, "main")
        for name, t0, t1, event in steps[r]:
            if r == 0:
                metric(t0)
            a.enter(r, t0, name)
            if r == 1:
                metric(t0)
            if event:
                event(w, t1 if name == "MPI_Recv" else t0)
            if r == 0:
                metric(t1)
            a.leave(r, t1, name)
            if r == 1:
                metric(t1)
        a.leave(r, 19000, "main")
    a.close()
    return os.path.join(d, "traces.otf2")


with tempfile.TemporaryDirectory() as d:
    anchor = counted(os.path.join(d, "fp"))
    ti = os.path.join(d, "fp.ti")
    convert("PAPI_FP_OPS", anchor, ti)
    want = {0: ["0 init", "0 location main 0", "0 compute 3e+06", "0 send 1 0 1000 6", "0 compute 5e+06", "0 finalize"],
            1: ["1 init", "1 location main 0", "1 compute 1e+06", "1 recv 0 0 1000 6", "1 compute 2e+06", "1 finalize"]}
    for r in range(2):
        check(f"PAPI_FP_OPS: rank {r}'s computations are the counted flops", ti_rank(ti, r) == want[r], want[r],
              ti_rank(ti, r))
    # On cluster16's 10 Gf hosts: rank 0 computes 300 us, sends (o = 1.5 ns under these LogGOPS
    # parameters), computes 500 us.
    got = finishes(replay("PAPI_FP_OPS", ["--otf2", anchor], LOGGOPS))
    check("PAPI_FP_OPS: rank 0 finishes at 300 us + o + 500 us", got is not None and got[0][0] == 800_000_000 + 1500,
          800_001_500, got)


# ---- 2. non-blocking requests -----------------------------------------------------------------------
def nonblocking(d):
    a = Archive(d, 3)
    W = a.world
    begin(a, 3)
    a.enter(0, 1500, "exchange")
    a.call(0, "MPI_Isend", 2000, 2100, lambda w, t: w.mpi_isend(t, 1, W, 3, 4000, 5))
    a.call(0, "MPI_Isend", 2200, 2300, lambda w, t: w.mpi_isend(t, 2, W, 7, 8, 6))
    a.call(0, "MPI_Waitall", 9000, 9500, lambda w, t: w.mpi_isend_complete(t, 6),
           lambda w, t: w.mpi_isend_complete(t, 5))
    a.leave(0, 9600, "exchange")
    a.call(1, "MPI_Irecv", 2000, 2100, lambda w, t: w.mpi_irecv_request(t, 9))
    a.call(1, "MPI_Test", 3000, 3100, lambda w, t: w.mpi_request_test(t, 9))
    a.call(1, "MPI_Wait", 4000, 8000, lambda w, t: w.mpi_irecv(7900, 0, W, 3, 4000, 9))
    a.call(1, "MPI_Sendrecv", 8500, 9500, lambda w, t: w.mpi_send(t, 2, W, 1, 64),
           lambda w, t: w.mpi_recv(9400, 2, W, 2, 32))
    a.call(1, "MPI_Irecv", 9600, 9700, lambda w, t: w.mpi_irecv_request(t, 10))
    a.call(1, "MPI_Cancel", 9800, 9900)
    a.call(1, "MPI_Wait", 10000, 10100, lambda w, t: w.mpi_request_cancelled(t, 10))
    a.call(2, "MPI_Recv", 2000, 3000, lambda w, t: w.mpi_recv(2900, 0, W, 7, 8))
    a.call(2, "MPI_Sendrecv", 8000, 9500, lambda w, t: w.mpi_send(t, 1, W, 2, 32),
           lambda w, t: w.mpi_recv(9400, 1, W, 1, 64))
    end(a, 3, 12000)
    return os.path.join(d, "traces.otf2")


NB_TI = [
    ["0 init", "0 location exchange 0", "0 sleep 0.000001", "0 isend 1 3 4000 6", "0 sleep 0.0000001",
     "0 isend 2 7 8 6", "0 sleep 0.0000067", "0 waitall", "0 location main 0", "0 sleep 0.0000025", "0 finalize"],
    ["1 init", "1 location main 0", "1 sleep 0.000001", "1 irecv 0 3 4000 6", "1 sleep 0.0000019", "1 wait 0 1 3",
     "1 sleep 0.0000005", "1 sendrecv 2 1 64 2 2 32 6 6", "1 sleep 0.0000025", "1 finalize"],
    ["2 init", "2 location main 0", "2 sleep 0.000001", "2 recv 0 7 8 6", "2 sleep 0.000005",
     "2 sendrecv 1 2 32 1 1 64 6 6", "2 sleep 0.0000025", "2 finalize"],
]

with tempfile.TemporaryDirectory() as d:
    anchor = nonblocking(os.path.join(d, "nb"))
    ti = os.path.join(d, "nb.ti")
    convert("nonblocking", anchor, ti)
    for r in range(3):
        check(f"nonblocking TI rank {r}", ti_rank(ti, r) == NB_TI[r], NB_TI[r], ti_rank(ti, r))
    hand = os.path.join(d, "hand.ti")
    write_ti(hand, [[l.split(" ", 1)[1] for l in rank] for rank in NB_TI])
    a, b = finishes(replay("nonblocking otf2", ["--otf2", anchor])), finishes(replay("nonblocking ti", ["--trace", hand]))
    check("nonblocking: OTF2 replay = the TI's", a == b and a is not None, b, a)


# ---- 3. communicators and collectives ---------------------------------------------------------------
def collectives(d, n=4):
    a = Archive(d, n)
    W = a.world
    even, odd = a.comm("even", [0, 2], parent=W), a.comm("odd", [1, 3], parent=W)
    begin(a, n)
    for r in range(n):
        mine = even if r % 2 == 0 else odd
        a.collective(r, "MPI_Comm_split", 2000, 3000, Op.CREATE_HANDLE, W, None, 0, 0,
                     lambda w, t, c=mine: w.comm_create(t, c))
        root = r // 2 == 1  # local rank 1 is the root
        a.collective(r, "MPI_Bcast", 4000, 5000, Op.BCAST, mine, 1, 2 * 1000 if root else 0, 1000)
        a.collective(r, "MPI_Gatherv", 6000, 7000, Op.GATHERV, W, 0, (r + 1) * 100, 1000 if r == 0 else 0)
        a.collective(r, "MPI_Alltoallv", 8000, 9000, Op.ALLTOALLV, W, None, 400 * (r + 1) + 1, 0)
        a.collective(r, "MPI_Allreduce", 10000, 11000, Op.ALLREDUCE, W, None, n * 800, n * 800)
        a.collective(r, "MPI_Scan", 12000, 13000, Op.SCAN, W, None, (n - r) * 16, (r + 1) * 16)
        # in place at the root: it sends nothing and receives the others' blocks
        a.collective(r, "MPI_Reduce", 14000, 15000, Op.REDUCE, W, 2, 0 if r == 2 else 24, 72 if r == 2 else 0)
        a.collective(r, "MPI_Comm_free", 16000, 16500, Op.DESTROY_HANDLE, mine, None, 0, 0,
                     lambda w, t, c=mine: w.comm_destroy(t, c))
    end(a, n, 20000)
    return os.path.join(d, "traces.otf2")


def coll_ti(r):
    """What rank r's TI must be (gaps of 1 us; the split's measured cost is its 1 us)."""
    me = r // 2
    share = [(400 * (j + 1) + 1) // 4 + (1 if r < (400 * (j + 1) + 1) % 4 else 0) for j in range(4)]
    mine = [(400 * (r + 1) + 1) // 4 + (1 if j < (400 * (r + 1) + 1) % 4 else 0) for j in range(4)]
    body = [
        "sleep 0.000001", "sleep 0.000001", f"comm_split {r % 2} {me} {1 + r % 2}",
        "sleep 0.000001", f"bcast 1000 1 6 comm={1 + r % 2}",
        "sleep 0.000001", f"gatherv {(r + 1) * 100} 100 200 300 400 0 6 6",
        "sleep 0.000001", f"alltoallv {sum(mine)} {' '.join(map(str, mine))} {sum(share)} {' '.join(map(str, share))} 6 6",
        "sleep 0.000001", "allreduce 800 100 6",
        "sleep 0.000001", "scan 16 2 6",
        "sleep 0.000001", "reduce 24 3 2 6",
        f"comm_free {1 + r % 2}", "sleep 0.000005", "finalize"]
    return [f"{r} init", f"{r} location main 0"] + [f"{r} {l}" for l in body]


with tempfile.TemporaryDirectory() as d:
    anchor = collectives(os.path.join(d, "coll"))
    ti = os.path.join(d, "coll.ti")
    convert("collectives", anchor, ti)
    for r in range(4):
        check(f"collectives TI rank {r}", ti_rank(ti, r) == coll_ti(r), coll_ti(r), ti_rank(ti, r))
    hand = os.path.join(d, "hand.ti")
    write_ti(hand, [[l.split(" ", 1)[1] for l in coll_ti(r)] for r in range(4)])
    a, b = finishes(replay("collectives otf2", ["--otf2", anchor])), finishes(replay("collectives ti", ["--trace", hand]))
    check("collectives: OTF2 replay = the TI's", a == b and a is not None, b, a)


# ---- 4. threads folded onto the rank's MPI location -------------------------------------------------
def worker_threads(a):
    """A second location per rank running an OpenMP-like region while the rank computes."""
    par = a.trace.definitions.region("!$omp parallel", paradigm=otf2.Paradigm.OPENMP)
    for r in range(2):
        worker = a.trace.event_writer_from_location(
            a.trace.definitions.location("OpenMP thread 1", group=a.locations[r].group))
        a.enter(r, 1100, "!$omp parallel")
        a.leave(r, 2900, "!$omp parallel")
        worker.enter(1100, par)
        worker.leave(2900, par)


with tempfile.TemporaryDirectory() as d:
    ref = finishes(replay("threads reference", ["--otf2", pingpong(os.path.join(d, "pp"))], LOGGOPS))
    got = finishes(replay("threads", ["--otf2", pingpong(os.path.join(d, "thr"), worker_threads)], LOGGOPS))
    check("threads: a worker thread per rank changes nothing", got == ref and got is not None, ref, got)


# ---- 5. round trip ------------------------------------------------------------------------------------
def program(n):
    """A TI program over n ranks (n even): point-to-point, requests, a split, rooted collectives."""
    ranks = []
    for r in range(n):
        nxt, prv = (r + 1) % n, (r + n - 1) % n
        l = ["init", f"compute {1e6 * (r + 1):.0f}"]
        l += [f"send {r + 1} 5 1000"] if r % 2 == 0 else [f"recv {r - 1} 5 1000"]
        l += [f"isend {nxt} 7 5000", "compute 500000", f"wait {r} {nxt} 7"]
        l += [f"irecv {prv} 7 5000", "compute 100000", f"wait {prv} {r} 7"]
        c = 1 + r % 2  # the even ranks' communicator is 1, the odd ones' 2
        l += [f"comm_split {r % 2} {r} {c}", f"bcast 100 1 0 comm={c}", "compute 200000"]
        l += [f"gatherv {(r + 1) * 10} {' '.join(str((j + 1) * 10) for j in range(n))} 0 0 0"]
        l += ["allreduce 100 100 0", "scan 10 10 0", "alltoall 50 50 0 0", "reduce 100 100 2 0"]
        l += [f"sendrecv {nxt} 9 64 {prv} 9 64 0 0"]
        l += [f"irecv {prv} 11 32", f"isend {nxt} 11 32", "compute 300000", "waitall"]
        l += [f"barrier comm={c}", f"comm_free {c}", "compute 50000", "finalize"]
        ranks.append(l)
    return ranks


# The models without CPU overheads read a prediction back exactly. Under LogGOPS (and the packet
# model) a message arriving during a computation charges its receive overhead o on that CPU: the
# computation's interval grows by o, the archive records the longer gap, and reading it back charges
# o again (as it does for a measured trace, whose gaps include such overheads too).
SMPI = ["--cfg", "network/model=smpi"]
with tempfile.TemporaryDirectory() as d:
    n = 4 if QUICK else 8
    prog = os.path.join(d, "prog.ti")
    write_ti(prog, program(n))
    outs = []
    for k in range(2):
        out = os.path.join(d, f"out{k}")
        res = replay(f"round trip: --otf2-out #{k}", ["--trace", prog, "--otf2-out", out] + SMPI)
        outs.append((out, finishes(res)))
    out, first = outs[0]
    anchor = os.path.join(out, "traces.otf2")
    check("round trip: the archive is there", os.path.isfile(anchor) and not os.path.exists(out + ".partial"),
          "out/traces.otf2, no out.partial", os.listdir(d))
    back = finishes(replay("round trip: --otf2", ["--otf2", anchor] + SMPI))
    check("round trip: same makespan and finish times", back == first and back is not None, first, back)
    # examples/ti/stencil16.ti posts four irecvs and four isends in zero time at every step: each
    # is a call of its own in the archive.
    stencil = os.path.join(SRC, "examples", "ti", "stencil16.ti")
    o3 = os.path.join(d, "stencil")
    first_s = finishes(replay("round trip stencil16", ["--trace", stencil, "--otf2-out", o3] + SMPI))
    back_s = finishes(replay("round trip stencil16 back", ["--otf2", os.path.join(o3, "traces.otf2")] + SMPI))
    check("round trip of stencil16 (zero-time calls)", back_s == first_s and back_s is not None, first_s, back_s)
    for model in ([] if QUICK else [["--cfg", "network/model=flow"]]):
        with tempfile.TemporaryDirectory() as d2:
            o2 = os.path.join(d2, "o")
            first_m = finishes(replay("round trip flow", ["--trace", prog, "--otf2-out", o2] + model))
            back_m = finishes(replay("round trip flow back", ["--otf2", os.path.join(o2, "traces.otf2")] + model))
            check("round trip under network/model=flow", back_m == first_m and back_m is not None, first_m, back_m)
    p = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    check("otf2-print reads the archive", p.returncode == 0 and "MPI_COLLECTIVE_END" in p.stdout
          and "MPI_IRECV_REQUEST" in p.stdout and "COMM_CREATE" in p.stdout,
          "exit 0 with collectives, irecv requests, a communicator creation", (p.returncode, p.stderr[-300:]))
    same = all(filecmp.cmp(os.path.join(outs[0][0], f), os.path.join(outs[1][0], f), shallow=False)
               for f in ["traces.def"] + [os.path.join("traces", x) for x in sorted(os.listdir(os.path.join(out, "traces")))])
    check("round trip: two runs write the same definitions and events", same, "identical bytes", "they differ")
    # a deadlocked run writes no archive
    dead = os.path.join(d, "dead.ti")
    write_ti(dead, [["init", "recv 1 0 8", "finalize"], ["init", "recv 0 0 8", "finalize"]])
    code, _, _ = run(["run", "--platform", CLUSTER, "--trace", dead, "--otf2-out", os.path.join(d, "dead"), "--quiet"])
    check("a deadlocked run leaves no archive", code != 0 and not os.path.exists(os.path.join(d, "dead", "traces.otf2"))
          and not os.path.exists(os.path.join(d, "dead.partial")), "no dead/traces.otf2, no dead.partial",
          os.listdir(d))
    code, _, se = run(["run", "--platform", CLUSTER, "--trace", prog, "--otf2-out", prog, "--quiet"])
    check("--otf2-out naming a file: exit 2", code == 2 and "expected a directory" in se, "exit 2, 'expected a directory'",
          (code, se))


# ---- 6. bad input -------------------------------------------------------------------------------------
def bad(name, build, pattern):
    with tempfile.TemporaryDirectory() as d:
        anchor = build(os.path.join(d, "bad"))
        out = os.path.join(d, "out.ti")
        code, _, se = run(["convert", "--otf2", anchor, "--ti", out, "--quiet"])
        check(f"bad input ({name}): exit 2", code == 2, "exit 2", f"exit {code}: {se.strip()}")
        check(f"bad input ({name}): message", re.search(pattern, se) is not None, pattern, se.strip())
        check(f"bad input ({name}): nothing written", not os.path.exists(out) and not os.path.exists(out + "_files"),
              "no out.ti", os.listdir(d))
        code, _, se = run(["run", "--platform", CLUSTER, "--otf2", anchor, "--quiet"])
        check(f"bad input ({name}): run exits 2", code == 2, "exit 2", f"exit {code}: {se.strip()}")


def two_ranks(d, body):
    a = Archive(d, 2)
    begin(a, 2)
    body(a)
    end(a, 2, 50000)
    return os.path.join(d, "traces.otf2")


def truncated(d):
    anchor = nonblocking(d)
    evt = os.path.join(d, "traces", "1.evt")
    data = open(evt, "rb").read()
    open(evt, "wb").write(data[: len(data) // 2])
    return anchor


def no_defs(d):
    anchor = pingpong(d)
    os.remove(os.path.join(d, "traces.def"))
    return anchor


def unknown_comm(d):
    other = Archive(d + "-other", 2)
    extra = [other.comm(f"c{i}", [0, 1]) for i in range(3)]
    other.close()
    return two_ranks(d, lambda a: (a.call(0, "MPI_Send", 2000, 3000, lambda w, t: w.mpi_send(t, 1, extra[2], 0, 8)),
                                   a.call(1, "MPI_Recv", 2000, 3000, lambda w, t: w.mpi_recv(t, 0, a.world, 0, 8))))


def not_member(d):
    a = Archive(d, 3)
    pair = a.comm("pair", [1, 2], parent=a.world)
    begin(a, 3)
    a.call(0, "MPI_Send", 2000, 3000, lambda w, t: w.mpi_send(t, 1, pair, 0, 8))
    end(a, 3, 5000)
    return os.path.join(d, "traces.otf2")


bad("truncated event file", truncated, r"\[location 1\]:\d+: .*(damaged|truncated)")
bad("no global definitions", no_defs, r"traces\.otf2: .*(OTF2 archive|definitions)")
bad("unknown communicator", unknown_comm, r"\[location 0\]:5: MpiSend on communicator \d+, which the definitions never define")
bad("not a member", not_member, r"\[location 0\]:5: MpiSend on communicator \d+ \('pair'\), which rank 0 is not a member of")
bad("unmatched send", lambda d: two_ranks(d, lambda a: a.call(0, "MPI_Send", 2000, 3000,
                                                             lambda w, t: w.mpi_send(t, 1, a.world, 4, 8))),
    r"\[location \d\]:\d+: .*(send|receive)")
bad("event outside an MPI call", lambda d: two_ranks(d, lambda a: a.writers[0].mpi_send(2000, 1, a.world, 0, 8)),
    r"\[location 0\]:4: MpiSend outside of an MPI call")
bad("peer outside the communicator", lambda d: two_ranks(d, lambda a: a.call(
    0, "MPI_Send", 2000, 3000, lambda w, t: w.mpi_send(t, 5, a.world, 0, 8))),
    r"\[location 0\]:5: the receiver 5 is not a rank of communicator 0 \(size 2\)")
bad("Leave of the wrong region", lambda d: two_ranks(d, lambda a: (a.enter(0, 2000, "MPI_Barrier"),
                                                                     a.leave(0, 3000, "solve"))),
    r"\[location 0\]:5: Leave of region 'solve', but the open one is 'MPI_Barrier'")
bad("non-blocking collective", lambda d: two_ranks(d, lambda a: a.call(
    0, "MPI_Ibarrier", 2000, 3000, lambda w, t: w.non_blocking_collective_request(t, 3))),
    r"\[location 0\]:5: a non-blocking collective .*not supported")
def cut_short(d):
    a = Archive(d, 2)
    begin(a, 2)
    a.call(0, "MPI_Finalize", 5000, 5100)
    a.leave(0, 5200, "main")
    a.enter(1, 4000, "MPI_Recv")
    a.close()
    return os.path.join(d, "traces.otf2")


bad("ends inside a call", cut_short, r"\[location 1\]:4: the location ends inside 'MPI_Recv'")
code, _, se = run(["run", "--platform", CLUSTER, "--otf2", "/nonexistent/traces.otf2", "--quiet"])
check("a missing archive: exit 2, 'no such file'", code == 2 and "no such file" in se, "exit 2", (code, se))
code, _, se = run(["run", "--otf2", "x.otf2", "--quiet"])
check("--otf2 without --platform: exit 2", code == 2 and "needs --platform" in se, "exit 2", (code, se))

# ---- 7. simfab report: a measured run (OTF2) beside its prediction --------------------------------
with tempfile.TemporaryDirectory() as d:
    anchor = collectives(os.path.join(d, "coll"))
    pred = os.path.join(d, "pred.json")
    code, _, se = run(["run", "--platform", CLUSTER, "--otf2", anchor, "--trace-out", pred, "--quiet"])
    check("report: the prediction's timeline", code == 0, "exit 0", se)
    html = os.path.join(d, "cmp.html")
    code, so, se = run(["report", anchor, pred, "-o", html])
    if code == 2 and "chart library" in se:
        print("note: simfab was built without the chart library: the report check is skipped")
    else:
        page = open(html).read() if code == 0 else ""
        # The measured run ends at the last MPI_Finalize's return: 20,100 ns.
        check("report: measured OTF2 vs predicted", code == 0 and '"format":"otf2 (measured)"' in page
              and '"makespan_ps":20100000' in page and '"file":"traces.otf2"' in page,
              "exit 0; the archive's run, 20100000 ps, named traces.otf2", (code, se[-300:]))
        check("report: no temporary files left", not any(n.startswith("simfab-report.") for n in os.listdir(tempfile.gettempdir())),
              "none", [n for n in os.listdir(tempfile.gettempdir()) if n.startswith("simfab-report.")])


# ---- 8. determinism -----------------------------------------------------------------------------------
with tempfile.TemporaryDirectory() as d:
    anchor = collectives(os.path.join(d, "c"))
    convert("determinism #1", anchor, os.path.join(d, "a.ti"))
    convert("determinism #2", anchor, os.path.join(d, "b.ti"))
    same = all(filecmp.cmp(os.path.join(d, "a.ti_files", f), os.path.join(d, "b.ti_files", f), shallow=False)
               for f in os.listdir(os.path.join(d, "a.ti_files")))
    check("two conversions are byte-identical", same, "identical", "they differ")

golden_check.finish("run_otf2.py")
