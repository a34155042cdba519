#!/usr/bin/env python3
"""The MPI calls around the communication (ctest `online_more`, issue 26).

    run_more.py SIMFAB_BUILD_DIR SOURCE_DIR

  - attributes.c, built with simfab-cc -DMPI1, at 2, 3 and 5 ranks: every line OK (attributes and
    keyvals with their callbacks, error handlers, group ranges, info, window names, Fortran 90
    types, MPI-1's removed names);
  - the same source on Open MPI (mpicc, without MPI-1's names, which Open MPI 4 removed) prints the
    same lines: the expectations are the standard's, not simfab's;
  - rma_more.c at 2, 3 and 4 ranks: dynamic windows, request-based operations, shared-memory
    windows, windows on a split communicator and on MPI_COMM_SELF;
  - mpiio.c at 1, 3 and 4 ranks: MPI-IO's common calls read back what they wrote (explicit
    offsets, a strided view, file pointers, _all and _ordered forms, error codes, delete), no file
    left behind, and one 1 MB write costs io/latency + bytes / io/write-bandwidth (1050 us by
    default, 101 ms with 1 ms and 80 Mb/s); Open MPI prints the same lines;
  - comms_more.c at 1, 2, 5 and 8 ranks: MPI_Comm_create_group (called by the group's members
    only), MPI_Comm_idup (other traffic before the wait), MPI_Mprobe/MPI_Improbe/MPI_Mrecv/MPI_Imrecv
    (the matched message is taken by no other receive; MPI_MESSAGE_NO_PROC; MPI_Imrecv into a
    strided type completed by MPI_Test); Open MPI prints the same
    lines;
  - coverage against SimGrid 3.32: every function SMPI's smpi.h declares outside its "not yet
    implemented" block is declared by simfab's mpi.h, except those listed in
    missing_vs_smpi.txt (the list shrinks as functions land: a listed function that simfab now
    declares, or a missing one not listed, fails the test). Skipped without libsimgrid-dev.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
HERE = os.path.join(SOURCE, "tests", "online", "more")
TMP = tempfile.mkdtemp(prefix="simfab-more-")
ENV = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=TMP, env=ENV)


prog = os.path.join(TMP, "attributes")
r = sh([os.path.join(BUILD, "simfab-cc"), "-DMPI1", "-Wall", "-Werror", "-o", prog, os.path.join(HERE, "attributes.c")])
simfab_lines = None
if check("simfab-cc builds attributes.c (with MPI-1's names)", r.returncode == 0, r.stderr):
    for np in [2, 3, 5]:
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", str(np), "--quiet", prog])
        lines = r.stdout.splitlines()
        wrong = [l for l in lines if not l.endswith(": OK") and l != "attributes: all OK"]
        check(f"attributes -np {np}: {len(lines) - 1} features OK", r.returncode == 0 and not wrong and
              "attributes: all OK" in lines and len(lines) >= 25, wrong or r.stderr[-2000:])
        simfab_lines = lines

if shutil.which("mpicc") and shutil.which("mpirun") and simfab_lines:
    real = os.path.join(TMP, "attributes_real")
    r = sh(["mpicc", "-o", real, os.path.join(HERE, "attributes.c")])
    if check("mpicc builds attributes.c", r.returncode == 0, r.stderr):
        r = sh(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "3", real])
        real_lines = r.stdout.splitlines()
        check("Open MPI prints the same lines (but MPI-1's)", r.returncode == 0 and real_lines and
              all(l in simfab_lines for l in real_lines) and "attributes: all OK" in real_lines, real_lines)
else:
    print("skip  the comparison with Open MPI")

# ---- one-sided beyond fixed windows (Open MPI 4.1's osc components fail on this machine's windows
# over MPI_COMM_SELF and shared memory, so the expectations are the standard's only) -------------
prog = os.path.join(TMP, "rma_more")
r = sh([os.path.join(BUILD, "simfab-cc"), "-Wall", "-Werror", "-o", prog, os.path.join(HERE, "rma_more.c")])
if check("simfab-cc builds rma_more.c", r.returncode == 0, r.stderr):
    for np in [2, 3, 4]:
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", str(np), "--quiet", prog])
        lines = r.stdout.splitlines()
        wrong = [l for l in lines if not l.endswith(": OK") and l != "rma_more: all OK"]
        check(f"rma_more -np {np}: {len(lines) - 1} features OK", r.returncode == 0 and not wrong and
              "rma_more: all OK" in lines and len(lines) == 5, wrong or r.stderr[-2000:])

# ---- MPI-3 communicator creation and matched probes -------------------------------------------
prog = os.path.join(TMP, "comms_more")
r = sh([os.path.join(BUILD, "simfab-cc"), "-Wall", "-Werror", "-o", prog, os.path.join(HERE, "comms_more.c")])
comms_lines = None
if check("simfab-cc builds comms_more.c", r.returncode == 0, r.stderr):
    for np in [1, 2, 5, 8]:
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", str(np), "--quiet", prog])
        lines = r.stdout.splitlines()
        wrong = [l for l in lines if not l.endswith(": OK") and l != "comms_more: all OK"]
        check(f"comms_more -np {np}: {len(lines) - 1} features OK", r.returncode == 0 and not wrong and
              "comms_more: all OK" in lines and len(lines) == 6, wrong or r.stderr[-2000:])
        comms_lines = lines
if shutil.which("mpicc") and shutil.which("mpirun") and comms_lines:
    real = os.path.join(TMP, "comms_real")
    r = sh(["mpicc", "-o", real, os.path.join(HERE, "comms_more.c")])
    r = r if r.returncode else sh(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "5", real])
    check("comms_more on Open MPI prints the same lines", r.returncode == 0 and r.stdout.splitlines() == comms_lines,
          (r.stdout, r.stderr[-1000:]))

# ---- MPI-IO ------------------------------------------------------------------------------------
prog = os.path.join(TMP, "mpiio")
r = sh([os.path.join(BUILD, "simfab-cc"), "-Wall", "-Werror", "-o", prog, os.path.join(HERE, "mpiio.c")])
io_lines = None
if check("simfab-cc builds mpiio.c", r.returncode == 0, r.stderr):
    for np in [1, 3, 4]:
        files = tempfile.mkdtemp(dir=TMP)
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", str(np), "--quiet", "--cfg", "online/compute=declared",
                prog, files, "time"])
        lines = r.stdout.splitlines()
        wrong = [l for l in lines if not l.endswith(": OK") and l not in ("mpiio: all OK",) and "took" not in l]
        check(f"mpiio -np {np}: {len(lines) - 2} features OK, no file left", r.returncode == 0 and not wrong and
              "mpiio: all OK" in lines and not os.listdir(files), wrong or r.stderr[-2000:])
        # io/latency + 1e6 B / io/write-bandwidth = 50 us + 1 ms
        check(f"mpiio -np {np}: a 1 MB write costs io/latency + bytes / io/write-bandwidth = 1050 us",
              "mpiio: one 1 MB write took 1050.000 us" in lines, lines)
        io_lines = [l for l in lines if "took" not in l]
    files = tempfile.mkdtemp(dir=TMP)
    r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", "2", "--quiet", "--cfg", "online/compute=declared", "--cfg",
            "io/latency=1ms", "--cfg", "io/write-bandwidth=80Mbps", prog, files, "time"])
    check("io/latency=1ms, io/write-bandwidth=80Mbps: 1 MB costs 1 ms + 100 ms",
          "mpiio: one 1 MB write took 101000.000 us" in r.stdout, r.stdout + r.stderr)
    # A host's <disk write_bw="40MBps"> (SimGrid's hosts_with_disks.xml idiom): 50 us + 1 MB / 40 MB/s;
    # an explicit io/write-bandwidth still wins.
    disks = os.path.join(SOURCE, "examples/platforms/profiles/boot_and_disks.xml")
    for extra, want in [([], "25050.000"), (["--cfg", "io/write-bandwidth=80Mbps"], "100050.000")]:
        files = tempfile.mkdtemp(dir=TMP)
        r = sh([os.path.join(BUILD, "simfab"), "exec", "-np", "1", "--quiet", "--platform", disks, "--cfg",
                "online/compute=declared"] + extra + [prog, files, "time"])
        check(f"MPI-IO on a host's disk {extra}: a 1 MB write took {want} us",
              f"mpiio: one 1 MB write took {want} us" in r.stdout, r.stdout + r.stderr)
if shutil.which("mpicc") and shutil.which("mpirun") and io_lines:
    real = os.path.join(TMP, "mpiio_real")
    files = tempfile.mkdtemp(dir=TMP)
    r = sh(["mpicc", "-o", real, os.path.join(HERE, "mpiio.c")])
    r = r if r.returncode else sh(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "4", real, files])
    check("mpiio on Open MPI (ROMIO) prints the same lines", r.returncode == 0 and
          sorted(r.stdout.splitlines()) == sorted(io_lines), (r.stdout, io_lines))

smpi_h = "/usr/include/smpi/smpi.h"
if os.path.exists(smpi_h):
    implemented, in_unimplemented = set(), False
    for line in open(smpi_h):
        if "FIXME: these are not yet implemented" in line:
            in_unimplemented = True
        elif "FIXME: End of all the not yet implemented stuff" in line:
            in_unimplemented = False
        m = re.match(r"MPI_CALL\([^,]+,\s*(MPI_\w+)", line)
        if m and not in_unimplemented:
            implemented.add(m.group(1))
    headers = glob.glob(os.path.join(SOURCE, "include", "simfab", "mpi*.h"))  # mpi.h and its parts
    ours = set(re.findall(r"^\S.*?\b(MPI_\w+)\(", "".join(open(h).read() for h in headers), re.M))
    missing = implemented - ours
    listed = {l.split("#")[0].strip() for l in open(os.path.join(HERE, "missing_vs_smpi.txt"))} - {""}
    check(f"SMPI's {len(implemented)} implemented functions: simfab declares all but the {len(listed)} listed",
          not (missing - listed), sorted(missing - listed))
    check("missing_vs_smpi.txt lists no function simfab now has", not (listed - missing), sorted(listed - missing))
    print(f"      still missing: {' '.join(sorted(missing))}")
else:
    print("skip  coverage against SimGrid (no /usr/include/smpi/smpi.h)")

shutil.rmtree(TMP, ignore_errors=True)
golden_check.finish("run_more")
