#!/usr/bin/env bash
# How long the HTML report takes to open and draw in a browser (a benchmark,
# not a test): the demo-sized log of tests/trace/html/regions.c (12 regions)
# and a tight barrier loop's log of more than 1M records, each opened ROUNDS
# times in headless chromium, interleaved with an empty page (chromium's own
# start-up, subtracted).  Prints per log: records, page size, intervals, the
# median wall time of chromium with the page minus with the empty page, and
# the page script's own time (JSON parse, decode, first draw: data-draw-ms).
# Usage: bench/trace/html.sh [BUILD_DIR] [ROUNDS]   (docs/trace.md quotes it)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -fopenmp -g -O1 -o "$work/regions" "$here/tests/trace/html/regions.c"
run() { env -u PVOMP_TRACE_EVENTS PVOMP_TRACE="$1" OMP_NUM_THREADS=2 \
  LD_LIBRARY_PATH="$build/lib" "$work/regions" "${@:2}" >/dev/null; }
run "$work/demo.pvtrace" 12
run "$work/large.pvtrace" 180000 loop
for l in demo large; do "$build/bin/pvomp-trace" timeline --html "$work/$l.html" "$work/$l.pvtrace"; done
echo '<!DOCTYPE html><html><body data-ready="1"></body></html>' > "$work/empty.html"
python3 - "$here" "$build" "$work" "$rounds" <<'PY'
import os, re, statistics, subprocess, sys
here, build, work, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, os.path.join(here, "tests", "trace"))
import browser
chromium = browser.chromium_or_skip("html bench")
times = {k: [] for k in ("empty", "demo", "large")}
script = {k: [] for k in ("demo", "large")}
for _ in range(rounds):                       # interleaved: the machine's noise hits all alike
    for k in times:
        dom, secs = browser.dom(chromium, work, "file://" + os.path.join(work, k + ".html"))
        times[k].append(secs)
        m = re.search(r'data-draw-ms="([\d.]+)"', dom)
        if k != "empty":
            script[k].append(float(m.group(1)) if m else float("nan"))
base = statistics.median(times["empty"])
print("chromium start-up (empty page): median %.2f s of %d" % (base, rounds))
print("%-6s %10s %9s %10s %16s %14s" % ("log", "records", "page MB", "intervals", "open+draw s", "script ms"))
for k in ("demo", "large"):
    st = subprocess.run([os.path.join(build, "bin", "pvomp-trace"), "stats", os.path.join(work, k + ".pvtrace")],
                        capture_output=True, text=True).stdout
    rec = re.search(r"^records: +(\d+)", st, re.M).group(1)
    html = open(os.path.join(work, k + ".html"), encoding="utf-8").read()
    ivs = re.search(r'"rows":\[', html) and sum(len(re.findall(r"[^,\[\]]+", x)) for x in re.findall(r'"\d+":\[([^\]]*)\]', html)) // 5
    print("%-6s %10s %9.1f %10d %16.2f %14.1f" % (k, rec, len(html) / 1e6, ivs,
          statistics.median(times[k]) - base, statistics.median(script[k])))
PY
