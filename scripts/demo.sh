#!/usr/bin/env bash
# Set everything up, then run a real OpenMP program on pvomp with the flight
# log on, and print the log's summary.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
bash "$here/scripts/setup.sh" --demo "$build" # the runtime and the two tools only

out=$build/demo
mkdir -p "$out"
# -g: the summary names regions by function and line (pvomp-trace reads the
# line table with libdw).
gcc -fopenmp -O2 -g "$here/examples/demo.c" -o "$out/demo" -ldl
echo "== running the demo on pvomp (2 threads, flight log on)"
"$build/bin/pvomp-run" -v --threads 2 --trace "$out/demo.pvtrace" -- "$out/demo"
echo
echo "== summary of the flight log ($out/demo.pvtrace)"
"$build/bin/pvomp-trace" stats "$out/demo.pvtrace"
echo
echo "== what to fix first (pvomp-trace advise: the top three findings)"
"$build/bin/pvomp-trace" advise --top 3 "$out/demo.pvtrace"
"$build/bin/pvomp-trace" timeline --html "$out/demo.html" "$out/demo.pvtrace" >/dev/null 2>&1 &&
  echo "timeline: $out/demo.html" || true
