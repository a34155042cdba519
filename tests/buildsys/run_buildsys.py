#!/usr/bin/env python3
"""Build systems with simfab's compiler wrappers (ctest `buildsys`, issue 26).

    run_buildsys.py SIMFAB_BUILD_DIR SOURCE_DIR

  - autotools/: `autoreconf -i && CC=simfab-cc FC=simfab-fc ./configure && make`, unchanged. Its
    run checks (cross compiling?, AC_CHECK_SIZEOF, AC_RUN_IFELSE running MPI_Init/Comm_size) run the
    programs directly, which execs `simfab exec -np 1`; AC_CHECK_FUNCS links against simfab's ABI,
    so MPI_Init and MPI_Ialltoallv are found and MPI_Comm_spawn (which simfab lacks) is not. The
    built ringtime (getopt_long, gettimeofday) reports the LogGOPS hop time of the default cluster
    (2o + L + (s-1)G = 2.8008 us for 1000 bytes, to gettimeofday's microsecond over 40 hops), and fring
    (Fortran) the sum of the ranks, under simfab exec and run directly with SIMFAB_NP;
  - cmake/: the toolchain file with C, C++ (iostreams) and Fortran, POSITION_INDEPENDENT_CODE (CMake adds -fPIE),
    check_symbol_exists, check_function_exists and try_run;
  - a plain simfab-cc link of a call simfab lacks fails, naming it.
Each part exits 77-style (skipped, printed) when its tool (autoreconf, cmake) is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tests", "golden"))
import golden_check  # noqa: E402
HERE = os.path.join(SOURCE, "tests", "buildsys")
SIMFAB = os.path.join(BUILD, "simfab")
TMP = tempfile.mkdtemp(prefix="simfab-buildsys-")
ENV = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))


def check(what, ok, detail=""):
    return golden_check.check(what, ok, "", detail)


def sh(cmd, cwd, env=None, timeout=600):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env or ENV)


def exec_out(np, prog, *args, cwd):
    return sh([SIMFAB, "exec", "-np", str(np), "--quiet", prog, *args], cwd).stdout


# ---- autotools --------------------------------------------------------------------------------
if shutil.which("autoreconf"):
    at = os.path.join(TMP, "autotools")
    shutil.copytree(os.path.join(HERE, "autotools"), at)
    r = sh(["autoreconf", "-i"], at)
    check("autoreconf -i", r.returncode == 0, r.stderr[-2000:])
    env = dict(ENV, CC=os.path.join(BUILD, "simfab-cc"), FC=os.path.join(BUILD, "simfab-fc"))
    r = sh(["./configure"], at, env=env)
    if check("CC=simfab-cc FC=simfab-fc ./configure", r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]):
        log = r.stdout
        for line in ["checking whether we are cross compiling... no", "checking for MPI_Init... yes",
                     "checking for MPI_Ialltoallv... yes", "checking for MPI_Comm_spawn... no",
                     "checking for getopt_long... yes", "checking size of long... 8", "checking size of MPI_Comm... 4",
                     "checking whether MPI programs run... yes"]:
            check(f"configure: {line}", line in log, log[-3000:])
        r = sh(["make"], at, env=env)
        if check("make", r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]):
            r = sh([SIMFAB, "exec", "-np", "4", "--quiet", "--cfg", "online/compute=declared", "./ringtime", "-n",
                    "10", "--bytes", "1000"], at)
            m = re.search(r"ringtime: 4 ranks, 10 laps of 1000 bytes: ([0-9.]+) us per hop \(sizeof\(long\) 8, "
                          r"HAVE_MPI_COMM_SPAWN no\)", r.stdout)
            # 40 hops timed with gettimeofday's whole microseconds: within 1 us / 40 of 2.8008 us
            check("ringtime under simfab exec: 2o + L + (s-1)G = 2.8008 us per hop, no MPI_Comm_spawn",
                  m is not None and abs(float(m.group(1)) - 2.8008) <= 0.025, r.stdout + r.stderr)
            r = sh(["./ringtime", "-n", "3"], at)
            check("ringtime run directly: one rank", r.returncode == 0 and "ringtime: 1 ranks, 3 laps" in r.stdout,
                  r.stdout + r.stderr)
            r = sh(["./fring"], at, env=dict(ENV, SIMFAB_NP="3"))
            check("fring run directly with SIMFAB_NP=3", "fring: 3 ranks, token 3" in r.stdout, r.stdout + r.stderr)
            out = exec_out(5, "./fring", cwd=at)
            check("fring under simfab exec -np 5", "fring: 5 ranks, token 10" in out, out)
            r = sh(["./ringtime", "--bogus"], at)
            check("ringtime's own usage error: its message and status", r.returncode == 2 and "usage: ringtime" in r.stderr,
                  (r.returncode, r.stderr))
else:
    print("skip  autotools (no autoreconf)")

# ---- CMake ------------------------------------------------------------------------------------
if shutil.which("cmake"):
    cm = os.path.join(TMP, "cmake")
    r = sh(["cmake", "-S", os.path.join(HERE, "cmake"), "-B", cm,
            "-DCMAKE_TOOLCHAIN_FILE=" + os.path.join(SOURCE, "cmake", "simfab-toolchain.cmake"),
            "-DSIMFAB_BUILD_DIR=" + BUILD], TMP)
    if check("cmake with simfab-toolchain.cmake (C and Fortran)", r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]):
        summary = open(os.path.join(cm, "summary.txt")).read()
        check("check_symbol_exists(MPI_Iallreduce): found", "HAVE_MPI_IALLREDUCE=1" in summary, summary)
        check("check_function_exists(MPI_Comm_spawn): not found", "HAVE_MPI_COMM_SPAWN=\n" in summary, summary)
        check("try_run: the probe ran as one rank", "PROBE=0:" in summary and "ranks=1" in summary, summary)
        r = sh(["cmake", "--build", cm], TMP)
        if check("cmake --build (-fPIE from POSITION_INDEPENDENT_CODE)", r.returncode == 0, r.stdout[-2000:]):
            out = exec_out(3, os.path.join(cm, "ringtime"), "-n", "4", cwd=cm)
            check("CMake-built ringtime runs", "ringtime: 3 ranks, 4 laps of 8 bytes" in out, out)
            out = exec_out(3, os.path.join(cm, "fring"), cwd=cm)
            check("CMake-built fring runs", "fring: 3 ranks, token 3" in out, out)
            r = sh([SIMFAB, "exec", "-np", "3", "--quiet", os.path.join(cm, "hello_cxx"), "hi"], cm)
            check("CMake-built C++ (-fPIE, std::cout, stderr) runs",
                  "hello_cxx: 3 ranks, sum of ranks 3" in r.stdout and "rank 2 says hi" in r.stderr,
                  r.stdout + r.stderr)
else:
    print("skip  CMake (no cmake)")

# ---- a call simfab lacks does not link --------------------------------------------------------
r = sh([os.path.join(BUILD, "simfab-cc"), "-o", os.path.join(TMP, "unimplemented"),
        os.path.join(SOURCE, "tests", "online", "bad", "unimplemented.c")], TMP)
check("simfab-cc refuses to link MPI_Comm_spawn, naming it",
      r.returncode != 0 and "undefined reference to `MPI_Comm_spawn'" in r.stderr, r.stderr)

shutil.rmtree(TMP, ignore_errors=True)
golden_check.finish("run_buildsys")
