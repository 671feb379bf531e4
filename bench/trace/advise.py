#!/usr/bin/env python3
"""pvomp-trace advise's predicted gains against measured ones, on the
pathology programs of tests/trace/advise/patho.c.  Not a test: a benchmark.

    bench/trace/advise.py BUILD_DIR [--runs 3] [--threads 2] [--cc gcc]
                          [--cases a,b] [--json OUT.json]

Each case runs plain and fixed, traced (PVOMP_TRACE, default events) and
untraced, the four interleaved in every round.  predicted: the median over
the plain traced runs of `advise --json`'s largest finding of the case's
cause; measured: median(kernel time, plain)
- median(kernel time, fixed), traced (what the prediction is about) and
untraced.  error: predicted / measured traced - 1.  The goal is |error| <=
35 %.  region: every finding at that finding's region, summed (a fix that
removes the region, as fork_join's, removes them all).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "trace", "advise"))
from cases import CASES  # noqa: E402



def kernel(prog, case, variant, env):
    out = subprocess.run([prog, case, variant], env=env, capture_output=True, text=True,
                         check=True, timeout=600).stdout
    m = re.search(r"kernel_ns (\d+)", out)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--json", help="also write every run's figures and findings here")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    tmp = tempfile.mkdtemp(prefix="pvomp-advise-bench-")
    prog = os.path.join(tmp, "patho")
    subprocess.run([a.cc, "-fopenmp", "-O1", "-g", "-I", os.path.join(src, "tests", "common"),
                    "-o", prog, os.path.join(src, "tests", "trace", "advise", "patho.c"), "-ldl"],
                   check=True)
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE") or k.startswith("OMP_"):
            del env[k]
    env.update(OMP_NUM_THREADS=str(a.threads), LD_LIBRARY_PATH=os.path.join(build, "lib"))
    reader = os.path.join(build, "bin", "pvomp-trace")
    cases = a.cases.split(",")
    res = {c: {"plain": [], "fixed": [], "plain_u": [], "fixed_u": [], "pred": [], "top": [],
               "region": []}
           for c in cases}
    for rnd in range(a.runs):
        for c in cases:
            e = dict(env)
            if c == "phantom":
                e.update(OMP_PROC_BIND="close", OMP_PLACES="cores")
            for variant in ("plain", "fixed"):
                res[c][variant + "_u"].append(kernel(prog, c, variant, e))
                log = os.path.join(tmp, "%s.%s.pvtrace" % (c, variant))
                res[c][variant].append(kernel(prog, c, variant, dict(e, PVOMP_TRACE=log)))
                if variant == "plain":
                    f = json.loads(subprocess.run([reader, "advise", "--json", log],
                                                  capture_output=True, text=True).stdout)["findings"]
                    mine = sorted((x for x in f if x["cause"] in CASES[c]),
                                  key=lambda x: -x["gain_ns"])
                    res[c]["pred"].append(mine[0]["gain_ns"] if mine else 0)
                    res[c]["region"].append(sum(x["gain_ns"] for x in f
                                                if mine and x["region"] == mine[0]["region"]))
                    res[c]["top"].append("%s %s" % (f[0]["cause"], f[0]["where"]) if f else "-")
                os.unlink(log)
            print("round %d %s done" % (rnd + 1, c), file=sys.stderr)
    print("%-17s %12s %12s %8s %14s %10s  %s" % ("case", "predicted ms", "measured ms", "error",
                                                 "untraced ms", "region ms",
                                                 "top finding (last run)"))
    for c in cases:
        r = res[c]
        pred = statistics.median(r["pred"]) / 1e6
        meas = (statistics.median(r["plain"]) - statistics.median(r["fixed"])) / 1e6
        untr = (statistics.median(r["plain_u"]) - statistics.median(r["fixed_u"])) / 1e6
        err = "%+.0f%%" % (100 * (pred / meas - 1)) if meas > 0 else "n/a"
        reg = statistics.median(r["region"]) / 1e6
        print("%-17s %12.2f %12.2f %8s %14.2f %10.2f  %s" % (c, pred, meas, err, untr, reg,
                                                             r["top"][-1]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
