#!/usr/bin/env bash
# Target-region cost benchmark (not a test; issue 21): the same binary of
# bench/target/map_bench.c on the system libgomp (host fallback), on pvomp by
# default (device 0 shares the host's memory) and on pvomp with
# PVOMP_DEVICE_MEMORY=separate, interleaved round by round in one run;
# prints each runtime's best and median time of the 20 steps and the ratios
# to libgomp.  See docs/target.md, "Benchmark".
# Usage: bench/target/maps.sh [BUILD_DIR] [rounds] [elements] [steps]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
rounds=${2:-7}
n=${3:-10000000}
steps=${4:-20}
threads=${OMP_NUM_THREADS:-2}
mkdir -p "$build/bench-target"
exe=$build/bench-target/map_bench
gcc -O2 -fopenmp -o "$exe" "$here/map_bench.c" -ldl
declare -A times
names=(libgomp pvomp-shared pvomp-separate)
run() {   # name, then the environment of the run
    local name=$1
    shift
    local out
    out=$(env -u LD_LIBRARY_PATH -u PVOMP_DEVICE_MEMORY OMP_NUM_THREADS="$threads" "$@" "$exe" "$n" "$steps")
    case "$name:$out" in
        libgomp:*"$build/lib/"*) echo "maps.sh: libgomp run loaded pvomp" >&2; exit 1 ;;
        pvomp*:*"$build/lib/"*) ;;
        pvomp*:*) echo "maps.sh: $name did not load pvomp: $out" >&2; exit 1 ;;
    esac
    times[$name]+="${out%% *} "
    sums[$name]=$(echo "$out" | cut -d' ' -f2)
}
declare -A sums
for ((r = 0; r < rounds; r++)); do
    run libgomp
    run pvomp-shared LD_LIBRARY_PATH="$build/lib"
    run pvomp-separate LD_LIBRARY_PATH="$build/lib" PVOMP_DEVICE_MEMORY=separate
done
[ "${sums[libgomp]}" = "${sums[pvomp-shared]}" ] && [ "${sums[libgomp]}" = "${sums[pvomp-separate]}" ] ||
    { echo "maps.sh: checksums differ: ${sums[*]}" >&2; exit 1; }
echo "$n doubles, $steps steps of target teams distribute parallel for map(tofrom:), $threads threads, $rounds rounds interleaved"
python3 - "${times[libgomp]}" "${times[pvomp-shared]}" "${times[pvomp-separate]}" <<'PY'
import statistics, sys
rows = [("libgomp (host fallback)", sys.argv[1]), ("pvomp, default (shared memory)", sys.argv[2]),
        ("pvomp, PVOMP_DEVICE_MEMORY=separate", sys.argv[3])]
t = [[float(x) for x in s.split()] for _, s in rows]
base_best, base_med = min(t[0]), statistics.median(t[0])
print("| runtime | best (s) | median (s) | ratio to libgomp, best (median) |")
print("|---|---|---|---|")
for (name, _), v in zip(rows, t):
    print("| %s | %.4f | %.4f | %.2fx (%.2fx) |" % (name, min(v), statistics.median(v),
          min(v) / base_best, statistics.median(v) / base_med))
PY
