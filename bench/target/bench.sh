#!/usr/bin/env bash
# Device tracing benchmark (not a test): records per second at 1 and 2
# producing threads, pvomp's device_trace.c beside the seed's design (one
# global mutex, a map of record states), in the same run.  See
# bench/target/trace_bench.c and docs/target.md.
# Usage: bench/target/bench.sh [BUILD_DIR] [records per thread] [repeats]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
mkdir -p "$build/bench-target"
exe=$build/bench-target/trace_bench
# The library's own sources, compiled as the library compiles them (-O2).
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src/src" -I"$src/include" \
    -o "$exe" "$here/trace_bench.c" "$src/src/ompt/device_trace.c" "$src/src/ompt/device_entry.c"
"$exe" "${2:-2000000}" "${3:-5}"
