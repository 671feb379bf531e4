#!/usr/bin/env python3
"""Scheduler events per construct instance of EPCC taskbench, by runtime.

Counts, with `perf stat` (software events and syscall tracepoints; root or
perf_event_paranoid <= -1 for the tracepoints), the context switches, CPU
migrations, sched_yield and futex calls and CPU time of bench/taskbench
running each construct as CALLS parallel regions of REPS instances each
(`--reps`, `--calls`: the shape of a timed run, whose innerreps are a few
thousand), on pvomp, the system libgomp and LLVM libomp (as libgomp.so.1),
interleaved.  Each count is taken with CALLS and with 2 x CALLS regions and
the difference divided by CALLS x REPS, so that process start and exit
cancel out: the figures are per innerrep (the unit of taskbench's
overheads: per task per thread for PARALLEL_TASK and TASKWAIT, per task for
DEP_CHAIN), fork and join included.  Counts, not times: they hold on a
loaded machine far better than the overheads do; the median of ROUNDS.

Usage: bench/tasks/switches.py [--build build] [--threads 4] [--reps 2048]
           [--calls 20] [--rounds 3] [--only PARALLEL_TASK,TASKWAIT,DEP_CHAIN]
           [--delay-us 0.1] [--runtimes pvomp,libgomp,libomp]
A runtime may carry settings: `pvomp:OMP_WAIT_POLICY=active:GOMP_SPINCOUNT=1000`.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

EVENTS = ["context-switches", "cpu-migrations", "syscalls:sys_enter_sched_yield",
          "syscalls:sys_enter_futex", "task-clock"]
SHORT = {"context-switches": "cs", "cpu-migrations": "migr", "syscalls:sys_enter_sched_yield": "yield",
         "syscalls:sys_enter_futex": "futex", "task-clock": "cpu µs"}


def count(exe, libdir, threads, name, reps, calls, delay_iters, settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "GOMP_", "KMP_", "LD_", "PVOMP_"))}
    env["OMP_NUM_THREADS"] = str(threads)
    env.update(kv.split("=", 1) for kv in settings)
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    p = subprocess.run(["perf", "stat", "-x,", "-e", ",".join(EVENTS), "--", exe, "--only", name,
                        "--reps", str(reps), "--calls", str(calls), "--delay-iters", str(delay_iters)],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0 or "X %s reps=%d calls=%d" % (name, reps, calls) not in p.stdout:
        sys.exit("switches: %s failed: %s" % (name, (p.stderr or p.stdout).strip()[-300:]))
    out = {}
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 3 and f[2] in EVENTS:
            if not f[0] or f[0].startswith("<"):
                sys.exit("switches: perf cannot count %s (%s)" % (f[2], f[0]))
            out[f[2]] = float(f[0]) * (1e3 if f[2] == "task-clock" else 1)  # msec -> µs
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--reps", type=int, default=2048)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="PARALLEL_TASK,TASKWAIT,DEP_CHAIN")
    ap.add_argument("--delay-us", type=float, default=0.1)
    ap.add_argument("--per-region", action="store_true",
                    help="per parallel region (REPS innerreps) instead of per innerrep")
    ap.add_argument("--runtimes", default="pvomp,libgomp,libomp")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    exe = os.path.join(build, "bench", "taskbench")
    work = tempfile.mkdtemp()
    os.symlink("/usr/lib/x86_64-linux-gnu/libomp.so.5", os.path.join(work, "libgomp.so.1"))
    libs = {"pvomp": os.path.join(build, "lib"), "libgomp": None, "libomp": work}
    rts = args.runtimes.split(",")
    ns = float(subprocess.run([exe, "--calibrate"], capture_output=True, text=True).stdout.split()[1])
    delay_iters = max(1, round(args.delay_us * 1e3 / ns))
    per = {}
    for rnd in range(args.rounds):
        for name in args.only.split(","):
            for rt in rts:
                lib, *settings = rt.split(":")
                one = count(exe, libs[lib], args.threads, name, args.reps, args.calls, delay_iters, settings)
                two = count(exe, libs[lib], args.threads, name, args.reps, 2 * args.calls, delay_iters,
                            settings)
                for e in EVENTS:
                    per.setdefault((name, rt, e), []).append((two[e] - one[e]) / args.calls /
                                                            (1 if args.per_region else args.reps))
        print("switches: round %d/%d done" % (rnd + 1, args.rounds), file=sys.stderr)
    print("### %d threads on %d CPUs, per %s, median of %d (%d and %d regions of %d, delay %.2f µs)" %
          (args.threads, os.cpu_count(), "region" if args.per_region else "innerrep", args.rounds,
           args.calls, 2 * args.calls, args.reps, args.delay_us))
    print("| construct | runtime | " + " | ".join(SHORT[e] for e in EVENTS) + " |")
    print("|---|---|" + "---|" * len(EVENTS))
    for name in args.only.split(","):
        for rt in rts:
            print("| %s | %s | " % (name, rt) +
                  " | ".join("%.3f" % statistics.median(per[(name, rt, e)]) for e in EVENTS) + " |")
    os.unlink(os.path.join(work, "libgomp.so.1"))
    os.rmdir(work)


if __name__ == "__main__":
    main()
