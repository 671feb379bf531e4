#!/usr/bin/env bash
# Instructions per construct on pvomp with and without the OMPT event sites,
# no tool attached, one thread, counted by callgrind (deterministic: the
# machine's load does not change it).  The count of N constructs minus the
# count of N/2 constructs, divided by N/2, removes start-up and exit.
# Usage: bench/ompt/instructions.sh [BUILD_DIR] [N]   (run.sh builds BUILD_DIR-noompt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
n=${2:-2000}
off=$build-noompt
[ -e "$off/lib/libgomp.so.1" ] || {
  cmake -S "$src" -B "$off" -DPVOMP_OMPT=OFF >/dev/null
  cmake --build "$off" --target pvomp -j"$(nproc)" >/dev/null
}
bin=$build/bench-ompt
mkdir -p "$bin"
gcc -O2 -fopenmp "$here/sites.c" -o "$bin/ompt_sites"
count() {   # lib construct n -> instructions
  LD_LIBRARY_PATH=$1 OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin/ompt_sites" "$2" "$3" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
printf "%-12s %14s %14s %8s\n" construct "with OMPT" without delta
for c in parallel barrier critical lock single for_dynamic task; do
  w=$(( ($(count "$build/lib" $c $n) - $(count "$build/lib" $c $((n / 2)))) * 100 / (n / 2) ))
  o=$(( ($(count "$off/lib" $c $n) - $(count "$off/lib" $c $((n / 2)))) * 100 / (n / 2) ))
  awk -v c=$c -v w=$w -v o=$o 'BEGIN { printf "%-12s %14.2f %14.2f %+8.2f\n", c, w / 100, o / 100, (w - o) / 100 }'
done
