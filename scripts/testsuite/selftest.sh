#!/usr/bin/env bash
# The test harness's own test: each pass of the libgomp testsuite must fail
# when pvomp is broken in a way its claim covers.  Runs the runner on two
# chosen tests with a fault injected, and requires FAIL naming the test:
#  - a runtime that crashes in a target test the system libgomp also fails
#    (libgomp.c/examples-4/device-1.c: libgomp aborts, the broken pvomp gets
#    SIGSEGV) -- the failure must not be excused as "fails on libgomp too";
#  - the OMPT pass with a tool that declines to start (libpvomp_tt_null.so):
#    a pass without the tool's evidence is a FAIL;
#  - the traced pass with a reader that finds the log unclosed.
# And the same tests without a fault must not fail (the FAILs are the faults').
# Usage: scripts/testsuite/selftest.sh <build-dir>
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: $0 <build-dir>}" && pwd)
tmp=$(mktemp -d /tmp/pvomp-harness-selftest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
gcc -shared -fPIC -O1 -o "$tmp/crash_target.so" "$here/scripts/testsuite/selftest/crash_target.c" || exit 1
target='libgomp.c/examples-4/device-1.c' plain='libgomp.c/parallel-1.c'
fails=0

# run <expected: FAIL|PASS|ok> <test> [env...]: the runner on one test (ok: anything but FAIL)
run() {
  local want=$1 test=$2; shift 2
  local out rc
  out=$(env PVOMP_TESTSUITE_LANGS=c PVOMP_TESTSUITE_WITH=tasks,target PVOMP_TESTSUITE_JOBS=1 \
        PVOMP_TESTSUITE_FILTER="^${test//./\\.}\$" PVOMP_TESTSUITE_OMPT_TOOL= PVOMP_TESTSUITE_TRACE_READER= \
        PVOMP_TESTSUITE_RUN_ENV= "$@" bash "$here/scripts/libgomp-testsuite.sh" "$build" 2>&1)
  rc=$?
  local line; line=$(grep -E "^(PASS|FAIL|SKIP|XFAIL|XPASS) $test( |$)" <<<"$out")
  if [ "$want" = FAIL ]; then
    if [ $rc -ne 1 ] || [[ $line != "FAIL $test"* ]]; then
      echo "harness-selftest: FAILED: with $* the runner said (exit $rc): ${line:-$out}"; fails=$((fails + 1)); return
    fi
  elif [ $rc -ne 0 ] || [ -z "$line" ] || [[ $line == FAIL* ]] || { [ "$want" = PASS ] && [[ $line != PASS* ]]; }; then
    echo "harness-selftest: FAILED: without a fault the runner said (exit $rc): ${line:-$out}"; fails=$((fails + 1)); return
  fi
  echo "harness-selftest: ok: ${*:-no fault}: $line"
}
# device-1.c needs a device with its own memory (it is skipped where device 0
# shares the host's): both runs give device 0 its own.
run PASS "$target" PVOMP_TESTSUITE_RUN_ENV="PVOMP_DEVICE_MEMORY=separate"
run FAIL "$target" PVOMP_TESTSUITE_RUN_ENV="PVOMP_DEVICE_MEMORY=separate LD_PRELOAD=$tmp/crash_target.so"
run ok "$plain" PVOMP_TESTSUITE_OMPT_TOOL="$build/tests/ompt/libpvomp_tt.so"
run FAIL "$plain" PVOMP_TESTSUITE_OMPT_TOOL="$build/tests/ompt/libpvomp_tt_null.so"
run ok "$plain" PVOMP_TESTSUITE_TRACE_READER="$build/bin/pvomp-trace"
run FAIL "$plain" PVOMP_TESTSUITE_TRACE_READER="$here/scripts/testsuite/selftest/bad_reader.sh"
# A CTest test whose prerequisite is missing: SKIP with its reason, and a
# failure of the test command under CI=true (scripts/testsuite/ctest_skips.py).
mkdir -p "$tmp/skip/b"
{ echo 'cmake_minimum_required(VERSION 3.16)'; echo 'project(x NONE)'; echo 'enable_testing()'
  sed -n '/^function(pvomp_skipped_test/,/^endfunction/p' "$here/tests/CMakeLists.txt"
  echo 'pvomp_skipped_test(gone "no such prerequisite")'; } > "$tmp/skip/CMakeLists.txt"
(cd "$tmp/skip/b" && cmake .. >/dev/null && ctest --output-junit j.xml >/dev/null)
line=$(CI= python3 "$here/scripts/testsuite/ctest_skips.py" "$tmp/skip/b/j.xml") && \
  ! CI=true python3 "$here/scripts/testsuite/ctest_skips.py" "$tmp/skip/b/j.xml" >/dev/null && \
  [[ $line == *"gone (no such prerequisite)"* ]] && echo "harness-selftest: ok: $line" || {
  echo "harness-selftest: FAILED: a skipped CTest test was not reported (or passed under CI=true): $line"
  fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "harness-selftest: every injected fault failed the test command"
[ $fails -eq 0 ]
