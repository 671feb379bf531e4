#!/usr/bin/env bash
# Run LLVM 16's runtime tests (openmp/runtime/test: the runtime and ompt
# subsets) compiled by clang 14 as lit does for clang, on pvomp (linked
# against build/lib's libomp.so), and in the same run on LLVM's libomp 14
# (linked against it); then the counts side by side (scripts/llvm-ompt/compare.py).
# Usage: scripts/llvm-clang-tests.sh <build-dir> [runner options, e.g. --filter REGEXP]
#   The tests are the cached extraction of scripts/llvm-ompt/fetch.sh.
#   Environment: PVOMP_LLVM_OMPT_LIBOMP=0  skip the libomp run (and the comparison)
# Exit status: 1 if the pvomp run fails (a FAIL, or an XPASS of
# scripts/llvm-ompt/known-failures.clang) or the comparison finds a known
# failure marked wrongly.  See docs/kmpc.md, "LLVM's runtime tests compiled by clang".
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: $0 <build-dir> [runner options]}" && pwd)
shift
cache=$build/llvm-ompt
src=$(bash "$here/scripts/llvm-ompt/fetch.sh" "$cache")
known=$here/scripts/llvm-ompt/known-failures.clang
# timing-dependent: the tests whose checks race by their own design get up to
# three tries, on both runtimes alike
runner=(python3 "$here/scripts/llvm-ompt/runner.py" --src "$src" --compiler clang --subset all
        --timing-dependent "$here/scripts/llvm-ompt/timing-dependent"
        --run-env "$here/scripts/llvm-ompt/run-env.clang")
echo "== LLVM's runtime and OMPT tests, compiled by clang, on pvomp ($build/lib)"
status=0
"${runner[@]}" --lib-dir "$build/lib" --work "$cache/work-clang-pvomp" --known-failures "$known" \
  --results "$cache/clang-pvomp.results" --label "pvomp: " "$@" || status=1
libomp=/usr/lib/x86_64-linux-gnu/libomp.so.5
if [ "${PVOMP_LLVM_OMPT_LIBOMP:-1}" != 0 ] && [ -e "$libomp" ]; then
  echo "== the same tests on LLVM's libomp 14 ($libomp)"
  # lit's library directory: the runtime under test as libomp.so (to link) and libomp.so.5
  mkdir -p "$cache/libomp-clang"
  ln -sf "$libomp" "$cache/libomp-clang/libomp.so.5"
  ln -sf "$libomp" "$cache/libomp-clang/libomp.so"
  "${runner[@]}" --lib-dir "$cache/libomp-clang" --work "$cache/work-clang-libomp" \
    --results "$cache/clang-libomp.results" --label "libomp: " "$@" || true
  echo "== side by side (passed = PASS + XFAIL marked in the test)"
  python3 "$here/scripts/llvm-ompt/compare.py" --pvomp "$cache/clang-pvomp.results" \
    --libomp "$cache/clang-libomp.results" --known-failures "$known" || status=1
fi
exit $status
