#!/usr/bin/env bash
# Set everything up, build, and run every test: pvomp's own tests (CTest) and
# the libgomp testsuite of GCC 12 against pvomp.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
bash "$here/scripts/setup.sh" "$build" || exit 1

status=0
(cd "$build" && ctest --output-on-failure -j2 --timeout 600) || status=1
# LLVM's OMPT tests (a tool's conformance suite), and libomp beside for comparison.
bash "$here/scripts/llvm-ompt-tests.sh" "$build" || status=1
# Tasks and target constructs are implemented: their testsuite tests run
# too (PVOMP_TESTSUITE_WITH overrides; see docs/testsuite.md); so do the
# C++ and Fortran tests, in all three passes (PVOMP_TESTSUITE_LANGS overrides).
export PVOMP_TESTSUITE_LANGS=${PVOMP_TESTSUITE_LANGS:-all}
export PVOMP_TESTSUITE_WITH=${PVOMP_TESTSUITE_WITH:-tasks,target}
bash "$here/scripts/libgomp-testsuite.sh" "$build" || status=1
# Again with an OMPT tool attached to every test (the recording tool, which
# checks the invariants of each program's whole event log at exit): every
# test must still pass, and every log must hold (tests/ompt/tt_check.c).
echo "== libgomp testsuite with the OMPT recording tool attached (TT_CHECK=1)"
PVOMP_TESTSUITE_RUN_ENV="OMP_TOOL_LIBRARIES=$build/tests/ompt/libpvomp_tt.so TT_QUIET=1 TT_CHECK=1" \
  bash "$here/scripts/libgomp-testsuite.sh" "$build" || status=1
# And with the flight log on in every test: each log must read back whole.
echo "== libgomp testsuite with the flight log on (PVOMP_TRACE_EVENTS=*)"
bash "$here/scripts/testsuite-traced.sh" "$build" || status=1
exit $status
