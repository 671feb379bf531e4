#!/usr/bin/env python3
"""Name the CTest tests that were skipped, with their reasons, from CTest's
JUnit report (ctest --output-junit), in one closing line; exit 1 under
CI=true if any was (CI installs every prerequisite, so a skip there is a part
that should have run and did not).  usage: ctest_skips.py <junit.xml>"""
import os
import re
import sys

from ctest_junit import testcases


def main(path):
    cases = testcases(path)
    if cases is None:
        return 1
    skipped = []
    for case in cases:
        if case.find("skipped") is None:
            continue
        out = case.findtext("system-out") or ""
        m = re.search(r"^SKIP: (.*)$", out, re.M)
        skipped.append("%s (%s)" % (case.get("name"), m.group(1) if m else "skipped"))
    if not skipped:
        print("ctest: no test skipped")
        return 0
    ci = os.environ.get("CI", "") == "true"
    print("ctest: %d skipped%s: %s" % (len(skipped), " -- CI=true: every part must run" if ci else "",
                                       "; ".join(skipped)))
    return 1 if ci else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
