#!/usr/bin/env python3
"""Fortran programs in `simfab exec` (ctest `fortran_exec`, issue 26).

    run_fortran.py SIMFAB_BUILD_DIR SOURCE_DIR [--quick]

Builds the programs of tests/fortran with simfab-fc / simfab-f77 (mixed.c with simfab-cc) and runs
them with `simfab exec`:
  - cg.f90 (use mpi; Sendrecv halos, Allreduce), ft.f90 (include 'mpif.h'; Alltoall of
    MPI_DOUBLE_COMPLEX, Reduce), lu.f (fixed-form F77, COMMON blocks, a pipelined wavefront of
    blocking Send/Recv of an MPI_TYPE_VECTOR) verify their own results (VERIFICATION SUCCESSFUL)
    at several rank counts and under the loggops, flow and smpi models;
  - features.f90 + mixed.c print one line per interface detail (1-based Waitany/Waitsome
    indices, MPI_STATUS(ES)_IGNORE, MPI_IN_PLACE, LOGICAL flags, CHARACTER in and out,
    MPI_2DOUBLE_PRECISION + MPI_MAXLOC, a Fortran user operation, a vector type, split, attributes,
    info, a C routine taking a Fortran handle, SAVE and COMMON private per rank);
  - attrs.f90: keyvals with Fortran copy and delete callbacks, the predefined MPI_COMM_DUP_FN,
    MPI_*_NULL_COPY_FN and MPI_*_NULL_DELETE_FN, a datatype attribute, MPI-1's MPI_KEYVAL_CREATE,
    MPI_ATTR_PUT and MPI_ATTR_GET;
  - with Open MPI's mpif90/mpif77/mpicc and mpirun on this machine, the same sources built for the
    real MPI print the same lines (timings and floating-point residuals left out: their reduction
    order is the library's);
  - cg.f90 built with SimGrid's smpif90 and run by smpirun (communication only) prints the time
    `simfab exec` prints for it (6 digits), under SMPI's ompi and mpich collectives;
  - the predicted time is deterministic under declared compute (online/compute=declared): two
    runs of lu give byte-identical JSON;
  - STOP n / ERROR STOP n end the rank with status n (the run stops with it, STOP's message on
    stderr); a plain STOP before MPI_Finalize is reported as such; a program calling a Fortran MPI
    routine simfab lacks does not link (simfab-f77), and linked anyway is refused at load, naming
    it (exit 2).
--quick (the sanitizer build): one rank count and model per program, no real-MPI comparison.
Exits 77 (skipped) without gfortran.
"""
import os
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
QUICK = "--quick" in sys.argv
HERE = os.path.join(SOURCE, "tests", "fortran")
SIMFAB = os.path.join(BUILD, "simfab")
TMP = tempfile.mkdtemp(prefix="simfab-fortran-")


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd, timeout=300):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=TMP)


def build(compiler, sources, out, extra=()):
    r = sh([compiler, "-O2", "-o", os.path.join(TMP, out), *extra, *[os.path.join(HERE, s) for s in sources]])
    if not check(f"{os.path.basename(compiler)} builds {out}", r.returncode == 0, r.stderr[-2000:]):
        return None
    return os.path.join(TMP, out)


def exec_run(np, prog, *args, cfg=(), quiet=True):
    cmd = [SIMFAB, "exec", "-np", str(np)] + [a for c in cfg for a in ("--cfg", c)]
    cmd += (["--quiet"] if quiet else []) + [prog, *args]
    return sh(cmd)


def comparable(text):
    """The lines a real MPI prints alike: not timings, not floating-point residuals; sorted, since
    the ranks' lines interleave as they may."""
    return sorted(l for l in text.splitlines() if " time " not in l and "residual" not in l and l.strip())


if not shutil.which("gfortran"):
    print("gfortran not found: skipped")
    sys.exit(77)

fc, f77, cc = (os.path.join(BUILD, w) for w in ("simfab-fc", "simfab-f77", "simfab-cc"))
mixed = os.path.join(TMP, "mixed.o")
r = sh([cc, "-c", "-o", mixed, os.path.join(HERE, "mixed.c")])
check("simfab-cc -c builds mixed.c", r.returncode == 0, r.stderr)
programs = {
    "cg": build(fc, ["cg.f90"], "cg"),
    "ft": build(fc, ["ft.f90"], "ft"),
    "lu": build(f77, ["lu.f"], "lu"),
    "features": build(fc, ["features.f90"], "features", [mixed]),
    "attrs": build(fc, ["attrs.f90"], "attrs"),
    "stop": build(fc, ["stop.f90"], "stop"),
    "missing": build(f77, ["missing.f"], "missing", ["-Wl,--unresolved-symbols=ignore-all"]),
}
ARGS = {"cg": ["-n", "600", "-i", "1000"], "ft": ["24"], "lu": ["48", "40", "8"], "features": [], "attrs": []}
NPS = {"cg": [4] if QUICK else [1, 3, 4], "ft": [4] if QUICK else [1, 2, 4], "lu": [4] if QUICK else [2, 3, 4],
       "features": [4] if QUICK else [2, 4]}
MODELS = ["loggops"] if QUICK else ["loggops", "flow", "smpi"]

# ---- the programs verify themselves ----------------------------------------------------------
outputs = {}
for name in ["cg", "ft", "lu"]:
    if not programs[name]:
        continue
    for np in NPS[name]:
        for model in MODELS if np == NPS[name][-1] else ["loggops"]:
            r = exec_run(np, programs[name], *ARGS[name], cfg=["network/model=" + model])
            check(f"{name} -np {np} ({model}) verifies", r.returncode == 0 and
                  f"{name}: VERIFICATION SUCCESSFUL" in r.stdout, r.stdout + r.stderr[-1500:])
            outputs[(name, np)] = r.stdout

EXPECTED_FEATURES = [
    "waitany index in 1..3: T  tag = index: T",
    "waitsome indices in 1..3: T",
    "testany on null requests: flag T index undefined: T",
    "maxloc   4.0  2.0 in place agrees: T",
    "user op absmax   -3.0",
    "row 2 as a vector type:   2.0  5.0  8.0",
    'split: rank 1 is 1 of "half 1" (6 chars)',
    "tag_ub present: T at least 32767: T",
    "iprobe with nothing pending: F",
    'info value "4" found T',
    "c_side sum of ranks: 6",
    "private COMMON counter: 2",
    "MPI-IO read back   101  102  103  104 count 4",
]
if programs["features"]:
    r = exec_run(4, programs["features"])
    outputs[("features", 4)] = r.stdout
    lines = r.stdout.splitlines()
    check("features exits 0", r.returncode == 0, r.stderr[-1500:])
    for want in EXPECTED_FEATURES:
        check(f"features: {want}", want in lines, r.stdout)
    check("features: the ring's messages (31, 32, 33 at rank 0)", "ring received   31.0  32.0  33.0" in lines, r.stdout)

    r = sh([SIMFAB, "exec", "-np", "4", "--quiet", "--tag-output", programs["features"]])
    check("features --tag-output: gfortran's units flushed per slice, lines tagged",
          "[1,0]<stdout>:waitany index in 1..3: T  tag = index: T" in r.stdout.splitlines() and
          "[1,1]<stdout>:split: rank 1 is 1 of \"half 1\" (6 chars)" in r.stdout.splitlines(), r.stdout)

if programs["attrs"]:
    for np in [3] if QUICK else [1, 3]:
        r = exec_run(np, programs["attrs"])
        outputs[("attrs", np)] = r.stdout
        lines = r.stdout.splitlines()
        check(f"attrs -np {np}: Fortran keyval callbacks, predefined MPI_*_FN, type attributes, MPI-1 forms",
              r.returncode == 0 and len(lines) == 5 and all(l.endswith(": T") for l in lines[:4]) and
              lines[4] == "attrs: done", r.stdout + r.stderr[-1500:])

# ---- determinism ------------------------------------------------------------------------------
if programs["lu"]:
    docs = []
    for _ in range(2):
        j = os.path.join(TMP, f"lu{len(docs)}.json")
        r = sh([SIMFAB, "exec", "-np", "3", "--quiet", "--reproducible", "--json", j, "--cfg",
                "online/compute=declared", programs["lu"], *ARGS["lu"]])
        docs.append(open(j).read() if r.returncode == 0 and os.path.exists(j) else None)
    check("lu: the same run twice gives byte-identical JSON", docs[0] is not None and docs[0] == docs[1])

# ---- STOP, ERROR STOP, a routine simfab lacks ------------------------------------------------
if programs["stop"]:
    r = exec_run(3, programs["stop"], "1", "3")
    check("STOP 3 on rank 1: exit status 3, 'STOP 3' and the rank named", r.returncode == 3 and
          "STOP 3" in r.stderr and "rank 1 exited with status 3" in r.stderr, (r.returncode, r.stderr))
    r = exec_run(3, programs["stop"], "0", "7", "error")
    check("ERROR STOP 7: exit status 7", r.returncode == 7 and "ERROR STOP 7" in r.stderr, (r.returncode, r.stderr))
    r = exec_run(3, programs["stop"], "2", "0")
    check("a plain STOP before MPI_Finalize is reported", r.returncode != 0 and
          "rank 2 called MPI_Init but ended without calling MPI_Finalize" in r.stderr, (r.returncode, r.stderr))
r = sh([f77, "-o", os.path.join(TMP, "missing_plain"), os.path.join(HERE, "missing.f")])
check("simfab-f77 refuses to link a routine simfab lacks, naming it", r.returncode != 0 and
      "undefined reference to `mpi_close_port_'" in r.stderr, r.stderr)
if programs["missing"]:  # linked anyway: refused at load
    r = exec_run(2, programs["missing"])
    check("a Fortran routine simfab lacks is refused at load, named", r.returncode == 2 and
          "the program calls MPI_CLOSE_PORT (Fortran), which simfab does not implement" in r.stderr,
          (r.returncode, r.stderr))

# ---- the same sources on Open MPI print the same lines ----------------------------------------
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]
if not QUICK and all(shutil.which(t) for t in ("mpif90", "mpif77", "mpicc", "mpirun")):
    real_mixed = os.path.join(TMP, "mixed_real.o")
    sh(["mpicc", "-c", "-o", real_mixed, os.path.join(HERE, "mixed.c")])
    relaxed = ["-fallow-argument-mismatch", "-w"]
    real = {"cg": build("mpif90", ["cg.f90"], "cg_real", relaxed), "ft": build("mpif90", ["ft.f90"], "ft_real", relaxed),
            "lu": build("mpif77", ["lu.f"], "lu_real", relaxed),
            "features": build("mpif90", ["features.f90"], "features_real", relaxed + [real_mixed]),
            "attrs": build("mpif90", ["attrs.f90"], "attrs_real", relaxed)}
    for name, np in [("cg", 4), ("ft", 4), ("lu", 4), ("features", 4), ("attrs", 3)]:
        if not real[name] or (name, np) not in outputs:
            continue
        r = sh(MPIRUN + ["-np", str(np), real[name], *ARGS[name]])
        check(f"{name} on Open MPI prints what it prints in simfab", r.returncode == 0 and
              comparable(r.stdout) == comparable(outputs[(name, np)]), (comparable(r.stdout), comparable(outputs[(name, np)])))
else:
    print("skip  the comparison with Open MPI (--quick, or no mpif90/mpirun)")

# ---- side by side with SimGrid's SMPI (smpif90), communication only -----------------------------
if not QUICK and programs["cg"] and all(shutil.which(t) for t in ("smpif90", "smpirun")):
    platform = os.path.join(SOURCE, "validation", "simgrid", "platforms", "cluster_backbone.xml")
    hostfile = os.path.join(TMP, "hosts.txt")
    with open(hostfile, "w") as f:
        f.write("".join(f"node-{i}\n" for i in range(4)))
    smpi_cg = os.path.join(TMP, "cg_smpi")
    r = sh(["smpif90", "-O2", "-o", smpi_cg, os.path.join(HERE, "cg.f90")])
    if check("smpif90 builds cg.f90", r.returncode == 0, r.stderr):
        for selector in ["ompi", "mpich"]:
            ours = sh([SIMFAB, "exec", "-np", "4", "--quiet", "--platform", platform, "--hostfile", hostfile, "--cfg",
                       "network/model=smpi", "--cfg", "online/compute=declared", "--cfg", f"smpi/coll-selector={selector}",
                       programs["cg"], "-n", "600", "-i", "1000"])
            theirs = sh(["smpirun", "-np", "4", "-platform", platform, "-hostfile", hostfile,
                         "--cfg=smpi/simulate-computation:no", f"--cfg=smpi/coll-selector:{selector}",
                         "--log=root.thres:critical", smpi_cg, "-n", "600", "-i", "1000"])
            times = [[l for l in x.stdout.splitlines() if l.startswith("cg: time")] for x in (ours, theirs)]
            check(f"cg.f90 -np 4 ({selector} collectives): simfab exec prints SMPI's time", ours.returncode == 0 and
                  theirs.returncode == 0 and times[0] and times[0] == times[1], (times, ours.stderr[-500:], theirs.stderr[-500:]))
else:
    print("skip  the comparison with SMPI (--quick, or no smpif90/smpirun)")

shutil.rmtree(TMP, ignore_errors=True)
golden_check.finish("run_fortran")
