#!/bin/sh
# Memory of a traced process, and records dropped by a traced EPCC run.
# Not a test: a benchmark (docs/trace.md, "Memory").
#
#   bench/trace/rss.sh BUILD [BEFORE_BUILD] [--epcc RUNS]
#
# 1. Peak RSS (maximum resident set, GNU time's %M) of bench/trace/rss_prog.c
#    at 2, 16 and 64 threads: untraced, traced (PVOMP_TRACE_EVENTS=*), and
#    traced in ring mode; for BUILD and, if given, BEFORE_BUILD (a build
#    directory with lib/; e.g. a copy of an older build), side by side.
# 2. With --epcc RUNS (and bench/syncbench in each build): EPCC syncbench
#    traced with every runtime event, RUNS times per build, alternating;
#    per run the records in the log and the records dropped (pvomp-trace
#    stats), so that a smaller buffer would show as more drops.
set -eu
build=$(cd "$1" && pwd); shift
before=""
epcc=0
while [ $# -gt 0 ]; do
    case "$1" in
        --epcc) epcc=$2; shift 2 ;;
        *) before=$(cd "$1" && pwd); shift ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -fopenmp "$here/rss_prog.c" -o "$tmp/rss_prog"

# peak RSS in MB of: LIB VARS... (rss_prog run with that lib/ and those
# variables), as GNU time reports it (getrusage of its child; from Python
# the forked interpreter's pages would count too)
peak() {
    lib=$1; shift
    env LD_LIBRARY_PATH="$lib" "$@" /usr/bin/time -f %M -o "$tmp/rss" "$tmp/rss_prog" >/dev/null
    awk '{ printf "%.1f", $1 / 1024 }' "$tmp/rss"
}

printf '%-8s %-10s %10s %10s %10s\n' threads build untraced traced ring
for n in 2 16 64; do
    for b in "$build" ${before:+"$before"}; do
        label=after; [ "$b" = "$build" ] || label=before
        u=$(peak "$b/lib" OMP_NUM_THREADS=$n)
        t=$(peak "$b/lib" OMP_NUM_THREADS=$n PVOMP_TRACE="$tmp/t.log" PVOMP_TRACE_EVENTS='*')
        r=$(peak "$b/lib" OMP_NUM_THREADS=$n PVOMP_TRACE="$tmp/r.log" PVOMP_TRACE_EVENTS='*' \
                 PVOMP_TRACE_MODE=ring)
        printf '%-8s %-10s %8s MB %8s MB %8s MB\n' "$n" "$label" "$u" "$t" "$r"
    done
done

[ "$epcc" -gt 0 ] || exit 0
echo
echo "EPCC syncbench --outer 7, 2 threads, PVOMP_TRACE_EVENTS=*: records / dropped per run"
i=0
while [ $i -lt "$epcc" ]; do
    for b in "$build" ${before:+"$before"}; do
        label=after; [ "$b" = "$build" ] || label=before
        env LD_LIBRARY_PATH="$b/lib" OMP_NUM_THREADS=2 PVOMP_TRACE="$tmp/e.log" \
            PVOMP_TRACE_EVENTS='*' "$b/bench/syncbench" --outer 7 >/dev/null
        "$build/bin/pvomp-trace" stats "$tmp/e.log" |
            sed -n "s/^records: *\([0-9]*\) in .*dropped: \([0-9]*\).*/$label run $i: \1 records, \2 dropped/p"
        rm -f "$tmp/e.log"
    done
    i=$((i + 1))
done
