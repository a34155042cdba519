#!/usr/bin/env python3
"""Bad input gets a clear error: exit status 2, a message naming file:line:column and what was
expected, the offending line echoed, and no JSON written (no file at all: nor a temporary one).
One case per class of the issue; GOAL_CASES do the same for `simfab goal` (no GOAL file written).

usage: run_bad_input.py SIMFAB SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

SIMFAB, SRC = sys.argv[1], sys.argv[2]
passed = failed = 0
GOOD_GOAL = os.path.join(SRC, "examples/goal/loggops-example.goal")
GOOD_PLATFORM = os.path.join(SRC, "examples/platforms/cluster16.yaml")
GOOD_TI = os.path.join(SRC, "examples/ti/pingpong.ti")

CASES = [
    # (name, {file name: content}, args (FILE:x = that file), expected substrings in stderr)
    ("an option given twice", {}, ["--trace", GOOD_TI, "--platform", GOOD_PLATFORM, "--trace", GOOD_TI],
     ["option --trace is given twice; give it once"]),
    ("an option given twice (one inline)", {}, ["--goal", GOOD_GOAL, "--platform=" + GOOD_PLATFORM, "--platform",
                                                GOOD_PLATFORM], ["option --platform is given twice"]),
    ("goal malformed line", {"a.goal": "num_ranks 2\nrank 0 {\nl1: send 10b 1 tag 0\n}\nrank 1 { }\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:3:14:", "expected 'to' after the send size", "l1: send 10b 1 tag 0"]),
    ("goal unknown label", {"a.goal": "num_ranks 1\nrank 0 {\nl1: calc 5\nl1 requires l9\n}\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:4:13:", "unknown label 'l9'"]),
    ("goal unknown action", {"a.goal": "num_ranks 1\nrank 0 {\nl1: compute 5\n}\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:3:5:", "unknown operation 'compute'; expected calc, send, recv or switch"]),
    ("goal wrong argument count", {"a.goal": "num_ranks 2\nrank 0 {\nl1: send 10b to 1\n}\nrank 1 { }\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:4:1:", "expected 'tag N'"]),
    ("goal rank out of range", {"a.goal": "num_ranks 2\nrank 0 {\nl1: recv 4b from 2 tag 0\n}\nrank 1 { }\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:3:18:", "expected a rank below num_ranks 2, found '2'"]),
    ("goal dependency cycle", {"a.goal": "num_ranks 1\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n"},
     ["--goal", "FILE:a.goal"], ["a.goal:5:1:", "dependency cycle"]),
    ("goal missing file", {}, ["--goal", "FILE:nope.goal"], ["nope.goal: cannot open"]),
    ("ti unknown action", {"t.ti": "0 init\n0 sendd 1 0 10\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:2:", "sendd"]),
    ("ti wrong argument count", {"t.ti": "0 init\n1 init\n0 send 1 10\n1 recv 0 0 10\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:3:", "send"]),
    ("ti malformed number", {"t.ti": "0 init\n0 compute lots\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:2:", "lots"]),
    ("ti peer out of range", {"t.ti": "0 init\n1 init\n0 send 7 0 10\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:3:", "7"]),
    ("ti without platform", {}, ["--trace", GOOD_TI], ["needs --platform"]),
    # MPI misuse (issue 4): errors naming the file, line and rank.
    ("ti truncation", {"t.ti": "0 send 1 0 16\n1 recv 0 0 8\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["MPI_ERR_TRUNCATE", "t.ti:2 (rank 1)", "16 B"]),
    ("ti request waited twice", {"t.ti": "0 isend 1 0 8\n0 wait 0 1 0\n0 wait 0 1 0\n1 recv 0 0 8\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:3:1: wait of rank 0", "already completed"]),
    ("ti mismatched roots", {"t.ti": "0 bcast 8 0\n1 bcast 8 1\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["mismatched collective", "t.ti:2: rank 1", "root"]),
    ("ti mismatched counts", {"t.ti": "0 allreduce 8 0\n1 allreduce 16 0\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["mismatched collective", "16 B", "8 B"]),
    ("ti unknown communicator", {"t.ti": "0 barrier comm=4\n1 barrier\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:1:", "communicator 4 does not exist"]),
    ("ti not a member", {"t.ti": "0 comm_split 0 0 1\n1 comm_split 1 0 2\n1 barrier comm=1\n"},
     ["--platform", GOOD_PLATFORM, "--trace", "FILE:t.ti"], ["t.ti:3:", "rank 1 is not a member of communicator 1"]),
    ("platform undefined host", {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\n"
                                            "links:\n  - {name: l, bandwidth: 1GBps, latency: 1us}\n"
                                            "routes:\n  - {src: a, dst: c, links: [l]}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL], ["p.yaml:7:", "c"]),
    ("platform too few hosts", {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL], ["1 hosts but", "2 ranks"]),
    ("platform bad unit", {"p.yaml": "hosts:\n  - {name: a, speed: 1 Gflip}\n  - {name: b, speed: 1Gf}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL], ["p.yaml:2:", "1 Gflip"]),
    ("platform limiter factor out of range",
     {"p.yaml": "clusters:\n  - name: c\n    prefix: n\n    count: 2\n    speed: 1Gf\n    bandwidth: 1Gbps\n"
                "    latency: 1us\n    limiter_factor: 2.5\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL],
     ["p.yaml:8:21:", "'limiter_factor' in cluster 'c' must be a number in (0, 2]", "got '2.5'"]),
    ("platform split-duplex link without direction",
     {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\n"
                "links:\n  - {name: X, bandwidth: 1GBps, latency: 1us, sharing: splitduplex}\n"
                "routes:\n  - {src: a, dst: b, links: [X]}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL],
     ["p.yaml:7:30:", "link 'X' is split-duplex: name a direction, 'X_UP' or 'X_DOWN'"]),
    ("flow thresholds out of order", {},
     ["--platform", GOOD_PLATFORM, "--trace", GOOD_TI, "--cfg", "network/model=flow", "--cfg",
      "flow/async-threshold=1MB"], ["flow/async-threshold", "must not exceed flow/detached-threshold"]),
    ("flow unsorted segment table", {},
     ["--platform", GOOD_PLATFORM, "--trace", GOOD_TI, "--cfg", "network/model=flow", "--cfg",
      "flow/os=0:1e-6:0;65536:1e-6:0;1420:1e-6:0"], ["flow/os", "section 3"]),
    ("platform config unknown key",
     {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\nconfig:\n  flow/lat-factr: 0:1\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL], ["p.yaml:5:", "did you mean 'flow/lat-factor'"]),
    ("hostfile unknown host", {"h.txt": "node0\nnode99\n"},
     ["--platform", GOOD_PLATFORM, "--trace", GOOD_TI, "--hostfile", "FILE:h.txt"],
     ["h.txt:2:1:", "no host 'node99'"]),
    ("hostfile bad count", {"h.txt": "node0:many\n"},
     ["--platform", GOOD_PLATFORM, "--trace", GOOD_TI, "--hostfile", "FILE:h.txt"],
     ["h.txt:1:7:", "bad rank count 'many'"]),
    ("platform route crosses a link twice",
     {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\n"
                "links:\n  - {name: l, bandwidth: 1GBps, latency: 1us}\n"
                "routes:\n  - {src: a, dst: b, links: [l, l]}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL, "--cfg", "network/model=flow"],
     ["p.yaml:7:33:", "link 'l' appears twice"]),
    # Pstates and power (energy issue): the file, line (and column), host or link and attribute.
    ("platform power triples do not match speeds",
     {"p.yaml": "hosts:\n  - {name: a, speed: [2Gf, 1Gf], power: [[90, 100, 150]]}\n  - {name: b, speed: 1Gf}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL],
     ["p.yaml:2:41:", "bad 'power' in host 'a'", "1 power triple for 2 speeds"]),
    ("platform power AllCores below OneCore",
     {"p.xml": "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
               "<host id=\"a\" speed=\"1Gf\">\n  <prop id=\"wattage_per_state\" value=\"90:150:120\"/>\n</host>\n"
               "<host id=\"b\" speed=\"1Gf\"/>\n</zone>\n</platform>\n"},
     ["--platform", "FILE:p.xml", "--goal", GOOD_GOAL],
     ["p.xml:5:3:", "bad 'wattage_per_state' of <host id='a'>", "AllCores 120 W is below OneCore 150 W"]),
    ("platform pstate out of range",
     {"p.yaml": "hosts:\n  - {name: a, speed: [2Gf, 1Gf], pstate: 2}\n  - {name: b, speed: 1Gf}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL],
     ["p.yaml:2:42:", "bad 'pstate' in host 'a'", "pstate 2 is out of range"]),
    ("platform link busy below idle",
     {"p.yaml": "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\n"
                "links:\n  - {name: l, bandwidth: 1GBps, latency: 1us, power: [20, 10]}\n"},
     ["--platform", "FILE:p.yaml", "--goal", GOOD_GOAL],
     ["p.yaml:5:54:", "bad 'power' in link 'l'", "busy power 10 W is below idle power 20 W"]),
    ("cfg unknown key", {}, ["--goal", GOOD_GOAL, "--cfg", "loggops/l=5"], ["did you mean 'loggops/L'"]),
    ("cfg bad value", {}, ["--goal", GOOD_GOAL, "--cfg", "loggops/L=soon"], ["bad value 'soon' for loggops/L"]),
    ("cli no application", {}, [], ["give exactly one application"]),
    ("cli two applications", {}, ["--goal", GOOD_GOAL, "--trace", GOOD_TI], ["give exactly one application"]),
    ("cli unknown option", {}, ["--goal", GOOD_GOAL, "--jsn", "x"], ["unknown option '--jsn'; did you mean '--json'?"]),
]

# `simfab goal` (replay/ti_to_goal.hpp): the same promise, and no GOAL file, even partial, left.
GOAL_CASES = [
    ("goal wait never started", {"t.ti": "0 init\n1 init\n0 isend 1 0 8\n0 wait 0 1 1\n1 recv 0 0 8\n"},
     ["--trace", "FILE:t.ti"], ["t.ti:4:1:", "wait for a request (src 0, dst 1, tag 1) that was never started",
                                "0 wait 0 1 1"]),
    ("goal tag in the collective range", {"t.ti": "0 send 1 1073741824 8\n1 recv 0 1073741824 8\n"},
     ["--trace", "FILE:t.ti"], ["t.ti:1:1:", "tag 1073741824 is in the range GOAL export gives collectives"]),
    ("goal any tag with collectives", {"t.ti": "0 recv 1 -1 8\n0 barrier\n1 send 0 3 8\n1 barrier\n"},
     ["--trace", "FILE:t.ti"], ["t.ti:1:1:", "tag -1 (MPI_ANY_TAG) cannot be exported together with collectives"]),
    ("goal action after finalize", {"t.ti": "0 init\n0 finalize\n0 compute 5\n"},
     ["--trace", "FILE:t.ti"], ["t.ti:3:1:", "action after 'finalize'"]),
    ("goal malformed line late in the trace", {"t.ti": "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n1 compute lots\n"},
     ["--trace", "FILE:t.ti"], ["t.ti:5:", "lots"]),
    ("goal unknown algorithm", {}, ["--trace", GOOD_TI, "--cfg", "mpi/allreduce=rign"], ["mpi/allreduce", "rign"]),
    ("goal hostfile without platform", {"h.txt": "node0\n"}, ["--trace", GOOD_TI, "--hostfile", "FILE:h.txt"],
     ["--hostfile needs --platform"]),
    ("goal no trace", {}, [], ["give the trace to export: --trace FILE"]),
    ("goal unknown option", {}, ["--trace", GOOD_TI, "--jsn", "x"], ["unknown option '--jsn'"]),
]


def run_case(command, out_name, name, files, args, expect):
    """Runs `simfab COMMAND ARGS` writing to OUT_NAME; expects exit 2, EXPECT in stderr, no output."""
    global passed, failed
    with tempfile.TemporaryDirectory() as d:
        for fname, content in files.items():
            open(os.path.join(d, fname), "w").write(content)
        argv = [a.replace("FILE:", d + "/") if a.startswith("FILE:") else a for a in args]
        out = os.path.join(d, out_name)
        out_flag = "--json" if command == "run" else "-o"
        p = subprocess.run([SIMFAB, command] + argv + [out_flag, out], capture_output=True, text=True, timeout=60)
        problems = []
        if p.returncode != 2:
            problems.append(f"exit {p.returncode}, expected 2")
        for e in expect:
            if e not in p.stderr:
                problems.append(f"stderr lacks {e!r}")
        left = sorted(set(os.listdir(d)) - set(files))
        if left:
            problems.append(f"files were written: {left}")
        if "internal error" in p.stderr or "Sanitizer" in p.stderr:
            problems.append("crash")
        if problems:
            failed += 1
            print(f"FAIL {name}\n  Expectation: exit 2, {expect}\n  Actual: {'; '.join(problems)}\n  stderr: {p.stderr.strip()}")
        else:
            passed += 1


for case in CASES:
    run_case("run", "result.json", *case)
for case in GOAL_CASES:
    run_case("goal", "out.goal", *case)

# `simfab COMMAND --help` prints that command's entries of `simfab help` (exit 0); repeatable
# options (--cfg) may be repeated.
for command, first in (("run", "  simfab run ["), ("report", "  simfab report RUN"), ("convert", "  simfab convert ("),
                       ("calibrate", "  simfab calibrate fit")):
    p = subprocess.run([SIMFAB, command, "--help"], capture_output=True, text=True, timeout=60)
    ok = p.returncode == 0 and p.stdout.startswith(first) and "\n  simfab exec -np" not in p.stdout
    passed, failed = passed + ok, failed + (not ok)
    if not ok:
        print(f"FAIL simfab {command} --help\n  Expectation: exit 0, starts with {first!r}, only that command\n"
              f"  Actual: exit {p.returncode}: {p.stdout[:200]!r} {p.stderr[:200]!r}")
p = subprocess.run([SIMFAB, "run", "--trace", GOOD_TI, "--platform", GOOD_PLATFORM, "--cfg", "loggops/L=1000",
                    "--cfg", "loggops/o=100", "--quiet"], capture_output=True, text=True, timeout=60)
ok = p.returncode == 0
passed, failed = passed + ok, failed + (not ok)
if not ok:
    print(f"FAIL --cfg twice\n  Expectation: exit 0\n  Actual: exit {p.returncode}: {p.stderr.strip()}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
