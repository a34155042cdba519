#!/usr/bin/env python3
"""Writes a 2-D halo-exchange (5-point stencil) trace in SimGrid's TI format.

Each of `iters` iterations: compute, then isend/irecv with the four neighbours on a periodic
px x py grid, waitall, and every `reduce_every` iterations an allreduce of one double (a
convergence check). This is the shape of most bulk-synchronous MPI codes.
usage: gen_stencil.py PX PY ITERS HALO_BYTES FLOPS > out.ti
"""
import sys

px, py, iters, halo, flops = (int(float(a)) for a in sys.argv[1:6])
n = px * py
out = ["# 2-D periodic halo exchange on a %dx%d grid, %d iterations, %d-byte halos, %g flops per step"
       % (px, py, iters, halo, flops)]
for r in range(n):
    out.append(f"{r} init")
for it in range(iters):
    for r in range(n):
        x, y = r % px, r // px
        nbrs = [((x + 1) % px) + y * px, ((x - 1) % px) + y * px,
                x + ((y + 1) % py) * px, x + ((y - 1) % py) * px]
        out.append(f"{r} compute {flops:g}")
        for t, nb in enumerate(nbrs):
            out.append(f"{r} irecv {nb} {t ^ 1} {halo}")
        for t, nb in enumerate(nbrs):
            out.append(f"{r} isend {nb} {t} {halo}")
        out.append(f"{r} waitall")
        if (it + 1) % 5 == 0:
            out.append(f"{r} allreduce 1 1 0")
for r in range(n):
    out.append(f"{r} finalize")
print("\n".join(out))
