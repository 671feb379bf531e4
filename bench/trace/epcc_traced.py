#!/usr/bin/env python3
"""EPCC syncbench (bench/syncbench, built by bench/CMakeLists.txt) on pvomp,
untraced and traced with every runtime event (PVOMP_TRACE_EVENTS=*),
interleaved; prints per construct the median overhead of each and the ratio.
Not a test: a benchmark, run by bench/trace/bench.sh or by hand:

    bench/trace/epcc_traced.py BUILD_DIR [--runs 5] [--threads 2] [--only BARRIER,...]
"""
import argparse
import os
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="PARALLEL,FOR_static,FOR_dynamic,BARRIER,SINGLE,CRITICAL,LOCK,REDUCTION")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not os.path.exists(os.path.join(build, "bench", "syncbench")):
        raise SystemExit("no %s/bench/syncbench (build the bench target first)" % build)
    logdir = tempfile.mkdtemp(prefix="pvomp-epcc-trace-")
    log = os.path.join(logdir, "epcc.pvtrace")
    plain, traced = {}, {}
    for i in range(a.runs):
        print("  run %d of %d" % (i + 1, a.runs), flush=True)
        for k, v in run(build, a.threads, a.only, {}).items():
            plain.setdefault(k, []).append(v)
        for k, v in run(build, a.threads, a.only, {"PVOMP_TRACE": log, "PVOMP_TRACE_EVENTS": "*"}).items():
            traced.setdefault(k, []).append(v)
    st = subprocess.run([os.path.join(build, "bin", "pvomp-trace"), "stats", log],
                        capture_output=True, text=True).stdout
    recs = next((l for l in st.splitlines() if l.startswith("records")), "?")
    print("EPCC syncbench on pvomp, %d threads, median of %d interleaved runs (overhead per construct, us)"
          % (a.threads, a.runs))
    print("  %-14s %12s %12s %8s" % ("construct", "untraced", "traced", "ratio"))
    for k in plain:
        p, t = statistics.median(plain[k]), statistics.median(traced.get(k, [float("nan")]))
        print("  %-14s %12.3f %12.3f %7.2fx" % (k, p, t, t / p if p > 0 else float("nan")))
    print("  last traced run's log: " + recs)
    os.remove(log)
    os.rmdir(logdir)


if __name__ == "__main__":
    main()
