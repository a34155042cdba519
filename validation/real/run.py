#!/usr/bin/env python3
"""From a real run to a prediction, on this machine (issue 9; seed 003 §IV-A, seed 004 §5.2-5.3).

The seeds' pipeline with Debian's OpenMPI on one node (shared memory between ranks):
  1. calibrate: build simfab's MPI calibration program (`simfab calibrate program`), run it on 2
     ranks, fit it (`simfab calibrate fit`) into a platform of calibrated hosts and links;
  2. capture: run each bundled example application (examples/mpi/) under libsimfab-capture.so at
     2 and 4 ranks, a few times;
  3. convert each capture to a SimGrid TI trace (`simfab convert`, with the calibrated reduction
     cost as --reduce-flops) and replay it on the calibrated platform (`simfab run`, flow model
     and LogGOPS);
  4. compare the predicted time with the measured one. The measured time is the real run's
     (MPI_Finalize call - MPI_Init return), the latest rank's, as seed 004 §2.4 defines it; the
     predicted one is the simulated makespan of the same span.

Usage:
  validation/real/run.py --simfab build/simfab [--quick] [--reps 3] [--write-results]
--quick: one application at 2 ranks, a short calibration (ctest validation_real_quick: checks that
the pipeline runs end to end and that each prediction is a positive time; real timings on a
shared machine vary, so no accuracy bound is asserted there). --write-results rewrites
validation/real/RESULTS.md with the table and the commands.
Exit status: 0 when every step ran, 1 when one failed (the failing command and its output are
printed), 77 when OpenMPI (mpicc, mpirun) or the capture library is not available.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))

# Local launches only: no ssh (plm isolated), shared memory between ranks (btl self,vader), root
# allowed, more ranks than cores allowed.
MPIRUN_ENV = {
    "OMPI_MCA_plm": "isolated",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}

# (name, source, arguments, rank counts): the bundled examples that use only recorded calls.
APPS = [
    ("pingpong", "pingpong.c", ["300"], [2]),
    ("ring", "ring.c", ["20000"], [2, 4]),
    ("stencil2d", "stencil2d.c", ["256", "300"], [2, 4]),
    ("allreduce_loop", "allreduce_loop.c", ["65536", "300"], [2, 4]),
    ("comm_split", "comm_split.c", [], [2, 4]),
    ("collectives", "collectives.c", [], [2, 4]),
]
QUICK_APPS = [("stencil2d", "stencil2d.c", ["64", "50"], [2])]
MODELS = ["flow", "loggops"]


class StepFailed(Exception):
    pass


def run(cmd, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.update(MPIRUN_ENV)
    if env:
        full_env.update(env)
    p = subprocess.run(cmd, env=full_env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    if p.returncode != 0:
        raise StepFailed("command failed (exit %d): %s\n%s%s" %
                         (p.returncode, " ".join(cmd), p.stdout[-3000:], p.stderr[-3000:]))
    return p.stdout


def measured_span_s(capture_dir):
    """Latest rank's MPI_Finalize call - MPI_Init return, from the capture files (ns)."""
    spans = []
    for name in sorted(os.listdir(capture_dir)):
        if not name.endswith(".txt"):
            continue
        init_ret = fin_call = None
        with open(os.path.join(capture_dir, name)) as f:
            for line in f:
                if line.startswith("MPI_Init"):
                    init_ret = int(line.rstrip("\n").split(":")[-1])
                elif line.startswith("MPI_Finalize:"):
                    fin_call = int(line.split(":")[1])
        if init_ret is None or fin_call is None:
            raise StepFailed("%s: no MPI_Init or MPI_Finalize record" % os.path.join(capture_dir, name))
        spans.append((init_ret, fin_call))
    start = min(s for s, _ in spans)
    end = max(e for _, e in spans)
    return (end - start) * 1e-9


def calibrate(simfab, work, quick, np_max):
    src = os.path.join(work, "calibrate.c")
    run([simfab, "calibrate", "program", "-o", src])
    exe = os.path.join(work, "calibrate")
    run(["mpicc", "-O2", "-o", exe, src, "-lm"])
    samples = os.path.join(work, "samples.csv")
    args = ["mpirun", "-np", "2", exe, "-o", samples] + (["--quick"] if quick else [])
    t = time.time()
    run(args)
    calib_s = time.time() - t
    platform = os.path.join(work, "calibrated.yaml")
    run([simfab, "calibrate", "fit", samples, "-o", platform, "--hosts", str(np_max),
         "--plot", os.path.join(work, "fit.svg"), "--json", os.path.join(work, "fit.json")])
    with open(os.path.join(work, "fit.json")) as f:
        reduce_flops = json.load(f).get("reduce_flops_per_element")
    return platform, calib_s, reduce_flops


def predict(simfab, platform, ti, model, work):
    out = os.path.join(work, "pred-%s.json" % model)
    run([simfab, "run", "--platform", platform, "--trace", ti, "--cfg", "network/model=" + model,
         "--json", out, "--quiet"])
    with open(out) as f:
        return json.load(f)["makespan_s"]


def validate_app(simfab, lib, work, platform, reduce_flops, app, reps):
    name, source, args, nps = app
    exe = os.path.join(work, name)
    run(["mpicc", "-O2", "-o", exe, os.path.join(SRC, "examples", "mpi", source), "-lm"])
    rows = []
    for np_ in nps:
        per_rep = []
        for rep in range(reps):
            cap = os.path.join(work, "%s-np%d-rep%d" % (name, np_, rep))
            shutil.rmtree(cap, ignore_errors=True)
            run(["mpirun", "-np", str(np_), "-x", "LD_PRELOAD=" + lib, "-x", "SIMFAB_CAPTURE_DIR=" + cap,
                 exe] + args)
            measured = measured_span_s(cap)
            ti = cap + ".ti"
            run([simfab, "convert", cap, "--ti", ti, "--quiet"] +
                (["--reduce-flops", repr(reduce_flops)] if reduce_flops else []))
            preds = {m: predict(simfab, platform, ti, m, cap) for m in MODELS}
            per_rep.append((measured, preds))
        # The median repetition by measured time stands for the application at this rank count.
        per_rep.sort(key=lambda r: r[0])
        measured, preds = per_rep[len(per_rep) // 2]
        rows.append({"app": name, "args": " ".join(args), "np": np_, "measured_s": measured,
                     "predicted_s": preds,
                     "error": {m: (preds[m] - measured) / measured for m in MODELS},
                     "reps_measured_s": [r[0] for r in per_rep]})
    return rows


def pct(x):
    return "%+.1f %%" % (100.0 * x)


def table(rows):
    lines = ["| application | args | ranks | measured (s) | flow (s) | error | loggops (s) | error |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %d | %.6f | %.6f | %s | %.6f | %s |" % (
            r["app"], r["args"] or "-", r["np"], r["measured_s"], r["predicted_s"]["flow"],
            pct(r["error"]["flow"]), r["predicted_s"]["loggops"], pct(r["error"]["loggops"])))
    return "\n".join(lines)


def summary(rows):
    out = []
    for m in MODELS:
        errs = [abs(r["error"][m]) for r in rows]
        out.append("%s: median |error| %.1f %%, max %.1f %%, within 10 %%: %d of %d" % (
            m, 100 * statistics.median(errs), 100 * max(errs), sum(e <= 0.10 for e in errs), len(errs)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simfab", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--work", default=None)
    ap.add_argument("--write-results", action="store_true")
    a = ap.parse_args()
    simfab = os.path.abspath(a.simfab)
    lib = os.path.join(os.path.dirname(simfab), "libsimfab-capture.so")
    for tool in ("mpicc", "mpirun"):
        if shutil.which(tool) is None:
            print("SKIP: %s not found (install openmpi-bin and libopenmpi-dev)" % tool)
            return 77
    if not os.path.exists(lib):
        print("SKIP: %s not built (CMake found no MPI)" % lib)
        return 77
    work = os.path.abspath(a.work or os.path.join(os.path.dirname(simfab), "validation-real"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    apps = QUICK_APPS if a.quick else APPS
    reps = 1 if a.quick else a.reps
    np_max = max(n for app in apps for n in app[3])
    try:
        platform, calib_s, reduce_flops = calibrate(simfab, work, a.quick, np_max)
        rows = []
        for app in apps:
            rows += validate_app(simfab, lib, work, platform, reduce_flops, app, reps)
    except StepFailed as e:
        print("validation/real: FAIL: %s" % e)
        return 1
    print(table(rows))
    for line in summary(rows):
        print(line)
    bad = [r for r in rows for m in MODELS if not (r["predicted_s"][m] > 0 and r["measured_s"] > 0)]
    if bad:
        print("validation/real: FAIL: a prediction or a measurement is not a positive time: %s" % bad)
        return 1
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump({"rows": rows, "calibration_s": calib_s}, f, indent=1, sort_keys=True)
    if a.write_results:
        write_results(rows, work, calib_s)
    print("1 passed, 0 failed")
    return 0


def write_results(rows, work, calib_s):
    with open(os.path.join(work, "fit.json")) as f:
        fit = json.load(f)
    text = [
        "# Real runs against predictions (issue 9)",
        "",
        "Written by `python3 validation/real/run.py --simfab build/simfab --write-results` on %s." %
        time.strftime("%Y-%m-%d"),
        "Machine: this project's 2-core VM, Debian's Open MPI %s, shared memory between ranks "
        "(`--mca btl self,vader`), 4 ranks oversubscribe the 2 cores." % mpi_version(),
        "",
        "Pipeline: the calibration program on 2 ranks (%.0f s), `simfab calibrate fit` into "
        "`calibrated.yaml`; each application run %s times under `libsimfab-capture.so`; the median "
        "run (by measured time) converted with `simfab convert` and replayed on the calibrated "
        "platform with `--cfg network/model=flow` and `loggops`." % (calib_s, "3"),
        "",
        "Measured: the latest rank's MPI_Finalize call minus the earliest MPI_Init return (seed 004 §2.4).",
        "",
        table(rows),
        "",
    ] + ["- " + s for s in summary(rows)] + [
        "",
        "Calibration (fit.json):",
        "",
        "```",
        json.dumps(fit, indent=1, sort_keys=True)[:4000],
        "```",
        "",
    ]
    with open(os.path.join(HERE, "RESULTS.md"), "w") as f:
        f.write("\n".join(text))


def mpi_version():
    try:
        out = subprocess.run(["mpirun", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout
        return out.splitlines()[0].split()[-1]
    except (OSError, IndexError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
