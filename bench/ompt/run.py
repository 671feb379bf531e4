#!/usr/bin/env python3
"""OMPT overhead: the same benchmark binaries on pvomp with and without the
OMPT event sites (no tool attached), rounds interleaved in random order;
medians and half inter-quartile ranges of every construct's overhead samples,
and the with/without ratio.  Not a test: it prints figures."""

import argparse
import os
import random
import statistics
import subprocess
import sys


def run(bench, libdir, threads, outer, only):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "GOMP_", "LD_"))}
    env["OMP_NUM_THREADS"] = str(threads)
    env["LD_LIBRARY_PATH"] = libdir
    cmd = [bench, "--outer", str(outer)] + (["--only", only] if only else [])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    runtime, samples = None, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "I" and f[1] == "runtime":
            runtime = f[2]
        if len(f) == 3 and f[0] == "S":
            samples.setdefault(f[1], []).append(float(f[2]))
    return runtime, samples


def spread(xs):
    if len(xs) < 4:
        return 0.0
    q = statistics.quantiles(xs, n=4)
    return (q[2] - q[0]) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--with", dest="with_", required=True, help="lib dir of pvomp with OMPT sites")
    ap.add_argument("--without", required=True, help="lib dir of pvomp built with PVOMP_OMPT=OFF")
    ap.add_argument("--bench", required=True, help="dir of the syncbench/taskbench binaries")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--outer", type=int, default=5)
    ap.add_argument("--only", default=None, help="comma list of constructs")
    a = ap.parse_args()
    configs = [("with OMPT", a.with_), ("without", a.without)]
    data = {name: {} for name, _ in configs}
    seen = {}
    for r in range(a.rounds):
        order = configs[:]
        random.shuffle(order)
        for name, lib in order:
            for suite in ("syncbench", "taskbench"):
                rt, samples = run(os.path.join(a.bench, suite), lib, a.threads, a.outer, a.only)
                seen[name] = rt
                for k, v in samples.items():
                    data[name].setdefault(k, []).extend(v)
        print("round %d/%d done" % (r + 1, a.rounds), file=sys.stderr, flush=True)
    for name, lib in configs:
        print("# %-10s %s (runtime loaded: %s)" % (name, lib, seen.get(name)))
    print("# %d threads, %d rounds x %d samples; overhead per construct in microseconds, "
          "median +- half IQR" % (a.threads, a.rounds, a.outer))
    print("%-22s %18s %18s %8s" % ("construct", "with OMPT", "without", "ratio"))
    ratios = []
    for k in sorted(data["with OMPT"]):
        w, wo = data["with OMPT"][k], data["without"].get(k, [])
        if not wo:
            continue
        mw, mwo = statistics.median(w), statistics.median(wo)
        ratio = mw / mwo if mwo > 0 else float("nan")
        if mwo > 0.05 and mw > 0.05:   # ratios of near-zero overheads mean nothing
            ratios.append(ratio)
        print("%-22s %10.3f +-%5.3f %10.3f +-%5.3f %8.3f" % (k, mw, spread(w), mwo, spread(wo), ratio))
    if ratios:
        print("geometric mean of ratios (overheads > 0.05 us): %.3f over %d constructs" %
              (statistics.geometric_mean(ratios), len(ratios)))
    else:
        print("no construct with a measurable overhead in both builds: nothing to compare")


if __name__ == "__main__":
    main()
