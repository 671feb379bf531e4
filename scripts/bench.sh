#!/usr/bin/env bash
# Build what the benchmarks need and print the whole benchmark table:
# construct overheads (EPCC method) of pvomp, the system libgomp and LLVM
# libomp side by side, at 2 and 4 threads, with pvomp/libgomp and pvomp/libomp.
# Usage: scripts/bench.sh [bench/run.py options]   (BUILD_DIR=... to choose the build)
# By default it waits up to 5 minutes per round for the CPUs to be idle.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
if [ ! -f "$build/CMakeCache.txt" ]; then
  bash "$here/scripts/setup.sh" "$build"          # fresh machine: packages + full build
fi
cmake -S "$here" -B "$build" >/dev/null
cmake --build "$build" -j"$(nproc)" --target syncbench taskbench >/dev/null
cmake --build "$build" -j"$(nproc)" --target pvomp >/dev/null ||
  echo "bench: WARNING: pvomp does not build; measuring the other runtimes only" >&2
exec bash "$here/bench/run.sh" "$build" --quiet-wait 300 "$@"
