#!/usr/bin/env bash
# Run GCC 12's libgomp testsuite (C tests; C++ and Fortran on request) against pvomp.
# Usage: scripts/libgomp-testsuite.sh <build-dir> [runner options]
#   The testsuite comes from Debian's gcc-12 source package, fetched with
#   apt-get at test time and cached in <build-dir>/gcc-testsuite (never in git).
#   Environment: PVOMP_TESTSUITE_LANGS=c,c++,fortran languages (or all; default c)
#                PVOMP_TESTSUITE_WITH=tasks,target  run those categories too
#                PVOMP_TESTSUITE_FILTER=REGEXP      only matching test names
#                PVOMP_TESTSUITE_TIMEOUT=SECONDS    per-test timeout (60)
#                PVOMP_TESTSUITE_JOBS=N             parallel tests (2)
#                PVOMP_TESTSUITE_LIB_DIR=DIR        runtime dir (<build-dir>/lib)
# See docs/testsuite.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: $0 <build-dir> [runner options]}" && pwd)
shift
cache=$build/gcc-testsuite
mkdir -p "$cache"
src=$(bash "$here/scripts/testsuite/fetch.sh" "$cache")
exec python3 "$here/scripts/testsuite/runner.py" --src "$src" --cache "$cache" \
  --lib-dir "${PVOMP_TESTSUITE_LIB_DIR:-$build/lib}" "$@"
