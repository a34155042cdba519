#!/usr/bin/env python3
"""Writes a synthetic capture (docs/capture-format.md) of a ring + allreduce loop, for
bench/capture_bench.sh: N ranks, ITER iterations of {Irecv from left, Isend to right, Waitall,
Allreduce of 8 doubles}, with a 10 us computation gap before each call.
  capture_gen.py DIR N ITER"""
import os
import sys


def main():
    out, n, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    for r in range(n):
        left, right = (r - 1) % n, (r + 1) % n
        lines = ["# simfab-capture 1", "# run: 00000000000000b1", "# rank: %d" % r, "# size: %d" % n,
                 "# world: 1", "# self: 2", "# hostname: bench", "# clock: CLOCK_MONOTONIC",
                 "# time-unit: ns", "MPI_Init:-:-:-:1000"]
        t = 1000
        req = 0
        world = "1,%d,%d" % (r, n)

        def call(func, fields, dur=500):
            nonlocal t
            t += 10000
            start = t
            t += dur
            lines.append("%s:%d:%s:%d" % (func, start, fields, t))
        for _ in range(iters):
            req += 2
            call("MPI_Irecv", "4096:1024:1,8,8:%d:0:%s:%d" % (left, world, req - 1))
            call("MPI_Isend", "8192:1024:1,8,8:%d:0:%s:%d" % (right, world, req))
            call("MPI_Waitall", "2:%d/%d/0/8192,%d/-2/-1/0" % (req - 1, left, req))
            call("MPI_Allreduce", "12288:16384:8:1,8,8:1:%s" % world)
        t += 10000
        lines.append("MPI_Finalize:%d:-" % t)
        lines.append("# end")
        with open(os.path.join(out, "rank-%d.txt" % r), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
