#!/usr/bin/env bash
# The libgomp testsuite with the flight log on (every runtime event) in every
# test: the runner gives each run its own log directory and, for every test
# that passes, requires at least one log and every log to read back to its
# end record (pvomp-trace dump); a test without that fails, by name
# (scripts/testsuite/evidence.py).
# Usage: scripts/testsuite-traced.sh <build-dir>      (see docs/testsuite.md)
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: $0 <build-dir>}" && pwd)
PVOMP_TESTSUITE_WITH=${PVOMP_TESTSUITE_WITH:-tasks,target} \
PVOMP_TESTSUITE_TRACE_READER=$build/bin/pvomp-trace \
  exec bash "$here/scripts/libgomp-testsuite.sh" "$build"
