#!/usr/bin/env python3
"""Inputs of bench/energy_bench.sh (energy accounting cost), written to stdout.

    energy_gen.py trace N ITERS           TI trace: N ranks, ITERS iterations of
                                          compute F; isend 8 B to r+1; irecv 8 B from r-1; waitall
    energy_gen.py platform N CORES KIND   YAML cluster of N/CORES hosts "node<i>", CORES cores each,
                                          10 Gf per core, 100 Gbps / 1 us links, 10 Tbps backbone
    energy_gen.py hostfile N CORES        CORES consecutive ranks per host: node<i>:CORES

KIND (the same machine, only its energy description changes):
    plain          one speed, no power: no energy meter at all (the baseline)
    power          one speed with power 90:100:200 W: the energy meter on fixed hosts
                   (one O(1) interval per computation)
    pstates        3 pstates (10, 8, 6 Gf), no power: the dynamic CPU model (cpu/host_cpus),
                   shared cores, no meter
    pstates-power  3 pstates with power: the dynamic CPU model and the meter on every load change

Every compute is F = 1e6 * (1 + ((r * 7919 + i * 104729) mod 97) / 97) flops (100-200 us at
10 Gf), so ranks change load at distinct times. The trace holds N * ITERS compute actions; each
is two load changes (start, end) of its host. Deterministic: the same arguments give the same bytes.
"""
import sys


def trace(n, iters):
    out = sys.stdout
    for r in range(n):
        nxt, prv = (r + 1) % n, (r - 1) % n
        lines = [f"{r} init\n"]
        for i in range(iters):
            flops = 1e6 * (1 + ((r * 7919 + i * 104729) % 97) / 97)
            lines.append(f"{r} compute {flops:.6g}\n{r} isend {nxt} 0 8\n{r} irecv {prv} 0 8\n{r} waitall\n")
            if len(lines) >= 4096:
                out.write("".join(lines))
                lines.clear()
        lines.append(f"{r} finalize\n")
        out.write("".join(lines))


def platform(n, cores, kind):
    if n % cores:
        sys.exit(f"energy_gen.py: N={n} is not a multiple of CORES={cores}")
    speed = {"plain": "10Gf", "power": "10Gf"}.get(kind, "[10Gf, 8Gf, 6Gf]")
    print(f"# energy bench platform ({kind}): {n // cores} hosts of {cores} cores")
    print("clusters:")
    print("  - name: c")
    print("    prefix: node")
    print(f"    count: {n // cores}")
    print(f"    cores: {cores}")
    print(f"    speed: {speed}")
    if kind == "power":
        print("    power: [[90, 100, 200]]")
    elif kind == "pstates-power":
        print("    power: [[90, 100, 200], [90, 98, 170], [90, 96, 140]]")
    elif kind not in ("plain", "pstates"):
        sys.exit(f"energy_gen.py: unknown platform kind '{kind}'")
    print("    bandwidth: 100Gbps")
    print("    latency: 1us")
    print("    backbone: {bandwidth: 10Tbps, latency: 500ns}")


def hostfile(n, cores):
    for h in range(n // cores):
        print(f"node{h}:{cores}")


def main(argv):
    try:
        if argv[1] == "trace" and len(argv) == 4:
            return trace(int(argv[2]), int(argv[3]))
        if argv[1] == "platform" and len(argv) == 5:
            return platform(int(argv[2]), int(argv[3]), argv[4])
        if argv[1] == "hostfile" and len(argv) == 4:
            return hostfile(int(argv[2]), int(argv[3]))
    except (IndexError, ValueError):
        pass
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
