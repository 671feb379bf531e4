#!/usr/bin/env bash
# clang-compiled construct-overhead benchmarks (not a test): the same clang 14
# binaries (bench/syncbench.c, bench/taskbench.c linked against libomp 14) on
# pvomp (LD_LIBRARY_PATH=<build>/lib: its libomp.so.5 is pvomp) and on LLVM's
# libomp 14, interleaved round by round, at 2 and 4 threads, with the
# pvomp/libomp ratios (bench/run.py).  See docs/bench.md, "clang-compiled".
# Usage: bench/clang/run.sh [BUILD_DIR] [bench/run.py options]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
[ $# -gt 0 ] && shift
build=$(cd "$build" && pwd)
cmake --build "$build" -j2 --target pvomp clang_syncbench clang_taskbench >/dev/null
exec python3 "$src/bench/run.py" --build "$build" --bench-dir "$build/bench/clang" \
  --runtimes pvomp,libomp "$@"
