#!/usr/bin/env python3
"""SMPI's poll times in simfab exec (ctest `online_smpi_polls`, issue 26).

    run_polls.py SIMFAB_BUILD_DIR SOURCE_DIR

polls.c polls for a message sent at time S (a declared computation on cluster16.xml's 10 Gf hosts)
with MPI_Test, MPI_Testany, MPI_Testsome, MPI_Iprobe (then MPI_Recv) and MPI_Probe. Under network/model=smpi:
  - closed form: with c = smpi/test = smpi/iprobe = 100 us growing by one c per failed poll, the
    k-th poll ends at c k (k+1) / 2; a test sees the message at the first such time after it
    arrived (S + 5.039 us on cluster16's links), an iprobe at the first after S, and its MPI_Recv
    then takes the 5.039 us transfer (SMPI starts a transfer at its match);
  - with smpicc/smpirun (SimGrid 3.32) on this machine: the same program prints the same polls
    and times to the nanosecond;
  - smpi/grow-injected-times=no: every poll costs c;
  - other models keep their cheap polls (online/poll-cost): the message is seen within 1 us of its
    arrival.
"""
import os
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
HERE = os.path.join(SOURCE, "tests", "online", "smpi")
PLATFORM = os.path.join(SOURCE, "examples", "platforms", "cluster16.xml")
TMP = tempfile.mkdtemp(prefix="simfab-polls-")
ENV = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))
C = 1e-4
TRANSFER = 5.039e-6


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=TMP, env=ENV)


def parse(out):
    """`polls: MODE: K polls, message seen at T s, value V` -> (K, T)."""
    for line in out.splitlines():
        if line.startswith("polls: "):
            words = line.split()
            return int(words[2]), float(words[7])
    return None


def closed_form(mode, send, grow=True):
    if mode == "probe":
        mode = "iprobe"
    ready = send + (TRANSFER if mode.startswith("test") else 0)
    k = 1
    while (C * k * (k + 1) / 2 if grow else C * k) < ready - 1e-12:
        k += 1
    t = C * k * (k + 1) / 2 if grow else C * k
    return k, t + (TRANSFER if mode == "iprobe" else 0)


prog = os.path.join(TMP, "polls")
r = sh([os.path.join(BUILD, "simfab-cc"), "-O2", "-o", prog, os.path.join(HERE, "polls.c")])
check("simfab-cc builds polls.c", r.returncode == 0, r.stderr)
smpi = None
if shutil.which("smpicc") and shutil.which("smpirun"):
    smpi = os.path.join(TMP, "polls_smpi")
    r = sh(["smpicc", "-O2", "-o", smpi, os.path.join(HERE, "polls.c")])
    if r.returncode:
        smpi = None
        print("skip  SMPI side by side (smpicc failed)")

for arrival in ["0.0371", "0.1", "0.25"]:
    send = float(arrival) / 10
    for mode in ["test", "testany", "testsome", "iprobe", "probe"]:
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", "2", "--quiet", "--platform", PLATFORM, "--cfg",
                "network/model=smpi", "--cfg", "online/compute=declared", prog, mode, arrival])
        got = parse(r.stdout)
        k, t = closed_form(mode, send)
        check(f"smpi {mode}, message sent at {send * 1e3:.2f} ms: {0 if mode == 'probe' else k} polls, seen at "
              f"{t * 1e3:.6f} ms", got is not None and got[0] == (0 if mode == "probe" else k) and abs(got[1] - t) < 1e-9,
              (got, r.stderr[-500:]))
        if smpi:
            s = sh(["smpirun", "-np", "2", "-platform", PLATFORM, "--log=root.thres:critical",
                    "--cfg=smpi/simulate-computation:no", smpi, mode, arrival])  # no host-timed bursts
            check(f"... and SMPI (smpirun) agrees", parse(s.stdout) == got, (parse(s.stdout), got))

r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", "2", "--quiet", "--platform", PLATFORM, "--cfg", "network/model=smpi",
        "--cfg", "online/compute=declared", "--cfg", "smpi/grow-injected-times=no", prog, "test", "0.1"])
k, t = closed_form("test", 0.01, grow=False)
got = parse(r.stdout)
check(f"smpi/grow-injected-times=no: {k} polls of 100 us", got is not None and got[0] == k and abs(got[1] - t) < 1e-9,
      got)
for model in ["loggops", "flow"]:
    r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", "2", "--quiet", "--platform", PLATFORM, "--cfg",
            "network/model=" + model, "--cfg", "online/compute=declared", prog, "test", "0.1"])
    got = parse(r.stdout)
    check(f"{model}: polls stay cheap (the message seen within 1 us of 10 ms + its transfer)",
          got is not None and 0.01 < got[1] < 0.01 + 2e-5, got)

shutil.rmtree(TMP, ignore_errors=True)
golden_check.finish("run_polls")
