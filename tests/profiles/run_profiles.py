#!/usr/bin/env python3
"""Availability profiles and SimGrid platform idioms (issue 37), from the command line.

Expected makespans were recorded with SimGrid 3.32 (Debian 3.32-2):
  smpirun -np 2 -platform P -hostfile hosts.txt -replay LIST --cfg=smpi/display-timing:yes
          --log=smpi_utils.fmt:%.12d|%m%n
on the platforms of examples/platforms/profiles/ and the TI traces beside this script; simfab
runs them with network/model=smpi and must agree to the picosecond (speed and bandwidth profiles
are integrated exactly; latency profiles apply when a message departs). Then: LogGOPS samples a
bandwidth profile when the message is sent; `platform describe` lists profiles and disks; a
pstate of speed 0 loads; a host or link failure (state profile) under the run exits 5 naming it
and the time; the packet model follows bandwidth steps too; bad profiles exit 2 naming the file
and line.

usage: run_profiles.py SIMFAB SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
import golden_check  # noqa: E402
from golden_check import check  # noqa: E402

SIMFAB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
HERE = os.path.join(SRC, "tests/profiles")
PLAT = os.path.join(SRC, "examples/platforms/profiles")


def run(args, cwd=HERE):
    p = subprocess.run([SIMFAB] + args, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def makespan(platform, trace, model="smpi"):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, _, se = run(["run", "--platform", os.path.join(PLAT, platform), "--hostfile", "hosts.txt",
                           "--trace", trace, "--cfg", "network/model=" + model, "--json", out])
        return (json.load(open(out))["makespan_ps"] if code == 0 else None), se


# SimGrid 3.32's clock at the end of each replay, in picoseconds.
RECORDED = [
    ("two_hosts_speed.xml", "compute.txt", 15000000000000),            # PERIODICITY 3
    ("two_hosts_speed_loopafter.xml", "compute.txt", 13000000000000),  # LOOPAFTER 3
    ("two_hosts_traces.xml", "compute.txt", 13000000000000),           # <trace periodicity=10>
    ("two_hosts_bandwidth.xml", "send.txt", 1610776583334),            # 10 -> 5 -> 20 MBps
    ("two_hosts_latency.xml", "late.txt", 12029566441682),             # latency 15 ms, then 3 ms
    ("two_hosts_latency.xml", "send.txt", 1116315412500),              # departs before any change
]
for platform, trace, want in RECORDED:
    got, se = makespan(platform, trace)
    check("smpi %s %s (SimGrid 3.32)" % (platform, trace), got == want, want, got if got is not None else se)

# Without the profile, the 10 MB message takes 1.116315 s: the profile is what made it 1.61 s.
got, _ = makespan("two_hosts_latency.xml", "send.txt")
check("no bandwidth profile: 10 MB in 1.116 s", got == 1116315412500, 1116315412500, got)

# LogGOPS takes L and G in force when the message is sent (10 MBps at 0 s): 1 s + 10 us + o.
got, se = makespan("two_hosts_bandwidth.xml", "send.txt", "loggops")
check("loggops samples the bandwidth at the send", got is not None and 1000000000000 <= got < 1000020000000,
      "1 s (10 MBps) plus L and o", got if got is not None else se)

# The flow model follows the bandwidth profile within the message, as smpi does.
got, se = makespan("two_hosts_bandwidth.xml", "send.txt", "flow")
check("flow follows the bandwidth profile", got is not None and got > 1500000000000, "> 1.5 s", got or se)

# describe lists the profiles and the disks; a pstate of speed 0 loads.
code, so, se = run(["platform", "describe", os.path.join(PLAT, "two_hosts_traces.xml"), "--json"])
j = json.loads(so) if code == 0 else {}
check("describe: trace_connect profile", j.get("profiles") == [
    {"element": "A", "kind": "speed", "profile": "<trace id='slow_start'>", "events": 2, "period_s": 10.0}],
      "one speed profile", j.get("profiles", se))
code, so, se = run(["platform", "describe", os.path.join(PLAT, "boot_and_disks.xml"), "--json"])
j = json.loads(so) if code == 0 else {}
check("describe: disks", j.get("disks") == [
    {"host": "bob", "disk": "Disk1", "read_Bps": 100e6, "write_Bps": 40e6},
    {"host": "bob", "disk": "Disk2", "read_Bps": 200e6, "write_Bps": 80e6}], "two disks", j.get("disks", se))
code, so, se = run(["platform", "describe", os.path.join(PLAT, "faulty_host.xml")])
check("describe: a state profile loads", code == 0 and "host state of 'Faulty': 'faulty.profile', 2 events, "
      "repeating every 10 s" in so, "the profile line", so + se)

# Failures: a host that turns off under an unfinished rank ends the run (exit 5) at that time;
# one that turns off after its ranks finished changes nothing; a link that turns off under a
# message in flight ends the run (flow, smpi); other models refuse link state profiles.
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "r.json")
    code, so, se = run(["run", "--platform", os.path.join(PLAT, "faulty_host.xml"), "--trace", "compute.txt",
                        "--json", out])
    check("host failure: exit 5, rank, host, time", code == 5 and
          "simfab: failure: rank 0 on host 'Faulty' failed at 1 s: the host turned off" in se,
          "exit 5 at 1 s", (code, se))
    check("host failure: nothing written", not os.path.exists(out), "no JSON", os.listdir(d))
code, so, se = run(["run", "--platform", os.path.join(PLAT, "faulty_host.xml"), "--trace", "short.txt"])
check("host fails after its rank finished: exit 0", code == 0 and "(100 ms)" in so, "0.1 s", (code, so, se))
code, so, se = run(["run", "--platform", os.path.join(PLAT, "failing_link.xml"), "--hostfile", "hosts.txt",
                    "--trace", "send.txt", "--cfg", "network/model=smpi"])
check("link failure under a message: exit 5", code == 5 and "link 'L' turned off at 0.500000 s under 1 message" in se,
      "exit 5 at 0.5 s", (code, se))
code, so, se = run(["run", "--platform", os.path.join(PLAT, "failing_link.xml"), "--hostfile", "hosts.txt",
                    "--trace", "send.txt", "--cfg", "network/model=loggops"])
check("loggops refuses link state profiles", code == 2 and "flow and smpi only" in se, "exit 2", (code, se))
# Rerouting (flow and smpi): in a Floyd zone with two ways from A to B, a message routes around a
# link that is off. Flow model closed forms (no overheads, no envelope): the 10 MB message starts
# sharing at 2 ms over L1, L2 (10 MBps) and has moved 4.98 MB when L1 turns off at 0.5 s; the
# other 5.02 MB wait for R2's latency (4 ms) and cross L3, L4 at 5 MBps: 0.5 + 0.004 + 1.004 =
# 1.508 s. A 1 MB message departing at 0.55 s (L1 off) goes by R2: 0.55 + 0.004 + 0.2 = 0.754 s.
with tempfile.TemporaryDirectory() as d:
    text = open(os.path.join(PLAT, "rerouting.xml")).read()
    variants = {
        "r2only.xml": "".join(l for l in text.splitlines(True) if 'dst="R1"' not in l and 'src="R1"' not in l),
        "bothoff.xml": text.replace('latency="2ms"/>', 'latency="2ms" state_file="link_state.profile"/>', 1),
        "nofail.xml": text.replace(' state_file="link_state.profile"', ""),
    }
    for name, body in variants.items():
        open(os.path.join(d, name), "w").write(body)
    import shutil
    shutil.copy(os.path.join(PLAT, "link_state.profile"), d)

    def span(plat, trace, model):
        code, so, se = run(["run", "--platform", plat, "--hostfile", "hosts.txt", "--trace", trace, "--cfg",
                            "network/model=" + model, "--json", os.path.join(d, "r.json")])
        return (json.load(open(os.path.join(d, "r.json"))) if code == 0 else None), code, se

    rr = os.path.join(PLAT, "rerouting.xml")
    j, code, se = span(rr, "send.txt", "flow")
    check("flow: a message in flight moves to R2 when L1 turns off", j is not None and j["makespan_ps"] == 1508000000000
          and j["network"]["reroutes"] == 1, "1.508 s, 1 reroute", j["makespan_ps"] if j else (code, se))
    # The carried-bytes timeline (--stats) splits the message where it was rerouted.
    code, so, se = run(["run", "--platform", rr, "--hostfile", "hosts.txt", "--trace", "send.txt", "--cfg",
                        "network/model=flow", "--quiet", "--stats", os.path.join(d, "st")])
    carried = {}
    if code == 0:
        import csv
        for row in csv.DictReader(open(os.path.join(d, "st", "link_timeline.csv"))):
            carried[row["link"]] = carried.get(row["link"], 0) + float(row["bytes"])
    check("flow: L1, L2 carried 4.98 MB and L3, L4 5.02 MB", len(carried) == 4 and all(
        abs(carried.get(l, 0) - want) < 1e-3 for l, want in
        (("L1", 4.98e6), ("L2", 4.98e6), ("L3", 5.02e6), ("L4", 5.02e6))), "4.98/5.02 MB", (carried, se))
    j, code, se = span(rr, "midsend.txt", "flow")
    check("flow: a message departing while L1 is off takes R2", j is not None and j["makespan_ps"] == 754000000000,
          "0.754 s", j["makespan_ps"] if j else (code, se))
    for model in ("flow", "smpi"):
        a, _, se1 = span(rr, "midsend.txt", model)
        b, _, se2 = span(os.path.join(d, "r2only.xml"), "midsend.txt", model)
        c, _, se3 = span(os.path.join(d, "nofail.xml"), "midsend.txt", model)
        check(model + ": routed around = the R2-only platform, not the R1 route", a is not None and b is not None and
              c is not None and a["makespan_ps"] == b["makespan_ps"] != c["makespan_ps"], "equal to R2 only",
              (a and a["makespan_ps"], b and b["makespan_ps"], c and c["makespan_ps"], se1 + se2 + se3))
        j, code, se = span(rr, "send.txt", model)
        check(model + ": in flight, rerouted, not failed", code == 0 and j["network"]["reroutes"] == 1, "exit 0",
              (code, se))
        j, code, se = span(os.path.join(d, "bothoff.xml"), "send.txt", model)
        check(model + ": no way around: exit 5", code == 5 and "link 'L1' turned off at 0.500000 s under 1 message" in se
              and "no other route from host 'A' to host 'B' avoids it" in se, "exit 5", (code, se))

# SimGrid's older idioms: version 4, <AS>, a <trace> period shorter than its last date (read as
# SimGrid <= 3.29 did, with a warning): 10 Gflop at 1 Gf under 1.0, 0.5 (4 s), 1.0 (6 s), 0.5 ...
code, so, se = run(["run", "--platform", os.path.join(PLAT, "legacy_periodicity.xml"), "--trace", "compute.txt"])
check("legacy periodicity: 12 s and two warnings", code == 0 and "predicted makespan: 12000000000000 ps" in so and
      se.count("warning: profile <trace id=") == 2 and "(period 6 s)" in se and "(period 31 s)" in se,
      "12 s", (code, so, se))

# The packet model follows the bandwidth steps too (at packet granularity): N s at a constant
# 10 MBps (the payload plus headers, W = ~N x 10 MB), so 1.5 s for the first 10 MB under the
# profile and the rest, N - 1 s of it at 10 MBps, at 20 MBps: 1.5 + (N - 1) / 2, within 1 ms (the
# latency and the last packet's serialisation do not halve).
got, se = makespan("two_hosts_bandwidth.xml", "send.txt", "packet")
with tempfile.TemporaryDirectory() as d:
    plat = os.path.join(d, "flat.xml")
    open(plat, "w").write(open(os.path.join(PLAT, "two_hosts_bandwidth.xml")).read().replace(
        ' bandwidth_file="link_bandwidth.profile"', ""))
    code, so, se2 = run(["run", "--platform", plat, "--hostfile", "hosts.txt", "--trace", "send.txt",
                         "--cfg", "network/model=packet", "--quiet", "--json", os.path.join(d, "r.json")])
    flat = json.load(open(os.path.join(d, "r.json")))["makespan_ps"] if code == 0 else None
want = None if flat is None else 1.5e12 + (flat - 1e12) / 2
check("packet follows the bandwidth profile", got is not None and want is not None and abs(got - want) < 1e9,
      "1.5 s + (N - 1) / 2 = %s ps" % want, (got, flat, se, se2))

# A host may not start in a pstate of speed 0.
BAD_PLATFORM = """<?xml version='1.0'?>
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <host id="A" speed="%s"%s/>
  </zone>
</platform>
"""
BAD_PROFILES = [
    ("STOCHASTIC\nEXP 1 DET 0.5\n", "stochastic profiles are not supported", ":1"),
    ("0 0.5\n2 1\n1 0.7\n", "the dates must not decrease", ":3"),
    ("0 half\n", "expected '<date> <value>'", ":1"),
    ("0 -0.5\n", "is not a speed scale >= 0", "p.xml:4"),
]
with tempfile.TemporaryDirectory() as d:
    def platform(speed, attrs):
        with open(os.path.join(d, "p.xml"), "w") as f:
            f.write(BAD_PLATFORM % (speed, attrs))
        return run(["platform", "describe", os.path.join(d, "p.xml")])

    code, so, se = platform("1Gf,0f", ' pstate="1"')
    check("start in a 0f pstate refused", code == 2 and "has speed 0" in se, "exit 2", (code, se))
    code, so, se = platform("0f", "")
    check("a single speed of 0 refused", code == 2 and "p.xml:4" in se, "exit 2 at the host", (code, se))
    code, so, se = platform("1Gf", ' speed_file="missing.profile"')
    check("missing profile file", code == 2 and "cannot read the profile 'missing.profile'" in se and "p.xml:4" in se,
          "exit 2 at the host", (code, se))
    for text, want, where in BAD_PROFILES:
        with open(os.path.join(d, "s.profile"), "w") as f:
            f.write(text)
        code, so, se = platform("1Gf", ' speed_file="s.profile"')
        check("bad profile: " + want, code == 2 and want in se and where in se, "exit 2: " + want, (code, se))

    # A period shorter than the last date: SimGrid 3.32 aborts, simfab reads it as SimGrid <= 3.29.
    with open(os.path.join(d, "s.profile"), "w") as f:
        f.write("0 0.5\n5 1\nPERIODICITY 3\n")
    code, so, se = platform("1Gf", ' speed_file="s.profile"')
    check("period shorter than the last date: loads with a warning", code == 0 and
          "warning: profile 's.profile': its period 3 s is shorter than its last date 5 s" in se and
          "(period 8 s)" in se and "p.xml:4" in se, "exit 0, the warning at p.xml:4", (code, se))

golden_check.finish("run_profiles.py")
