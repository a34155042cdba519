#!/usr/bin/env python3
"""Ctrl-C and kill during a run (issue 35, item 4): simfab removes what it had started writing
(the --json temporary file, the --stats directory it created, the --otf2-out archive under
construction), prints one line saying where the run was, and exits 130 (SIGINT) / 143 (SIGTERM).

usage: run_interrupt.py SIMFAB GEN_SCHEDULE
The run: a 65,536-rank TI allreduce (gen_schedule ti-allreduce 65536 8 10: about 10 s in a release
build, far longer under the sanitizers), signalled after 3 s.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, GEN = sys.argv[1], sys.argv[2]

with tempfile.TemporaryDirectory() as d:
    trace, platform = os.path.join(d, "ar.ti"), os.path.join(d, "p.yaml")
    with open(trace, "w") as f:
        subprocess.run([GEN, "ti-allreduce", "65536", "8", "10"], stdout=f, check=True)
    with open(platform, "w") as f:
        subprocess.run([GEN, "platform", "65536"], stdout=f, check=True)
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        name = signal.Signals(sig).name
        out = os.path.join(d, "out-" + name)
        os.mkdir(out)
        p = subprocess.Popen([SIMFAB, "run", "--platform", platform, "--trace", trace, "--json", os.path.join(out, "r.json"),
                              "--stats", os.path.join(out, "stats"), "--trace-out", os.path.join(out, "t.json"),
                              "--otf2-out", os.path.join(out, "o"),
                              "--quiet"], stderr=subprocess.PIPE, text=True)
        time.sleep(3)
        finished_early = p.poll() is not None
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        if finished_early:
            print(f"note: the run ended within 3 s; the {name} check is skipped")
            continue
        check(f"{name}: exit {code}", p.returncode == code, code, (p.returncode, err))
        check(f"{name}: one line saying where the run was",
              re.fullmatch(rf"simfab: interrupted by {name}( at simulated time \d+ ps after \d+ events)?; nothing written\n",
                           err) is not None, f"simfab: interrupted by {name} at simulated time T ps after N events; ...", err)
        check(f"{name}: nothing left behind", os.listdir(out) == [], "an empty directory", os.listdir(out))

golden_check.finish("run_interrupt.py")
