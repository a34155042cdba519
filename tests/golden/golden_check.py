"""Shared by the CLI test scripts: count checks, print each failure with what was expected."""

passed = failed = 0


def check(name, cond, expectation, actual):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}\n  Expectation: {expectation}\n  Actual: {actual}")
