#!/usr/bin/env python3
"""Calls SimGrid 3.32 refuses but simfab runs (issue 34, src/mpi/coll/smpi_refusals.hpp): under
network/model=smpi, a TI replay whose collectives SimGrid would abort on (alltoall 'pair' on 6
ranks, forced or chosen by SimGrid's mpich selector on 5; reduce 'scatter_gather' with fewer
elements than ranks on 6; bcast 'ompi_split_bintree' of a buffer too small to split) still
succeeds, and stderr names each difference exactly once however many ranks and calls meet it.
Other models, and inputs SimGrid accepts (8 ranks), print nothing.

usage: run_smpi_refusals.py SIMFAB SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PLATFORM = os.path.join(SRC, "examples/platforms/cluster16.xml")
WARNING = "simfab: warning: SimGrid 3.32 refuses "


def trace(ranks, actions):
    """A shared TI trace: every rank runs `actions` (sizes in the datatype's elements)."""
    lines = []
    for r in range(ranks):
        lines += [f"{r} init"] + [f"{r} {a}" for a in actions] + [f"{r} finalize"]
    return "\n".join(lines) + "\n"


def run(ranks, actions, cfg):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.ti")
        with open(path, "w") as f:
            f.write(trace(ranks, actions))
        args = [SIMFAB, "run", "--platform", PLATFORM, "--trace", path]
        for c in cfg:
            args += ["--cfg", c]
        p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def warnings(stderr):
    return [l for l in stderr.splitlines() if l.startswith(WARNING)]


PAIR6 = ("simfab: warning: SimGrid 3.32 refuses alltoall 'pair' on 6 ranks (needs a power of two); "
         "simfab runs it anyway, with partners r+i and r-i")
SMPI = "network/model=smpi"

# Forced: two alltoalls on 6 ranks, every rank builds each: one warning, and the run completes.
code, so, se = run(6, ["alltoall 1000 1000 6 6", "compute 1000", "alltoall 1000 1000 6 6"], [SMPI, "smpi/alltoall=pair"])
check("forced pair on 6: exit 0", code == 0, 0, se)
check("forced pair on 6: one warning", warnings(se) == [PAIR6], [PAIR6], warnings(se))
check("forced pair on 6: a summary on stdout", so.strip() != "" and WARNING not in so, "a summary", so[:200])

# On 8 ranks SimGrid runs it: no warning. Under another model: no warning either.
code, _, se = run(8, ["alltoall 1000 1000 6 6"], [SMPI, "smpi/alltoall=pair"])
check("forced pair on 8: exit 0, silent", code == 0 and warnings(se) == [], [], warnings(se))
code, _, se = run(6, ["alltoall 1000 1000 6 6"], ["network/model=loggops", "smpi/alltoall=pair"])
check("pair on 6 under loggops: exit 0, silent", code == 0 and warnings(se) == [], [], warnings(se))

# Selected: SimGrid's mpich selector picks pair for an odd P and 32 KiB blocks or more.
PAIR5 = PAIR6.replace("on 6 ranks", "on 5 ranks")
code, _, se = run(5, ["alltoall 40000 40000 6 6"] * 3, [SMPI, "smpi/coll-selector=mpich"])
check("mpich selector, pair on 5: exit 0", code == 0, 0, se)
check("mpich selector, pair on 5: one warning", warnings(se) == [PAIR5], [PAIR5], warnings(se))

# reduce scatter_gather with 3 doubles on 6 ranks (SimGrid: MPI_ERR_TRUNCATE), and a bcast of 100 B
# by ompi_split_bintree (SimGrid: SMP_linear's crash); both twice.
code, _, se = run(6, ["reduce 3 0 1 0", "reduce 3 0 1 0", "bcast 100 2 6", "bcast 100 2 6"],
                  [SMPI, "smpi/reduce=scatter_gather", "smpi/bcast=ompi_split_bintree"])
expected = [
    "simfab: warning: SimGrid 3.32 refuses reduce 'scatter_gather' on 6 ranks (fewer elements than ranks, not a "
    "power of two: MPI_ERR_TRUNCATE); simfab runs it anyway",
    "simfab: warning: SimGrid 3.32 refuses bcast 'ompi_split_bintree' on 6 ranks (a half shorter than one segment: "
    "its SMP_linear fallback crashes smpirun -replay); simfab runs split-binary instead",
]
check("scatter_gather and split_bintree: exit 0", code == 0, 0, se)
check("scatter_gather and split_bintree: one warning each", warnings(se) == expected, expected, warnings(se))

golden_check.finish("run_smpi_refusals.py")
