#!/usr/bin/env bash
# Run LLVM 16's OMPT tests (openmp/runtime/test/ompt) against pvomp, and,
# for comparison only, against LLVM's libomp as a libgomp.so.1 drop-in.
# Usage: scripts/llvm-ompt-tests.sh <build-dir> [runner options, e.g. --filter REGEXP]
#   The tests come from Debian's llvm-toolchain-16 source package, fetched with
#   apt-get at test time and cached in <build-dir>/llvm-ompt (never in git).
#   Environment: PVOMP_LLVM_OMPT_LIBOMP=0  skip the libomp comparison run
# Exit status: that of the pvomp run (the libomp run is informational).
# See docs/ompt.md, "LLVM's OMPT tests".
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: $0 <build-dir> [runner options]}" && pwd)
shift
cache=$build/llvm-ompt
src=$(bash "$here/scripts/llvm-ompt/fetch.sh" "$cache")
runner=(python3 "$here/scripts/llvm-ompt/runner.py" --src "$src")
echo "== LLVM's OMPT tests on pvomp ($build/lib)"
status=0
"${runner[@]}" --lib-dir "$build/lib" --work "$cache/work-pvomp" \
  --known-failures "$here/scripts/llvm-ompt/known-failures" \
  --expected-passes "$here/scripts/llvm-ompt/expected-passes" \
  --timing-dependent "$here/scripts/llvm-ompt/timing-dependent" --label "pvomp: " "$@" || status=1
libomp=/usr/lib/x86_64-linux-gnu/libomp.so.5
if [ "${PVOMP_LLVM_OMPT_LIBOMP:-1}" != 0 ] && [ -e "$libomp" ]; then
  echo "== the same tests on LLVM's libomp ($libomp as libgomp.so.1; for comparison, not checked)"
  mkdir -p "$cache/libomp"
  ln -sf "$libomp" "$cache/libomp/libgomp.so.1"
  "${runner[@]}" --lib-dir "$cache/libomp" --work "$cache/work-libomp" --label "libomp: " "$@" || true
fi
exit $status
