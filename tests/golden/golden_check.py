"""Shared by the CLI test scripts: count checks, print each failure with what was expected."""
import sys

passed = failed = 0


def check(name, cond, expectation, actual):
    """Counts one check; prints it when it fails. Returns whether it passed."""
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}\n  Expectation: {expectation}\n  Actual: {actual}")
    return bool(cond)


def finish(script):
    """The summary line, and the exit status: 1 if any check failed."""
    print(f"{script}: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
