#!/usr/bin/env python3
"""Side-by-side runner for pvomp's construct-overhead benchmarks.

Runs the same gcc-built binaries (bench/syncbench, bench/taskbench) on pvomp
(LD_LIBRARY_PATH=<build>/lib), on the system libgomp, and on LLVM's libomp as
a libgomp.so.1 drop-in, at each thread count, one construct per process, the
runtimes interleaved within every round; then prints per thread count a table
of overheads (median and half inter-quartile range over all samples) with the
pvomp/libgomp and pvomp/libomp ratios.  See docs/bench.md."""

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time

SYSTEM_LIBGOMP = "/usr/lib/x86_64-linux-gnu/libgomp.so.1"
LIBOMP = "/usr/lib/x86_64-linux-gnu/libomp.so.5"
SUITES = ("syncbench", "taskbench")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Runtime:
    def __init__(self, name, libdir, expect):
        self.name, self.libdir, self.expect = name, libdir, expect
        self.problem = ""            # non-empty: not usable, and why

    def env(self, threads):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OMP_", "GOMP_", "KMP_", "LD_"))}
        env["OMP_NUM_THREADS"] = str(threads)
        if self.libdir:
            env["LD_LIBRARY_PATH"] = self.libdir
        return env


def runtimes(args):
    out = []
    if "pvomp" in args.runtimes:
        lib = os.path.join(args.build, "lib")
        rt = Runtime("pvomp", lib, os.path.realpath(os.path.join(lib, "libgomp.so.1")))
        so = os.path.join(lib, "libgomp.so.1")
        if not os.path.exists(so):
            rt.problem = "%s not built" % so
        else:
            syms = subprocess.run(["readelf", "-W", "--dyn-syms", so], capture_output=True, text=True).stdout
            if not re.search(r"\bpvomp_version\b", syms):
                rt.problem = "%s does not export pvomp_version" % so
        out.append(rt)
    if "libgomp" in args.runtimes:
        out.append(Runtime("libgomp", None, os.path.realpath(SYSTEM_LIBGOMP)))
    if "libomp" in args.runtimes:
        d = os.path.join(args.build, "bench", "libomp-as-libgomp")
        rt = Runtime("libomp", d, os.path.realpath(LIBOMP))
        if not os.path.exists(LIBOMP):
            rt.problem = "%s absent (install libomp-dev)" % LIBOMP
        else:
            os.makedirs(d, exist_ok=True)
            link = os.path.join(d, "libgomp.so.1")
            if os.path.realpath(link) != rt.expect:
                if os.path.lexists(link):
                    os.unlink(link)
                os.symlink(LIBOMP, link)
        out.append(rt)
    return out


def run(exe, rt, threads, extra, timeout):
    """Run one benchmark process: (records, error)."""
    try:
        p = subprocess.run([exe] + extra, env=rt.env(threads), capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], "timeout after %ds" % timeout
    recs = [ln.split(None, 2) for ln in p.stdout.splitlines() if ln[:2] in ("I ", "S ", "T ", "X ")]
    info = {r[1]: r[2] for r in recs if r[0] == "I" and len(r) == 3}
    if "runtime" in info and os.path.realpath(info["runtime"]) != rt.expect:
        sys.exit("bench: FATAL: %s ran on %s, expected %s" % (rt.name, info["runtime"], rt.expect))
    if p.returncode != 0:
        tail = [ln for ln in (p.stderr + p.stdout).splitlines() if ln.strip()]
        why = "exit %d" % p.returncode if p.returncode > 0 else "signal %d" % -p.returncode
        return recs, why + (": " + tail[-1][:100] if tail else "")
    if "runtime" not in info:
        return recs, "no runtime line in the output"
    return recs, ""


def check_runtimes(rts, exe, threads):
    for rt in rts:
        if rt.problem:
            log("bench: %s skipped: %s" % (rt.name, rt.problem))
            continue
        recs, err = run(exe, rt, threads, ["--only", "PARALLEL", "--outer", "1", "--target-us", "10",
                                           "--delay-iters", "10"], 60)
        if err:
            rt.problem = "does not run the benchmark (%s)" % err
            log("bench: %s skipped: %s" % (rt.name, rt.problem))
        else:
            path = [r[2] for r in recs if r[0] == "I" and r[1] == "runtime"][0]
            log("bench: %-8s %s -> %s" % (rt.name, path, rt.expect))


FIB_LIKE = set()    # names reported as elapsed time ("T" records)


def run_round(names, live, exes, threads, common, timeout, rng):
    """One process per construct and runtime, the runtimes in a shuffled
    order for every construct: ({key: samples}, {key: error})."""
    got, errs = {}, {}
    for suite, name in names:
        order = live[:]
        rng.shuffle(order)
        for rt in order:
            key = (threads, suite, name, rt.name)
            recs, err = run(exes[suite], rt, threads, common + ["--only", name], timeout)
            for r in recs:
                if r[0] in ("S", "T") and r[1] == name:
                    got.setdefault(key, []).append(float(r[2]))
                    if r[0] == "T":
                        FIB_LIKE.add(name)
            if err:
                errs.setdefault(key, err)
    return got, errs


class OthersMeter:
    """Share of all CPUs used by processes other than our benchmark children
    between construction and others()."""
    HZ = os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _stat():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), sum(v) - v[3] - v[4]     # total, busy (not idle/iowait)

    def __init__(self):
        self.t0, self.b0 = self._stat()
        c = os.times()
        self.c0 = c.children_user + c.children_system

    def others(self):
        t1, b1 = self._stat()
        c = os.times()
        ours = (c.children_user + c.children_system - self.c0) * self.HZ
        return max(0.0, (b1 - self.b0) - ours) / max(1, t1 - self.t0)


def cpu_busy(interval=0.5):
    """Fraction of all CPUs busy (any process) over a short interval."""
    def snap():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]           # total, idle + iowait
    t0, i0 = snap()
    time.sleep(interval)
    t1, i1 = snap()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def wait_quiet(limit_s):
    """Wait (up to limit_s) until the machine is idle; returns the busy fraction seen last."""
    deadline = time.time() + limit_s
    busy = cpu_busy()
    while busy > 0.15 and time.time() < deadline:
        log("bench: CPUs %.0f%% busy with other work; waiting" % (busy * 100))
        time.sleep(5)
        busy = cpu_busy()
    return busy


def fmt_med(samples, unit_scale=1.0):
    if not samples:
        return None, ""
    s = sorted(x * unit_scale for x in samples)
    med = statistics.median(s)
    if len(s) >= 4:
        q = statistics.quantiles(s, n=4)
        spread = (q[2] - q[0]) / 2
    else:
        spread = (s[-1] - s[0]) / 2
    prec = 3 if abs(med) < 10 else 1
    return med, "%.*f ±%.*f" % (prec, med, prec, spread)


def ratio(a, b):
    if a is None or b is None or b <= 0.005 or a <= 0:
        return "-"
    return "%.2f" % (a / b)


def table(threads, names, rts, samples, errors, elapsed, meta):
    cols = [rt.name for rt in rts]
    head = ["construct"] + ["%s µs" % c for c in cols]
    ratios = [("pvomp", o) for o in cols if o != "pvomp" and "pvomp" in cols]
    head += ["%s/%s" % r for r in ratios]
    rows = []
    for suite, name in names:
        is_time = name in elapsed
        label = name + (" (ms)" if is_time else "")
        meds, cells = {}, []
        for c in cols:
            key = (threads, suite, name, c)
            scale = 1e-3 if is_time else 1.0
            med, text = fmt_med(samples.get(key, []), scale)
            if not text:
                text = "fail" if key in errors else "-"
            meds[c] = med
            cells.append(text)
        rows.append([label] + cells + [ratio(meds[a], meds[b]) for a, b in ratios])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(x.ljust(w) if i == 0 else x.rjust(w)
                                       for i, (x, w) in enumerate(zip(r, widths))) + " |"
    print("\n### %d threads on %d CPUs — %s" % (threads, os.cpu_count(), meta))
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="pvomp build dir (lib/ and bench/)")
    ap.add_argument("--bench-dir", help="where the suites' binaries are (default <build>/bench; "
                    "bench/clang/run.sh gives the clang-built ones)")
    ap.add_argument("--threads", default="2,4")
    ap.add_argument("--rounds", type=int, default=5, help="processes per construct and runtime")
    ap.add_argument("--outer", type=int, default=10, help="samples per process")
    ap.add_argument("--target-us", type=float, default=1000.0, help="minimum length of one test run")
    ap.add_argument("--delay-us", type=float, default=0.1, help="the delay inside each construct")
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--runtimes", default="pvomp,libgomp,libomp")
    ap.add_argument("--only", default="", help="comma list of construct names")
    ap.add_argument("--timeout", type=int, default=300, help="per process, seconds")
    ap.add_argument("--retries", type=int, default=2,
                    help="measure a round again (up to this many times) when other work used >15%% of the CPUs")
    ap.add_argument("--quiet-wait", type=int, default=0,
                    help="before each round wait up to this many seconds for idle CPUs")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.runtimes = args.runtimes.split(",")
    threads_list = [int(t) for t in args.threads.split(",")]
    suites = [s for s in args.suites.split(",") if s]
    bench_dir = os.path.abspath(args.bench_dir or os.path.join(args.build, "bench"))
    exes = {s: os.path.join(bench_dir, s) for s in suites}
    for s, e in exes.items():
        if not os.access(e, os.X_OK):
            sys.exit("bench: %s not built (run scripts/bench.sh)" % e)

    rts = runtimes(args)
    check_runtimes(rts, exes[suites[0]], threads_list[0])
    live = [rt for rt in rts if not rt.problem]
    if not live:
        sys.exit("bench: no runtime to measure")

    base = next(rt for rt in live)
    cal = subprocess.run([exes[suites[0]], "--calibrate"], env=base.env(1), capture_output=True, text=True)
    ns = float(cal.stdout.split()[1])
    delay_iters = max(1, round(args.delay_us * 1e3 / ns))
    names = []
    for s in suites:
        out = subprocess.run([exes[s], "--list"], env=base.env(1), capture_output=True, text=True).stdout
        names += [(s, ln.split()[1]) for ln in out.splitlines() if ln.startswith("L ")]
    if args.only:
        keep = set(args.only.split(","))
        names = [n for n in names if n[1] in keep]
    common = ["--delay-iters", str(delay_iters), "--outer", str(args.outer), "--target-us", str(args.target_us)]
    log("bench: delay %.3f µs (%d iterations), %d rounds x %d samples, %d constructs, runtimes %s" %
        (args.delay_us, delay_iters, args.rounds, args.outer, len(names), ",".join(rt.name for rt in live)))

    load0 = os.getloadavg()[0]
    busiest = 0.0
    samples, errors = {}, {}
    rng = random.Random(12345)
    t0 = time.time()
    redone = 0
    for threads in threads_list:
        for rnd in range(args.rounds):
            for attempt in range(args.retries + 1):
                busy = wait_quiet(args.quiet_wait)
                log("bench: %d threads, round %d/%d (%.0fs, CPUs %.0f%% busy before)" %
                    (threads, rnd + 1, args.rounds, time.time() - t0, busy * 100))
                meter = OthersMeter()
                got, errs = run_round(names, live, exes, threads, common, args.timeout, rng)
                others = meter.others()
                if others <= 0.15 or attempt == args.retries:
                    break
                redone += 1
                log("bench: other work used %.0f%% of the CPUs during the round: measuring it again" %
                    (others * 100))
            busiest = max(busiest, busy, others)
            for key, vals in got.items():
                samples.setdefault(key, []).extend(vals)
            for key, err in errs.items():
                errors.setdefault(key, err)
    print("# pvomp benchmark: construct overhead (EPCC method), median ±half-IQR")
    print("# load average at start %.2f, at end %.2f; other work used up to %.0f%% of the CPUs "
          "around a kept round (%d rounds measured again)%s" %
          (load0, os.getloadavg()[0], busiest * 100, redone,
           " -- NOISY: other work competed for the CPUs" if busiest > 0.15 else ""))
    for rt in rts:
        print("# %-8s %s" % (rt.name, rt.problem and "skipped: " + rt.problem or rt.expect))
    meta = "delay %.2f µs, %d×%d samples per cell" % (args.delay_us, args.rounds, args.outer)
    for threads in threads_list:
        table(threads, names, live, samples, errors, FIB_LIKE, meta)
    if errors:
        print("\nFailures:")
        for (threads, suite, name, rtn), err in sorted(errors.items()):
            print("  %s %s at %d threads: %s" % (rtn, name, threads, err))
    return 0


if __name__ == "__main__":
    sys.exit(main())
