"""The results: one Result per case, the table (console and Markdown) and RESULTS.md.

Status of a case:
  ok          |simfab - SimGrid| / SimGrid <= tolerance
  explained   beyond the tolerance, and cases.txt explains why (an `explain` line), or
              smpirun -replay fails where cases.txt says SimGrid aborts (`explain-abort`)
  FAIL        beyond the tolerance, unexplained
  ERROR       a tool failed (its exit status and the end of its log are in the note)
The wall-time ratio is SimGrid's wall time over simfab's (> 1: simfab is faster); the median is
over the cases where both ran.
"""
import os
import statistics


class Result:
    def __init__(self, case):
        self.case = case
        self.simfab_s = self.simgrid_s = None
        self.simfab = self.simgrid = None  # tools.Measured
        self.status = "ERROR"
        self.note = ""
        self.explained_by = None  # the glob of the cases.txt line that explains it
        self.fallbacks = []

    @property
    def rel(self):
        if self.simfab_s is None or self.simgrid_s is None:
            return None
        if self.simgrid_s == 0:
            return 0.0 if self.simfab_s == 0 else float("inf")
        return abs(self.simfab_s - self.simgrid_s) / self.simgrid_s

    @property
    def ratio(self):
        if self.simfab_s is None or self.simgrid_s is None or self.simfab.wall_s <= 0:
            return None
        return self.simgrid.wall_s / self.simfab.wall_s

    @property
    def cpu_ratio(self):
        if self.simfab_s is None or self.simgrid_s is None or self.simfab.cpu_s <= 0:
            return None
        return self.simgrid.cpu_s / self.simfab.cpu_s

    def judge(self, tolerance, explanation, abort_explanation=None):
        """explanation, abort_explanation: (glob, reason) of the case's explain and explain-abort
        lines, or None. explain-abort excuses only SimGrid's failure (simfab ran)."""
        rel = self.rel
        if rel is None:
            self.status = "ERROR"
            if abort_explanation and self.simgrid_s is None and self.simfab_s is not None:
                self.status = "explained"
                self.explained_by, self.note = abort_explanation
        elif rel <= tolerance:
            self.status = "ok"
        elif explanation:
            self.status = "explained"
            self.explained_by, self.note = explanation
        else:
            self.status = "FAIL"


HEADER = ("case", "simfab s", "SimGrid s", "rel. diff", "simfab wall s", "SimGrid wall s", "wall ratio",
          "simfab MiB", "SimGrid MiB", "status")


def _g(x, fmt="{:.6g}"):
    return "-" if x is None else fmt.format(x)


def row(r):
    mib = lambda m: None if m is None else m.rss_kib / 1024
    return (r.case.name, _g(r.simfab_s), _g(r.simgrid_s), _g(None if r.rel is None else 100 * r.rel, "{:.3g} %"),
            _g(r.simfab and r.simfab.wall_s, "{:.3f}"), _g(r.simgrid and r.simgrid.wall_s, "{:.3f}"),
            _g(r.ratio, "{:.1f}"), _g(mib(r.simfab), "{:.1f}"), _g(mib(r.simgrid), "{:.1f}"),
            r.status + (" (fallback cfg)" if r.fallbacks else ""))


def console_line(r, width):
    cells = row(r)
    return f"{cells[0]:<{width}} " + " ".join(f"{c:>13}" for c in cells[1:-1]) + "  " + cells[-1]


def console_header(width):
    return f"{HEADER[0]:<{width}} " + " ".join(f"{c:>13}" for c in HEADER[1:-1]) + "  " + HEADER[-1]


def median_ratio(results, attr="ratio"):
    ratios = [getattr(r, attr) for r in results if getattr(r, attr) is not None]
    return statistics.median(ratios) if ratios else None


def counts(results):
    out = {}
    for r in results:
        out[r.status] = out.get(r.status, 0) + 1
    return out


def summary(results, tolerance):
    c = counts(results)
    med = median_ratio(results)
    parts = [f"{len(results)} cases", f"{c.get('ok', 0)} within {100 * tolerance:g} %",
             f"{c.get('explained', 0)} explained", f"{c.get('FAIL', 0)} FAIL", f"{c.get('ERROR', 0)} ERROR"]
    return ", ".join(parts) + f"; median wall ratio SimGrid/simfab: {_g(med, '{:.1f}')}x (goal 10x)"


def markdown_table(results):
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join(["---"] + ["---:"] * (len(HEADER) - 2) + ["---"]) + "|"]
    for r in results:
        cells = list(row(r))
        cells[0] = f"`{cells[0]}`"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def family(r):
    """The summary row of a case: its kind, or coll/<collective> (collectives vary the most)."""
    parts = r.case.name.split("/")
    return parts[0] + "/" + parts[1].split("-")[0] if parts[0] in ("coll", "program") else parts[0]


def family_table(results):
    rows, order = {}, []
    for r in results:
        key = family(r)
        if key not in rows:
            rows[key] = []
            order.append(key)
        rows[key].append(r)
    lines = ["| family | cases | ok | explained | FAIL | ERROR | largest difference | median wall ratio |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for key in order:
        rs = rows[key]
        c = counts(rs)
        rels = [r.rel for r in rs if r.rel is not None]
        lines.append(f"| {key} | {len(rs)} | {c.get('ok', 0)} | {c.get('explained', 0)} | {c.get('FAIL', 0)} | "
                     f"{c.get('ERROR', 0)} | {_g(max(rels) * 100 if rels else None, '{:.3g} %')} | "
                     f"{_g(median_ratio(rs), '{:.1f}')} |")
    return "\n".join(lines)


def write_results(path, results, tolerance, context):
    """context: dict with simgrid, simfab, simfab_cfg, simgrid_cfg, fallbacks, command, subset."""
    med = median_ratio(results)
    out = [
        "# SimGrid side-by-side validation: results",
        "",
        f"Written by `{context['command']}`; do not edit by hand (README.md says how to run it).",
        "",
        f"- SimGrid: {context['simgrid']}; simfab: {context['simfab']}",
        f"- simfab configuration: `{' '.join('--cfg ' + s for s in context['simfab_cfg'])}`"
        " (`{selector}` = the case's selector)",
        f"- SimGrid configuration: `{' '.join('--cfg=' + s for s in context['simgrid_cfg'])}`",
        f"- cases: {context['subset']}; tolerance {100 * tolerance:g} % on the predicted time",
        f"- {summary(results, tolerance)}",
        f"- **median wall-time ratio (SimGrid / simfab): {_g(med, '{:.1f}')}x**; the goal is 10x (median CPU-time "
        f"ratio, user + system: {_g(median_ratio(results, 'cpu_ratio'), '{:.1f}')}x). Wall time and peak "
        "memory are those of each whole process (smpirun's included), run one at a time on a "
        f"{os.cpu_count()}-CPU machine shared with other work"
        + ("." if context["gnu_time"] else "; peak memory is a floor (no GNU time: see harness/tools.py)."),
    ]
    if context["fallbacks"]:
        out += ["",
                "**Fallback configuration.** The simfab under test lacks "
                + ", ".join(f"`{f}`" for f in context["fallbacks"])
                + "; those settings were replaced as harness/tools.py's FALLBACK_CFG says, so the differences "
                "below measure that fallback, not simfab's SMPI model."]
    out += ["", "## By family", "", family_table(results), ""]
    out += ["## Cases beyond the tolerance", ""] + beyond_section(results)
    out += ["## Every case", "", markdown_table(results)]
    with open(path, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")


def beyond_section(results):
    """Unexplained cases in a table; explained ones grouped under their reason."""
    out = []
    bad = [r for r in results if r.status in ("FAIL", "ERROR")]
    if bad:
        out += ["### Not explained", "",
                "| case | simfab s | SimGrid s | rel. diff | status |", "|---|---:|---:|---:|---|"]
        for r in bad:
            cells = row(r)
            out.append(f"| `{cells[0]}` | {cells[1]} | {cells[2]} | {cells[3]} | {cells[9]} |")
        errors = [r for r in bad if r.status == "ERROR" and r.note]
        for r in errors:
            out += ["", f"`{r.case.name}`:", "", "```", r.note.rstrip(), "```"]
        out.append("")
    by_reason = {}
    for r in results:
        if r.status == "explained":
            by_reason.setdefault((r.explained_by, r.note), []).append(r)
    for (glob, reason), rs in by_reason.items():
        out += [f"### Explained: `{glob}`", "", reason, ""]
        out += [f"- `{r.case.name}`: simfab {_g(r.simfab_s)} s, SimGrid "
                + (f"{_g(r.simgrid_s)} s ({100 * r.rel:.3g} %)" if r.rel is not None else "failed")
                for r in rs]
        out.append("")
    return out or ["None.", ""]
