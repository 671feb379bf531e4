#!/usr/bin/env bash
# Side-by-side benchmark runner: the same gcc-built binaries on pvomp, the
# system libgomp and LLVM libomp (as libgomp.so.1), interleaved, at 2 and 4
# threads; prints the overhead table with ratios.  See docs/bench.md.
# Usage: bench/run.sh <build-dir> [bench/run.py options]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bench/run.sh <build-dir> [options]}
shift
exec python3 "$here/run.py" --build "$build" "$@"
