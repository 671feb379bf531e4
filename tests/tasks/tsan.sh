#!/usr/bin/env bash
# ThreadSanitizer run of the tasking tests (not part of ctest: it needs an
# instrumented copy of the runtime).  Usage: tests/tasks/tsan.sh [build-dir]
# Builds pvomp with -fsanitize=thread into <build-dir> (default
# build-tsan), the task tests with -fsanitize=thread, and runs them at
# several team sizes.  Every report is a failure, except the ones listed
# in tsan.supp (each with its explanation).  See docs/tasks.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build-tsan}
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="-fsanitize=thread -O1 -Wno-error=tsan -Wno-tsan" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" >/dev/null
make -C "$build" -j"$(nproc)" pvomp >/dev/null
out=$build/tsan-tasks
mkdir -p "$out"
fail=0
for t in task_stress task_depend task_detach task_group task_reduction task_taskloop \
         task_basic task_cancel task_priority; do
  gcc -fopenmp -fsanitize=thread -g -O1 -D_GNU_SOURCE -I"$here/tests/common" \
      -I"$here/tests/tasks" "$here/tests/tasks/$t.c" -o "$out/$t" -ldl
  for n in 2 4; do
    log=$out/$t@$n.log
    if OMP_NUM_THREADS=$n OMP_CANCELLATION=true OMP_MAX_TASK_PRIORITY=10 TASK_STRESS_REPS=100 \
       LD_LIBRARY_PATH="$build/lib" \
       TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 exitcode=66 suppressions=$here/tests/tasks/tsan.supp" \
       "$out/$t" >"$log" 2>&1; then
      echo "ok   $t@$n"
    else
      echo "FAIL $t@$n ($(grep -c 'WARNING: ThreadSanitizer' "$log") reports, see $log)"
      fail=1
    fi
  done
done
exit $fail
