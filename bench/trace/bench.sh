#!/usr/bin/env bash
# Flight log benchmark (not a test): cost of a trace point, enabled and
# disabled, at 1 and 2 threads, for pvomp (runtime event and a program's own
# event) beside LTTng-UST with an equivalent tracepoint, in the same run; then
# the reader's speed.  Medians of REPEAT runs.  See docs/trace.md.
#
# Usage: bench/trace/bench.sh [BUILD_DIR]      (default: build; pvomp must be built)
# Env:   REPEAT (5)  runs per figure (median)
#        N (10000), ROUNDS (200), GAP_US (2000): each run times ROUNDS bursts of
#        N events per thread, GAP_US apart (the tracer drains in between, as
#        between a program's bursts); a run reports the median burst
#        LOGDIR (/tmp) where the logs go
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
out=$build/bench-trace
logdir=${LOGDIR:-/tmp}/pvomp-bench-trace.$$
REPEAT=${REPEAT:-5}
N=${N:-10000}
ROUNDS=${ROUNDS:-200}
GAP_US=${GAP_US:-2000}
mkdir -p "$out" "$logdir"
trap 'rm -rf "$logdir"' EXIT

[ -e "$build/lib/libgomp.so.1" ] && [ -e "$build/gen/trace/events.h" ] && [ -x "$build/bin/pvomp-trace" ] ||
  { echo "build pvomp first (cmake --build $build)" >&2; exit 1; }

echo "== building the benchmark"
python3 "$src/src/trace/tracegen.py" --group bench "$here/bench-events" "$out/bench-trace.h" "$out/bench-trace.c"
CFLAGS="-O2 -g -std=gnu11 -Wall -Wextra"
# The trace sources on their own, without the runtime (the trace module
# needs only src/base, whose headers it includes).
trace_src=$(ls "$src"/src/trace/*.c)
gcc $CFLAGS -DBENCH_IMPL=1 -D_GNU_SOURCE -I"$src/src" -I"$src/include" -I"$build/gen" \
  "$here/bench_trace.c" $trace_src "$build/gen/trace/events.c" -lpthread -o "$out/bench_trace-1"
gcc $CFLAGS -DBENCH_IMPL=2 -I"$out" -I"$src/include" "$here/bench_trace.c" "$out/bench-trace.c" \
  -lpthread -Wl,--no-as-needed -L"$build/lib" -lgomp -o "$out/bench_trace-2"
have_lttng=0
if gcc $CFLAGS -DBENCH_IMPL=3 -I"$here" "$here/bench_trace.c" "$here/bench_tp.c" \
     -llttng-ust -ldl -lpthread -o "$out/bench_trace-3" 2>"$out/lttng-build.log"; then
  have_lttng=1
else
  echo "(LTTng-UST not available: see $out/lttng-build.log)"
fi

# median of the ns_per_event_per_thread / throughput fields over REPEAT runs
run() { # run VAR=VAL... -- cmd...
  local envs=() k
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  for ((k = 0; k < REPEAT; k++)); do
    env "${envs[@]}" "$@" | sed -n 's/.*ns_per_event_per_thread=\([0-9.]*\) throughput_Mevents_per_s=\([0-9.]*\)/\1 \2/p'
  done | sort -n | awk '{a[NR]=$1; b[NR]=$2} END {m=int((NR+1)/2); printf "%8.2f ns %8.1f Mev/s   (runs: %.2f .. %.2f ns)", a[m], b[m], a[1], a[NR]}'
}

declare -A R
row() { # row LABEL THREADS VAR=VAL... -- cmd...
  local label=$1 t=$2
  shift 2
  R[$label,$t]=$(run "$@")
  printf "  %-44s %d thread(s): %s\n" "$label" "$t" "${R[$label,$t]}"
}

lttng_start() {
  pgrep -x lttng-sessiond >/dev/null || lttng-sessiond --daemonize >/dev/null 2>&1 || return 1
  lttng destroy pvbench >/dev/null 2>&1 || true
  lttng create pvbench --output="$logdir/lttng" >/dev/null &&
    lttng enable-channel -u chan --subbuf-size="$1" --num-subbuf=4 >/dev/null &&
    lttng enable-event -u -c chan pvbench:seq >/dev/null &&
    lttng start >/dev/null
}
lttng_stop() {
  lttng stop 2>&1 | grep -i -E 'discard|lost' | sed 's/^/    lttng: /' || true
  lttng destroy pvbench >/dev/null 2>&1 || true
  rm -rf "$logdir/lttng"
}

B1="$out/bench_trace-1"
B2="$out/bench_trace-2"
B3="$out/bench_trace-3"
LD="LD_LIBRARY_PATH=$build/lib"
log="$logdir/b.pvtrace"
A="$N $ROUNDS $GAP_US"

echo
echo "== trace point cost: $ROUNDS bursts of $N events per thread, $GAP_US us apart;"
echo "   median of $REPEAT runs (default buffers: pvomp 4 MiB per thread, LTTng 4 x 1 MiB per CPU)"
for t in 1 2; do
  row "empty loop (baseline)" $t X=1 -- "$B1" baseline $t $A
  row "pvomp runtime event, disabled" $t X=1 -- "$B1" trace $t $A
  row "pvomp runtime event, enabled (tsc)" $t PVOMP_TRACE="$log" -- "$B1" trace $t $A
  row "pvomp runtime event, enabled (monotonic)" $t PVOMP_TRACE="$log" PVOMP_TRACE_CLOCK=monotonic -- "$B1" trace $t $A
  row "pvomp program event, disabled" $t $LD -- "$B2" trace $t $A
  row "pvomp program event, enabled (tsc)" $t $LD PVOMP_TRACE="$log" -- "$B2" trace $t $A
  if [ $have_lttng = 1 ]; then
    lttng destroy pvbench >/dev/null 2>&1 || true
    row "lttng-ust tracepoint, disabled" $t X=1 -- "$B3" trace $t $A
    if lttng_start 1M; then
      row "lttng-ust tracepoint, enabled" $t X=1 -- "$B3" trace $t $A
      lttng_stop
    else
      echo "  (no LTTng session daemon: enabled LTTng not measured)"
    fi
  fi
done

echo
echo "== ratios"
f() { echo "${R[$1,$2]}" | awk '{print $1}'; }
g() { echo "${R[$1,$2]}" | awk '{print $3}'; }
for t in 1 2; do
  base=$(f "empty loop (baseline)" $t)
  printf "  %d thread(s): pvomp disabled %.2f ns over the empty loop; pvomp enabled %.2f ns/event/thread" \
    $t "$(echo "$(f "pvomp runtime event, disabled" $t) - $base" | bc -l)" "$(f "pvomp runtime event, enabled (tsc)" $t)"
  if [ $have_lttng = 1 ] && [ -n "${R["lttng-ust tracepoint, enabled",$t]:-}" ]; then
    printf "; lttng-ust enabled / pvomp enabled = %.2fx" \
      "$(echo "$(f "lttng-ust tracepoint, enabled" $t) / $(f "pvomp runtime event, enabled (tsc)" $t)" | bc -l)"
  fi
  echo
done
printf "  2-thread / 1-thread throughput, pvomp enabled: %.2fx" \
  "$(echo "$(g "pvomp runtime event, enabled (tsc)" 2) / $(g "pvomp runtime event, enabled (tsc)" 1)" | bc -l)"
if [ $have_lttng = 1 ] && [ -n "${R["lttng-ust tracepoint, enabled",2]:-}" ]; then
  printf "; lttng-ust: %.2fx" \
    "$(echo "$(g "lttng-ust tracepoint, enabled" 2) / $(g "lttng-ust tracepoint, enabled" 1)" | bc -l)"
fi
echo

echo
echo "== overload: one burst of 20000000 events per thread, no gaps (beyond what the"
echo "   writer can put in a file; it drains what it can, the rest is dropped and counted)"
for t in 1 2; do
  PVOMP_TRACE="$log" "$B1" trace $t 20000000 | sed 's/^/  /'
  "$build/bin/pvomp-trace" stats "$log" | grep -E '^records' | sed 's/^/    log: /'
done

echo
echo "== reader: pvomp-trace on a 2-thread log of 12 M records, output to /dev/null"
PVOMP_TRACE="$log" PVOMP_TRACE_BUFSIZE=512M "$B1" trace 2 6000000 >/dev/null
recs=$("$build/bin/pvomp-trace" stats "$log" | sed -n 's/^records: *\([0-9]*\).*/\1/p')
# Wall time on a shared machine depends on the load; CPU time (user + sys) does not.
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for cmd in "dump" "dump --simpletrace" "stats"; do
  best=
  for ((k = 0; k < 3; k++)); do
    t=$( { /usr/bin/time -f "%e %U %S" "$build/bin/pvomp-trace" $cmd "$log" >/dev/null; } 2>&1 | tail -1)
    if [ -z "$best" ] || [ "$(echo "${t%% *} < ${best%% *}" | bc -l)" = 1 ]; then best=$t; fi
  done
  set -- $best
  printf "  pvomp-trace %-18s %d records (%d MB): wall %.3f s = %.1f M records/s; cpu %.3f s = %.1f M records/s\n" \
    "$cmd" "$recs" $(( $(stat -c %s "$log") / 1000000 )) "$1" "$(echo "$recs / $1 / 1000000" | bc -l)" \
    "$(echo "$2 + $3" | bc -l)" "$(echo "$recs / ($2 + $3 + 0.0005) / 1000000" | bc -l)"
done
if [ -e "$src/tests/trace/third_party/qemu/simpletrace.py" ]; then
  small="$logdir/small.pvtrace"
  PVOMP_TRACE="$small" PVOMP_TRACE_BUFSIZE=16M "$B1" trace 1 200000 >/dev/null
  "$build/bin/pvomp-trace" events "$small" >"$logdir/small.events"
  s=$(date +%s.%N)
  python3 "$src/tests/trace/third_party/qemu/simpletrace.py" "$logdir/small.events" "$small" >/dev/null
  e=$(date +%s.%N)
  printf "  for scale, QEMU's simpletrace.py on 200000 records: %.2f M records/s\n" \
    "$(echo "200000 / ($e - $s) / 1000000" | bc -l)"
fi
