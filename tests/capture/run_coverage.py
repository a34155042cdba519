#!/usr/bin/env python3
"""What libsimfab-capture.so records beyond plain point-to-point and blocking collectives, and what it
refuses (issue 36): real Open MPI runs with the library preloaded.

usage: run_coverage.py SIMFAB SOURCE_DIR
  1. tests/capture/coverage_calls.c on 2 ranks (Comm_idup, Ibarrier, Iallreduce, persistent Send_init/Recv_init
     started twice by Start/Startall, Mprobe/Mrecv from MPI_ANY_SOURCE, Improbe finding nothing,
     Mprobe + Imrecv): the records, the TI lines `simfab convert` writes (every line but the
     measured computations, exactly), and the replay of that TI (computations dropped) and of the
     GOAL schedule (calcs set to 0) under LogGOPS against the closed form below
  2. tests/capture/unrecorded_call.c (MPI_Win_create/fence/free): refused at MPI_Init with exit 2
     and one message naming the functions; with SIMFAB_CAPTURE_ALLOW_UNRECORDED=1 captured with one
     warning
  3. HPC Challenge (Debian's hpcc, N=200, 1x2 and 2x2 grids), when installed: captured on 2 and 4
     ranks without refusal, converted and replayed
Exits 77 (skipped) without mpirun, mpicc or the library beside SIMFAB. Prints "Expectation: ...
Actual: ..." for every failed check and a closing "N passed, N failed".
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
LIB = os.path.join(os.path.dirname(os.path.abspath(SIMFAB)), "libsimfab-capture.so")
CLUSTER = os.path.join(SRC, "examples", "platforms", "cluster16.yaml")
o, L, g, G = 1500, 2500, 1000, 6
LOGGOPS = ["--cfg", "network/model=loggops", "--cfg", f"loggops/L={L}", "--cfg", f"loggops/o={o}", "--cfg",
           f"loggops/g={g}", "--cfg", f"loggops/G={G}", "--cfg", "loggops/O=0", "--cfg", "loggops/S=65535"]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402  (the shared check counter of the CLI test scripts)
from golden_check import check  # noqa: E402

if not (shutil.which("mpirun") and shutil.which("mpicc") and os.path.exists(LIB)):
    print("SKIP: needs mpirun, mpicc and " + LIB)
    sys.exit(77)

ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("SIMFAB_CAPTURE_")}
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"]


def build(d, name):
    exe = os.path.join(d, name)
    p = subprocess.run(["mpicc", "-O1", "-o", exe, os.path.join(SRC, "tests", "capture", name + ".c")],
                       capture_output=True, text=True)
    check("mpicc " + name, p.returncode == 0, "exit 0", p.stderr)
    return exe


def capture(d, exe, cap, n=2, extra_env=None, timeout=300):
    env = dict(ENV, SIMFAB_CAPTURE_DIR=cap, **(extra_env or {}))
    xs = sum((["-x", k] for k in ["SIMFAB_CAPTURE_DIR"] + list(extra_env or {})), [])
    return subprocess.run(MPIRUN + ["-np", str(n)] + xs + ["-x", "LD_PRELOAD=" + LIB, exe], capture_output=True,
                          text=True, env=env, cwd=d, timeout=timeout)


def simfab(args):
    p = subprocess.run([SIMFAB] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def replay(name, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, err = simfab(["run", "--platform", CLUSTER] + args + LOGGOPS + ["--json", out, "--reproducible", "--quiet"])
        check(name + " replays", code == 0, "exit 0", f"exit {code}: {err.strip()}")
        return json.load(open(out)) if code == 0 else None


def records(path):
    return [l.split(":") for l in open(path).read().split("\n") if l and l[0] not in "#@"]


with tempfile.TemporaryDirectory() as d:
    # ---- 1. coverage_calls.c ----------------------------------------------------------------------
    exe = build(d, "coverage_calls")
    cap = os.path.join(d, "cap")
    p = capture(d, exe, cap)
    check("coverage_calls runs under capture", p.returncode == 0, "exit 0", p.stderr[-2000:])
    if p.returncode == 0:
        r0, r1 = records(os.path.join(cap, "rank-0.txt")), records(os.path.join(cap, "rank-1.txt"))
        f0, f1 = [r[0] for r in r0], [r[0] for r in r1]
        want0 = ["MPI_Init", "MPI_Comm_idup", "MPI_Wait", "MPI_Ibarrier", "MPI_Wait", "MPI_Iallreduce", "MPI_Wait", "MPI_Isend", "MPI_Wait",
                 "MPI_Isend", "MPI_Wait", "MPI_Mprobe", "MPI_Mrecv", "MPI_Improbe", "MPI_Send", "MPI_Comm_free",
                 "MPI_Finalize"]
        want1 = ["MPI_Init", "MPI_Comm_idup", "MPI_Wait", "MPI_Ibarrier", "MPI_Wait", "MPI_Iallreduce", "MPI_Wait", "MPI_Irecv", "MPI_Wait",
                 "MPI_Irecv", "MPI_Wait", "MPI_Send", "MPI_Mprobe", "MPI_Imrecv", "MPI_Wait", "MPI_Comm_free",
                 "MPI_Finalize"]
        check("rank 0's records: the starts as MPI_Isend, the matched probe", f0 == want0, want0, f0)
        check("rank 1's records: the Startall starts as MPI_Irecv, Mprobe + Imrecv", f1 == want1, want1, f1)
        if f0 == want0 and f1 == want1:
            check("MPI_Comm_idup: MPI_COMM_WORLD (comm 1), the new communicator (comm 3), request 1",
                  r0[1][2:5] == ["1,0,2", "3,0,2", "1"] and r1[1][2:5] == ["1,1,2", "3,1,2", "1"] and
                  r0[2][2] == "1/-2/-1/0", "1,r,2:3,r,2:1 then its Wait", (r0[1], r0[2]))
            # requests: Comm_idup 1, Ibarrier 2, Iallreduce 3, the two starts of one persistent handle 4, 5
            got = [(r0[i][-2], r0[i + 1][2]) for i in (7, 9)] + [(r1[i][-2], r1[i + 1][2]) for i in (7, 9)]
            want = [("4", "4/-2/-1/0"), ("5", "5/-2/-1/0"), ("4", "4/0/1/1000"), ("5", "5/0/1/1000")]
            check("each start of a persistent handle is a new request, completed by its MPI_Wait", got == want, want, got)
            check("the nonblocking collectives' requests complete like sends",
                  [r0[4][2], r0[6][2], r1[4][2], r1[6][2]] == ["2/-2/-1/0", "3/-2/-1/0"] * 2,
                  "2/-2/-1/0 and 3/-2/-1/0", [r0[4], r0[6]])
            check("MPI_Mprobe from MPI_ANY_SOURCE: peer -1, the status names rank 1 and 500 bytes",
                  r0[11][2:4] == ["-1", "2"] and r0[11][5] == "1,2,500", "-1:2:...:1,2,500", r0[11])
            check("MPI_Improbe that found nothing: flag 0, status -", r0[13][5:7] == ["0", "-"], "0:-", r0[13])
            check("MPI_Imrecv's request is completed by its MPI_Wait", r1[13][-2] == "6" and r1[14][2] == "6/0/3/8",
                  "req 6, done 6/0/3/8", (r1[13], r1[14]))
        out = os.path.join(d, "out")
        os.mkdir(out)
        code, err = simfab(["convert", cap, "--ti", os.path.join(out, "out.ti"), "--goal", os.path.join(out, "out.goal"),
                            "--reduce-flops", "0", "--comm-creation", "simulated", "--quiet"])
        check("coverage_calls converts", code == 0, "exit 0", err)
        if code == 0:
            # The TI without the measured computations (and the call sites, which name the build).
            want = {0: ["init", "comm_dup 1", "ibarrier comm=1", "wait -1 -1 -2 comm=1", "iallreduce 1 0 1",
                        "wait -1 -1 -2", "isend 1 1 1000 6", "wait 0 1 1", "isend 1 1 1000 6", "wait 0 1 1",
                        "recv 1 2 500 6", "send 1 3 1 0", "comm_free 1", "finalize"],
                    1: ["init", "comm_dup 1", "ibarrier comm=1", "wait -1 -1 -2 comm=1", "iallreduce 1 0 1",
                        "wait -1 -1 -2", "irecv 0 1 1000 6", "wait 0 1 1", "irecv 0 1 1000 6", "wait 0 1 1",
                        "send 0 2 500 6", "recv 0 3 8 6", "comm_free 1", "finalize"]}
            stripped = os.path.join(d, "stripped")
            os.mkdir(stripped)
            for r in (0, 1):
                lines = open(os.path.join(out, "out.ti_files", f"rank-{r}.ti")).read().split("\n")
                ops = [l for l in lines if l and not l.startswith("#") and l.split()[1] not in ("compute", "sleep", "location")]
                got = [l.split(" ", 1)[1] for l in ops]
                check(f"rank {r}'s TI: nonblocking collectives as i<coll> + a collective wait, each start as "
                      "isend/irecv, the matched probe as the receive", got == want[r], want[r], got)
                open(os.path.join(stripped, f"rank-{r}.ti"), "w").write("\n".join(ops) + "\n")
            open(os.path.join(stripped, "out.ti"), "w").write("rank-0.ti\nrank-1.ti\n")
            goal = open(os.path.join(out, "out.goal")).read()
            open(os.path.join(stripped, "out.goal"), "w").write(re.sub(r"calc [0-9]+", "calc 0", goal))
            # Closed form (LogGOPS, net/loggops/loggops_network.hpp: arrival t + o + L, receiver done
            # at max(arrival, CPU, NIC free) + o + (s-1)G, sender NIC busy g + (s-1)G):
            #   comm_dup (simulated: an 8 B exchange) ends at D = 2o + L + 7G
            #   ibarrier (one 0 B exchange)         ends at B  = D + 2o + L
            #   iallreduce (one 4 B exchange)       ends at T1 = B + 2o + L + 3G
            #   rank 0's second isend waits for its NIC until T1 + g + 999G; its message arrives before
            #   rank 1 posts the second irecv (at T1 + 2o + L + 999G), so that ends at
            #   T2 = T1 + 3o + L + 1998G; rank 0 is done at T1 + g + 999G + o
            #   rank 1's 500 B send at T2: rank 0's recv (the Mprobe) ends at T3 = T2 + 2o + L + 499G
            #   rank 0's 8 B send at T3: rank 0 finishes at T3 + o, rank 1 at T3 + 2o + L + 7G
            D = 2 * o + L + 7 * G
            B = D + 2 * o + L
            T1 = B + 2 * o + L + 3 * G
            T2 = T1 + 3 * o + L + 1998 * G
            T3 = T2 + 2 * o + L + 499 * G
            want_finish = [T3 + o, T3 + 2 * o + L + 7 * G]
            for kind, path in (("trace", "out.ti"), ("goal", "out.goal")):
                res = replay("coverage_calls " + kind, ["--" + kind, os.path.join(stripped, path)])
                if res:
                    got = ([x["finish_ps"] for x in res["ranks"]], res["messages"])
                    check(f"coverage_calls closed form ({kind}): ranks finish at {want_finish} ps, 10 messages",
                          got == (want_finish, 10), (want_finish, 10), got)

    # ---- 2. refusal at MPI_Init -------------------------------------------------------------------
    exe = build(d, "unrecorded_call")
    cap = os.path.join(d, "refused")
    p = capture(d, exe, cap)
    msg = ("simfab-capture: rank 0: the program calls MPI_Win_create, MPI_Win_fence and MPI_Win_free, which "
           "simfab-capture does not record; its trace would replay wrongly")
    check("a program calling MPI_Win_fence is refused at MPI_Init: exit 2, one message from rank 0",
          p.returncode == 2 and p.stderr.count(msg) == 1 and p.stderr.count("simfab-capture:") == 1
          and "SIMFAB_CAPTURE_ALLOW_UNRECORDED=1" in p.stderr and "unrecorded_call: done" not in p.stdout,
          "exit 2 and: " + msg, f"exit {p.returncode}: {p.stderr[-1500:]}")
    check("the refused run leaves no trace files", not os.path.exists(cap) or not os.listdir(cap), "none",
          os.path.exists(cap) and os.listdir(cap))
    cap = os.path.join(d, "allowed")
    p = capture(d, exe, cap, extra_env={"SIMFAB_CAPTURE_ALLOW_UNRECORDED": "1"})
    warn = ("simfab-capture: warning: the program calls MPI_Win_create, MPI_Win_fence and MPI_Win_free, which "
            "simfab-capture does not record")
    check("SIMFAB_CAPTURE_ALLOW_UNRECORDED=1: the run goes on with one warning",
          p.returncode == 0 and p.stderr.count(warn) == 1 and "unrecorded_call: done" in p.stdout
          and sorted(os.listdir(cap)) == ["rank-0.txt", "rank-1.txt"],
          "exit 0, the warning once, rank-0.txt and rank-1.txt", f"exit {p.returncode}: {p.stderr[-1500:]}")

    # The Fortran bindings are not wrapped: a Fortran program is refused at its MPI_INIT.
    if shutil.which("mpifort"):
        exe = os.path.join(d, "unrecorded_fortran")
        p = subprocess.run(["mpifort", "-o", exe, os.path.join(SRC, "tests", "capture", "unrecorded_fortran.f90")],
                           capture_output=True, text=True)
        check("mpifort unrecorded_fortran", p.returncode == 0, "exit 0", p.stderr)
        p = capture(d, exe, os.path.join(d, "fortran"))
        msg = ("simfab-capture: rank 0: the program calls mpi_bcast_, mpi_finalize_ and mpi_init_, which "
               "simfab-capture does not record; its trace would replay wrongly")
        check("a Fortran program is refused at its MPI_INIT: exit 2, one message naming its calls",
              p.returncode == 2 and p.stderr.count(msg) == 1 and "unrecorded_fortran: done" not in p.stdout,
              "exit 2 and: " + msg, f"exit {p.returncode}: {p.stderr[-1500:]}")
        p = capture(d, exe, os.path.join(d, "fortran-allowed"), extra_env={"SIMFAB_CAPTURE_ALLOW_UNRECORDED": "1"})
        check("a Fortran program with SIMFAB_CAPTURE_ALLOW_UNRECORDED=1 runs uncaptured with one warning",
              p.returncode == 0 and p.stderr.count("simfab-capture: warning: the program calls mpi_bcast_") == 1
              and "runs uncaptured" in p.stderr and "unrecorded_fortran: done" in p.stdout,
              "exit 0 and the warning", f"exit {p.returncode}: {p.stderr[-1500:]}")
    else:
        print("note: no mpifort: the Fortran refusal is not checked")

    # ---- 3. HPC Challenge --------------------------------------------------------------------------
    hpcc = shutil.which("hpcc")
    example = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
    if hpcc and os.path.exists(example):
        for n, (ps, qs) in ((2, (1, 2)), (4, (2, 2))):
            hd = os.path.join(d, f"hpcc{n}")
            os.mkdir(hd)
            text = re.sub(r"^1000 +Ns", "200          Ns", open(example).read(), flags=re.M)
            text = re.sub(r"^80 +NBs", "20           NBs", text, flags=re.M)
            text = re.sub(r"^2 +Ps", f"{ps}            Ps", text, count=1, flags=re.M)
            text = re.sub(r"^2 +Qs", f"{qs}            Qs", text, count=1, flags=re.M)
            open(os.path.join(hd, "hpccinf.txt"), "w").write(text)
            cap = os.path.join(hd, "cap")
            p = capture(hd, hpcc, cap, n=n, timeout=900)
            out = os.path.join(hd, "hpccoutf.txt")
            res = open(out).read() if os.path.exists(out) else ""
            check(f"hpcc on {n} ranks runs under capture (no refusal) and passes", p.returncode == 0 and
                  "simfab-capture" not in p.stderr and "End of HPC Challenge tests." in res and "FAILED" not in res,
                  "exit 0, End of tests", f"exit {p.returncode}: {p.stderr[-800:]}")
            if p.returncode != 0:
                continue
            ti = os.path.join(hd, "hp.ti")
            code, err = simfab(["convert", cap, "--ti", ti, "--quiet"])
            check(f"hpcc's capture on {n} ranks converts", code == 0, "exit 0", err[-800:])
            if code == 0:
                res = replay(f"hpcc's TI on {n} ranks", ["--trace", ti])
                check(f"hpcc's TI on {n} ranks replays with every message matched", res is not None and
                      res["unmatched_messages"] == 0 and res["messages"] > 1000, "0 unmatched, > 1000 messages",
                      res and (res["messages"], res["unmatched_messages"]))
    else:
        print("note: hpcc is not installed: its section is skipped")

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
