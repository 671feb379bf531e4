#!/usr/bin/env bash
# The task kernels of bench/tasks/kernels.c on pvomp, the system libgomp and
# LLVM libomp (as libgomp.so.1), the runtimes interleaved in every round;
# prints per thread count the median elapsed time (ms) of each kernel with
# half the spread (max - min) / 2, and pvomp over the better of the others.
# A wrong result fails the script.
# Usage: bench/tasks/kernels.sh [BUILD_DIR] [ROUNDS] [THREADS...] (build, 5, 2 4)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-5}
shift $(($# < 2 ? $# : 2))
threads=("${@:-2}")
[ $# -gt 0 ] || threads=(2 4)
exe=$build/bench/kernels
[ -x "$exe" ] || { echo "kernels.sh: build the benchmarks first (cmake --build $build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/libomp" && ln -s /usr/lib/x86_64-linux-gnu/libomp.so.5 "$work/libomp/libgomp.so.1"
kernels="fib fib_cut nqueens sort sparselu uts strassen"
for t in "${threads[@]}"; do
  for r in $(seq "$rounds"); do
    for k in $kernels; do
      for rt in pvomp libgomp libomp; do
        case $rt in pvomp) lib=$build/lib ;; libgomp) lib= ;; libomp) lib=$work/libomp ;; esac
        out=$(LD_LIBRARY_PATH=$lib OMP_NUM_THREADS=$t "$exe" $k 1) ||
          { echo "kernels.sh: $k on $rt at $t threads: wrong result or failure" >&2; exit 1; }
        echo "$t $k $rt ${out##* }" >>"$work/times"
      done
    done
  done
  echo "kernels.sh: $t threads done" >&2
done
python3 - "$work/times" <<'PY'
import statistics, sys
d = {}
for line in open(sys.argv[1]):
    t, k, rt, ms = line.split()
    d.setdefault((int(t), k), {}).setdefault(rt, []).append(float(ms))
for t in sorted({t for t, _ in d}):
    print("\n### %d threads: ms, median ±half spread" % t)
    print("| kernel | pvomp | libgomp | libomp | pvomp / best other |")
    print("|---|---|---|---|---|")
    for (tt, k), v in d.items():
        if tt != t:
            continue
        med = {rt: statistics.median(x) for rt, x in v.items()}
        cell = lambda rt: "%.1f ±%.1f" % (med[rt], (max(v[rt]) - min(v[rt])) / 2)
        print("| %s | %s | %s | %s | %.2f |" % (k, cell("pvomp"), cell("libgomp"), cell("libomp"),
                                              med["pvomp"] / min(med["libgomp"], med["libomp"])))
PY
