#!/usr/bin/env python3
"""Contention benchmark with real programs (not a test).

Runs Debian's cp2k, GROMACS, xgboost, numpy (OpenBLAS's OpenMP variant),
GraphicsMagick and our own EPCC-style and MPI+OpenMP kernels under each
scenario on the system libgomp, on LLVM's libomp 14 as libgomp.so.1, on
pvomp with no variable and no daemon ("pvomp default"), on pvomp with
pvomp-phantomd running and no variable ("pvomp+tracker") and on pvomp with
the daemon and GOMP_WAIT_POLICY=pvsched ("pvomp pvsched").  Runtimes are
interleaved (a shuffled order for every program of every round); a cell is
the median over the rounds; each pvomp configuration is given as its ratio
to the better of libgomp and libomp; in the co-runner scenarios the
co-runners' loop iterations per second are given per runtime.

Every run proves which libgomp.so.1 its processes loaded (LD_DEBUG=libs to
a file: the dynamic loader's own record; the run fails otherwise).

Needs root for the injector (SCHED_FIFO) and for pvomp-phantomd.
Usage: run.py --build DIR [--rounds N] [--programs a,b] [--scenarios x,y]
              [--also NAME:K=V,...] [--lib-dir NAME=DIR] [--drop NAME,...] [--check-only]"""

import argparse
import glob
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import programs  # noqa: E402
from runners import (DEFAULT_SOCKET, cpu_busy, daemon_alive, libomp_dir, log,  # noqa: E402
                     start_daemon, stop_daemon, wait_quiet)

WHO = "contention bench"
SYSTEM_LIBGOMP = "/usr/lib/x86_64-linux-gnu/libgomp.so.1"

# name: (threads per process, co-runners, injector, MPI ranks, description)
SCENARIOS = {
    "quiet": (2, [], False, 0, "2 threads, nothing else running"),
    "corun1": (2, ["1"], False, 0, "2 threads; one busy co-runner pinned to CPU 1 (taskset -c 1)"),
    "corun2": (2, [None, None], False, 0, "2 threads; two busy co-runners, unpinned"),
    "over": (4, [], False, 0, "4 threads on 2 CPUs (OMP_NUM_THREADS=4)"),
    "mpi": (2, [], False, 2, "2 MPI ranks x 2 threads under mpirun --bind-to none "
            "(MPI programs only)"),
    "inject": (2, [], True, 0, "2 threads; a SCHED_FIFO injector busy 4 ms of every 8 ms "
               "pinned to CPU 0"),
}


class Config:
    """A runtime configuration: where libgomp.so.1 comes from, extra
    environment, whether pvomp-phantomd runs, whether it counts in the best
    (libgomp and libomp) or is shown only (--also)."""

    def __init__(self, name, runtime, libdir, env=None, daemon=False, extra=False):
        self.name, self.runtime, self.libdir = name, runtime, libdir
        self.env, self.daemon, self.extra = env or {}, daemon, extra


def configs(build, args):
    lib = os.path.join(build, "lib")
    out = [Config("libgomp", "libgomp", None),
           Config("libomp", "libomp", libomp_dir(build)),
           Config("pvomp default", "pvomp", lib),
           Config("pvomp+tracker", "pvomp", lib, daemon=True),
           Config("pvomp pvsched", "pvomp", lib, {"GOMP_WAIT_POLICY": "pvsched"}, daemon=True)]
    for spec in args.also:
        name, _, kvs = spec.partition(":")
        env, libdir, daemon = {}, lib, False
        for kv in filter(None, kvs.split(",")):
            k, _, v = kv.partition("=")
            if k == "lib":
                libdir = os.path.abspath(v)
            elif k == "daemon":
                daemon = v not in ("", "0")
            else:
                env[k] = v
        out.append(Config(name, "pvomp", libdir, env, daemon, extra=True))
    for spec in args.lib_dir:
        name, _, d = spec.partition("=")
        out.append(Config(name, "pvomp", os.path.abspath(d), extra=True))
    return out


class Daemon:
    """pvomp-phantomd on the default socket while a configuration wants it,
    and none otherwise (started and stopped between runs as needed)."""

    def __init__(self, build):
        self.build, self.proc = build, None
        self.foreign = daemon_alive(DEFAULT_SOCKET)
        if self.foreign:
            log("%s: a pvomp-phantomd not ours is running on %s: the configurations "
                "without the daemon get PVOMP_PHANTOMD_SOCKET=/nonexistent instead" %
                (WHO, DEFAULT_SOCKET))

    def want(self, on):
        if self.foreign:
            return
        if on and not self.proc:
            self.proc = start_daemon(self.build, DEFAULT_SOCKET, WHO)
        elif not on and self.proc:
            stop_daemon(self.proc)
            self.proc = None

    def env(self, on):
        return {"PVOMP_PHANTOMD_SOCKET": "/nonexistent"} if self.foreign and not on else {}


def install(names):
    need = sorted({p for n in names for p in programs.PACKAGES[n]})
    missing = [p for p in need if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True
    ).stdout != "install ok installed"]
    if missing:
        log("%s: apt-get install %s" % (WHO, " ".join(missing)))
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends"] + missing,
                       check=True, stdout=subprocess.DEVNULL)


def loaded_libgomp(ld_dir):
    """The libgomp.so.1 files the processes of one run initialised."""
    found = set()
    for f in glob.glob(os.path.join(ld_dir, "ld.*")):
        with open(f, errors="replace") as fh:
            for line in fh:
                m = re.search(r"calling init: (\S*libgomp\.so\.1\S*)", line)
                if m:
                    found.add(m.group(1))
    return found


def check_loaded(cfg, found):
    if not found:
        return "no process loaded libgomp.so.1"
    want = SYSTEM_LIBGOMP if cfg.libdir is None else os.path.join(cfg.libdir, "libgomp.so.1")
    bad = [f for f in found if os.path.realpath(f) != os.path.realpath(want)]
    return "loaded %s, expected %s" % (", ".join(sorted(bad)), want) if bad else None


def base_env():
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("OMP_", "GOMP_", "KMP_", "LD_", "PVOMP_"))}


def run_one(prog, cfg, scenario, build, daemon, tools):
    threads, coruns, inject, ranks, _ = SCENARIOS[scenario]
    daemon.want(cfg.daemon)
    env = base_env()
    env.update(daemon.env(cfg.daemon))
    env.update(cfg.env)
    env["OMP_NUM_THREADS"] = str(threads)
    libs = ([cfg.libdir] if cfg.libdir else []) + prog.extra_libs()
    if libs:
        env["LD_LIBRARY_PATH"] = ":".join(libs)
    if prog.preload:
        env["LD_PRELOAD"] = prog.preload
    ld_dir = tempfile.mkdtemp(prefix="ctb-ld-")
    env["LD_DEBUG"] = "libs"
    env["LD_DEBUG_OUTPUT"] = os.path.join(ld_dir, "ld")
    cmd = prog.command(threads)
    if ranks:
        fwd = [a for k in env if k.startswith(("OMP_", "GOMP_", "LD_", "PVOMP_"))
               for a in ("-x", k)]
        cmd = (["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "-np", str(ranks)] + fwd + cmd)
    loads = []
    quiet_env = base_env()
    if inject:
        loads.append(subprocess.Popen([tools["load"], "inject", "0", "4000", "8000"],
                                      env=quiet_env))
    for cpu in coruns:
        pin = ["taskset", "-c", cpu] if cpu else []
        loads.append(subprocess.Popen(pin + [tools["load"], "count"], env=quiet_env,
                                      stdout=subprocess.PIPE, text=True))
    # the program's CPU time: its processes are the only children reaped in
    # this window (the loads are reaped below, the daemon before t0)
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=prog.work, timeout=900)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    corun = 0.0
    for p in loads:
        if p.poll() is not None:  # a load that stopped early (no SCHED_FIFO?)
            sys.exit("%s: %s exited early (%d): the scenario %s did not hold" %
                     (WHO, " ".join(p.args), p.returncode, scenario))
        p.terminate()
        out, _ = p.communicate()
        m = re.search(r"COUNT (\d+) (\S+)", out or "")
        if m:
            corun += int(m.group(1)) / float(m.group(2))
    found = loaded_libgomp(ld_dir)
    shutil.rmtree(ld_dir, ignore_errors=True)
    out = r.stdout + r.stderr
    try:
        secs = prog.seconds(out, wall) if r.returncode == 0 else None
    except RuntimeError as e:
        sys.exit("%s: %s on %s: %s" % (WHO, prog.name, cfg.name, e))
    if secs is None:
        sys.exit("%s: %s on %s (%s) failed (exit %d):\n%s" %
                 (WHO, prog.name, cfg.name, scenario, r.returncode, out[-3000:]))
    bad = check_loaded(cfg, found)
    if bad:
        sys.exit("%s: %s on %s: %s" % (WHO, prog.name, cfg.name, bad))
    return secs, corun, cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--programs", default=",".join(programs.NAMES))
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--also", action="append", default=[], metavar="NAME:K=V,...",
                    help="one more pvomp configuration, shown but not in the best: extra "
                         "environment; lib=DIR takes libgomp.so.1 from DIR, daemon=1 runs "
                         "pvomp-phantomd")
    ap.add_argument("--lib-dir", action="append", default=[], metavar="NAME=DIR",
                    help="one more pvomp configuration with libgomp.so.1 from DIR")
    ap.add_argument("--drop", default="", metavar="NAME,...",
                    help="leave these configurations out (e.g. 'pvomp+tracker,pvomp pvsched' "
                         "while comparing --also variants)")
    ap.add_argument("--quiet-wait", type=int, default=0,
                    help="before each round wait up to this many seconds for idle CPUs")
    ap.add_argument("--check-only", action="store_true",
                    help="one run of each program on each runtime (quiet, and the MPI "
                         "scenario for MPI programs): prove what each loads")
    ap.add_argument("--no-install", action="store_true")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    names = [n for n in args.programs.split(",") if n]
    scenarios = ["quiet", "mpi"] if args.check_only else \
        [s for s in args.scenarios.split(",") if s]
    for n in names:
        if n not in programs.NAMES:
            sys.exit("%s: unknown program %s (known: %s)" % (WHO, n, ", ".join(programs.NAMES)))
    for s in scenarios:
        if s not in SCENARIOS:
            sys.exit("%s: unknown scenario %s (known: %s)" % (WHO, s, ", ".join(SCENARIOS)))
    if os.geteuid() != 0:
        sys.exit("%s: needs root (SCHED_FIFO injector, pvomp-phantomd)" % WHO)
    if not args.no_install:
        install(names)
    work = os.path.join(build, "bench", "contention")
    os.makedirs(work, exist_ok=True)
    tools = {"load": os.path.join(work, "load")}
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", tools["load"],
                    os.path.join(HERE, "load.c")], check=True)
    progs = [p(work) for p in programs.ALL if p.name in names]
    for p in progs:
        p.prepare()
    dropped = set(filter(None, args.drop.split(",")))
    cfgs = [c for c in configs(build, args) if c.name not in dropped]
    daemon = Daemon(build)
    rounds = 1 if args.check_only else args.rounds
    rng = random.Random(1)
    results = {}  # (scenario, program, config) -> [(seconds, corun)]

    def on_term(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    try:
        for rnd in range(rounds):
            busy = wait_quiet(args.quiet_wait, WHO) if args.quiet_wait else cpu_busy(0.5)
            log("%s: round %d/%d (CPUs %.0f%% busy before)" % (WHO, rnd + 1, rounds, busy * 100))
            for sc in scenarios:
                for p in progs:
                    if (SCENARIOS[sc][3] > 0 and not p.mpi) or \
                            (SCENARIOS[sc][3] == 0 and p.mpi_only):
                        continue
                    order = cfgs[:]
                    rng.shuffle(order)
                    for c in order:
                        r = run_one(p, c, sc, build, daemon, tools)
                        log("  %-7s %-13s %-16s %8.3f s  co-runners %6.0f M it/s"
                            "  CPU %6.2f s in %6.2f s" %
                            (sc, p.name, c.name, r[0], r[1] / 1e6, r[2], r[3]))
                        results.setdefault((sc, p.name, c.name), []).append(r)
    except KeyboardInterrupt:
        log("%s: interrupted; the table holds the cells measured on every configuration" % WHO)
    finally:
        daemon.want(False)
    if args.check_only:
        print("%s: every program loaded the runtime of each configuration (%s)" %
              (WHO, ", ".join(c.name for c in cfgs)))
        return
    report(results, scenarios, progs, cfgs, rounds)


def print_table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def report(results, scenarios, progs, cfgs, rounds):
    pv = [c for c in cfgs if c.runtime == "pvomp"]
    print("\nMedian of %d interleaved runs per cell; x: time over the better of libgomp and "
          "libomp (--also configurations are shown, not counted in the best)." % rounds)
    for sc in scenarios:
        print("\n%s: %s" % (sc, SCENARIOS[sc][4]))
    print()
    names = [c.name for c in cfgs]
    rows, co_rows, cpu_rows = [], [], []
    for sc in scenarios:
        for p in progs:
            if any((sc, p.name, c.name) not in results for c in cfgs):
                continue
            cell = {c.name: results[(sc, p.name, c.name)] for c in cfgs}

            def med(name, k):
                return statistics.median(r[k] for r in cell[name])
            best = min(med(c.name, 0) for c in cfgs if c.runtime != "pvomp")
            rows.append(["%s (%s)" % (p.name, p.measure), sc] +
                        ["%.2f s" % med(n, 0) for n in names] +
                        ["%.2f" % (med(c.name, 0) / best) for c in pv])
            cpu_rows.append([p.name, sc] + ["%.2f / %.2f" % (med(n, 2), med(n, 3)) for n in names])
            if SCENARIOS[sc][1]:
                co_rows.append([p.name, sc] + ["%.0f" % (med(n, 1) / 1e6) for n in names])
    print_table(["program", "scenario"] + names + ["%s x" % c.name for c in pv], rows)
    if co_rows:
        print("\nCo-runners' throughput (M loop iterations/s, all co-runners together, median):\n")
        print_table(["program", "scenario"] + names, co_rows)
    print("\nThe programs' CPU time / wall time of the whole command (s, user + system of "
          "every process, medians):\n")
    print_table(["program", "scenario"] + names, cpu_rows)


if __name__ == "__main__":
    main()
