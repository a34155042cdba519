#!/usr/bin/env python3
"""Writes the imbalanced bulk-synchronous workloads of seed 001's governor and load-balancing
studies (spec tests 20 and 21), here in examples/energy, shaped like the thesis's Ondes3D Chuetsu
run (ch. 9; ../shared/spec/seed-001-energy.md §3.6):

bsp16.ti   16 ranks on a 4x4 grid (rank r on taurus-(r+1)), ITERS iterations of two kernels, each
           followed by a halo exchange with the four grid neighbours (irecv/isend/waitall), as
           Ondes3D's Stress() and Velocity() (the thesis updated the frequency after each). A
           `location ondes3d.c <line>` line names each kernel's MPI call, so the per-task governors
           see two tasks per rank (replay/ti_trace.hpp, Tasks). Work per rank: Table 9.2's idle
           times under the performance governor, w_r = (1 - idle_r) / (1 - idle_16) of the most
           loaded host (taurus-16, 0.66 % idle), whose iteration computes HEAVY_S seconds at
           taurus16.xml's pstate 0; the split between the kernels is 55/45 (the thesis does not
           give it). Temporal variation, which the thesis's trace has and Table 9.3's Adagio run
           shows (it ratchets down): each rank's kernel varies by a slow drift of DRIFT (3 %) over
           a period of 60 iterations, its phase different per rank and kernel (a wave crossing the
           domain), plus a uniform +-0.5 % of noise per execution (deterministic).
bsp64.ti   the same over-decomposed 4x (the thesis's 64-process runs): 64 ranks on an 8x8 grid,
           four per host in 2x2 blocks (bsp64.hostfile), each host carrying the work of its bsp16
           rank split over its four ranks, and a `migrate` point ending every iteration. One
           compute per iteration (the two kernels' work together, one halo exchange) and no
           location lines: the load balancer runs under the performance governor, and this keeps
           the file at 4 MB.
usage: gen_bsp.py [ITERS [HEAVY_S [DRIFT]]]
"""
import math
import os
import sys

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 300
heavy_s = float(sys.argv[2]) if len(sys.argv) > 2 else 1.12
drift = float(sys.argv[3]) if len(sys.argv) > 3 else 0.03
noise = 0.005
period = 60
speed = 2.391e9  # taurus16.xml's pstate 0
here = os.path.dirname(os.path.abspath(__file__))
# Table 9.2: idle time per host (% of the run) under the performance governor, taurus-01 .. -16.
IDLE = [4.00, 25.14, 25.37, 1.65, 24.78, 51.86, 52.17, 25.61, 25.01, 52.14, 51.98, 25.58, 2.94, 25.29, 25.49, 0.66]
KERNELS = [("stress", 0.55, 210), ("velocity", 0.45, 260)]  # name, share of the work, source line


def work_s(host, it, k):
    """Seconds at pstate 0 of kernel k of iteration `it` on `host`."""
    share = KERNELS[k][1]
    wave = drift * math.sin(2 * math.pi * it / period + 0.9 * host + 1.3 * k)
    jitter = noise * (((it * 7919 + host * 104729 + k * 1299709) % 1000) / 500.0 - 1)
    return (1 - IDLE[host] / 100) / (1 - IDLE[15] / 100) * share * heavy_s * (1 + wave + jitter)


def write(name, n, halo, migrate, kernels, test):
    """An n x n grid of ranks; block = n / 4 ranks per side share one host's work."""
    b = n // 4
    out = [f"# seed 001 test {test}: imbalanced BSP shaped like Ondes3D (Chuetsu), {n * n} ranks on an {n}x{n} "
           f"grid, {iters} iterations of two kernels (examples/energy/gen_bsp.py)"]
    out += [f"{r} init" for r in range(n * n)]
    for it in range(iters):
        for r in range(n * n):
            x, y = r % n, r // n
            host = (y // b) * 4 + x // b
            nbrs = [((x + 1) % n) + y * n, ((x - 1) % n) + y * n, x + ((y + 1) % n) * n, x + ((y - 1) % n) * n]
            for k, (_, _, line) in enumerate(KERNELS if kernels else KERNELS[:1]):
                work = work_s(host, it, k) if kernels else work_s(host, it, 0) + work_s(host, it, 1)
                if kernels:
                    out.append(f"{r} location ondes3d.c {line}")
                out.append(f"{r} compute {work * speed / (b * b):.6e}")
                out += [f"{r} irecv {nb} {t ^ 1} {halo}" for t, nb in enumerate(nbrs)]
                out += [f"{r} isend {nb} {t} {halo}" for t, nb in enumerate(nbrs)]
                out.append(f"{r} waitall")
            if migrate:
                out.append(f"{r} migrate")
    out += [f"{r} finalize" for r in range(n * n)]
    open(os.path.join(here, name), "w").write("\n".join(out) + "\n")


write("bsp16.ti", 4, 65536, False, True, 20)
write("bsp64.ti", 8, 16384, True, False, 21)
hosts = [f"taurus-{(r // 8 // 2) * 4 + (r % 8) // 2 + 1}" for r in range(64)]
open(os.path.join(here, "bsp64.hostfile"), "w").write("\n".join(hosts) + "\n")
