#!/usr/bin/env python3
"""SimGrid side-by-side validation of simfab (issue 6).

For each case of cases.txt (platform, TI trace or MPI program, rank count, collective selector),
this script builds the trace (generated, or recorded from programs/ with `smpirun -trace-ti`),
replays it with SimGrid 3.32 (`smpirun -replay`) and with simfab (`simfab run`), and prints the
predicted time of each, their relative difference, the wall time and peak memory of each whole
process, and the wall-time ratio. README.md explains the cases; harness/ holds the parts.

  python3 validation/simgrid/run.py [--quick] [--filter GLOB] [--simfab PATH] [--tolerance T]
                                    [--write-results] [--keep] [--list]

Exit status: 0 when every case agrees within the tolerance or is explained in cases.txt; 1 when
one does not, when a tool fails on an unexplained case, or when SimGrid is missing; 2 for a bad
case list or command line. Pass or fail never depends on wall time.
"""
import argparse
import fnmatch
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from harness import cases as case_list  # noqa: E402
from harness import platforms, report, tools, traces  # noqa: E402


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="only the cases marked quick (CI; well under a minute)")
    ap.add_argument("--filter", metavar="GLOB", help="only the cases whose name matches GLOB (fnmatch)")
    ap.add_argument("--simfab", default=os.path.join(HERE, "..", "..", "build", "simfab"),
                    help="the simfab binary (default: build/simfab)")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.txt"), help="the case list")
    ap.add_argument("--tolerance", type=float, default=0.001, help="relative difference allowed (default 0.001)")
    ap.add_argument("--write-results", action="store_true", help="write RESULTS.md next to this script")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (traces, logs)")
    ap.add_argument("--list", action="store_true", help="list the selected cases and exit")
    return ap.parse_args()


def select(cases, args):
    out = [c for c in cases if not args.quick or c.quick]
    if args.filter:
        out = [c for c in out if fnmatch.fnmatchcase(c.name, args.filter)]
    return out


def prepare_trace(case, case_dir, hostfile, platform, bin_dir):
    """(the list file both tools replay, the program as [executable, args...] or None). Paths in
    the list are relative to case_dir, the cwd of both tools."""
    if case.kind != "program":
        return traces.write_trace(case.ranks(), case_dir, case.p["layout"]), None
    exe = tools.compile_program(os.path.join(HERE, "programs", case.p["program"]), bin_dir)
    args = case.p["args"].split(":") if case.p["args"] else []
    return tools.record_program(exe, args, platform, hostfile, case.np, case_dir), [exe] + args


def run_case(case, session, simfab, choices, case_index):
    r = report.Result(case)
    case_dir = os.path.join(session, f"case{case_index:04d}")
    os.makedirs(case_dir)
    platform = os.path.join(HERE, "platforms", case.platform)
    hostfile = os.path.join(case_dir, "hostfile")
    try:
        platforms.write_hostfile(platform, case.np, hostfile, case.ranks_per_host)
        trace, program = prepare_trace(case, case_dir, hostfile, platform, os.path.join(session, "bin"))
    except (RuntimeError, ValueError) as e:
        r.note = str(e)
        return r
    reference = program if case.kind == "program" and case.p["reference"] == "program" else None
    r.simgrid, r.simgrid_s = tools.run_simgrid(platform, hostfile, os.path.basename(trace), case.np, case.selector,
                                               case.cfg, case_dir, reference)
    settings, r.fallbacks = tools.simfab_settings(choices, case.selector)
    settings += [c.replace(":", "=", 1) for c in case.cfg]
    r.simfab, r.simfab_s = tools.run_simfab(simfab, platform, hostfile, trace, settings, case_dir)
    notes = []
    if r.simgrid_s is None:
        what = "smpirun -replay" if reference is None else "smpirun " + os.path.basename(program[0])
        notes.append(f"{what} failed (exit {r.simgrid.rc}):\n{r.simgrid.tail()}")
    if r.simfab_s is None:
        notes.append(f"simfab failed (exit {r.simfab.rc}):\n{r.simfab.tail()}")
    r.note = "\n".join(notes)
    return r


def main():
    args = parse_args()
    try:
        selected = case_list.parse(args.cases)
    except (case_list.CaseError, ValueError) as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2
    cases = select(selected.cases, args)
    if args.list:
        for c in cases:
            print(c.name)
        return 0
    if not cases:
        print("run.py: no case selected", file=sys.stderr)
        return 2
    simfab = os.path.abspath(args.simfab)
    if not os.access(simfab, os.X_OK):
        print(f"run.py: no simfab binary at {simfab} (build first, or give --simfab)", file=sys.stderr)
        return 2
    try:
        sg_version = tools.simgrid_version()
        tools.require("smpicc")
    except FileNotFoundError as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 1
    choices = tools.simfab_choices(simfab)
    _, fallbacks = tools.simfab_settings(choices, "default")
    print(f"SimGrid: {sg_version}; simfab: {tools.simfab_version(simfab)}; {len(cases)} cases")
    if "3.32" not in sg_version:
        print(f"WARNING: the reference is SimGrid 3.32; this is {sg_version}")
    if not tools.GNU_TIME:
        print("note: no /usr/bin/time (GNU time): peak memory is os.wait4's, a floor of about 16 MiB")
    if fallbacks:
        print(f"WARNING: this simfab lacks {', '.join(fallbacks)}; running with the fallback "
              f"configuration (harness/tools.py FALLBACK_CFG): differences measure the fallback")
    width = max(len(c.name) for c in cases)
    print(report.console_header(width))
    session = tempfile.mkdtemp(prefix="simfab-simgrid-")
    os.makedirs(os.path.join(session, "bin"))
    results = []
    try:
        for i, case in enumerate(cases):
            r = run_case(case, session, simfab, choices, i)
            r.judge(args.tolerance, selected.explanation(case.name), selected.explanation(case.name, "explain-abort"))
            results.append(r)
            print(report.console_line(r, width), flush=True)
            if r.status in ("ERROR", "FAIL") and r.note:
                print("    " + r.note.rstrip().replace("\n", "\n    "), flush=True)
    finally:
        if args.keep:
            print(f"kept {session}")
        else:
            shutil.rmtree(session, ignore_errors=True)
    print(report.summary(results, args.tolerance))
    if args.write_results:
        path = os.path.join(HERE, "RESULTS.md")
        context = {
            "simgrid": sg_version, "simfab": tools.simfab_version(simfab), "simfab_cfg": tools.SIMFAB_CFG,
            "simgrid_cfg": tools.SIMGRID_CFG, "fallbacks": fallbacks, "gnu_time": bool(tools.GNU_TIME),
            "command": "python3 validation/simgrid/run.py --write-results" + (" --quick" if args.quick else ""),
            "subset": ("the --quick subset of " if args.quick else "all of ") + os.path.basename(args.cases)
            + (f" matching {args.filter}" if args.filter else ""),
        }
        report.write_results(path, results, args.tolerance, context)
        print(f"wrote {path}")
    bad = [r for r in results if r.status in ("FAIL", "ERROR")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
