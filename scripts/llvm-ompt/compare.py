#!/usr/bin/env python3
"""Side by side: the results of one runner.py run on pvomp and one on libomp.

Reads the --results files of both runs (one 'STATUS test' a line) and the
pvomp run's known-failures file, and prints per subset (runtime = every
directory but ompt/, ompt) the counts of both runtimes and of the tests
neither passes, then the tests that only one of them passes.  Counting as
runner.py (and lit): passed = PASS + XFAIL (marked in the test).

Checks the known-failures file against libomp: a pvomp known failure whose
reason starts with "neither:" must fail on libomp too, and one without it
must pass on libomp (else the line says the wrong thing); exits 1 if not.
See docs/kmpc.md, "LLVM's runtime tests compiled by clang"."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runner import read_list  # noqa: E402  (the same "test | why" format)

PASSED = ("PASS", "XFAIL")
NEITHER = "neither:"


def read_results(path):
    out = {}
    with open(path) as f:
        for line in f:
            status, _, test = line.strip().partition(" ")
            if test:
                out[test] = status
    return out


def subset(test):
    return "ompt" if test.startswith("ompt/") else "runtime"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pvomp", required=True, help="results of the pvomp run")
    ap.add_argument("--libomp", required=True, help="results of the libomp run")
    ap.add_argument("--known-failures", required=True, help="the pvomp run's known failures")
    args = ap.parse_args()
    pv, lo = read_results(args.pvomp), read_results(args.libomp)
    known = read_list(args.known_failures)

    head = ("subset", "tests", "pvomp passed", "pvomp known", "pvomp failed",
            "libomp passed", "libomp failed", "neither", "skipped")
    rows = []
    for name in ("runtime", "ompt"):
        tests = [t for t in pv if subset(t) == name]
        if not tests:
            continue
        ran = [t for t in tests if pv[t] != "SKIP"]
        neither = [t for t in ran if pv[t] not in PASSED and lo.get(t) not in PASSED]
        rows.append((name, len(ran),
                     sum(pv[t] in PASSED for t in ran),
                     sum(pv[t] == "KFAIL" for t in ran),
                     sum(pv[t] in ("FAIL", "XPASS") for t in ran),
                     sum(lo.get(t) in PASSED for t in ran),
                     sum(lo.get(t) not in PASSED for t in ran),
                     len(neither), len(tests) - len(ran)))
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(x).rjust(w) if i else str(x).ljust(w) for i, (x, w) in enumerate(zip(r, widths))))

    only = lambda a, b: sorted(t for t in a if a[t] in PASSED and b.get(t) not in PASSED
                               and b.get(t) != "SKIP")
    for label, tests in (("libomp passes, pvomp does not", only(lo, pv)),
                         ("pvomp passes, libomp does not", only(pv, lo))):
        print(f"{label}: {len(tests)}")
        for t in tests:
            print(f"  {t}" + (f"  [{known[t]}]" if t in known else ""))

    wrong = []
    for test, why in sorted(known.items()):
        if test not in pv or pv[test] == "SKIP" or test not in lo:
            continue
        says_neither = why.startswith(NEITHER)
        libomp_passes = lo[test] in PASSED
        if says_neither and libomp_passes:
            wrong.append(f"{test}: listed as '{NEITHER}' but libomp passes it")
        if not says_neither and not libomp_passes:
            wrong.append(f"{test}: libomp fails it too (mark its reason '{NEITHER} ...')")
    for w in wrong:
        print(f"FAIL {w}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
