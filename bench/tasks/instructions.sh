#!/usr/bin/env bash
# Instructions per task on each path of a task's life (bench/tasks/taskcost.c),
# counted by callgrind: creation (<path>_create) and scheduling + completion
# (<path>_run: the taskwait or taskgroup end that takes, runs and completes
# the tasks; the empty bodies' few instructions included), each as the
# inclusive count with N and 2N tasks, the difference over N.  Deterministic:
# the machine's load does not change the counts.
#
# Usage: bench/tasks/instructions.sh [BUILD_DIR] [N] [NAME=LIBDIR ...]
#   Columns: pvomp of BUILD_DIR, the system libgomp, LLVM libomp (as
#   libgomp.so.1), and any NAME=LIBDIR given (another pvomp build, e.g. an
#   older commit's).  N (default 20, at most 30) keeps 2N under the throttle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
n=${2:-20}
shift $(($# < 2 ? $# : 2))
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
exe=$build/bench/taskcost
[ -x "$exe" ] || { echo "instructions.sh: build the benchmarks first (cmake --build $build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
libomp=/usr/lib/x86_64-linux-gnu/libomp.so.5
cols=("pvomp=$build/lib" "libgomp=")
if [ -e $libomp ]; then
  mkdir -p "$work/libomp" && ln -s $libomp "$work/libomp/libgomp.so.1"
  cols+=("libomp=$work/libomp")
fi
cols+=("$@")

fns="deferred_create deferred_run undeferred_create depend_create depend_run taskgroup_create taskgroup_run"
# count LIBDIR K OUT: "function inclusive-count" lines of one run with K tasks.
count() {
  local lib=$1 k=$2 out=$3
  LD_LIBRARY_PATH=$lib OMP_NUM_THREADS=2 OMP_PROC_BIND= OMP_WAIT_POLICY= \
    valgrind --tool=callgrind --callgrind-out-file="$out.cg" "$exe" "$k" >"$out.stdout" 2>"$out.stderr" ||
    { echo "instructions.sh: taskcost $k on ${lib:-the system libgomp} failed:" >&2; tail -5 "$out.stderr" >&2; exit 1; }
  callgrind_annotate --inclusive=yes --threshold=100 "$out.cg" >"$out.ann"
  for f in $fns; do
    # "  1,234 (12.3%)  file:fn [lib]": the first line naming fn.
    c=$(awk -v f="$f" '{ for (i = 1; i <= NF; i++) if ($i ~ (":" f "$")) { gsub(",", "", $1); print $1; exit } }' "$out.ann")
    echo "$f ${c:-0}"
  done >"$out.counts"
}
for col in "${cols[@]}"; do
  name=${col%%=*} lib=${col#*=}
  count "$lib" "$n" "$work/$name-1"
  count "$lib" $((2 * n)) "$work/$name-2"
done
python3 - "$work" "$n" "${cols[@]}" <<'PY'
import sys
work, n, cols = sys.argv[1], int(sys.argv[2]), [c.split("=", 1)[0] for c in sys.argv[3:]]
def per(col):
    d = {}
    for k in (1, 2):
        for line in open("%s/%s-%d.counts" % (work, col, k)):
            f, c = line.split()
            d.setdefault(f, [0, 0])[k - 1] = int(c)
    return {f: (b - a) / n for f, (a, b) in d.items()}
v = {c: per(c) for c in cols}
rows = [("deferred", "deferred_create", "deferred_run"),
        ("undeferred (if(0))", "undeferred_create", None),
        ("depend(inout) chain", "depend_create", "depend_run"),
        ("in a taskgroup", "taskgroup_create", "taskgroup_run")]
print("| path | " + " | ".join("%s create | %s run+complete | %s total" % (c, c, c) for c in cols) + " |")
print("|---|" + "---|---|---|" * len(cols))
for name, cf, rf in rows:
    cells = []
    for c in cols:
        cr = v[c][cf]
        ru = v[c][rf] if rf else 0.0
        cells += ["%.0f" % cr, "%.0f" % ru if rf else "(in create)", "%.0f" % (cr + ru)]
    print("| %s | %s |" % (name, " | ".join(cells)))
print("(instructions per task, callgrind, 2-thread team, one thread creating and running, N = %d)" % n)
PY
