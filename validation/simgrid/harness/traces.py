"""Synthetic TI traces, written in the dialect SMPI 3.32's `smpirun -trace-ti` writes (argument
order, datatype ids, the root's and the non-roots' forms of the v-collectives), so that both tools
replay exactly what a recording would give them.

Each generator returns one list of lines per rank (without the rank prefix); write_trace adds the
prefixes and writes either SMPI's default layout (one file per rank, named by a list file) or one
shared file named by a one-line list. Sizes are in bytes; collectives move doubles (datatype id 0,
8 bytes), point-to-point messages bytes (datatype id 6, MPI_BYTE).
"""
import os

DOUBLE, BYTE = 0, 6

COLLECTIVES = ("barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "gatherv",
               "allgather", "allgatherv", "scatter", "scatterv", "reducescatter", "scan", "exscan")


def pingpong(np, size, reps=1, mode="blocking"):
    """Ranks 0 and 1 bounce `size` bytes `reps` times; mode immediate uses isend/irecv + wait."""
    ranks = [["init"] for _ in range(np)]
    for i in range(reps):
        for me, peer, first in ((0, 1, "send"), (1, 0, "recv")):
            second = "recv" if first == "send" else "send"
            for op in (first, second):
                if mode == "blocking":
                    ranks[me].append(f"{op} {peer} {i} {size} {BYTE}")
                else:
                    src, dst = (me, peer) if op == "send" else (peer, me)
                    ranks[me].append(f"i{op} {peer} {i} {size} {BYTE}")
                    ranks[me].append(f"wait {src} {dst} {i}")
    return [r + ["finalize"] for r in ranks]


def collective(np, name, size, root=0, reps=1):
    """One collective `reps` times; v-collectives give rank j a share of count + j elements."""
    c = max(1, size // 8)
    flops = c  # reductions: one flop per element after the communication
    counts = [c + j for j in range(np)]
    ranks = [["init"] for _ in range(np)]
    for _ in range(reps):
        for i in range(np):
            ranks[i].append(collective_line(name, i, np, c, counts, root, flops))
    return [r + ["finalize"] for r in ranks]


def collective_line(name, i, np, c, counts, root, flops):
    zeros = " ".join("0" for _ in range(np))
    allc = " ".join(str(x) for x in counts)
    if name == "barrier":
        return "barrier"
    if name == "bcast":
        return f"bcast {c} {root} {DOUBLE} "
    if name == "reduce":
        return f"reduce {c} {flops} {root} {DOUBLE} "
    if name in ("allreduce", "scan", "exscan"):
        return f"{name} {c} {flops} {DOUBLE} "
    if name in ("alltoall", "allgather"):
        return f"{name} {c} {c} {DOUBLE} {DOUBLE}"
    if name in ("gather", "scatter"):
        return f"{name} {c} {c} {root} {DOUBLE} {DOUBLE}"
    if name == "alltoallv":  # rank i sends c + (i + j) % 3 to j: symmetric, so j receives as much
        row = [c + (i + j) % 3 for j in range(np)]
        cells = " ".join(str(x) for x in row)
        return f"alltoallv {sum(row)} {cells} {sum(row)} {cells} {DOUBLE} {DOUBLE}"
    if name == "gatherv":
        return f"gatherv {counts[i]} {allc if i == root else zeros} {root} {DOUBLE} {DOUBLE}"
    if name == "allgatherv":
        return f"allgatherv {counts[i]} {allc} {DOUBLE} {DOUBLE}"
    if name == "scatterv":
        return f"scatterv {allc if i == root else zeros} {counts[i]} {root} {DOUBLE} {DOUBLE}"
    if name == "reducescatter":
        return f"reducescatter {allc} {flops} {DOUBLE}"
    raise ValueError(f"unknown collective '{name}' (known: {', '.join(COLLECTIVES)})")


def contention(np, pattern, size, reps=1):
    """incast: every rank sends `size` bytes to rank 0 (which posts all irecvs, then waitall);
    allpairs: every rank isends size / np bytes to every other and irecvs from every other, then
    waitall; shift: rank r isends to r + np/2, receives from r - np/2, then waits; self: every
    rank isends `size` bytes to itself and receives them; flows-<a>to<b>-<c>to<d>...: rank a
    isends to b, c to d, ... at once, each receiver posting its receive first."""
    flows = []
    if pattern.startswith("flows-"):
        for f in pattern[len("flows-"):].split("-"):
            a, _, b = f.partition("to")
            if not (a.isdigit() and b.isdigit()) or int(a) >= np or int(b) >= np or a == b:
                raise ValueError(f"bad flow '{f}' in contention pattern '{pattern}' (flows-<a>to<b>-..., ranks < {np})")
            flows.append((int(a), int(b)))
    ranks = [["init"] for _ in range(np)]
    share = max(1, size // np)
    for it in range(reps):
        for r in range(np):
            lines = ranks[r]
            if pattern == "incast":
                if r == 0:
                    lines += [f"irecv {s} {it} {size} {BYTE}" for s in range(1, np)]
                    lines.append(f"waitall {np - 1}")
                else:
                    lines.append(f"send 0 {it} {size} {BYTE}")
            elif pattern == "allpairs":
                others = [(r + d) % np for d in range(1, np)]
                lines += [f"irecv {(r - d) % np} {it} {share} {BYTE}" for d in range(1, np)]
                lines += [f"isend {o} {it} {share} {BYTE}" for o in others]
                lines.append(f"waitall {2 * (np - 1)}")
            elif pattern == "shift":
                to, frm = (r + np // 2) % np, (r - np // 2) % np
                lines += [f"isend {to} {it} {size} {BYTE}", f"recv {frm} {it} {size} {BYTE}", f"wait {r} {to} {it}"]
            elif pattern == "self":
                lines += [f"irecv {r} {it} {size} {BYTE}", f"isend {r} {it} {size} {BYTE}", "waitall 2"]
            elif flows:
                mine = [f"irecv {a} {it} {size} {BYTE}" for a, b in flows if b == r]
                mine += [f"isend {b} {it} {size} {BYTE}" for a, b in flows if a == r]
                if mine:
                    lines += mine + [f"waitall {len(mine)}"]
            else:
                raise ValueError(f"unknown contention pattern '{pattern}' (incast, allpairs, shift, self, flows-...)")
            lines.append("barrier")
    return [r + ["finalize"] for r in ranks]


def write_trace(ranks, directory, layout="list"):
    """Writes the ranks' lines under `directory`; returns the list file to give both tools.
    layout list: SMPI's default (rank-<r+1>.txt per rank, listed in order); shared: one file."""
    list_path = os.path.join(directory, "trace.txt")
    if layout == "shared":
        shared = os.path.join(directory, "all_ranks.txt")
        with open(shared, "w") as f:
            # interleaved by action index, as SMPI's ti-one-file output is
            depth = max(len(r) for r in ranks)
            for k in range(depth):
                for r, lines in enumerate(ranks):
                    if k < len(lines):
                        f.write(f"{r} {lines[k]}\n")
        names = ["all_ranks.txt"]
    elif layout == "list":
        os.makedirs(os.path.join(directory, "trace_files"), exist_ok=True)
        names = []
        for r, lines in enumerate(ranks):
            name = os.path.join("trace_files", f"rank-{r + 1}.txt")
            with open(os.path.join(directory, name), "w") as f:
                f.write("".join(f"{r} {line}\n" for line in lines))
            names.append(name)
    else:
        raise ValueError(f"unknown layout '{layout}' (list, shared)")
    with open(list_path, "w") as f:
        f.write("".join(n + "\n" for n in names))
    return list_path
