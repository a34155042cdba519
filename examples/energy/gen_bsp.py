#!/usr/bin/env python3
"""Writes the imbalanced bulk-synchronous workloads of seed 001's governor and load-balancing
studies (spec tests 20 and 21), here in examples/energy:

bsp16.ti   16 ranks on a 4x4 grid, ITERS iterations of: compute, then a halo exchange with the
           four grid neighbours (isend/irecv/waitall). Work per rank mimics the idle pattern of the
           thesis's Table 9.2 (Ondes3D, Chuetsu scenario, performance governor): the four corner
           ranks are nearly always busy, the eight edge ranks about 25 % idle, the four centre
           ranks about 52 % idle. Each rank's work varies by up to 3 % from iteration to iteration
           (deterministic), the temporal imbalance that defeats the original Adagio. The heaviest
           rank computes HEAVY_S seconds per iteration at 2.3 Gflop/s (taurus16.xml's pstate 0).
bsp64.ti   the same over-decomposed 4x (the thesis's 64-process runs): 64 ranks on an 8x8 grid,
           four per host in 2x2 blocks (bsp64.hostfile), each host carrying the work of its bsp16
           rank split over its four ranks, and a `migrate` point ending every iteration.
usage: gen_bsp.py [ITERS [HEAVY_S]]
"""
import math
import os
import sys

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 300
heavy_s = float(sys.argv[2]) if len(sys.argv) > 2 else 1.12
speed = 2.3e9
here = os.path.dirname(os.path.abspath(__file__))


def weight(bx, by):  # the 4x4 host pattern: corners, edges, centre
    corner = bx in (0, 3) and by in (0, 3)
    centre = 0 < bx < 3 and 0 < by < 3
    return 1.0 if corner else 0.48 if centre else 0.75


def write(name, n, halo, migrate, test):
    """An n x n grid of ranks; block = n / 4 ranks per side share one host's work."""
    b = n // 4
    out = [f"# seed 001 test {test}: imbalanced BSP, {n * n} ranks on an {n}x{n} grid, {iters} iterations "
           "(examples/energy/gen_bsp.py)"]
    out += [f"{r} init" for r in range(n * n)]
    for it in range(iters):
        for r in range(n * n):
            x, y = r % n, r // n
            host = (y // b) * 4 + x // b
            jitter = 1.0 + 0.03 * math.sin(1.7 * it + 0.9 * host)
            out.append(f"{r} compute {weight(x // b, y // b) * jitter * heavy_s * speed / (b * b):.6e}")
            nbrs = [((x + 1) % n) + y * n, ((x - 1) % n) + y * n, x + ((y + 1) % n) * n, x + ((y - 1) % n) * n]
            out += [f"{r} irecv {nb} {t ^ 1} {halo}" for t, nb in enumerate(nbrs)]
            out += [f"{r} isend {nb} {t} {halo}" for t, nb in enumerate(nbrs)]
            out.append(f"{r} waitall")
            if migrate:
                out.append(f"{r} migrate")
    out += [f"{r} finalize" for r in range(n * n)]
    open(os.path.join(here, name), "w").write("\n".join(out) + "\n")


write("bsp16.ti", 4, 65536, False, 20)
write("bsp64.ti", 8, 16384, True, 21)
hosts = [f"taurus-{(r // 8 // 2) * 4 + (r % 8) // 2 + 1}" for r in range(64)]
open(os.path.join(here, "bsp64.hostfile"), "w").write("\n".join(hosts) + "\n")
