#!/usr/bin/env python3
"""Runs a command and reports its wall time and the peak memory of its whole process tree.

  peak_memory.py OUT_FILE [--timeout S] -- CMD ARGS...

Writes "WALL_S PEAK_RSS_KIB PEAK_PSS_KIB" to OUT_FILE and exits with the command's status (124 on
timeout). Every 250 ms it sums VmRSS and Pss (/proc/PID/smaps_rollup) over the command and all its
descendants. RSS counts a page once per mapping that maps it, so a program whose copies share pages
(simfab's loader: src/online/copy_linker.hpp) is charged them once per copy; PSS divides each shared
page among the processes that map it and counts it once per process: the physical memory. Peaks
between two samples can be missed (sampling a process of many thousand mappings costs milliseconds, hence the interval).
"""
import os
import subprocess
import sys
import time


def tree(root):
    """root and its descendants, from /proc/*/stat parent links."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def sample(pid):
    rss = pss = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            pass
    return rss, pss


def main():
    args = sys.argv[1:]
    out, timeout, interval = args.pop(0), None, 0.25
    if args and args[0] == "--timeout":
        timeout = float(args[1])
        args = args[2:]
    if not args or args[0] != "--":
        sys.exit("usage: peak_memory.py OUT_FILE [--timeout S] -- CMD ARGS...")
    start = time.monotonic()
    proc = subprocess.Popen(args[1:])
    peak_rss = peak_pss = 0
    status = None
    while status is None:
        rss, pss = sample(proc.pid)
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        try:
            status = proc.wait(timeout=interval)
        except subprocess.TimeoutExpired:
            if timeout is not None and time.monotonic() - start > timeout:
                proc.kill()
                proc.wait()
                status = 124
    wall = time.monotonic() - start
    with open(out, "w") as f:
        f.write(f"{wall:.2f} {peak_rss} {peak_pss}\n")
    sys.exit(status)


if __name__ == "__main__":
    main()
