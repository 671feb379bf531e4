#!/usr/bin/env bash
# Instructions per construct instance, counted by callgrind (deterministic:
# the machine's load does not change them), for every construct of
# bench/syncbench and bench/taskbench on
#   with   pvomp with its OMPT event sites (the normal build), no tool attached
#   off    pvomp built without them (cmake -DPVOMP_OMPT=OFF, in BUILD_DIR-noompt)
#   gomp   the system's libgomp, for reference
# One thread.  Each suite runs with --reps N and --reps 2N (--fib F and F+2
# for FIB30); callgrind collects only inside bench_measured() and dumps a
# count per construct there, so the difference of the two runs divided by N
# is one instance, start-up and first-use costs removed.
#
# Usage: bench/ompt/instructions.sh [--check] [--only A,B] [BUILD_DIR] [N]
#   (default BUILD_DIR build, N 200).  --check (a test: scripts/test.sh,
#   part ompt-cost; libgomp left out): exit 1 when a construct costs more
#   instructions with the sites than its budget below allows -- the tool
#   tests left on its path, 2 instructions each (cmpb + jne) -- or, for a
#   construct without a budget, more than 1 % more.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
check= only=
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=1; shift ;;
    --only) only=$2; shift 2 ;;
    *) break ;;
  esac
done
build=$(cd "${1:-$src/build}" && pwd)
n=${2:-200}
fib=10
off=$build-noompt
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
[ -e "$build/lib/libgomp.so.1" ] && [ -x "$build/bench/syncbench" ] && [ -x "$build/bench/taskbench" ] ||
  { echo "instructions.sh: build pvomp and the benchmarks first (cmake --build $build)" >&2; exit 1; }
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
echo "== pvomp without OMPT sites in $off" >&2
cmake -S "$src" -B "$off" -DPVOMP_OMPT=OFF -DPVOMP_TESTS=OFF -DCMAKE_BUILD_TYPE="${type:-RelWithDebInfo}" >/dev/null
cmake --build "$off" --target pvomp -j2 >/dev/null
gomp=/usr/lib/x86_64-linux-gnu/libgomp.so.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run LIBDIR SUITE TAG ARGS...: one callgrind run; writes $work/TAG.counts,
# one "construct instructions" line per construct, in the suite's order.
run() {
  local lib=$1 suite=$2 tag=$3; shift 3
  local out=$work/$tag
  mkdir -p "$out"
  LD_LIBRARY_PATH=$lib OMP_NUM_THREADS=1 OMP_PROC_BIND= OMP_WAIT_POLICY= \
    valgrind --tool=callgrind --toggle-collect=bench_measured --dump-after=bench_measured \
      --callgrind-out-file="$out/cg" "$build/bench/$suite" --outer 1 --delay-iters 0 \
      ${only:+--only "$only"} "$@" >"$out/stdout" 2>"$out/stderr" ||
    { echo "instructions.sh: $suite on $lib failed:" >&2; tail -5 "$out/stderr" >&2; exit 1; }
  # The runtime that really ran (benchlib prints where omp_get_thread_num came from).
  local rt; rt=$(sed -n 's/^I runtime //p' "$out/stdout")
  case $lib in
    "") [ "$(readlink -f "$rt")" = "$(readlink -f $gomp)" ] ;;
    *) [ "$(readlink -f "$rt")" = "$(readlink -f "$lib/libgomp.so.1")" ] ;;
  esac || { echo "instructions.sh: $suite ran on $rt, not on ${lib:-$gomp}" >&2; exit 1; }
  local names=() i=1
  mapfile -t names < <(sed -n 's/^X \([^ ]*\) .*/\1/p' "$out/stdout")
  : >"$work/$tag.counts"
  for name in "${names[@]}"; do
    echo "$name $(sed -n 's/^totals: *//p' "$out/cg.$i")" >>"$work/$tag.counts"
    i=$((i + 1))
  done
}

runtimes="with off"
[ -n "$check" ] || runtimes="with off gomp"
for rtm in $runtimes; do
  case $rtm in with) lib=$build/lib ;; off) lib=$off/lib ;; gomp) lib= ;; esac
  [ "$rtm" = gomp ] && [ ! -e $gomp ] && { echo "instructions.sh: no $gomp, libgomp column left out" >&2; continue; }
  for suite in syncbench taskbench; do
    run "$lib" $suite $rtm-$suite-1 --reps "$n" --fib $fib
    run "$lib" $suite $rtm-$suite-2 --reps $((2 * n)) --fib $((fib + 2))
  done
done

# Per instance: (count(2N) - count(N)) / N; FIB30: per task, fib(k) creating
# 2 fib(k+1) - 2 tasks (F(11) = 89, F(13) = 233).
python3 - "$work" "$n" "$check" "$runtimes" <<'EOF'
import sys
work, n, check, runtimes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
def counts(tag):
    d = {}
    for suite in ("syncbench", "taskbench"):
        for k in (1, 2):
            for line in open("%s/%s-%s-%d.counts" % (work, tag, suite, k)):
                name, c = line.split()
                d.setdefault(name, [0, 0])[k - 1] = int(c)
    return d
per = {}
for rt in runtimes:
    for name, (a, b) in counts(rt).items():
        instances = (2 * 233 - 2) - (2 * 89 - 2) if name == "FIB30" else n
        per.setdefault(name, {})[rt] = (b - a) / instances
hdr = "| construct | with OMPT sites | without | with/without |" + (" libgomp |" if "gomp" in runtimes else "")
print(hdr)
print("|---|---|---|---|" + ("---|" if "gomp" in runtimes else ""))
worst = None
for name, v in per.items():
    ratio = v["with"] / v["off"] if v["off"] > 0 else float("nan")
    if v["off"] > 0 and (worst is None or ratio > worst[1]):
        worst = (name, ratio)
    row = "| %s | %.1f | %.1f | %.3f |" % (name + (" (per task)" if name == "FIB30" else ""),
                                            v["with"], v["off"], ratio)
    if "gomp" in v:
        row += " %.1f |" % v["gomp"]
    print(row)
print("(instructions per instance, 1 thread, N = %d; worst ratio %.3f, %s)" % (n, worst[1], worst[0]))
# Instructions a construct may cost more with the sites than without (a
# ratchet: each budget is what the construct costs now; lower it when a
# site gets cheaper).  A site that shares its one flag test with a trace
# point (an attached tool sets a bit of its own in that flag,
# src/ompt/observe.c) costs nothing; each remaining `if (pv_ompt_tool())`
# is a cmpb and a not-taken jne.  A site that costs more (a value computed
# ahead of the test, a register saved or a frame set up for the tool's
# branch) shows here.
budget = {
    "BARRIER": 0,        # GOMP_barrier: the barrier_enter flag
    "SINGLE": 0,         # GOMP_single_start: the single flag; its barrier
    "CRITICAL": 0,       # GOMP_critical_start, _end: the critical group's flags
    "LOCK": 0,           # omp_set_lock, omp_unset_lock: the lock group's flags
    "ATOMIC_ld": 0,      # GOMP_atomic_start, _end: the critical group's flags
    # GOMP_ordered_start: its loop's test (an ordered loop begun with a tool
    # has ordered_start_work); GOMP_ordered_end, a lone ret patched into a
    # jump at a tool's start (PV_OMPT_PATCHED, src/ompt/patch.h): nothing
    "ORDERED": 0,
    # loop start (the work begin: no trace test on every thread's path); the
    # chunk shares loop_chunk's flag, the loop end the barrier's
    "FOR_dynamic": 2,
    # GOMP_parallel's one test: the requested team size, the entry's address
    # and frame and the primary's exit frame behind it (parallel begin with
    # the primary's implicit task begin, parallel end and the join share
    # trace flags)
    "PARALLEL": 2,
    "PARALLEL_FOR": 1,   # GOMP_parallel; omp_get_num_threads in a team: none
    "REDUCTION": 2,      # GOMP_parallel
    # task create, body run and end share task_create's, task_begin's and
    # task_end's flags (GOMP_task's entry address and frame in the first)
    "PARALLEL_TASK": 0,
    # one thread: a one-thread team runs the task at once, undeferred (as
    # libomp): the task as above; GOMP_taskwait's jump through the
    # switched pointer (PV_OMPT_SWITCHED)
    "TASKWAIT": 1,
    "NESTED_TASK": 1,    # two tasks and a taskwait: taskwait's jump
    "FIB30": 0.5,        # per task: half a taskwait's jump
    # each dependence edge's pv_ompt_tool() test (add_edge, task_depend.c)
    # and the registers its loop keeps for the call: 4.3 today
    "DEP_CHAIN": 4.5,
}
if check:
    bad = []
    for name, v in per.items():
        extra = v["with"] - v["off"]
        limit = budget.get(name, v["off"] * 0.01)
        verdict = "ok" if extra <= limit + 1e-9 else "OVER"
        print("%-20s %+7.1f instructions (budget %.1f) %s" % (name, extra, limit, verdict))
        if verdict != "ok":
            bad.append(name)
    if bad:
        print("FAIL: OMPT sites cost more than their budget without a tool: %s" % ", ".join(bad))
        sys.exit(1)
    print("PASS: every construct within its budget of the build without OMPT sites")
EOF
