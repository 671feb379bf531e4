#!/usr/bin/env python3
"""pvsched benchmark runner (not a test).

Runs pvsched_bench (a barrier loop timed as total time / barriers) in three
scenarios, with pvomp under GOMP_WAIT_POLICY=pvsched, active, passive and
default beside the system libgomp under default, active and passive (and
LLVM's libomp as libgomp.so.1 under the same three, when libomp-dev is
installed), all in one run, configurations interleaved in a shuffled order every round; prints
the median time per barrier, its ratio to the best configuration of the
scenario, and in scenario (c) the co-runner's throughput.

  (a) 2 threads on 2 CPUs, nothing else running
  (b) 4 threads on 2 CPUs
  (c) 2 threads pinned one per CPU; a SCHED_FIFO phantom injector busy 4 ms of
      every 8 ms on CPU 0; a co-runner counting loop iterations on CPU 1

In (c) the co-runner's share depends on where the bursts fall on the
kernel's tick grid (with HZ=250 the tick period is half the injector period,
and a burst that starts and ends near a tick leaves the scheduler no tick
at which to hand the co-runner the CPU between bursts).  So every round of
(c) runs each configuration at --phases burst offsets spread evenly over the
period, and the co-runner figure is the mean over them (a stratified
sample), with the per-phase ratios printed as well.

Needs root (SCHED_FIFO, and pvomp-phantomd if none is running: a private one
is started).  Usage: run.py --build <build-dir> [--rounds N] [--seconds S]"""

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time

SCENARIOS = [
    ("a", "2 threads on 2 CPUs, nothing else running", ["--threads", "2"]),
    ("b", "4 threads on 2 CPUs", ["--threads", "4"]),
    ("c", "2 threads pinned one per CPU, injector 4 ms/8 ms on CPU 0, co-runner on CPU 1",
     ["--threads", "2", "--pin", "--inject", "0", "--busy-us", "4000", "--period-us", "8000",
      "--corun", "1"]),
]
CONFIGS = [("pvomp", "pvsched"), ("pvomp", "active"), ("pvomp", "passive"), ("pvomp", "default"),
           ("libgomp", "default"), ("libgomp", "active"), ("libgomp", "passive")]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from runners import LIBOMP, cpu_busy, daemon_alive, libomp_dir, log, stop_daemon  # noqa: E402
from runners import start_daemon as start_private_daemon  # noqa: E402
from runners import wait_quiet as wait_quiet_for  # noqa: E402

if os.path.exists(LIBOMP):
    CONFIGS += [("libomp", "default"), ("libomp", "active"), ("libomp", "passive")]


def wait_quiet(limit_s):
    return wait_quiet_for(limit_s, "pvsched bench")


def start_daemon(build):
    sock = os.environ.get("PVOMP_PHANTOMD_SOCKET", "/run/pvomp/phantomd.sock")
    if daemon_alive(sock):
        log("pvsched bench: using the pvomp-phantomd on %s" % sock)
        return sock, None
    sock = "/tmp/pvomp-bench-%d.sock" % os.getpid()
    p = start_private_daemon(build, sock, "pvsched bench")
    log("pvsched bench: started a private pvomp-phantomd on %s" % sock)
    return sock, p


def run_one(exe, build, sock, runtime, policy, args, seconds):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "GOMP_", "KMP_", "LD_", "PVOMP_"))}
    env["PVOMP_PHANTOMD_SOCKET"] = sock
    cmd = [exe, "--seconds", str(seconds)] + args
    if runtime == "pvomp":
        env["LD_LIBRARY_PATH"] = os.path.join(build, "lib")
    elif runtime == "libomp":
        env["LD_LIBRARY_PATH"] = libomp_dir(build)
    policy, _, extra = policy.partition(":")  # "policy:K=V,..." (--also)
    for kv in filter(None, extra.split(",")):
        k, _, v = kv.partition("=")
        env[k] = v
    if policy == "pvsched":
        env["GOMP_WAIT_POLICY"] = "pvsched"
        cmd.append("--expect-pvsched")
    elif policy != "default":
        env["OMP_WAIT_POLICY"] = policy
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds * 20 + 60)
    m = re.search(r"RESULT runtime=(\S+) barriers=(\d+) seconds=(\S+) ns_per_barrier=(\S+) "
                  r"corun_per_s=(\S+)", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("pvsched bench: %s/%s failed (%d): %s%s" % (runtime, policy, r.returncode,
                                                            r.stdout, r.stderr))
    if m.group(1) != runtime:
        sys.exit("pvsched bench: expected %s, %s was loaded" % (runtime, m.group(1)))
    return float(m.group(4)), float(m.group(5))


def fmt_ns(ns):
    return "%.2f us" % (ns / 1000.0) if ns < 1e6 else "%.2f ms" % (ns / 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--scenarios", default="a,b,c")
    ap.add_argument("--phases", type=int, default=8,
                    help="(c): burst offsets per round, evenly spread over the 8 ms period")
    ap.add_argument("--quiet-wait", type=int, default=0,
                    help="before each round wait up to this many seconds for idle CPUs")
    ap.add_argument("--also", action="append", default=[], metavar="POLICY:K=V,...",
                    help="one more pvomp configuration: a policy with extra environment "
                         "(e.g. pvsched:PVOMP_PVSCHED_SLICE_US=0)")
    ap.add_argument("--only-runtimes", default="",
                    help="comma-separated runtimes to run (default: all)")
    args = ap.parse_args()
    for a in args.also:
        CONFIGS.append(("pvomp", a))
    if args.only_runtimes:
        CONFIGS[:] = [c for c in CONFIGS if c[0] in args.only_runtimes.split(",")]
    build = os.path.abspath(args.build)
    exe = os.path.join(build, "bench", "pvsched_bench")
    if not os.access(exe, os.X_OK):
        sys.exit("pvsched bench: %s not built" % exe)
    if os.geteuid() != 0:
        sys.exit("pvsched bench: needs root (SCHED_FIFO injector, pvomp-phantomd)")
    sock, daemon = start_daemon(build)
    rng = random.Random(1)
    results = {}
    by_phase = {}  # (phase index, runtime, policy) -> co-runner throughputs
    by_round = {}  # (scenario, round, runtime, policy) -> times per barrier
    try:
        for sc, title, sargs in SCENARIOS:
            if sc not in args.scenarios.split(","):
                continue
            for rnd in range(args.rounds):
                busy = wait_quiet(args.quiet_wait) if args.quiet_wait else cpu_busy(0.2)
                log("pvsched bench: scenario (%s) round %d/%d (CPUs %.0f%% busy before)" %
                    (sc, rnd + 1, args.rounds, busy * 100))
                order = CONFIGS[:]
                rng.shuffle(order)
                phases = range(args.phases) if sc == "c" else [None]
                for k in phases:
                    extra = [] if k is None else ["--phase-us", str(k * 8000 // args.phases)]
                    for rt, pol in order:
                        t, co = run_one(exe, build, sock, rt, pol, sargs + extra, args.seconds)
                        results.setdefault((sc, rt, pol), []).append((t, co))
                        by_round.setdefault((sc, rnd, rt, pol), []).append(t)
                        if k is not None:
                            by_phase.setdefault((k, rt, pol), []).append(co)
    finally:
        if daemon:
            stop_daemon(daemon)
    report(results, by_phase, by_round, args)


def round_ratios(by_round, sc, rounds):
    """pvsched's time per barrier over the best shipped configuration's, each
    round on its own (the configurations of a round ran close together, so
    a change of the VM's speed between rounds cancels out)."""
    out = []
    for rnd in range(rounds):
        med = {c: statistics.median(by_round[(sc, rnd) + c]) for c in CONFIGS}
        best = min(t for (rt, pol), t in med.items() if ":" not in pol)
        out.append(med[("pvomp", "pvsched")] / best)
    return out


def report(results, by_phase, by_round, args):
    verdicts = []
    for sc, title, _ in SCENARIOS:
        if sc not in args.scenarios.split(","):
            continue
        med = {}
        for rt, pol in CONFIGS:
            s = results[(sc, rt, pol)]
            med[(rt, pol)] = (statistics.median(t for t, _ in s), statistics.mean(c for _, c in s))
        # The best of the shipped configurations (--also ones are shown only).
        best = min(t for (rt, pol), (t, _) in med.items() if ":" not in pol)
        runs = args.rounds * (args.phases if sc == "c" else 1)
        print("\nScenario (%s): %s   [median of %d runs of %g s%s]" %
              (sc, title, runs, args.seconds,
               "; co-runner: mean over %d burst phases" % args.phases if sc == "c" else ""))
        print("  %-8s %-8s %14s %8s" % ("runtime", "policy", "time/barrier", "x best") +
              ("   %14s" % "co-runner" if sc == "c" else ""))
        for rt, pol in CONFIGS:
            t, co = med[(rt, pol)]
            line = "  %-8s %-8s %14s %8.2f" % (rt, pol, fmt_ns(t), t / best)
            if ":" in pol:
                line = "  %-8s %s (--also, not in the best)\n  %17s %14s %8.2f" % (
                    rt, pol, "", fmt_ns(t), t / best)
            if sc == "c":
                line += "   %9.1f M it/s" % (co / 1e6)
            print(line)
        if sc == "c":
            print("  co-runner, pvsched / pvomp default, per burst phase:")
            for k in range(args.phases):
                a = statistics.mean(by_phase[(k, "pvomp", "pvsched")])
                b = statistics.mean(by_phase[(k, "pvomp", "default")])
                print("    burst at +%4d us: %.2f x" % (k * 8000 // args.phases, a / b))
        rr = round_ratios(by_round, sc, args.rounds)
        print("  pvsched / best, round by round: %s (median %.2f)" %
              (", ".join("%.2f" % r for r in rr), statistics.median(rr)))
        pv = med[("pvomp", "pvsched")][0]
        ok = pv <= 1.1 * best
        verdicts.append("(%s) pvsched time/barrier %.2f x the best: %s" %
                        (sc, pv / best, "met (goal <= 1.1)" if ok else "MISSED (goal <= 1.1)"))
        if sc == "c":
            co = med[("pvomp", "pvsched")][1]
            for rt in sorted({rt for rt, _ in CONFIGS}, key=["pvomp", "libgomp", "libomp"].index):
                for pol in ("default", "active"):
                    ref = med[(rt, pol)][1]
                    r = co / ref if ref else float("inf")
                    if rt == "libomp":
                        # libomp's waiters yield: its co-runner already gets
                        # most of the CPU, 1.3x of it would exceed the CPU.
                        verdicts.append("(c) co-runner under pvsched vs %s %s: %.2f x "
                                        "(for information: the goal names pvomp's and "
                                        "libgomp's)" % (rt, pol, r))
                        continue
                    verdicts.append("(c) co-runner under pvsched vs %s %s: %.2f x: %s" %
                                    (rt, pol, r, "met (goal >= 1.3)" if r >= 1.3
                                     else "MISSED (goal >= 1.3)"))
    print("\nGoals:")
    for v in verdicts:
        print("  " + v)


if __name__ == "__main__":
    main()
