#!/usr/bin/env python3
"""`simfab platform describe|routes|export` and topologies end to end (issue 5):

- the four 8-host verification topologies of seed 004 §3.2 (examples/platforms/h8_s*.yaml):
  average hop counts over ordered pairs 2, 18/7, 20/7, 26/7 and diameters 2, 3, 3, 4; and the
  8-rank dissemination of 180 B ranks S1 < S4 < S2 < S6 by finish time under the flow model;
- counts of known configurations (3-level k=4 fat-tree: 16 hosts, 20 switches);
- routes hop by hop, graph export (dot, JSON, linear forwarding tables);
- bad topology parameters and route requests: exit 2, file:line and what would work.

usage: run_platform_cmd.py SIMFAB SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

from golden_check import check
import golden_check

SIMFAB, SRC = sys.argv[1], sys.argv[2]
os.chdir(SRC)


def run(args, expect_rc=0):
    p = subprocess.run([SIMFAB] + args, capture_output=True, text=True, timeout=300)
    if p.returncode != expect_rc:
        check(" ".join(args), False, f"exit {expect_rc}", f"exit {p.returncode}: {p.stderr[:500]}")
    return p


def describe(path):
    p = run(["platform", "describe", path, "--json"])
    return json.loads(p.stdout) if p.returncode == 0 else {}


# Seed 004 §3.2: average hops 2 / 2.57 / 2.85 / 3.7 = 14/7, 18/7, 20/7, 26/7.
H8 = [("h8_s1", 2.0, 2, 1), ("h8_s2", 18 / 7, 3, 2), ("h8_s4", 20 / 7, 3, 4), ("h8_s6", 26 / 7, 4, 6)]
for name, avg, diameter, switches in H8:
    d = describe(f"examples/platforms/{name}.yaml")
    check(f"{name} avg hops", abs(d.get("avg_hops", 0) - avg) < 1e-9 and d.get("avg_hops_exact"), avg, d.get("avg_hops"))
    check(f"{name} diameter", d.get("diameter") == diameter, diameter, d.get("diameter"))
    check(f"{name} counts", d.get("hosts") == 8 and d.get("switches") == switches, (8, switches),
          (d.get("hosts"), d.get("switches")))
    check(f"{name} all pairs routed", d.get("pairs") == 56 and d.get("unrouted_pairs") == 0, 56, d.get("pairs"))

# Bisection: S1 4 hosts x 2 GB/s; S2 the one trunk (2 GB/s); S6 full bisection (4 x 2 GB/s).
for name, bw in [("h8_s1", 8e9), ("h8_s2", 2e9), ("h8_s6", 8e9)]:
    d = describe(f"examples/platforms/{name}.yaml")
    check(f"{name} bisection", abs(d.get("bisection_bw", 0) - bw) < 1, bw, d.get("bisection_bw"))

# The dissemination of seed 004 §3.2 under the flow model: hop count dominates, and the S2 trunk
# carries 4 flows each way in the last round, so S1 < S4 < S2 < S6.
finish = {}
for name, _, _, _ in H8:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        run(["run", "--platform", f"examples/platforms/{name}.yaml", "--goal", "examples/goal/dissemination8.goal",
             "--cfg", "network/model=flow", "--json", out, "--quiet"])
        if os.path.exists(out):
            finish[name] = json.load(open(out))["makespan_ps"]
order = sorted(finish, key=finish.get)
check("H8 dissemination order under flow", order == ["h8_s1", "h8_s4", "h8_s2", "h8_s6"] and
      len(set(finish.values())) == 4, "S1 < S4 < S2 < S6", finish)
# The thesis's OMNeT++ IB model with o=g=G=L=0 (Table 4.7.2.2, max): 723100, 1098500, 943100,
# 1261850 ps. The flow model on 16 Gb/s, 75 ns links lands within 8 % of each.
IB = {"h8_s1": 723100, "h8_s2": 1098500, "h8_s4": 943100, "h8_s6": 1261850}
for name, ib in IB.items():
    got = finish.get(name, 0)
    check(f"{name} dissemination vs the IB model", abs(got - ib) <= 0.08 * ib, f"{ib} ps +- 8 %", got)

# Known counts: the 3-level fat-tree of 4-port switches has 16 hosts and 20 switches (48 cables,
# full duplex: 96 directed links); the k=8 example 128 hosts and 80 switches.
with tempfile.TemporaryDirectory() as tmp:
    p = os.path.join(tmp, "ft4.yaml")
    open(p, "w").write("topology:\n  name: ft\n  kind: fat-tree\n  k: 4\n  prefix: n\n  speed: 1Gf\n"
                       "  link: {bandwidth: 10Gbps, latency: 100ns}\n")
    d = describe(p)
    check("k=4 fat-tree counts", (d.get("hosts"), d.get("switches"), d.get("links")) == (16, 20, 96),
          (16, 20, 96), (d.get("hosts"), d.get("switches"), d.get("links")))
    check("k=4 fat-tree diameter", d.get("diameter") == 6, 6, d.get("diameter"))
    check("k=4 fat-tree full bisection", abs(d.get("bisection_bw", 0) - 8 * 1.25e9) < 1, 1e10, d.get("bisection_bw"))
d = describe("examples/platforms/fat_tree_k8.yaml")
check("k=8 fat-tree counts", (d.get("hosts"), d.get("switches")) == (128, 80), (128, 80), (d.get("hosts"), d.get("switches")))
d = describe("examples/platforms/torus_4x4x4.yaml")
check("4x4x4 torus: 64 routers, diameter 2 + 6", (d.get("switches"), d.get("diameter")) == (64, 8), (64, 8),
      (d.get("switches"), d.get("diameter")))
d = describe("examples/platforms/dragonfly_9g.yaml")
check("dragonfly 9 groups: 72 hosts, 36 routers", (d.get("hosts"), d.get("switches")) == (72, 36), (72, 36),
      (d.get("hosts"), d.get("switches")))
d = describe("examples/platforms/cluster16.yaml")
check("cluster: 1 switch, 2 hops", (d.get("switches"), d.get("diameter"), d.get("avg_hops")) == (1, 2, 2.0),
      (1, 2, 2.0), (d.get("switches"), d.get("diameter"), d.get("avg_hops")))
text = run(["platform", "describe", "examples/platforms/h8_s2.yaml"]).stdout
check("describe text", all(s in text for s in ["hosts       8", "switches    2", "diameter    3 hops",
                                                 "avg hops    2.5714", "route h0 -> h7: 3 hops"]),
      "counts, diameter, avg hops, sample route", text)

# Routes hop by hop.
p = run(["platform", "routes", "examples/platforms/h8_s2.yaml", "--from", "h1", "--to", "h6", "--json"])
r = json.loads(p.stdout) if p.returncode == 0 else {}
check("route h1 -> h6 on S2", [l["name"] for l in r.get("links", [])] == ["h8_s2_h1_s0_UP", "h8_s2_s0_s1_UP", "h8_s2_h6_s1_DOWN"]
      and r.get("hops") == 3 and r.get("latency_ps") == 225000, "3 hops through the trunk, 225 ns", r)
text = run(["platform", "routes", "examples/platforms/h8_s6.yaml", "--from", "h0", "--to", "h7"]).stdout
check("route text", "route h0 -> h7: 4 hops" in text and " 4 " in text, "4 numbered hops", text)

# Export.
p = run(["platform", "export", "examples/platforms/h8_s4.yaml", "--format", "dot"])
check("dot export", p.stdout.startswith("graph platform {") and p.stdout.count(" -- ") == 8 + 6, "14 edges", p.stdout[:300])
p = run(["platform", "export", "examples/platforms/h8_s4.yaml", "--format", "json"])
g = json.loads(p.stdout) if p.returncode == 0 else {}
check("json export", len(g.get("links", [])) == 28 and len(g.get("switches", [])) == 4, "28 directed links, 4 switches",
      (len(g.get("links", [])), len(g.get("switches", []))))
p = run(["platform", "export", "examples/platforms/h8_s6.yaml", "--format", "lft"])
check("lft export", p.stdout.count("Unicast lids") == 6 and p.stdout.count("0x0008") == 6, "6 switches x 8 LIDs",
      p.stdout[:400])
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "g.dot")
    run(["platform", "export", "examples/platforms/h8_s1.yaml", "--format", "dot", "-o", out])
    check("export -o", os.path.exists(out) and open(out).read().count(" -- ") == 8, "8 edges in the file", out)

# SimGrid platform XML (issue 6, part 1): cluster16.xml is cluster16.yaml; the same run on both.
spans = {}
for ext in ["yaml", "xml"]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        run(["run", "--platform", f"examples/platforms/cluster16.{ext}", "--trace", "examples/ti/allreduce16.ti",
             "--cfg", "network/model=flow", "--json", out, "--quiet"])
        spans[ext] = json.load(open(out))["makespan_ps"] if os.path.exists(out) else None
check("XML and YAML cluster16 predict the same", spans["xml"] is not None and spans["xml"] == spans["yaml"], spans["yaml"], spans)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "bad.xml")
    open(path, "w").write('<?xml version="1.0"?>\n<platform version="4.1">\n  <zone id="z" routing="Full">\n'
                          '    <storage id="d"/>\n  </zone>\n</platform>\n')
    p = run(["platform", "describe", path], expect_rc=2)
    check("XML unsupported element", "bad.xml:4:5:" in p.stderr and "<storage> is not supported" in p.stderr,
          "bad.xml:4:5: <storage> is not supported", p.stderr)

# Bad input: exit 2, file:line:column and what would work; nothing written.
BAD = [
    ("fat-tree odd k", "topology:\n  name: ft\n  kind: fat-tree\n  k: 5\n  prefix: n\n  speed: 1Gf\n"
     "  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:4:", "k"]),
    ("torus dimension 0", "topology:\n  name: t\n  kind: torus\n  dims: [4, 0]\n  prefix: n\n  speed: 1Gf\n"
     "  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:4:", "dimension"]),
    ("dragonfly global links", "topology:\n  name: d\n  kind: dragonfly\n  groups: 4\n  routers: 2\n  global_links: 2\n"
     "  prefix: n\n  speed: 1Gf\n  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:", "global"]),
    ("unknown kind", "topology:\n  name: x\n  kind: fattree\n", ["p.yaml:3:9:", "did you mean 'fat-tree'"]),
    ("key of another kind", "topology:\n  name: x\n  kind: torus\n  k: 4\n  dims: [2]\n  prefix: n\n  speed: 1Gf\n"
     "  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:4:", "'k' is not a parameter of a torus topology"]),
    ("disconnected graph", "hosts:\n  - {name: a, speed: 1Gf}\n  - {name: b, speed: 1Gf}\ntopology:\n  name: g\n"
     "  kind: graph\n  link: {bandwidth: 1Gbps, latency: 1us}\n  switches: [s0, s1]\n  links:\n"
     "    - {between: [a, s0]}\n    - {between: [b, s1]}\n", ["p.yaml:", "not connected", "'a'", "'b'"]),
    ("graph unknown node", "hosts:\n  - {name: a, speed: 1Gf}\ntopology:\n  name: g\n  kind: graph\n"
     "  link: {bandwidth: 1Gbps, latency: 1us}\n  switches: [s0]\n  links:\n    - {between: [a, s9]}\n",
     ["p.yaml:9:", "unknown node 's9'"]),
    ("duplicate network name", "clusters:\n  - {name: x, prefix: c, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n"
     "topology:\n  name: x\n  kind: torus\n  dims: [2]\n  prefix: n\n  speed: 1Gf\n"
     "  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:4:", "already declared at"]),
    # Review regressions: a few lines asking for billions of elements are errors, not OOM.
    ("dragonfly of a billion global links", "topology:\n  name: d\n  kind: dragonfly\n  groups: 2\n  routers: 1\n"
     "  global_links: 500000000\n  prefix: n\n  speed: 1Gf\n  link: {bandwidth: 1Gbps, latency: 1us}\n",
     ["p.yaml:", "at most"]),
    ("xgft of a billion parallel cables", "topology:\n  name: x\n  kind: xgft\n  down: [1]\n  up: [1]\n"
     "  parallel: [1000000000]\n  prefix: n\n  speed: 1Gf\n  link: {bandwidth: 1Gbps, latency: 1us}\n",
     ["p.yaml:", "at most"]),
    ("host names that are switch names", "topology:\n  name: t\n  kind: torus\n  dims: [2]\n  prefix: t_r\n"
     "  speed: 1Gf\n  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:", "already taken"]),
    ("generated host name taken", "hosts:\n  - {name: n0, speed: 1Gf}\ntopology:\n  name: t\n  kind: torus\n"
     "  dims: [2]\n  prefix: n\n  speed: 1Gf\n  link: {bandwidth: 1Gbps, latency: 1us}\n", ["p.yaml:7:", "'n0'"]),
]
for name, yaml, expect in BAD:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.yaml")
        open(path, "w").write(yaml)
        p = run(["platform", "describe", path], expect_rc=2)
        check(f"bad input: {name}", p.returncode == 2 and all(s in p.stderr for s in expect), expect, p.stderr)
# DOT strings escape quotes and backslashes (review regression).
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "q.yaml")
    open(path, "w").write('hosts:\n  - {name: \'a"b\', speed: 1Gf}\n  - {name: \'c\\\', speed: 1Gf}\ntopology:\n  name: g\n'
                          '  kind: graph\n  link: {bandwidth: 1Gbps, latency: 1us}\n  switches: [s0]\n  links:\n'
                          '    - {between: [\'a"b\', s0]}\n    - {between: [\'c\\\', s0]}\n')
    dot = run(["platform", "export", path, "--format", "dot"]).stdout
    want = [r'"a\"b" [shape=box, label="a\"b"]', r'"c\\" -- "s0"', r'tooltip="g_c\\_s0_UP"']
    check("dot escapes names", all(w in dot for w in want), want, dot)
p = run(["platform", "routes", "examples/platforms/h8_s1.yaml", "--from", "h0", "--to", "h9"], expect_rc=2)
check("routes unknown host", "unknown host 'h9'" in p.stderr and "did you mean" in p.stderr, "unknown host + suggestion", p.stderr)
p = run(["platform", "export", "examples/platforms/h8_s1.yaml", "--format", "png"], expect_rc=2)
check("export bad format", "dot, json or lft" in p.stderr, "format list", p.stderr)

print(f"{golden_check.passed} passed, {golden_check.failed} failed")
sys.exit(1 if golden_check.failed else 0)
