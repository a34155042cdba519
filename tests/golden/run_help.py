#!/usr/bin/env python3
"""Complete help (issue 35): every option a command accepts is named in its `simfab CMD --help`.

The accepted options are read from the commands' own option tables (`CliOption kOptions[]` in
apps/simfab/*.cpp, the lists parse_options refuses everything else with), so an option added to a
command without its help line fails here. Also: `simfab help` has an entry for every command, and
`simfab CMD --help` exits 0 for each.

usage: run_help.py SIMFAB ROOT"""
import os
import re
import subprocess
import sys

simfab, root = os.path.abspath(sys.argv[1]), sys.argv[2]
apps = os.path.join(root, "apps", "simfab")
# A table belongs to the command its file implements, or to the function it is declared in.
FILE_COMMAND = {"convert_cmd.cpp": "convert", "report_cmd.cpp": "report", "hybrid_options.cpp": "hybrid",
                "sweep_cmd.cpp": "sweep"}
FUNCTION_COMMAND = {"cmd_exec": "exec", "cmd_run": "run", "cmd_goal": "goal", "program": "calibrate program",
                    "fit": "calibrate fit", "regions": "calibrate regions", "describe": "platform describe",
                    "routes": "platform routes", "export_graph": "platform export"}
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def option_tables():
    """(command, [options]) for every option table of apps/simfab."""
    for name in sorted(os.listdir(apps)):
        if not name.endswith(".cpp"):
            continue
        text = open(os.path.join(apps, name), encoding="utf-8").read()
        for m in re.finditer(r"CliOption kOptions\[\] = \{(.*?)\};", text, re.S):
            command = FILE_COMMAND.get(name)
            if command is None:
                functions = re.findall(r"^\w[\w:<>, ]* (\w+)\(.*\) \{$", text[:m.start()], re.M)
                command = FUNCTION_COMMAND.get(functions[-1]) if functions else None
            yield name, command, re.findall(r'\{"(-[\w-]+)"', m.group(1))


def entries(help_text, command):
    """The help entries (from `  simfab COMMAND` to the next `  simfab `) of one command."""
    out, current = [], None
    for line in help_text.splitlines():
        if line.startswith("  simfab "):
            current = [] if line.startswith("  simfab " + command + " ") or line == "  simfab " + command else None
            if current is not None:
                out.append(current)
        if current is not None:
            current.append(line)
    return "\n".join("\n".join(e) for e in out)


full = subprocess.run([simfab, "help"], capture_output=True, text=True)
check(full.returncode == 0, "simfab help exits 0")
commands = set()
for file, command, options in option_tables():
    check(command is not None, f"{file}: an option table whose command this test knows")
    if command is None:
        continue
    commands.add(command.split()[0])
    text = entries(full.stdout, command)
    check(text != "", f"simfab help has an entry for `simfab {command}`")
    missing = [o for o in options if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", text)]
    check(not missing, f"`simfab {command}` help names every option it accepts" +
          (f" (missing: {' '.join(missing)})" if missing else ""))
for command in sorted(commands | {"config", "coll", "version"}):
    p = subprocess.run([simfab, command, "--help"], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.startswith("usage:") or f"simfab {command}" in p.stdout,
          f"simfab {command} --help prints its help")
print("help:", "ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
