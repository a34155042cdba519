"""The case list (validation/simgrid/cases.txt) and its expansion into concrete cases.

One directive per line; `#` starts a comment.

  <kind> key=value ... [quick]
      A family of cases. A value with commas is a list; the family expands into every
      combination of its lists, in the order written. `quick` puts the whole family in the
      --quick subset (CI).
  explain <glob> <reason...>
      Cases whose name matches <glob> (fnmatch) may differ by more than the tolerance; <reason>,
      found in SimGrid's behaviour, goes to RESULTS.md. An unexplained case beyond the tolerance
      makes run.py exit 1.
  explain-abort <glob> <reason...>
      Cases whose name matches <glob> may see `smpirun -replay` fail (SimGrid's own bug; <reason>
      says which). It excuses only SimGrid's failure: a difference, or simfab failing, is still
      a failure.

Kinds and their keys (defaults in brackets):
  pingpong    size= (bytes) reps= [1] mode= blocking|immediate [blocking]
  coll        collective= a TI collective name, or all [all]; size= (bytes) root= [0] reps= [1]
  contention  pattern= incast|allpairs|shift|self|flows-<a>to<b>-<c>to<d>...; size= (bytes) reps= [1]
  program     program= a file of programs/; args= its arguments, separated by ':' [none];
              reference= replay|program [replay]: SimGrid's prediction is `smpirun -replay` of the
              recorded trace, or SimGrid running the program itself (smpirun ./program, untraced),
              which needs no replay (SimGrid's replay crashes on some selectors' algorithms)
Keys of every kind:
  platform=   a file of platforms/ (required)
  np=         the number of ranks (required); rank r runs on the platform's host r
  ranks_per_host=  k [1]: rank r runs on host floor(r / k) instead (messages between ranks of one
              host: SimGrid routes them host to itself)
  selector=   default|ompi|mpich [default]: SimGrid's smpi/coll-selector, and simfab's
              mpi/coll-selector=smpi-<selector>
  layout=     list|shared [list]: generated traces as one file per rank named by a list (what
              SMPI writes by default) or as one shared file (SMPI's tracing/smpi/format/ti-one-file)
  cfg=        SimGrid settings key:value, several separated by ';' [none], given to both tools
              (smpirun --cfg=key:value, simfab --cfg key=value: simfab's SMPI model reads
              SimGrid's own keys)

A case's name is <kind>/<what>/<platform>/np<N>/<selector>, e.g.
coll/bcast-65536/cluster_backbone/np16/ompi or pingpong/257-blocking/fat_tree/np2/default
(<what> ends with -x<reps> when reps is not 1, then -<k>perhost with ranks_per_host=k, then -shared
for layout=shared; with cfg=, the name ends with @<last part of each
key>=<value>, e.g. .../mpich@send-is-detached-thresh=0).
"""
import fnmatch
import itertools
import os

from . import traces

KINDS = {
    "pingpong": {"size": None, "reps": "1", "mode": "blocking"},
    "coll": {"collective": "all", "size": None, "root": "0", "reps": "1"},
    "contention": {"pattern": None, "size": None, "reps": "1"},
    "program": {"program": None, "args": "", "reference": "replay"},
}
COMMON = {"platform": None, "np": None, "selector": "default", "layout": "list", "cfg": "", "ranks_per_host": "1"}
SELECTORS = ("default", "ompi", "mpich")


class CaseError(Exception):
    pass


class Case:
    def __init__(self, kind, params, quick, line):
        self.kind = kind
        self.p = params
        self.quick = quick
        self.line = line  # where in cases.txt it comes from
        self.np = int(params["np"])
        self.ranks_per_host = int(params["ranks_per_host"])
        if self.ranks_per_host < 1:
            raise CaseError(f"{line}: ranks_per_host= takes a whole number >= 1")
        self.selector = params["selector"]
        self.platform = params["platform"]
        self.cfg = [c for c in params["cfg"].split(";") if c]
        for c in self.cfg:
            if ":" not in c:
                raise CaseError(f"{line}: cfg= takes SimGrid settings key:value, got '{c}'")
        what = self.what() + (f"-{self.ranks_per_host}perhost" if self.ranks_per_host != 1 else "")
        what += "-shared" if params["layout"] == "shared" else ""
        self.name = "/".join([kind, what, os.path.splitext(self.platform)[0], f"np{self.np}", self.selector])
        self.name += "".join("@" + c.split(":", 1)[0].rsplit("/", 1)[-1] + "=" + c.split(":", 1)[1] for c in self.cfg)

    def what(self):
        p = self.p
        reps = f"-x{p['reps']}" if p.get("reps", "1") != "1" else ""
        if self.kind == "pingpong":
            return f"{p['size']}-{p['mode']}{reps}"
        if self.kind == "coll":
            return f"{p['collective']}-{p['size']}" + (f"-root{p['root']}" if p["root"] != "0" else "") + reps
        if self.kind == "contention":
            return f"{p['pattern']}-{p['size']}{reps}"
        stem = os.path.splitext(p["program"])[0]
        what = stem + ("-" + "-".join(a.lstrip("-") for a in p["args"].split(":")) if p["args"] else "")
        return what + ("-vs-program" if p["reference"] == "program" else "")

    def ranks(self):
        """The generated trace's lines per rank (not for programs)."""
        p = self.p
        if self.kind == "pingpong":
            return traces.pingpong(self.np, int(p["size"]), int(p["reps"]), p["mode"])
        if self.kind == "coll":
            return traces.collective(self.np, p["collective"], int(p["size"]), int(p["root"]), int(p["reps"]))
        if self.kind == "contention":
            return traces.contention(self.np, p["pattern"], int(p["size"]), int(p["reps"]))
        raise CaseError("program cases are recorded, not generated")


class CaseList:
    def __init__(self, cases, explanations):
        self.cases = cases
        self.explanations = explanations  # [(directive, glob, reason)]

    def explanation(self, name, directive="explain"):
        """(glob, reason) of the first `directive` line (explain, explain-abort) whose glob
        matches `name`, or None."""
        for kind, glob, reason in self.explanations:
            if kind == directive and fnmatch.fnmatchcase(name, glob):
                return glob, reason
        return None


def parse(path):
    cases, explanations, seen = [], [], {}
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            where = f"{path}:{number}"
            words = text.split()
            if words[0] in ("explain", "explain-abort"):
                if len(words) < 3:
                    raise CaseError(f"{where}: expected '{words[0]} <glob> <reason...>'")
                explanations.append((words[0], words[1], " ".join(words[2:])))
                continue
            for case in expand(words, where):
                if case.name in seen:
                    raise CaseError(f"{where}: case {case.name} is already defined at {seen[case.name]}")
                seen[case.name] = where
                cases.append(case)
    return CaseList(cases, explanations)


def expand(words, where):
    kind = words[0]
    if kind not in KINDS:
        raise CaseError(f"{where}: unknown kind '{kind}' (known: {', '.join(KINDS)}, explain)")
    allowed = dict(COMMON, **KINDS[kind])
    given, quick = {}, False
    for w in words[1:]:
        if w == "quick":
            quick = True
            continue
        if "=" not in w:
            raise CaseError(f"{where}: expected key=value or 'quick', got '{w}'")
        key, value = w.split("=", 1)
        if key not in allowed:
            raise CaseError(f"{where}: unknown key '{key}' for {kind} (known: {', '.join(allowed)})")
        given[key] = value
    for key, default in allowed.items():
        if key not in given:
            if default is None:
                raise CaseError(f"{where}: {kind} needs {key}=")
            given[key] = default
    if kind == "coll" and given["collective"] == "all":
        given["collective"] = ",".join(traces.COLLECTIVES)
    keys = list(given)
    lists = [given[k].split(",") if k != "args" else [given[k]] for k in keys]
    out = []
    for combo in itertools.product(*lists):
        params = dict(zip(keys, combo))
        if params["selector"] not in SELECTORS:
            raise CaseError(f"{where}: unknown selector '{params['selector']}' (known: {', '.join(SELECTORS)})")
        if kind == "coll" and params["collective"] not in traces.COLLECTIVES:
            raise CaseError(f"{where}: unknown collective '{params['collective']}'")
        if kind == "program" and params["reference"] not in ("replay", "program"):
            raise CaseError(f"{where}: reference= is replay or program, got '{params['reference']}'")
        out.append(Case(kind, params, quick, where))
    return out
