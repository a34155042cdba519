#!/usr/bin/env python3
"""Writes the over-decomposed version of bsp16.ti (seed 001 test 21, the thesis's 64-process
Ondes3D runs): 64 ranks on an 8x8 grid, 4 per host in 2x2 blocks (bsp64.hostfile), so that each
host carries the work of the matching bsp16.ti rank, split over its four ranks. Every iteration
ends with a `migrate` point: with --cfg lb/balancer=greedy --cfg lb/every=K, GreedyLB may move
ranks between hosts every K iterations.
usage: gen_bsp64.py [ITERS [HEAVY_S]]   (writes bsp64.ti and bsp64.hostfile here)
"""
import math
import os
import sys

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 300
heavy_s = float(sys.argv[2]) if len(sys.argv) > 2 else 1.12
n, speed, halo = 8, 2.3e9, 16384
here = os.path.dirname(os.path.abspath(__file__))


def weight(bx, by):  # the 4x4 host pattern of gen_bsp.py
    corner = bx in (0, 3) and by in (0, 3)
    centre = 0 < bx < 3 and 0 < by < 3
    return 1.0 if corner else 0.48 if centre else 0.75


hosts = []
for r in range(n * n):
    x, y = r % n, r // n
    hosts.append(f"taurus-{(y // 2) * 4 + x // 2 + 1}")
open(os.path.join(here, "bsp64.hostfile"), "w").write("\n".join(hosts) + "\n")

out = ["# seed 001 test 21: bsp16.ti over-decomposed 4x (64 ranks on 16 hosts), %d iterations, a migrate "
       "point per iteration (examples/energy/gen_bsp64.py)" % iters]
for r in range(n * n):
    out.append(f"{r} init")
for it in range(iters):
    for r in range(n * n):
        x, y = r % n, r // n
        host = (y // 2) * 4 + x // 2
        jitter = 1.0 + 0.03 * math.sin(1.7 * it + 0.9 * host)
        flops = weight(x // 2, y // 2) * jitter * heavy_s * speed / 4
        out.append(f"{r} compute {flops:.6e}")
        nbrs = [((x + 1) % n) + y * n, ((x - 1) % n) + y * n, x + ((y + 1) % n) * n, x + ((y - 1) % n) * n]
        for t, nb in enumerate(nbrs):
            out.append(f"{r} irecv {nb} {t ^ 1} {halo}")
        for t, nb in enumerate(nbrs):
            out.append(f"{r} isend {nb} {t} {halo}")
        out.append(f"{r} waitall")
        out.append(f"{r} migrate")
for r in range(n * n):
    out.append(f"{r} finalize")
open(os.path.join(here, "bsp64.ti"), "w").write("\n".join(out) + "\n")
