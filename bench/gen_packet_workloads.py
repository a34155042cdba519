#!/usr/bin/env python3
"""Inputs of bench/packet_bench.sh (the packet model, issue 11), written to stdout.

  gen_packet_workloads.py fat-tree K            2-level fat-tree of K-port switches, K*K/2 hosts
                                                (seed 004 §3.3/§3.4: 16-Gb/s links, 5-ns cables)
  gen_packet_workloads.py dissemination P [REPS] [SIZE]
                                                REPS dissemination barriers back to back on P
                                                ranks (seed 004 §3.3; the structure of
                                                examples/goal/dissemination8.goal): round k of
                                                barrier b sends SIZE bytes (default 180) to
                                                (r+2^k) mod P and receives from (r-2^k) mod P;
                                                each send requires the previous round's receive
                                                (the first send of barrier b>0 the last receive
                                                of barrier b-1)
  gen_packet_workloads.py ring P N [SIZE]       seed 004 §3.4: N sends of SIZE bytes (default
                                                1000) to (r+1) mod P, tag k; every send except
                                                the first requires the previous receive
"""
import sys


def fat_tree(k):
    name = "m9" if k == 36 else f"ft{k}"
    return (
        f"# 2-level fat-tree of {k}-port switches: {k * k // 2} hosts (bench/packet_bench.sh)\n"
        "version: 1\n"
        f"topology: {{name: {name}, kind: fat-tree, k: {k}, levels: 2, prefix: h, speed: 1Gf, "
        "host_link: {bandwidth: 16Gbps, latency: 5ns}, link: {bandwidth: 16Gbps, latency: 5ns}}\n"
    )


def dissemination(p, reps=1, size=180):
    rounds = 0
    while (1 << rounds) < p:
        rounds += 1
    out = [f"// {reps} x dissemination barrier on {p} ranks, {size} B (bench/packet_bench.sh)\n",
           f"num_ranks {p}\n"]
    for r in range(p):
        lines = [f"rank {r} {{\n"]
        prev = None
        for b in range(reps):
            tag = 1000000 + b
            for k in range(rounds):
                d = 1 << k
                s, rv = f"s{b}_{k}", f"r{b}_{k}"
                lines.append(f"{s}: send {size}b to {(r + d) % p} tag {tag}\n")
                lines.append(f"{rv}: recv {size}b from {(r - d) % p} tag {tag}\n")
                if prev is not None:
                    lines.append(f"{s} requires {prev}\n")
                prev = rv
        lines.append("}\n")
        out.append("".join(lines))
    return "".join(out)


def ring(p, n, size=1000):
    out = [f"// {n} sends of {size} B to rank+1, each after the previous receive "
           f"(seed 004 §3.4; bench/packet_bench.sh)\n", f"num_ranks {p}\n"]
    for r in range(p):
        lines = [f"rank {r} {{\n"]
        for k in range(n):
            lines.append(f"s{k}: send {size}b to {(r + 1) % p} tag {k}\n")
            lines.append(f"r{k}: recv {size}b from {(r - 1) % p} tag {k}\n")
            if k > 0:
                lines.append(f"s{k} requires r{k - 1}\n")
        lines.append("}\n")
        out.append("".join(lines))
    return "".join(out)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    what, args = argv[1], [int(a) for a in argv[2:]]
    if what == "fat-tree":
        sys.stdout.write(fat_tree(*args))
    elif what == "dissemination":
        sys.stdout.write(dissemination(*args))
    elif what == "ring":
        sys.stdout.write(ring(*args))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
