#!/usr/bin/env python3
"""EPCC syncbench (bench/syncbench, built by bench/CMakeLists.txt) on pvomp,
untraced and traced with every runtime event (PVOMP_TRACE_EVENTS=*),
interleaved; prints per construct the median overhead of each, the ratio,
and the spread of the runs (interquartile range of the per-run medians).
Not a test: a benchmark, run by bench/trace/bench.sh or by hand:

    bench/trace/epcc_traced.py BUILD_DIR [BUILD_DIR2 ...] [--runs 5] [--threads 2]
                               [--only BARRIER,...] [--log PATH]

With several build directories (e.g. a copy of an older build, with lib/,
bench/syncbench and bin/pvomp-trace), all of them run in every round, so
that they see the same machine.  --log /dev/null keeps the writer thread
from copying the records into a file (what the records cost without the
file's page-cache copy).
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile


def run(build, threads, only, env_extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE"):
            del env[k]
    env.update(env_extra)
    env["OMP_NUM_THREADS"] = str(threads)
    env["LD_LIBRARY_PATH"] = os.path.join(build, "lib")
    cmd = [os.path.join(build, "bench", "syncbench"), "--outer", "7"]
    if only:
        cmd += ["--only", only]
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True,
                             timeout=300).stdout
    except subprocess.TimeoutExpired:
        print("  (a run took over 300 s and was stopped: %s)" % ("traced" if env_extra else "untraced"),
              flush=True)
        return {}
    samples = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "S":
            samples.setdefault(f[1], []).append(float(f[2]))
    return {k: statistics.median(v) for k, v in samples.items()}


def spread(xs):
    q = sorted(xs)
    return q[len(q) // 4], q[(3 * len(q)) // 4]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="PARALLEL,FOR_static,FOR_dynamic,FOR_guided,BARRIER,SINGLE,"
                                      "CRITICAL,LOCK,ATOMIC_ld,REDUCTION")
    ap.add_argument("--log", help="where the traced runs write (default: a temporary file)")
    ap.add_argument("--also", action="append", default=[], metavar="LABEL:K=V[,K=V]",
                    help="one more traced configuration, with these environment variables "
                         "(e.g. buffered:PVOMP_TRACE_DIRECT=0, or "
                         "'nowait:PVOMP_TRACE_EVENTS=*,!wait_*'); repeatable")
    a = ap.parse_args()
    configs = [("traced", {})]
    for spec in a.also:
        label, _, kvs = spec.partition(":")
        # K=V pairs separated by commas; a value may hold commas itself
        # (PVOMP_TRACE_EVENTS=*,!wait_*): a new pair starts at ",NAME=".
        env = dict(kv.split("=", 1) for kv in re.split(r",(?=[A-Za-z_][A-Za-z0-9_]*=)", kvs) if kv)
        configs.append((label, env))
    builds = [os.path.abspath(b) for b in a.builds]
    for b in builds:
        if not os.path.exists(os.path.join(b, "bench", "syncbench")):
            raise SystemExit("no %s/bench/syncbench (build the bench target first)" % b)
    logdir = None
    log = a.log
    if not log:
        logdir = tempfile.mkdtemp(prefix="pvomp-epcc-trace-")
        log = os.path.join(logdir, "epcc.pvtrace")
    plain = [{} for _ in builds]
    traced = [[{} for _ in configs] for _ in builds]
    recs = [["?"] * len(configs) for _ in builds]
    for i in range(a.runs):
        print("  run %d of %d" % (i + 1, a.runs), flush=True)
        for j, b in enumerate(builds):
            for k, v in run(b, a.threads, a.only, {}).items():
                plain[j].setdefault(k, []).append(v)
            for c, (_, extra) in enumerate(configs):
                env = {"PVOMP_TRACE": log, "PVOMP_TRACE_EVENTS": "*"}
                env.update(extra)
                for k, v in run(b, a.threads, a.only, env).items():
                    traced[j][c].setdefault(k, []).append(v)
                if os.path.isfile(env["PVOMP_TRACE"]):
                    st = subprocess.run([os.path.join(b, "bin", "pvomp-trace"), "stats",
                                         env["PVOMP_TRACE"]],
                                        capture_output=True, text=True).stdout
                    recs[j][c] = next((l for l in st.splitlines() if l.startswith("records")), "?")
    print("EPCC syncbench on pvomp, %d threads, median of %d interleaved runs (overhead per "
          "construct, us; [interquartile range of the runs])" % (a.threads, a.runs))
    for j, b in enumerate(builds):
        if len(builds) > 1:
            print("build %s" % b)
        print("  %-14s %22s" % ("construct", "untraced")
              + "".join(" %22s %8s" % (label, "ratio") for label, _ in configs))
        for k in plain[j]:
            p = statistics.median(plain[j][k])
            p0, p1 = spread(plain[j][k])
            line = "  %-14s %8.3f [%5.3f-%5.3f]" % (k, p, p0, p1)
            for c in range(len(configs)):
                ts = traced[j][c].get(k, [float("nan")])
                t = statistics.median(ts)
                t0, t1 = spread(ts)
                line += " %8.3f [%5.3f-%5.3f] %7.2fx" % (t, t0, t1, t / p if p > 0 else float("nan"))
            print(line)
        for c, (label, _) in enumerate(configs):
            print("  last %s run's log: %s" % (label, recs[j][c]))
    if logdir:
        if os.path.exists(log):
            os.remove(log)
        os.rmdir(logdir)


if __name__ == "__main__":
    main()
