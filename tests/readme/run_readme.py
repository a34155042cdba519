#!/usr/bin/env python3
"""The documentation's command blocks are tests (ctest `readme_blocks`, issue 35).

    run_readme.py SIMFAB_BUILD_DIR SOURCE_DIR [--list | --self-test] [--only LINE] [FILE.md...]

Every fenced block of README.md, docs/*.md and examples/*/README.md is classified:
  - a block whose first line starts with `$ ` is a command block: each `$ ` line (with its `\\`
    continuation lines, or the lines that complete an open `for`, quote or brace) is a command,
    the lines after it up to the next `$ ` line are the output the reader is shown;
  - a block with a language tag (```text, ```yaml, ```c ...) is not run (syntax, file contents);
  - a command block right after `<!-- not run in CI: REASON -->` is listed with its reason, not run;
  - an untagged block that does not start with `$ ` is an error: every block says what it is.

Command blocks run in order, each in one `bash` under a pseudo-terminal (so the output interleaves
as a reader's terminal shows it), from one scratch directory shared by the whole file. The scratch
directory holds `build` (the simfab build under test) and the source tree's top-level entries as
symbolic links, so commands read as written from a clone and write their outputs in the scratch.

The shown output is compared with what the command printed:
  - a line `...` stands for any number of lines, and `...` inside a line for any text;
  - text after two or more spaces and a `# ` at the end of a shown line is the README's comment;
  - wall-clock figures (wall time, simulation time, events/s, peak memory, a phase's seconds) are
    not compared;
  - every other character is: a number the README shows is the number the command must print.
A command with no shown output is checked for its exit status only. A command must exit 0, or with
the status its trailing comment names (`# exit status 2`).
"""
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time

FENCE = re.compile(r"^( *)```(\S*)\s*$")  # indented inside a list item too
SKIP = re.compile(r"^<!--\s*not run in CI:\s*(.*?)\s*-->\s*$")
STATUS = re.compile(r"#\s*exit status (\d+)\s*$")
COMMENT = re.compile(r"\s{2,}#\s.*$")
VOLATILE = [
    (re.compile(r"wall time: [0-9.]+ s"), "wall time: T s"),
    (re.compile(r"simulation [0-9.]+ s"), "simulation T s"),
    (re.compile(r"[0-9.]+(e[+-]?[0-9]+)? events/s"), "R events/s"),
    (re.compile(r"peak memory: [0-9.]+ [KMGT]?i?B"), "peak memory: M"),
    (re.compile(r"( events), [0-9.]+ s$"), r"\1, T s"),  # a phase's wall time (--switch)
]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT_S = 600


class Block:
    def __init__(self, path, line, skip):
        self.path, self.line, self.skip = path, line, skip
        self.commands = []  # (line, command text, expected status, [shown output lines])


def incomplete(cmd):
    """Whether bash needs more lines to complete cmd (an open `for ... do`, quote or brace)."""
    r = subprocess.run(["bash", "-n", "-c", cmd], capture_output=True, text=True)
    return "unexpected end of file" in r.stderr


def parse(path, text, errors):
    """The command blocks of one Markdown file; unclassified blocks are appended to errors."""
    blocks, lines = [], text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, indent, lang = i + 1, len(m.group(1)), m.group(2)
        j = i + 1
        while j < len(lines) and not lines[j].lstrip(" ").startswith("```"):
            j += 1
        if j == len(lines):
            raise ValueError(f"{path}:{start}: the block is never closed")
        body = [b[indent:] if b[:indent].strip() == "" else b.lstrip(" ") for b in lines[i + 1:j]]
        prev = lines[i - 1] if i > 0 else ""
        skip = SKIP.match(prev)
        i = j + 1
        if lang:
            continue
        if not body or not body[0].startswith("$ "):
            errors.append(f"{path}:{start}: an untagged block that is not commands (`$ ...`); "
                          "tag it (```text, ```yaml, ...) or start it with `$ `")
            continue
        block = Block(path, start, skip.group(1) if skip else None)
        k = 0
        while k < len(body):
            line_no = start + 1 + k
            cmd = body[k][2:]
            while (cmd.endswith("\\") or incomplete(cmd)) and k + 1 < len(body):
                k += 1
                cmd += "\n" + body[k]
            k += 1
            shown = []
            while k < len(body) and not body[k].startswith("$ "):
                shown.append(body[k])
                k += 1
            status = STATUS.search(cmd)
            block.commands.append((line_no, cmd, int(status.group(1)) if status else 0, shown))
        blocks.append(block)
    return blocks


def terminal_text(raw):
    """What a terminal shows for raw pty output: CRLF folded, carriage returns overwrite, no
    escape sequences."""
    out = []
    for line in raw.replace("\r\n", "\n").split("\n"):
        line = ANSI.sub("", line.split("\r")[-1] if "\r" in line.rstrip("\r") else line.rstrip("\r"))
        out.append(line.rstrip())
    return out


def normalise(line):
    for pattern, repl in VOLATILE:
        line = pattern.sub(repl, line)
    return line.rstrip()


def line_matches(shown, got):
    shown, got = normalise(COMMENT.sub("", shown)), normalise(got)
    if "..." not in shown:
        return shown == got
    parts = [re.escape(p) for p in shown.split("...")]
    return re.fullmatch(".*".join(parts), got) is not None


def output_matches(shown, got):
    """Whether the printed lines `got` match the shown lines (`...` lines elide any lines)."""
    shown = [s for s in shown]
    while got and got[-1] == "":
        got = got[:-1]

    memo = {}

    def match(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(shown):
            r = j == len(got)
        elif shown[i].strip() == "...":
            r = any(match(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_matches(shown[i], got[j]) and match(i + 1, j + 1)
        memo[key] = r
        return r

    return match(0, 0)


def run_block(block, scratch, env):
    """Runs a block's commands in one bash under a pty; returns [(output lines, status)]."""
    marker = "@@simfab-readme-%d@@"
    script = ["set +e"]
    for n, (_, cmd, _, _) in enumerate(block.commands):
        script.append(cmd)
        script.append(f"printf '\\n{marker % n} %d\\n' $?")
    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=scratch, env=env,
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    raw, deadline = b"", time.monotonic() + TIMEOUT_S
    while True:
        if time.monotonic() > deadline:
            os.killpg(proc.pid, 9)  # the block's whole session: mpirun and its ranks too
            raise TimeoutError(f"{block.path}:{block.line}: the block ran over {TIMEOUT_S} s")
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        raw += chunk
    proc.wait()
    os.close(master)
    lines = terminal_text(raw.decode("utf-8", "replace"))
    results, current = [], []
    for line in lines:
        m = re.fullmatch(r"@@simfab-readme-(\d+)@@ (\d+)", line)
        if m:
            if current and current[-1] == "":
                current.pop()  # the marker's own leading newline
            results.append((current, int(m.group(2))))
            current = []
        else:
            current.append(line)
    return results


def scratch_dir(build, source):
    scratch = os.path.join(build, "readme-run")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    for entry in os.listdir(source):
        if entry.startswith(".") or entry.startswith("build"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(scratch, entry))
    os.symlink(build, os.path.join(scratch, "build"))
    return scratch


def documents(source, given):
    if given:
        return [os.path.abspath(g) for g in given]
    docs = [os.path.join(source, "README.md")]
    for folder in ("docs", "examples"):
        for root, _, files in sorted(os.walk(os.path.join(source, folder))):
            docs += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    return docs


def self_test(build, source):
    """The checker's own checks: a shown number that differs fails, `...` elides, a status must
    be declared, an unclassified block fails. Prints one line per check; returns failures."""
    import tempfile
    cases = [
        ("a matching block", "```\n$ printf 'a 1\\nb 2\\nc 3\\n'\na 1\n...\nc 3\n```\n", 0),
        ("a number that differs", "```\n$ echo 'makespan: 42 ps'\nmakespan: 43 ps\n```\n", 1),
        ("`...` inside a line", "```\n$ echo 'took 0.123 s here'\ntook ... s here   # varies\n```\n", 0),
        ("a line that is not shown", "```\n$ printf 'a\\nb\\n'\na\n```\n", 1),
        ("an undeclared exit status", "```\n$ false\n```\n", 1),
        ("a declared exit status", "```\n$ sh -c 'exit 2'     # exit status 2\n```\n", 0),
        ("an open for loop continues", "```\n$ for i in 1 2; do\n    echo $i; done\n1\n2\n```\n", 0),
        ("an unclassified block", "```\nsome text\n```\n", 1),
        ("a skipped block", "<!-- not run in CI: a reason -->\n```\n$ false\n```\n", 0),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, want in cases:
            doc = os.path.join(tmp, "case.md")
            with open(doc, "w", encoding="utf-8") as f:
                f.write(text)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), build, source, doc],
                               capture_output=True, text=True)
            ok = (r.returncode != 0) == bool(want)
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} self-test: {name} {'fails' if want else 'passes'}")
    return failures


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    build, source = os.path.abspath(args[0]), os.path.abspath(args[1])
    only = int(argv[argv.index("--only") + 1]) if "--only" in argv else None
    if only is not None:
        args.remove(str(only))
    blocks, errors = [], []
    for doc in documents(source, args[2:]):
        with open(doc, encoding="utf-8") as f:
            try:
                blocks += parse(os.path.relpath(doc, source), f.read(), errors)
            except ValueError as e:
                errors.append(str(e))
    for e in errors:
        print(f"FAIL {e}")
    if errors:
        return 1
    if "--self-test" in argv or not args[2:]:  # the whole documentation: the checker checked first
        failed = self_test(build, source)
        if failed or "--self-test" in argv:
            return 1 if failed else 0
    if "--list" in argv:
        for b in blocks:
            state = f"not run: {b.skip}" if b.skip else f"{len(b.commands)} commands"
            print(f"{b.path}:{b.line}: {state}")
        return 0
    env = dict(os.environ, TERM="dumb", COLUMNS="200", LC_ALL="C.UTF-8",
               ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))
    env.pop("SIMFAB_CAPTURE_DIR", None)
    scratch = scratch_dir(build, source)
    failures, ran, skipped = 0, 0, []
    for block in blocks:
        if only is not None and block.line != only:
            continue
        if block.skip:
            skipped.append(block)
            continue
        started, failed_before = time.monotonic(), failures
        results = run_block(block, scratch, env)
        for n, (line_no, cmd, status, shown) in enumerate(block.commands):
            ran += 1
            head = f"{block.path}:{line_no}: $ {cmd.splitlines()[0]}"
            if n >= len(results):
                print(f"FAIL {head}\n     the block stopped before this command")
                failures += 1
                break
            got, rc = results[n]
            bad = []
            if rc != status:
                bad.append(f"exit status {rc}, expected {status}")
            if any(s.strip() for s in shown) and not output_matches(shown, got):
                bad.append("its output differs from the shown output")
            if bad:
                failures += 1
                print(f"FAIL {head}\n     " + "; ".join(bad))
                print("     shown:\n" + "\n".join("       | " + s for s in shown))
                print("     printed:\n" + "\n".join("       | " + g for g in got[:60]))
        verdict = "ok  " if failures == failed_before else "bad "
        print(f"{verdict} {block.path}:{block.line} ({len(block.commands)} commands, "
              f"{time.monotonic() - started:.1f} s)")
    for b in skipped:
        print(f"not run in CI: {b.path}:{b.line}: {b.skip}")
    print(f"{ran} commands in {sum(1 for b in blocks if not b.skip)} blocks, {len(skipped)} blocks "
          f"not run, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
