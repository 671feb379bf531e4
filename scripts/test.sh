#!/usr/bin/env bash
# Set everything up, build, and run every test: pvomp's own tests (CTest),
# every usual build of pvomp (scripts/build-matrix.sh), the harness's own
# self-test and the libgomp testsuite of GCC 12 against pvomp.  At the end it
# prints the wall time of each part.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}

# part NAME CMD...: run one part of the test, note its wall time and status;
# its output is kept in $build/parts/NAME.log as well, for the report.
status=0
parts=()
failed=()
part() {
    local name=$1 start=$SECONDS rc=0
    shift
    mkdir -p "$build/parts"
    "$@" 2>&1 | tee "$build/parts/$name.log"
    rc=${PIPESTATUS[0]}
    [ $rc = 0 ] || { status=1; failed+=("$name"); }
    parts+=("$(printf '%-28s %5d s  %s' "$name" $((SECONDS - start)) "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc)")")")
    return $rc
}
# A CI log is often kept only by its tail: end with what failed, and why.
report() {
    local name
    for name in "${failed[@]}"; do
        echo "== part $name failed: the last lines of its output"
        if [ "$name" = ctest ] && [ -f "$build/ctest-junit.xml" ]; then
            python3 "$here/scripts/testsuite/ctest_failures.py" "$build/ctest-junit.xml" 30
        else
            tail -n 30 "$build/parts/$name.log" | sed 's/^/   /'
        fi
    done
    echo "== wall time of each part"
    printf '  %s\n' "${parts[@]}"
}
trap report EXIT

part setup bash "$here/scripts/setup.sh" "$build" || exit 1

part ctest bash -c "cd '$build' && ctest --output-on-failure -j2 --timeout 600 --output-junit ctest-junit.xml"
# Tests whose prerequisite is missing report SKIP: named here; a failure under CI=true.
part ctest-skips python3 "$here/scripts/testsuite/ctest_skips.py" "$build/ctest-junit.xml"
# Real programs from Debian (numpy on OpenBLAS's OpenMP variant, xgboost,
# GraphicsMagick), installed here: their results on pvomp must be libgomp's,
# with pvomp proven loaded (tests/real/real_programs.py, docs/testsuite.md).
part real-programs /usr/bin/python3 "$here/tests/real/real_programs.py" "$build"
part build-matrix bash "$here/scripts/build-matrix.sh" "$build/matrix"
# What the OMPT sites cost a program without a tool: instructions per
# construct (callgrind, exact), pvomp against a -DPVOMP_OMPT=OFF build of
# itself (built in $build-noompt), each within its budget of flag tests
# (bench/ompt/instructions.sh, docs/ompt.md "Overhead without a tool").
part ompt-cost bash "$here/bench/ompt/instructions.sh" --check \
  --only BARRIER,SINGLE,CRITICAL,LOCK,ATOMIC_ld,ORDERED,FOR_dynamic,PARALLEL,PARALLEL_FOR,REDUCTION,PARALLEL_TASK,TASKWAIT,NESTED_TASK,DEP_CHAIN,FIB30 "$build"
# LLVM's OMPT tests (a tool's conformance suite), and libomp beside for comparison.
part llvm-ompt bash "$here/scripts/llvm-ompt-tests.sh" "$build"
# LLVM's runtime and OMPT tests compiled by clang 14 (libomp's ABI), on pvomp
# and on libomp 14 in the same run, counts side by side (docs/kmpc.md).
part llvm-clang bash "$here/scripts/llvm-clang-tests.sh" "$build"
# Tasks and target constructs are implemented: their testsuite tests run
# too (PVOMP_TESTSUITE_WITH overrides; see docs/testsuite.md); so do the
# C++ and Fortran tests, in every pass (PVOMP_TESTSUITE_LANGS overrides).
export PVOMP_TESTSUITE_LANGS=${PVOMP_TESTSUITE_LANGS:-all}
export PVOMP_TESTSUITE_WITH=${PVOMP_TESTSUITE_WITH:-tasks,target}
part testsuite bash "$here/scripts/libgomp-testsuite.sh" "$build"
# The harness's own test: a broken runtime (and a tool or log without its
# evidence) must fail each pass (scripts/testsuite/selftest.sh).
part harness-selftest bash "$here/scripts/testsuite/selftest.sh" "$build"
# Again with device 0's own memory (maps copy; the default shares the host's):
# its own effective targets and known failures (docs/target.md).
echo "== libgomp testsuite with device 0's own memory (PVOMP_DEVICE_MEMORY=separate)"
part testsuite-separate env PVOMP_TESTSUITE_RUN_ENV="PVOMP_DEVICE_MEMORY=separate" \
  bash "$here/scripts/libgomp-testsuite.sh" "$build" \
  --known-failures "$here/scripts/testsuite/known-failures.separate"
# Again with an OMPT tool attached to every test (the recording tool, which
# checks the invariants of each program's whole event log at exit): every
# test must still pass, and each pass must show that the tool initialised and
# checked its whole log (tests/ompt/tt_check.c, scripts/testsuite/evidence.py).
echo "== libgomp testsuite with the OMPT recording tool attached (TT_CHECK=1)"
part testsuite-ompt env PVOMP_TESTSUITE_OMPT_TOOL="$build/tests/ompt/libpvomp_tt.so" \
  bash "$here/scripts/libgomp-testsuite.sh" "$build" \
  --known-failures "$here/scripts/testsuite/known-failures" \
  --known-failures "$here/scripts/testsuite/known-failures.ompt"
# And with the flight log on in every test: each log must read back whole.
echo "== libgomp testsuite with the flight log on (PVOMP_TRACE_EVENTS=*)"
part testsuite-traced bash "$here/scripts/testsuite-traced.sh" "$build"
exit $status
