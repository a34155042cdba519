#!/usr/bin/env python3
"""Capture-library end-to-end test (ctest `capture_openmpi`).

    run_capture.py BUILD_DIR SOURCE_DIR [-v]

Builds tests/capture/capture_probe.c with mpicc, runs it with Open MPI's mpirun on 4 ranks with
BUILD_DIR/libsimfab-capture.so preloaded (`-x LD_PRELOAD=...`: the ranks get it, mpirun does not)
and checks every rank's trace against docs/capture-format.md and the probe's known calls:
  - the header: format line, run id (16 hex digits, equal on all ranks), rank, size, world 1,
    self 2, hostname, clock, time unit, speed (SIMFAB_CAPTURE_SPEED=2e9), library; `# end` last;
    the file renamed from .part;
  - the records: function names in the expected order, and every field: counts, peers (the
    MPI_ANY_SOURCE receive's status source), tags, datatypes (id,size,extent with ids in
    first-seen order), ops, communicators (id,rank,size, also of Comm_split's and Comm_dup's new
    communicators), request ids and the `done` lists of every completion call;
  - call sites: `@capture_probe+0x<offset>` lines, one per change of site, 10 or more distinct,
    and `simfab convert` turns them into TI `location` lines;
  - times: call <= return <= next call, on every rank; the probe's 2 ms busy loop shows as a gap
    of at least 2 ms (and under 50 ms) between the call before it and MPI_Barrier;
  - the default directory ./simfab-capture (no SIMFAB_CAPTURE_DIR);
  - bad input: SIMFAB_CAPTURE_DIR under a regular file, SIMFAB_CAPTURE_SPEED=abc: non-zero exit,
    one message naming the path or value, no trace files left.
Prints SKIP and exits 77 when mpirun or mpicc is not on PATH; exits 1 on any failure (with what
went wrong), 0 otherwise. About 5 s.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

NP = 4
TIMEOUT_S = 120
# Shared memory only (no network in containers); no CMA single copy (ptrace may be forbidden).
MPIRUN_OPTS = ["--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
               "--mca", "btl_vader_single_copy_mechanism", "none"]

# Datatype ids in first-seen order on every rank of the probe, with their size (= extent).
INT, DOUBLE, CHAR, LONG_LONG = (1, 4), (2, 8), (3, 1), (4, 8)
OP_SUM, OP_MAX = "1", "2"
BUF = re.compile(r"\d+")          # an address
IN_PLACE = "-1"


def dt(kind):
    return f"{kind[0]},{kind[1]},{kind[1]}"


def comm(cid, rank, size):
    return f"{cid},{rank},{size}"


def one(func, *fields):
    return ("one", func, fields)


def loop(func, pending, last):
    """A polling loop: one or more records of `func`, all `pending` but the last."""
    return ("loop", func, pending, last)


def expected_records(r, n):
    """The probe's records on rank r of n (see capture_probe.c), as matchers."""
    left, right = (r - 1) % n, (r + 1) % n
    world = comm(1, r, n)
    exp = [one("MPI_Init", "-", "-")]
    # 1
    if r % 2:
        exp.append(one("MPI_Send", BUF, "10", dt(INT), str(r - 1), "7", world))
    else:
        exp.append(one("MPI_Recv", BUF, "10", dt(INT), "-1", "7", world, f"{r + 1},7,40"))
    # 2
    exp += [one("MPI_Irecv", BUF, "4", dt(DOUBLE), str(left), "11", world, "1"),
            one("MPI_Isend", BUF, "4", dt(DOUBLE), str(right), "11", world, "2"),
            one("MPI_Waitall", "2", f"1/{left}/11/32,2/-2/-1/0")]
    # 3
    exp += [one("MPI_Irecv", BUF, "3", dt(INT), str(right), "12", world, "3"),
            one("MPI_Isend", BUF, "3", dt(INT), str(left), "12", world, "4"),
            one("MPI_Wait", f"3/{right}/12/12"),
            one("MPI_Wait", "4/-2/-1/0")]
    # 4
    exp += [one("MPI_Irecv", BUF, "5", dt(CHAR), str(left), "13", world, "5"),
            one("MPI_Isend", BUF, "5", dt(CHAR), str(right), "13", world, "6"),
            ("waitany2", {f"5/{left}/13/5", "6/-2/-1/0"})]
    # 5
    exp += [one("MPI_Isend", BUF, "6", dt(INT), str(left), "14", world, "7"),
            one("MPI_Irecv", BUF, "6", dt(INT), str(right), "14", world, "8"),
            loop("MPI_Test", ["0", "-"], ["1", f"8/{right}/14/24"]),
            one("MPI_Wait", "7/-2/-1/0")]
    # 6
    exp.append(one("MPI_Sendrecv", BUF, "2", dt(INT), str(right), "15", BUF, "2", dt(INT), str(left), "15",
                   world, f"{left},15,8"))
    # 7
    if r % 2 == 0:
        exp.append(one("MPI_Ssend", BUF, "1", dt(DOUBLE), str(r + 1), "16", world))
    else:
        exp.append(one("MPI_Recv", BUF, "1", dt(DOUBLE), str(r - 1), "16", world, f"{r - 1},16,8"))
    # 9 (8 is the computation before the Barrier)
    gatherv_counts = ",".join(str(i + 1) for i in range(n)) if r == 0 else "-"
    exp += [one("MPI_Barrier", world),
            one("MPI_Bcast", BUF, "5", dt(INT), "0", world),
            one("MPI_Reduce", BUF, BUF, "3", dt(DOUBLE), OP_SUM, "1", world),
            one("MPI_Allreduce", IN_PLACE, BUF, "2", dt(LONG_LONG), OP_MAX, world),
            one("MPI_Allgather", BUF, "1", dt(INT), BUF, "1", dt(INT), world),
            one("MPI_Alltoall", BUF, "2", dt(INT), BUF, "2", dt(INT), world),
            one("MPI_Gatherv", BUF, str(r + 1), dt(INT), BUF, gatherv_counts, dt(INT) if r == 0 else "0,0,0", "0",
                world)]
    a2av = ",".join(str((r + j) % 3 + 1) for j in range(n))
    exp.append(one("MPI_Alltoallv", BUF, a2av, dt(INT), BUF, a2av, dt(INT), world))
    # 10: color r%2, key -r: the higher world rank comes first in each half
    half = comm(3, 0 if r >= n // 2 else 1, n // 2) if n == 4 else re.compile(rf"3,\d+,{n // 2}")
    exp += [one("MPI_Comm_split", world, str(r % 2), str(-r), half),
            one("MPI_Allreduce", BUF, BUF, "1", dt(INT), OP_SUM, half),
            one("MPI_Comm_free", half)]
    # 11: a new id (ids are never reused, though the freed handle may be)
    dup = comm(4, r, n)
    exp += [one("MPI_Comm_dup", world, dup), one("MPI_Barrier", dup), one("MPI_Comm_free", dup)]
    exp += rest_of_table(r, n, world)
    exp.append(("finalize",))
    return exp


def rest_of_table(r, n, world):
    """Step 12 of the probe: between the pairs (even e, odd o = e + 1)."""
    p = str(r ^ 1)
    if r % 2 == 0:
        exp = [one("MPI_Bsend", BUF, "2", dt(INT), p, "20", world),
               one("MPI_Barrier", world),
               one("MPI_Rsend", BUF, "1", dt(INT), p, "21", world),
               one("MPI_Issend", BUF, "1", dt(INT), p, "22", world, "9"),
               one("MPI_Ibsend", BUF, "1", dt(INT), p, "23", world, "10"),
               loop("MPI_Testall", ["2", "0", "-"], ["2", "1", "9/-2/-1/0,10/-2/-1/0"]),
               one("MPI_Sendrecv_replace", BUF, "3", dt(INT), p, "25", p, "25", world, f"{p},25,12"),
               one("MPI_Barrier", world),
               one("MPI_Irsend", BUF, "1", dt(INT), p, "26", world, "11"),
               loop("MPI_Testsome", ["1", "0", "-"], ["1", "1", "11/-2/-1/0"]),
               one("MPI_Isend", BUF, "1", dt(INT), p, "27", world, "12"),   # then MPI_Request_free
               one("MPI_Send", BUF, "3", "5,8,8", p, "28", world),          # MPI_Type_contiguous(2)
               one("MPI_Send", BUF, "1", "6,12,12", p, "29", world)]        # a new type: a new id
    else:
        exp = [one("MPI_Recv", BUF, "2", dt(INT), p, "20", world, f"{p},20,8"),
               one("MPI_Irecv", BUF, "1", dt(INT), p, "21", world, "9"),
               one("MPI_Barrier", world),
               one("MPI_Waitsome", "1", f"9/{p}/21/4"),
               one("MPI_Probe", p, "22", world, f"{p},22,4"),
               one("MPI_Recv", BUF, "1", dt(INT), p, "22", world, f"{p},22,4"),
               loop("MPI_Iprobe", [p, "23", world, "0", "-"], [p, "23", world, "1", f"{p},23,4"]),
               one("MPI_Recv", BUF, "1", dt(INT), p, "23", world, f"{p},23,4"),
               one("MPI_Sendrecv_replace", BUF, "3", dt(INT), p, "25", p, "25", world, f"{p},25,12"),
               one("MPI_Irecv", BUF, "1", dt(INT), p, "26", world, "10"),
               one("MPI_Barrier", world),
               loop("MPI_Testany", ["1", "0", "-"], ["1", "1", f"10/{p}/26/4"]),
               one("MPI_Recv", BUF, "1", dt(INT), p, "27", world, f"{p},27,4"),
               one("MPI_Recv", BUF, "3", "5,8,8", p, "28", world, f"{p},28,24"),
               one("MPI_Recv", BUF, "1", "6,12,12", p, "29", world, f"{p},29,12")]
    ignored = "0,0,0"
    all_counts = ",".join(str(i + 1) for i in range(n))
    exp += [one("MPI_Scan", BUF, BUF, "1", dt(INT), OP_SUM, world),
            one("MPI_Exscan", BUF, BUF, "1", dt(INT), OP_SUM, world),
            one("MPI_Reduce_scatter_block", BUF, BUF, "1", dt(INT), OP_SUM, world),
            one("MPI_Reduce_scatter", BUF, BUF, ",".join(str(i % 2 + 1) for i in range(n)), dt(INT), OP_SUM, world),
            one("MPI_Gather", BUF, "1", dt(INT), BUF, "1", dt(INT) if r == 2 else ignored, "2", world),
            one("MPI_Scatter", BUF, "1", dt(INT) if r == 3 else ignored, BUF, "1", dt(INT), "3", world),
            one("MPI_Scatterv", BUF, all_counts if r == 1 else "-", dt(INT) if r == 1 else ignored, BUF,
                str(r + 1), dt(INT), "1", world),
            one("MPI_Allgatherv", BUF, str(r + 1), dt(INT), BUF, all_counts, dt(INT), world),
            one("MPI_Allreduce", BUF, BUF, "1", dt(INT), "3", world)]       # MPI_Op_create'd
    if r % 2 == 0:
        evens = comm(5, r // 2, n // 2)
        exp += [one("MPI_Comm_create", world, evens), one("MPI_Comm_free", evens)]
    else:
        exp.append(one("MPI_Comm_create", world, "-"))
    # Step 13: partitioning constructors in MPI_Comm_split's form; ids go on from Comm_create's.
    cart_id = 6 if r % 2 == 0 else 5
    half = n // 2
    cart = comm(cart_id, r, n)
    row = comm(cart_id + 1, r % half, half)
    exp += [one("MPI_Cart_create", world, "0", str(r), cart),
            one("MPI_Cart_sub", cart, str(r // half * half), str(r % half), row),
            one("MPI_Comm_free", row), one("MPI_Comm_free", cart)]
    return exp


class Rec:
    def __init__(self, lineno, line):
        parts = line.split(":")
        self.lineno = lineno
        self.line = line
        self.func = parts[0]
        self.call = parts[1] if len(parts) > 1 else ""
        self.ret = parts[-1] if len(parts) > 2 else ""
        self.fields = parts[2:-1]

    def where(self):
        return f"line {self.lineno}: {self.line}"


def match_field(matcher, value):
    if isinstance(matcher, re.Pattern):
        return matcher.fullmatch(value) is not None
    return matcher == value


def check_one(rec, func, fields):
    if rec.func != func:
        return f"expected {func}, got {rec.where()}"
    if len(rec.fields) != len(fields):
        return f"{func}: expected {len(fields)} fields, got {len(rec.fields)} ({rec.where()})"
    for i, (m, v) in enumerate(zip(fields, rec.fields)):
        if not match_field(m, v):
            want = m.pattern if isinstance(m, re.Pattern) else m
            return f"{func} field {i + 1}: expected {want!r}, got {v!r} ({rec.where()})"
    return None


def check_records(recs, exp):
    """Walks the records along the expected matchers; returns a list of errors."""
    i = 0
    for item in exp:
        kind = item[0]
        if i >= len(recs):
            return [f"trace ends before {item[1] if kind == 'one' else kind}"]
        if kind == "one":
            err = check_one(recs[i], item[1], item[2])
            if err:
                return [err]
            i += 1
        elif kind == "waitany2":
            seen = set()
            for _ in range(2):
                rec = recs[i]
                if rec.func != "MPI_Waitany" or len(rec.fields) != 2 or rec.fields[0] != "2":
                    return [f"expected MPI_Waitany:2:<one entry>, got {rec.where()}"]
                seen.add(rec.fields[1])
                i += 1
            if seen != item[1]:
                return [f"the two MPI_Waitany completed {sorted(seen)}, expected {sorted(item[1])}"]
        elif kind == "loop":
            _, func, pending, last = item
            start = i
            while i < len(recs) and recs[i].func == func:
                i += 1
            polls = recs[start:i]
            if not polls:
                return [f"expected {func}, got {recs[start].where()}"]
            for rec in polls[:-1]:
                err = check_one(rec, func, pending)
                if err:
                    return [err]
            err = check_one(polls[-1], func, last)
            if err:
                return [err]
        elif kind == "finalize":
            rec = recs[i]
            if rec.func != "MPI_Finalize" or rec.fields or rec.ret != "-":
                return [f"expected MPI_Finalize:<t>:-, got {rec.where()}"]
            i += 1
    if i != len(recs):
        return [f"unexpected record after MPI_Finalize: {recs[i].where()}"]
    return []


def check_times(recs):
    errors = []
    prev_ret = None
    for rec in recs:
        call = None if rec.call == "-" else rec.call
        ret = None if rec.ret == "-" else rec.ret
        for t in (call, ret):
            if t is not None and not re.fullmatch(r"\d+", t):
                return [f"bad time {t!r} ({rec.where()})"]
        call = int(call) if call is not None else None
        ret = int(ret) if ret is not None else None
        if call is not None and prev_ret is not None and call < prev_ret:
            errors.append(f"call time before the previous return ({rec.where()})")
        if call is not None and ret is not None and ret < call:
            errors.append(f"return before call ({rec.where()})")
        prev_ret = ret if ret is not None else prev_ret
    return errors


def check_gap(recs):
    for k, rec in enumerate(recs):
        if rec.func == "MPI_Barrier":
            gap_ns = int(rec.call) - int(recs[k - 1].ret)
            if not 2_000_000 <= gap_ns < 50_000_000:
                return [f"compute gap before MPI_Barrier: expected 2 ms <= gap < 50 ms, got {gap_ns} ns"], gap_ns
            return [], gap_ns
    return ["no MPI_Barrier"], None


def read_trace(path, rank, size, speed):
    """Returns (header dict, records, errors)."""
    with open(path) as f:
        lines = f.read().split("\n")
    errors = []
    if lines and lines[-1] == "":
        lines.pop()
    else:
        errors.append("the file does not end with a newline")
    if not lines or lines[0] != "# simfab-capture 1":
        return {}, [], [f"first line is not '# simfab-capture 1': {lines[:1]}"]
    if lines[-1] != "# end":
        errors.append(f"last line is {lines[-1]!r}, expected '# end'")
    header = {}
    k = 1
    while k < len(lines) and lines[k].startswith("# "):
        key, _, value = lines[k][2:].partition(": ")
        header[key] = value
        k += 1
    want = {"rank": str(rank), "size": str(size), "world": "1", "self": "2", "clock": "CLOCK_MONOTONIC",
            "time-unit": "ns"}
    if speed is not None:
        want["speed"] = speed
    for key, value in want.items():
        if header.get(key) != value:
            errors.append(f"header '# {key}:' is {header.get(key)!r}, expected {value!r}")
    if not re.fullmatch(r"[0-9a-f]{16}", header.get("run", "")):
        errors.append(f"header '# run:' is {header.get('run')!r}, expected 16 hex digits")
    if not header.get("hostname"):
        errors.append("no '# hostname:' header")
    if not header.get("library", "").startswith("Open MPI"):
        errors.append(f"header '# library:' is {header.get('library')!r}")
    if speed is None and "speed" in header:
        errors.append("'# speed:' header without SIMFAB_CAPTURE_SPEED")
    body = lines[k:-1] if lines[-1] == "# end" else lines[k:]
    recs = []
    sites = []
    for j, line in enumerate(body):
        if line.startswith("#"):
            errors.append(f"comment line among the records: {line!r}")
            continue
        if line.startswith("@"):  # the call site of the next records
            if not re.fullmatch(r"@capture_probe\+0x[0-9a-f]+", line):
                errors.append(f"line {k + j + 1}: call site {line!r}, expected '@capture_probe+0x<offset>'")
            if sites and sites[-1] == line:
                errors.append(f"line {k + j + 1}: call site {line!r} repeats the previous one")
            sites.append(line)
            continue
        recs.append(Rec(k + j + 1, line))
    if len(set(sites)) < 10:
        errors.append(f"{len(set(sites))} distinct call sites, expected one per MPI call line of the probe (10 or more)")
    return header, recs, errors


def mpirun(args, np, env_extra, cwd, lib):
    env = {key: v for key, v in os.environ.items()
           if key != "LD_PRELOAD" and not key.startswith("SIMFAB_CAPTURE_")}
    cmd = ["mpirun"] + MPIRUN_OPTS + ["-np", str(np)]
    for key, value in env_extra.items():
        cmd += ["-x", f"{key}={value}"]
    cmd += ["-x", f"LD_PRELOAD={lib}"] + args
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s: {' '.join(cmd)}"
    return p, " ".join(cmd)


def trace_files(d):
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


def run_main(probe, lib, tmp, verbose):
    """The 4-rank probe run: every file, header, record and time."""
    out = os.path.join(tmp, "traces")
    p, cmd = mpirun([probe], NP, {"SIMFAB_CAPTURE_DIR": out, "SIMFAB_CAPTURE_SPEED": "2e9"}, tmp, lib)
    if p is None:
        return [cmd]
    if p.returncode != 0:
        return [f"{cmd}: exit {p.returncode}\n{p.stdout}{p.stderr}"]
    errors = []
    oks = re.findall(r"(?m)^capture_probe: rank \d+ OK$", p.stdout)
    if len(oks) != NP:
        errors.append(f"the probe printed {len(oks)} OK lines, expected {NP}:\n{p.stdout}{p.stderr}")
    files = trace_files(out)
    want_files = [f"rank-{r}.txt" for r in range(NP)]
    if files != want_files:
        return errors + [f"{out} holds {files}, expected {want_files}"]
    runs = set()
    gaps = []
    for r in range(NP):
        path = os.path.join(out, f"rank-{r}.txt")
        header, recs, errs = read_trace(path, r, NP, "2000000000")
        errs += check_records(recs, expected_records(r, NP))
        errs += check_times(recs)
        gap_errs, gap = check_gap(recs)
        errs += gap_errs
        gaps.append(gap)
        runs.add(header.get("run"))
        errors += [f"rank-{r}.txt: {e}" for e in errs]
        if verbose:
            print(open(path).read())
    if len(runs) != 1:
        errors.append(f"the ranks have different run ids: {sorted(map(str, runs))}")
    # simfab convert turns the call sites into SimGrid's location lines.
    simfab = os.path.join(os.path.dirname(lib), "simfab")
    if os.path.exists(simfab):
        ti = os.path.join(tmp, "probe.ti")
        c = subprocess.run([simfab, "convert", out, "--ti", ti], capture_output=True, text=True, timeout=TIMEOUT_S)
        rank0 = os.path.join(tmp, "probe.ti_files", "rank-0.ti")
        text = open(rank0).read() if c.returncode == 0 and os.path.exists(rank0) else ""
        locs = re.findall(r"(?m)^0 location capture_probe\+0x[0-9a-f]+ 0$", text)
        if len(set(locs)) < 10:
            errors.append(f"simfab convert wrote {len(set(locs))} distinct location lines for rank 0, expected 10 or more"
                          f" (status {c.returncode}: {c.stderr.strip()[:300]})")
    if not errors:
        print(f"  compute gaps (ns): {gaps}")
    return errors


def run_default_dir(probe, lib, tmp):
    """No SIMFAB_CAPTURE_DIR: ./simfab-capture in the working directory."""
    cwd = os.path.join(tmp, "cwd")
    os.makedirs(cwd)
    p, cmd = mpirun([probe], NP, {}, cwd, lib)
    if p is None or p.returncode != 0:
        return [f"{cmd}: {'' if p is None else f'exit {p.returncode}: {p.stderr}'}"]
    files = trace_files(os.path.join(cwd, "simfab-capture"))
    if files != [f"rank-{r}.txt" for r in range(NP)]:
        return [f"default directory {cwd}/simfab-capture holds {files}"]
    return []


def run_bad(probe, lib, tmp, name, env_extra, must_say, dir_to_check):
    p, cmd = mpirun([probe], 2, env_extra, tmp, lib)
    if p is None:
        return [cmd]
    errors = []
    text = p.stdout + p.stderr
    if p.returncode == 0:
        errors.append(f"{name}: exit 0, expected an error")
    if "simfab-capture:" not in text or must_say not in text:
        errors.append(f"{name}: the output does not name {must_say!r}:\n{text}")
    if "capture_probe: rank" in p.stdout:
        errors.append(f"{name}: the program ran past MPI_Init")
    left = trace_files(dir_to_check)
    if left:
        errors.append(f"{name}: files left in {dir_to_check}: {left}")
    return errors


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv[1:]
    if len(args) != 2:
        print(__doc__)
        return 2
    build_dir, src_dir = (os.path.abspath(a) for a in args)
    if shutil.which("mpirun") is None or shutil.which("mpicc") is None:
        print("SKIP: mpirun or mpicc is not on PATH (install openmpi-bin and libopenmpi-dev)")
        return 77
    lib = os.path.join(build_dir, "libsimfab-capture.so")
    if not os.path.isfile(lib):
        print(f"FAIL: {lib} does not exist (build the simfab-capture target)")
        return 1
    tmp = tempfile.mkdtemp(prefix="simfab-capture-test-")
    try:
        probe = os.path.join(tmp, "capture_probe")
        src = os.path.join(src_dir, "tests", "capture", "capture_probe.c")
        p = subprocess.run(["mpicc", "-O1", "-Wall", "-o", probe, src], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"FAIL: mpicc {src}:\n{p.stderr}")
            return 1
        afile = os.path.join(tmp, "afile")
        open(afile, "w").close()
        bad_dir = os.path.join(afile, "sub")
        speed_dir = os.path.join(tmp, "speed")
        cases = [
            ("probe on 4 ranks: headers, records, times", lambda: run_main(probe, lib, tmp, verbose)),
            ("default directory ./simfab-capture", lambda: run_default_dir(probe, lib, tmp)),
            ("SIMFAB_CAPTURE_DIR under a regular file",
             lambda: run_bad(probe, lib, tmp, "bad dir", {"SIMFAB_CAPTURE_DIR": bad_dir}, bad_dir, bad_dir)),
            ("SIMFAB_CAPTURE_SPEED=abc",
             lambda: run_bad(probe, lib, tmp, "bad speed",
                             {"SIMFAB_CAPTURE_DIR": speed_dir, "SIMFAB_CAPTURE_SPEED": "abc"},
                             "SIMFAB_CAPTURE_SPEED='abc'", speed_dir)),
        ]
        failed = 0
        for name, fn in cases:
            errors = fn()
            print(f"{'ok  ' if not errors else 'FAIL'} {name}")
            for e in errors:
                print(f"     {e}")
            failed += bool(errors)
        print(f"{len(cases) - failed}/{len(cases)} capture cases passed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
