#!/usr/bin/env bash
# OMPT overhead benchmark (not a test): the construct-overhead suites
# (bench/syncbench, bench/taskbench, EPCC's method) on pvomp built with the
# OMPT event sites (the normal build, no tool attached) and on pvomp built
# without them (cmake -DPVOMP_OMPT=OFF), interleaved round by round; prints
# medians and the with/without ratio per construct.  See docs/ompt.md.
#
# Usage: bench/ompt/run.sh [BUILD_DIR] [run.py options]   (default: build)
#   BUILD_DIR must hold a built pvomp and the bench binaries; the OMPT-less
#   library is built next to it in BUILD_DIR-noompt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
[ $# -gt 0 ] && shift
build=$(cd "$build" && pwd)
off=$build-noompt
[ -e "$build/lib/libgomp.so.1" ] && [ -x "$build/bench/syncbench" ] ||
  { echo "build pvomp and the benchmarks first (cmake --build $build)" >&2; exit 1; }
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
echo "== pvomp without OMPT sites in $off" >&2
cmake -S "$src" -B "$off" -DPVOMP_OMPT=OFF -DCMAKE_BUILD_TYPE="${type:-RelWithDebInfo}" >/dev/null
cmake --build "$off" --target pvomp -j"$(nproc)" >/dev/null
exec python3 "$here/run.py" --with "$build/lib" --without "$off/lib" --bench "$build/bench" "$@"
