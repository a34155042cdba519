#!/usr/bin/env python3
"""Writes the imbalanced bulk-synchronous workload of seed 001's governor study (spec test 20).

16 ranks on a 4x4 grid, ITERS iterations of: compute, then a halo exchange with the four grid
neighbours (isend/irecv/waitall). Work per rank mimics the idle pattern of the thesis's Table 9.2
(Ondes3D, Chuetsu scenario, performance governor): the four corner ranks are nearly always busy,
the eight edge ranks about 25 % idle, the four centre ranks about 52 % idle. Each rank's work
varies by up to 3 % from iteration to iteration (deterministic), the temporal imbalance that
defeats the original Adagio. Work is sized so the heaviest rank computes HEAVY_S seconds per
iteration at 2.3 Gflop/s (the taurus pstate 0 of examples/energy/taurus16.xml).
usage: gen_bsp.py [ITERS [HEAVY_S]] > bsp16.ti
"""
import math
import sys

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 300
heavy_s = float(sys.argv[2]) if len(sys.argv) > 2 else 1.12
px = py = 4
speed = 2.3e9
halo = 65536


def weight(x, y):
    corner = x in (0, px - 1) and y in (0, py - 1)
    centre = 0 < x < px - 1 and 0 < y < py - 1
    return 1.0 if corner else 0.48 if centre else 0.75


out = ["# seed 001 test 20: imbalanced BSP on a 4x4 grid, %d iterations (examples/energy/gen_bsp.py)" % iters]
for r in range(16):
    out.append(f"{r} init")
for it in range(iters):
    for r in range(16):
        x, y = r % px, r // px
        jitter = 1.0 + 0.03 * math.sin(1.7 * it + 0.9 * r)
        flops = weight(x, y) * jitter * heavy_s * speed
        out.append(f"{r} compute {flops:.6e}")
        nbrs = [((x + 1) % px) + y * px, ((x - 1) % px) + y * px, x + ((y + 1) % py) * px, x + ((y - 1) % py) * px]
        for t, nb in enumerate(nbrs):
            out.append(f"{r} irecv {nb} {t ^ 1} {halo}")
        for t, nb in enumerate(nbrs):
            out.append(f"{r} isend {nb} {t} {halo}")
        out.append(f"{r} waitall")
for r in range(16):
    out.append(f"{r} finalize")
print("\n".join(out))
