#!/usr/bin/env python3
"""EPCC syncbench (bench/syncbench, built by bench/CMakeLists.txt) on pvomp,
untraced and traced with every runtime event (PVOMP_TRACE_EVENTS=*),
interleaved; prints per construct the median overhead of each, the ratio,
and the spread of the runs (interquartile range of the per-run medians).
Not a test: a benchmark, run by bench/trace/bench.sh or by hand:

    bench/trace/epcc_traced.py BUILD_DIR [BUILD_DIR2 ...] [--runs 5] [--threads 2]
                               [--only BARRIER,...] [--log PATH]
                               [--also LABEL:K=V,...] [--mode all|fast|slow]

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


def rounds_in_mode(plain, mode):
    """The rounds to report.  This VM runs in two modes that change while
    you watch (every construct about 4x slower in the slow one), and a ratio
    taken across a change means nothing.  A round is fast when every
    untraced run of it (all builds) measured the first construct within
    1.6x the best of the whole session, slow when all are over 2x, mixed
    otherwise; --mode fast/slow keeps only those rounds.  When no round is
    2x another, all ran in one mode, which cannot be told: all are kept."""
    nrounds = len(plain[0])
    if mode == "all":
        return list(range(nrounds)), ""
    probe = next((k for b in plain for r in b for k in r), None)
    vals = [b[r].get(probe) for b in plain for r in range(nrounds)]
    best = min((v for v in vals if v), default=None)
    if best and max(v for v in vals if v) < 2 * best:
        print("  every round ran in the same mode (%s untraced: %.3f-%.3f us); all are reported"
              % (probe, best, max(v for v in vals if v)))
        return list(range(nrounds)), " (one mode throughout)"
    keep = []
    for r in range(nrounds):
        vs = [b[r].get(probe) for b in plain]
        if not best or any(v is None for v in vs):
            continue
        if mode == "fast" and all(v <= 1.6 * best for v in vs):
            keep.append(r)
        if mode == "slow" and all(v > 2 * best for v in vs):
            keep.append(r)
    return keep, " in the VM's %s mode, of %d" % (mode, nrounds)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="PARALLEL,FOR_static,FOR_dynamic,FOR_guided,BARRIER,SINGLE,"
                                      "CRITICAL,LOCK,ATOMIC_ld,REDUCTION")
    ap.add_argument("--mode", choices=("all", "fast", "slow"), default="all",
                    help="report only the rounds in which the VM ran in that mode")
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
    # Per build, per round: {construct: median overhead} (traced: per config too).
    plain = [[] for _ in builds]
    traced = [[[] for _ in configs] for _ in builds]
    recs = [["?"] * len(configs) for _ in builds]
    for i in range(a.runs):
        print("  run %d of %d" % (i + 1, a.runs), flush=True)
        for j, b in enumerate(builds):
            plain[j].append(run(b, a.threads, a.only, {}))
            for c, (_, extra) in enumerate(configs):
                env = {"PVOMP_TRACE": log, "PVOMP_TRACE_EVENTS": "*"}
                env.update(extra)
                traced[j][c].append(run(b, a.threads, a.only, env))
                if os.path.isfile(env["PVOMP_TRACE"]):
                    st = subprocess.run([os.path.join(b, "bin", "pvomp-trace"), "stats",
                                         env["PVOMP_TRACE"]],
                                        capture_output=True, text=True).stdout
                    recs[j][c] = next((l for l in st.splitlines() if l.startswith("records")), "?")
    keep, which = rounds_in_mode(plain, a.mode)
    print("EPCC syncbench on pvomp, %d threads, median of %d interleaved runs%s (overhead per "
          "construct, us; [interquartile range of the runs])" % (a.threads, len(keep), which))
    if not keep:
        print("  no round in that mode")
    for j, b in enumerate(builds):
        if len(builds) > 1:
            print("build %s" % b)
        print("  %-14s %22s" % ("construct", "untraced")
              + "".join(" %22s %8s" % (label, "ratio") for label, _ in configs))
        names = list(dict.fromkeys(k for r in keep for k in plain[j][r]))
        for k in names:
            ps = [plain[j][r][k] for r in keep if k in plain[j][r]]
            p = statistics.median(ps)
            p0, p1 = spread(ps)
            line = "  %-14s %8.3f [%5.3f-%5.3f]" % (k, p, p0, p1)
            for c in range(len(configs)):
                ts = [traced[j][c][r][k] for r in keep if k in traced[j][c][r]] or [float("nan")]
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
