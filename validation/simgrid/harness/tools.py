"""Running the two simulators (and SMPI's compiler and recorder) and measuring them.

Every command runs as a whole process tree: its wall time is measured around it, its CPU time
(user + system, its own and its waited-for descendants') is os.wait4's; its peak memory
is the largest resident set of the process and of the descendants it waited for (smpirun is a
shell script whose child does the work), in KiB, as GNU time (/usr/bin/time, Debian package
`time`) reports it. Without GNU time it is the ru_maxrss os.wait4 reports, which also counts the
image of this Python process that the child had before exec (about 16 MiB): a floor, not the
tool's own peak (the table then says so).

THE CONFIGURATION of both simulators is set here and only here:
  SIMFAB_CFG    simfab's --cfg settings for a case; {selector} is the case's selector
  SIMGRID_CFG   smpirun's --cfg settings for a case
While the simfab under test lacks a key or choice of SIMFAB_CFG (the SMPI network model and
SimGrid's collective selectors land separately), FALLBACK_CFG replaces that setting and the run is
marked as a fallback in the table and RESULTS.md: its differences are then not a verdict on simfab.
"""
import json
import os
import re
import shutil
import subprocess
import threading
import time

SIMFAB_CFG = ("network/model=smpi", "mpi/coll-selector=smpi-{selector}")
FALLBACK_CFG = {"network/model": "network/model=flow", "mpi/coll-selector": None}  # None: drop it
SIMGRID_CFG = ("smpi/coll-selector:{selector}",)

SIMGRID_OUTPUT = ("--cfg=smpi/display-timing:yes", "--log=xbt_cfg.thres:warning", "--log=smpi_config.thres:warning")
ERROR_LINE = re.compile(r"CRITICAL|error|invalid pointer|Aborted|Segmentation|Deadlock|deadlock|Execution failed")
TIMEOUT_S = 1800  # a guard against hangs only; pass or fail never depends on wall time


class Measured:
    def __init__(self, rc, wall_s, cpu_s, rss_kib, log):
        self.rc, self.wall_s, self.cpu_s, self.rss_kib, self.log = rc, wall_s, cpu_s, rss_kib, log

    def tail(self, lines=8):
        """What the log says went wrong: its error lines (SimGrid's CRITICAL messages, simfab's
        `error:`, aborts and crashes; not backtraces or configuration chatter), else its end."""
        with open(self.log, errors="replace") as f:
            text = f.readlines()
        errors = [line for line in text if ERROR_LINE.search(line) and not line.lstrip().startswith("->")]
        return "".join((errors or text)[-lines:])


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def measure(cmd, cwd, log):
    """Runs cmd (a list) in cwd with stdout and stderr to `log`; returns a Measured."""
    rss_file = log + ".rss"
    if GNU_TIME:
        cmd = [GNU_TIME, "-f", "%M", "-o", rss_file] + cmd
    with open(log, "w") as out:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        guard = threading.Timer(TIMEOUT_S, proc.kill)
        guard.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        guard.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped: tell Popen
    rss = usage.ru_maxrss
    if GNU_TIME:
        try:
            with open(rss_file) as f:
                rss = int(f.read().split()[-1])  # the last line (time may note a signal first)
        except (OSError, ValueError, IndexError):
            pass
    return Measured(proc.returncode, wall, usage.ru_utime + usage.ru_stime, rss, log)


def require(tool):
    path = shutil.which(tool)
    if not path:
        raise FileNotFoundError(
            f"{tool} not found: SimGrid 3.32 is required (Debian: apt-get install libsimgrid-dev, which "
            f"scripts/install-deps.sh does)")
    return path


def simgrid_version():
    out = subprocess.run([require("smpirun"), "-version"], capture_output=True, text=True).stdout
    return out.strip().splitlines()[0] if out.strip() else "unknown"


def simfab_version(simfab):
    return subprocess.run([simfab, "version"], capture_output=True, text=True).stdout.strip()


def simfab_choices(simfab):
    """{key: set of choices} of simfab's choice-typed keys (simfab config --list)."""
    text = subprocess.run([simfab, "config", "--list"], capture_output=True, text=True, check=True).stdout
    choices, key = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            key = line.split(" ", 1)[0]
        elif key and line.strip().startswith("choices:"):
            choices[key] = set(line.split(":", 1)[1].split())
    return choices


def simfab_settings(choices, selector):
    """The --cfg settings for a case: SIMFAB_CFG, with FALLBACK_CFG where simfab lacks a choice.
    Returns (settings, fallbacks used)."""
    settings, fallbacks = [], []
    for template in SIMFAB_CFG:
        setting = template.format(selector=selector)
        key, value = setting.split("=", 1)
        if value in choices.get(key, ()):
            settings.append(setting)
            continue
        fallbacks.append(setting)
        if FALLBACK_CFG.get(key):
            settings.append(FALLBACK_CFG[key])
    return settings, fallbacks


def run_simfab(simfab, platform, hostfile, trace, settings, cwd):
    """settings: --cfg key=value strings (simfab_settings, then the case's own). Returns (Measured,
    predicted seconds or None)."""
    result = os.path.join(cwd, "simfab.json")
    cmd = [simfab, "run", "--platform", platform, "--hostfile", hostfile, "--trace", trace, "--json", result,
           "--quiet"]
    for s in settings:
        cmd += ["--cfg", s]
    m = measure(cmd, cwd, os.path.join(cwd, "simfab.log"))
    if m.rc != 0:
        return m, None
    with open(result) as f:
        return m, json.load(f)["makespan_ps"] * 1e-12


SIMULATED = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")
REPLAY_TIME = re.compile(r"Simulation time ([0-9.eE+-]+)")


def run_simgrid(platform, hostfile, trace, np, selector, extra_cfg, cwd, program=None):
    """smpirun -replay of `trace` (or, with program = [executable, args...], smpirun running the
    program itself, untraced and without benchmarking its host code) with SIMGRID_CFG and the
    case's own key:value settings; (Measured, simulated seconds or None). display-timing gives 6
    significant digits; the replay's own "Simulation time" line (microseconds) is the fallback."""
    cmd = [require("smpirun"), "-np", str(np), "-platform", platform, "-hostfile", hostfile]
    cmd += ["-replay", trace] if program is None else ["--cfg=smpi/simulate-computation:no"]
    cmd += [f"--cfg={c.format(selector=selector)}" for c in SIMGRID_CFG] + [f"--cfg={c}" for c in extra_cfg]
    cmd += list(SIMGRID_OUTPUT) + (program or [])
    m = measure(cmd, cwd, os.path.join(cwd, "simgrid.log"))
    with open(m.log, errors="replace") as f:
        text = f.read()
    found = SIMULATED.findall(text) or REPLAY_TIME.findall(text)
    bad = m.rc != 0 or "Deadlock" in text or "CRITICAL" in text
    return m, (None if bad or not found else float(found[-1]))


def compile_program(source, build_dir):
    """smpicc -O2 source -> an executable in build_dir (once per source per session)."""
    exe = os.path.join(build_dir, os.path.splitext(os.path.basename(source))[0])
    if not os.path.exists(exe):
        proc = subprocess.run([require("smpicc"), "-O2", source, "-o", exe], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"smpicc {source} failed:\n{proc.stdout}{proc.stderr}")
    return exe


def record_program(exe, args, platform, hostfile, np, cwd):
    """smpirun -trace-ti: SMPI writes the list file rec.txt and the per-rank files rec.txt_files/
    (paths relative to cwd, where both replays then run). Computation is not benchmarked: the
    programs charge their compute with smpi_execute_flops, so the trace is deterministic."""
    cmd = [require("smpirun"), "-np", str(np), "-platform", platform, "-hostfile", hostfile, "-trace-ti",
           "--cfg=tracing/filename:rec.txt", "--cfg=smpi/simulate-computation:no",
           "--log=root.thres:warning", exe] + args
    m = measure(cmd, cwd, os.path.join(cwd, "record.log"))
    if m.rc != 0:
        raise RuntimeError(f"recording {os.path.basename(exe)} failed (exit {m.rc}):\n{m.tail()}")
    return os.path.join(cwd, "rec.txt")
