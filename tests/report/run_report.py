#!/usr/bin/env python3
"""The ctest case html_report: `simfab report` end to end, then its pages in headless Chromium.

    run_report.py SIMFAB SOURCE_DIR BUILD_DIR [--no-browser]

--no-browser stops after step 3 (the sanitizer build: simfab's own code is what it checks, and the
browser part, already run by the optimised build, would only repeat it).

1. A run of examples/ti/stencil16.ti on the 16-node cluster under the flow model (so it has link
   statistics), written by `simfab run ... --trace-out`.
2. `simfab report` of that run alone; compared with tests/report/fixtures/synthetic16.json (a
   second, different run, with energy); with --max-slices 10 (the cap notice); and of a copy whose
   application name holds "</script>" (the embedded data must not close its element).
   Each page is checked for self-containment (no src=/href= to anything) and for its data block.
3. Bad input and usage exit 2, name the file and write nothing.
   Issue 32: the `--json` result of a run is a report input (summary, finish times; every other
   panel says to write the run with --trace-out), a LogGOPS run's link panel says it shows offered
   load, a TI list named `list` is titled by its folder (cg8/list), and a packet-model run gets a
   switch-port occupancy panel (the congestion tree of examples/goal/hotspot32.goal), a NIC-model
   run a NIC activity panel, and a DVFS governor's run a pstate timeline whose changes are the
   governor's count. Honest pictures: the flow and packet runs' link timelines are carried bytes
   (no shared link or port above its bandwidth in any bin, each series summing to the link's bytes),
   and the DVFS run's power over time integrates to each host's energy and draws a "power" chart.
   Issue 32's sweep results panel: a real `simfab sweep` of tests/report/fixtures/pstate_sweep.yaml
   (2 models x 3 pstates, the two pstate-12 points failing) reported as a sweep (axes numeric or
   categorical, failed points null, the best point, the title from the CSV's name or --title, the
   CSV under another name told by its header); bad sweep CSVs exit 2 naming file:line and write
   nothing.
4. check_report.mjs opens the pages in Chromium (no network) and checks every chart; screenshots
   go to BUILD_DIR/report-screenshot.png and BUILD_DIR/report-compare-screenshot.png (and
   report-sweep-screenshot.png: the sweep's heatmap).
Exit status 0, 1 on failure, 77 (skipped) without /usr/bin/chromium, node or web/node_modules.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURE = "tests/report/fixtures/synthetic16.json"
DATA_BLOCK = re.compile(r'<script type="application/json" id="simfab-data">(.*?)</script>', re.S)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def skip_unless_available(source):
    web = source / "web" / "node_modules"
    missing = [what for what, ok in [("/usr/bin/chromium", Path("/usr/bin/chromium").exists()),
                                     ("node", shutil.which("node") is not None),
                                     ("web/node_modules (scripts/install-deps.sh)",
                                      (web / "playwright-core").is_dir() and (web / "echarts").is_dir())] if not ok]
    if missing:
        print("skipped: missing " + ", ".join(missing))
        sys.exit(77)


def simfab(binary, *args, cwd):
    return subprocess.run([binary, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


def make_run(binary, source, out):
    """The main input: a real run written by `simfab run --trace-out`."""
    p = simfab(binary, "run", "--platform", "examples/platforms/cluster16.yaml", "--trace", "examples/ti/stencil16.ti",
               "--cfg", "network/model=flow", "--trace-out", out, "--reproducible", "--quiet", cwd=source)
    if p.returncode != 0:
        sys.exit("simfab run --trace-out failed (exit %d):\n%s" % (p.returncode, p.stderr))


def page_data(html):
    """The page's embedded data, after checking the page loads nothing from elsewhere."""
    text = html.read_text()
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", text, flags=re.S | re.I)  # tags outside inlined code
    check(not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)\s*=", markup, re.I), f"{html}: refers to another file")
    block = DATA_BLOCK.search(text)
    check(block is not None, f"{html}: no data block")
    return json.loads(block.group(1).replace("<\\/", "</")) if block else {"runs": []}


def report(binary, work, inputs, out, *options):
    p = simfab(binary, "report", *inputs, "-o", out, *options, cwd=work)
    check(p.returncode == 0 and (work / out).exists(), f"simfab report {' '.join(map(str, inputs))} -> {out}: exit {p.returncode} {p.stderr}")
    return page_data(work / out)


def expectations(data, html, screenshot, text=(), hover=True):
    """What check_report.mjs expects of a page, from the data the page embeds."""
    runs = []
    for run in data["runs"]:
        stats = run["stats"]
        kinds = [] if run.get("result_only") else ["gantt", "breakdown"]
        kinds += ["matrix"] if any(e[3] > 0 for e in stats.get("matrix", [])) else []
        kinds += ["histogram"] if stats.get("histogram") else []
        kinds += ["links"] if any(sum(l["bytes"]) > 0 for l in stats.get("link_timeline", {}).get("links", [])) else []
        kinds += ["energy"] if stats.get("energy", {}).get("hosts") else []
        kinds += ["power"] if stats.get("energy", {}).get("power", {}).get("total", {}).get("watts") else []
        kinds += ["ports"] if stats.get("port_queues", {}).get("ports") else []
        kinds += ["nics"] if stats.get("nics") else []
        kinds += ["pstates"] if stats.get("pstates") else []
        runs.append({"num_ranks": run["result"]["num_ranks"], "kinds": kinds, "slices": run["gantt"]["shown"]})
    matrix_max = max((e[3] for run in data["runs"] for e in run["stats"].get("matrix", [])), default=0)
    return {"html": str(html), "screenshot": str(screenshot), "runs": runs, "matrix_max": matrix_max, "text": list(text),
            "hover": hover}


def check_carried(stats, what):
    """Issue 32: a sharing model's link timeline is the bytes it carried: no bin of a shared link
    (or packet port) above its bandwidth, and each series sums to the link's bytes."""
    t = stats["link_timeline"]
    links = {l["name"]: l for l in stats["links"]}
    check(t.get("carried") is True and t["links"], f"{what}: the link timeline is carried bytes")
    for series in t["links"]:
        link = links[series["name"]]
        peak = max(series["bytes"]) / (link["bandwidth_Bps"] * t["bin_ps"] * 1e-12)
        check(series.get("fatpipe") or peak <= 1 + 1e-9, f"{what}: {series['name']} peaks at {peak:.12f} of its bandwidth")
        check(abs(sum(series["bytes"]) - link["bytes"]) <= 1e-9 * link["bytes"] + 1,
              f"{what}: {series['name']} bins sum to {sum(series['bytes'])}, the link carried {link['bytes']}")


def check_power(stats, what):
    """Issue 32: each host's power over time integrates to its energy, the total to the hosts'."""
    p = stats["energy"]["power"]
    energy = {h["name"]: h["energy_j"] for h in stats["energy"]["hosts"]}

    def joules(s):
        return sum(w * min(p["bin_ps"], p["end_ps"] - k * p["bin_ps"]) * 1e-12 for k, w in enumerate(s["watts"]))
    total = sum(energy.values())
    check(abs(joules(p["total"]) - total) <= 1e-6 * total, f"{what}: total power integrates to {joules(p['total'])} J, "
          f"the hosts used {total} J")
    for s in p["hosts"]:
        check(abs(joules(s) - energy[s["name"]]) <= 1e-6 * energy[s["name"]],
              f"{what}: {s['name']} power integrates to {joules(s)} J, its energy is {energy[s['name']]} J")
    check(len(p["hosts"]) == min(16, len(energy)), f"{what}: {len(p['hosts'])} hosts plotted")


def check_bad_input(binary, work, run_json):
    """Bad input exits 2, names the file and leaves no output behind."""
    (work / "not.json").write_text("simfab, but not JSON\n")
    (work / "plain.json").write_text(json.dumps({"traceEvents": []}))
    cases = [
        (["missing.json"], "missing.json"),
        (["not.json"], "not.json"),
        (["plain.json"], "no \"simfab\" key"),
        ([run_json, "plain.json"], "plain.json"),
    ]
    for inputs, expected in cases:
        out = work / "bad.html"
        p = simfab(binary, "report", *inputs, "-o", out, cwd=work)
        check(p.returncode == 2 and expected in p.stderr and not out.exists(),
              f"report {inputs}: exit {p.returncode}, stderr {p.stderr!r}, wrote {out.exists()}")
    for args in [[run_json], [run_json, run_json, run_json, "-o", "x.html"], [run_json, "-o", "x.html", "--max-slices", "0"]]:
        p = simfab(binary, "report", *args, cwd=work)
        check(p.returncode == 2 and not (work / "x.html").exists(), f"report {args}: exit {p.returncode}, {p.stderr!r}")


SWEEP_SPEC = "tests/report/fixtures/pstate_sweep.yaml"
SWEEP_HEADER = "network/model,energy/pstate,makespan_ps,makespan_s,energy_j,messages,wall_s,status,error\n"


def check_sweep(binary, source, work):
    """A real sweep -> `simfab report results.csv`: the page's sweep data, then bad sweep CSVs."""
    p = simfab(binary, "sweep", source / SWEEP_SPEC, "-o", work / "results.csv", "-j1", "--quiet", cwd=work)
    check(p.returncode == 0, f"simfab sweep {SWEEP_SPEC}: exit {p.returncode} {p.stderr}")
    if p.returncode != 0:
        return None
    rows = [line.split(",") for line in (work / "results.csv").read_text().splitlines()[1:]]
    page = report(binary, work, ["results.csv"], "sweep.html")
    sweep = page.get("sweep", {})
    check(page.get("title") == "simfab sweep: results.csv" and "runs" not in page, f"sweep page: {page.get('title')!r}")
    check(sweep.get("points") == 6 and sweep.get("ok") == 4 and sweep.get("failed") == 2,
          f"sweep: 6 points, 4 ok, 2 failed: {[sweep.get(k) for k in ('points', 'ok', 'failed')]}")
    axes = sweep.get("axes", [])
    check([(a["name"], a["numeric"], a["values"]) for a in axes] ==
          [("network/model", False, ["loggops", "flow"]), ("energy/pstate", True, ["0", "5", "12"])],
          f"sweep axes: {[(a['name'], a['numeric'], a['values']) for a in axes]}")
    makespan = next((c for c in sweep.get("results", []) if c["name"] == "makespan_s"), None)
    statuses = [r[7] for r in rows]
    check(statuses == ["ok", "ok", "bad_input"] * 2 and sweep.get("status") == statuses, f"sweep statuses {statuses}")
    if makespan and len(rows) == 6:
        expected = [float(r[3]) if r[7] == "ok" else None for r in rows]
        best = min((v, k) for k, v in enumerate(expected) if v is not None)[1]
        check(makespan["values"] == expected and makespan["values"][2] is None, f"makespan_s: {makespan['values']}")
        check(makespan["best"] == best == 3, f"the best makespan is flow at pstate 0 (point 3): {makespan['best']}")
        check("has 12 pstates" in sweep["error"][2], f"the failed point's error: {sweep['error'][2]!r}")
    titled = report(binary, work, ["results.csv"], "titled.html", "--title", "BSP on taurus: pstates")
    check(titled.get("title") == "BSP on taurus: pstates", f"--title: {titled.get('title')!r}")
    shutil.copy(work / "results.csv", work / "results.sweep")  # told by its header, whatever its name
    check(report(binary, work, ["results.sweep"], "renamed.html").get("sweep", {}).get("points") == 6,
          "a sweep's CSV under another name")

    bad = {
        "empty.csv": ("", "empty.csv:1: empty file: expected the results of `simfab sweep"),
        "header.csv": ("name,time\nx,1\n", "header.csv:1: not a sweep's header"),
        "norows.csv": (SWEEP_HEADER, "norows.csv:2: no points"),
        "ragged.csv": (SWEEP_HEADER + "flow,0,1,1e-12,,5,0.1,ok,\nflow,5,1,1e-12,,5,0.1,ok\n",
                       "ragged.csv:3: expected 9 fields as in the header, got 8"),
        "nan.csv": (SWEEP_HEADER + "flow,0,1,fast,,5,0.1,ok,\n",
                    "nan.csv:2: column makespan_s: expected a number in an ok point's row, got 'fast'"),
    }
    for name, (text, expected) in bad.items():
        (work / name).write_text(text)
        p = simfab(binary, "report", name, "-o", "bad-sweep.html", cwd=work)
        check(p.returncode == 2 and expected in p.stderr and not (work / "bad-sweep.html").exists(),
              f"report {name}: exit {p.returncode}, stderr {p.stderr!r}, wrote {(work / 'bad-sweep.html').exists()}")
    p = simfab(binary, "report", "results.csv", "run.json", "-o", "bad-sweep.html", cwd=work)
    check(p.returncode == 2 and "reported alone" in p.stderr and not (work / "bad-sweep.html").exists(),
          f"a sweep with a run: exit {p.returncode}, {p.stderr!r}")
    check(not list(work.glob("*.tmp.*")), f"temporary files left: {list(work.glob('*.tmp.*'))}")
    p = simfab(binary, "report", "--help", cwd=work)
    check(p.returncode == 0 and "simfab report RESULTS.csv" in p.stdout and "heatmap" in p.stdout,
          f"simfab report --help documents the sweep: {p.stdout!r}")
    return page


def main():
    binary, source, build = sys.argv[1], Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
    browser_wanted = "--no-browser" not in sys.argv[4:]
    skip_unless_available(source)
    work = build / "report-test"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    binary = str(Path(binary).resolve())

    make_run(binary, source, work / "run.json")
    fixture = source / FIXTURE
    single = report(binary, work, ["run.json"], "single.html")
    check_carried(single["runs"][0]["stats"], "stencil16 under flow")
    check(len(single["runs"]) == 1 and single["runs"][0]["gantt"]["shown"] > 0, "single: no Gantt slices")
    compare = report(binary, work, ["run.json", fixture], "compare.html", "--title", "stencil16 vs synthetic16")
    capped = report(binary, work, ["run.json"], "capped.html", "--max-slices", "10")
    check(capped["runs"][0]["gantt"]["shown"] == 10 < capped["runs"][0]["gantt"]["total"], "capped: not 10 slices")
    hostile = json.loads((work / "run.json").read_text())
    hostile["simfab"]["result"]["inputs"]["application"] = "stencil</script><!--<script>"
    (work / "hostile.json").write_text(json.dumps(hostile))
    hostile_page = report(binary, work, ["hostile.json"], "hostile.html")
    check_bad_input(binary, work, "run.json")

    # Issue 32: the --json result is accepted (summary, finish times; the other panels say where
    # to get them), LogGOPS's link panel says it shows offered load, and a TI list named "list"
    # is titled by its folder.
    p = simfab(binary, "run", "--platform", "examples/platforms/cluster16.yaml", "--trace", "examples/ti/stencil16.ti",
               "--json", work / "result.json", "--trace-out", work / "loggops.json", "--reproducible", "--quiet",
               cwd=source)
    check(p.returncode == 0, f"simfab run --json --trace-out (loggops): {p.stderr}")
    result_page = report(binary, work, ["result.json"], "result.html")
    check(result_page["runs"] and result_page["runs"][0].get("result_only") is True and
          result_page["runs"][0]["result"]["makespan_ps"] == 20329860680, "result.json: a result-only run")
    loggops_page = report(binary, work, ["loggops.json"], "loggops.html")
    (work / "cg8").mkdir()
    listed = sorted((source / "examples/ti/smpi/stencil4.txt_files").iterdir())
    (work / "cg8" / "list").write_text("".join(str(f) + "\n" for f in listed))
    p = simfab(binary, "run", "--platform", "examples/platforms/cluster16.xml", "--trace", work / "cg8" / "list",
               "--trace-out", work / "listed.json", "--quiet", cwd=source)
    check(p.returncode == 0, f"simfab run of a list named 'list': {p.stderr}")
    p = simfab(binary, "run", "--platform", "examples/platforms/ft32_packet.yaml", "--goal",
               "examples/goal/hotspot32.goal", "--cfg", "network/model=packet", "--trace-out", work / "packet.json",
               "--quiet", cwd=source)
    check(p.returncode == 0, f"simfab run (packet model): {p.stderr}")
    packet_page = report(binary, work, ["packet.json"], "packet.html")
    if p.returncode == 0:  # the same occupancy as counter tracks in the --trace-out file itself (Perfetto)
        trace = json.loads((work / "packet.json").read_text())
        counters = [e for e in trace["traceEvents"] if e["ph"] == "C" and "bytes" in e.get("args", {})]
        queues = trace["simfab"]["stats"]["port_queues"]["ports"]
        check(len(counters) == sum(len(q["mean_bytes"]) for q in queues) > 0 and
              {e["name"] for e in counters} == {q["name"] for q in queues},
              f"--trace-out: one counter event per port and bin ({len(counters)})")
    check(packet_page["runs"] and packet_page["runs"][0]["stats"].get("port_queues", {}).get("ports"),
          "the packet run has port queues to draw")
    if packet_page["runs"]:
        check_carried(packet_page["runs"][0]["stats"], "hotspot32 under packet")
    p = simfab(binary, "run", "--platform", "examples/platforms/cluster16.yaml", "--goal", "examples/goal/pingpong.goal",
               "--cfg", "nic/model=portals", "--trace-out", work / "nic.json", "--quiet", cwd=source)
    check(p.returncode == 0, f"simfab run (NIC model): {p.stderr}")
    nic_page = report(binary, work, ["nic.json"], "nic.html")
    p = simfab(binary, "run", "--platform", "examples/energy/taurus16.xml", "--trace", "examples/energy/bsp16.ti",
               "--cfg", "energy/governor=lagrange", "--cfg", "energy/polling=idle", "--trace-out", work / "dvfs.json",
               "--json", work / "dvfs-result.json", "--quiet", cwd=source)
    check(p.returncode == 0, f"simfab run (DVFS governor): {p.stderr}")
    dvfs_page = report(binary, work, ["dvfs.json"], "dvfs.html")
    if p.returncode == 0:
        check_power(dvfs_page["runs"][0]["stats"], "bsp16 under the lagrange governor")
        tracks = dvfs_page["runs"][0]["stats"].get("pstates", [])
        governor = json.loads((work / "dvfs-result.json").read_text())["energy"]["governor_changes"]
        trace = json.loads((work / "dvfs.json").read_text())
        counters = [e for e in trace["traceEvents"] if e["ph"] == "C" and "pstate" in e.get("args", {})]
        check(len(counters) == sum(len(t["steps"]) for t in tracks) > 0,
              f"--trace-out: one pstate counter event per step ({len(counters)})")
        check(len(tracks) == 16 and sum(t["changes"] for t in tracks) == governor > 0 and
              all(t["steps"][0][0] == 0 and all(a[0] < b[0] and a[1] != b[1] for a, b in zip(t["steps"], t["steps"][1:]))
                  for t in tracks),
              f"the pstate tracks: 16 hosts, steps from 0 in time order, as many changes as the governor made "
              f"({governor}): {[(t['host'], t['changes'], len(t['steps'])) for t in tracks][:4]}")
    sweep_page = check_sweep(binary, source, work)
    listed_page = report(binary, work, ["listed.json"], "listed.html")
    check(listed_page.get("title") == "simfab report: cg8/list", f"a list named 'list' is titled by its folder: "
          f"{listed_page.get('title')!r}")

    pages = [
        expectations(single, work / "single.html", build / "report-screenshot.png",
                     ["a shared link never carries more than its bandwidth"]),
        expectations(compare, work / "compare.html", build / "report-compare-screenshot.png", ["stencil16 vs synthetic16", "B / A"]),
        expectations(capped, work / "capped.html", work / "capped.png", ["the 10 longest are drawn"], hover=False),
        expectations(hostile_page, work / "hostile.html", work / "hostile.png", ["stencil</script><!--<script>"]),
        expectations(result_page, work / "result.html", work / "result.png",
                     ["No timeline in result.json, the --json result of a run", "--trace-out FILE"], hover=False),
        expectations(loggops_page, work / "loggops.html", work / "loggops.png",
                     ["does not share links: this is the offered load"], hover=False),
        expectations(packet_page, work / "packet.html", build / "report-packet-screenshot.png",
                     ["Switch port occupancy over time", "fullest ports", "not spread over each message's life"],
                     hover=False),
        expectations(nic_page, work / "nic.html", work / "nic.png", ["NIC activity per host"], hover=False),
        expectations(dvfs_page, work / "dvfs.html", build / "report-dvfs-screenshot.png",
                     ["Pstates over time", "Power over time", "each line's area is its energy"], hover=False),
    ]
    if sweep_page:  # lines per model against the numeric pstate axis, then the 2 x 3 heatmap
        pages.append({"html": str(work / "sweep.html"), "screenshot": str(build / "report-sweep-screenshot.png"),
                      "runs": [], "matrix_max": 0, "hover": False,
                      "text": ["Sweep results", "Failed points", "lowest makespan_s", "has 12 pstates"],
                      "sweep": {"series": 2, "failed_lines": 2, "cells": 6, "failed_cells": 2,
                                "error": "has 12 pstates"}})
    (work / "pages.json").write_text(json.dumps(pages, indent=1))
    if not browser_wanted:
        print("html_report: %s (browser part not run: --no-browser)" % ("FAILED" if failures else "ok"))
        return 1 if failures else 0
    browser = subprocess.run(["node", str(source / "tests/report/check_report.mjs"), str(source / "web"), str(work / "pages.json")],
                             timeout=240)
    check(browser.returncode == 0, "check_report.mjs failed")
    print("html_report: %s" % ("FAILED: %d problem(s)" % len(failures) if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
