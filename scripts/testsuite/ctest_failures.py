#!/usr/bin/env python3
"""Name the CTest tests that failed, each with the last lines of its output,
from CTest's JUnit report (ctest --output-junit).  scripts/test.sh prints
this at the very end of a failed run, so the part of a CI log that is kept
(its tail) says which test failed and why.
usage: ctest_failures.py <junit.xml> [lines per test, default 30]"""
import sys

from ctest_junit import testcases


def main(path, keep):
    cases = testcases(path)
    if cases is None:
        return 1
    failed = [c for c in cases
              if c.find("failure") is not None or c.find("error") is not None
              or c.get("status") == "fail"]
    if not failed:
        print("ctest: the JUnit report names no failed test")
        return 0
    print("ctest: %d failed: %s" % (len(failed), ", ".join(c.get("name") for c in failed)))
    for case in failed:
        lines = (case.findtext("system-out") or "").rstrip("\n").splitlines()
        print("-- %s (%s s), last %d of %d lines of its output:"
              % (case.get("name"), case.get("time"), min(keep, len(lines)), len(lines)))
        for line in lines[-keep:]:
            print("   " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
