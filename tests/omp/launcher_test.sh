#!/bin/sh
# Tests of tools/pvomp-run.  Usage: launcher_test.sh PVOMP_RUN PROBE LIBDIR
# PROBE is tests/omp/launcher_probe (an OpenMP program that includes
# pvomp_check.h, so it fails unless pvomp is the runtime it loaded).
set -u
run=$1
probe=$2
libdir=$(readlink -f "$3")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvomp-run-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0

# Start from a user's environment: nothing of ours set.
unset LD_LIBRARY_PATH LD_PRELOAD GOMP_WAIT_POLICY OMP_WAIT_POLICY OMP_NUM_THREADS \
      PVOMP_TRACE PVOMP_TRACE_EVENTS OMP_DISPLAY_ENV

fail() {
    echo "FAIL: $*"
    echo "----- stdout:"; cat "$tmp/out"
    echo "----- stderr:"; cat "$tmp/err"
    fails=$((fails + 1))
}

# t EXPECTED_STATUS COMMAND...: run, keep stdout/stderr, check the status.
t() {
    want=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "'$*' exited with $got, expected $want"
        return 1
    fi
    return 0
}
out_has() { grep -q -F -- "$1" "$tmp/out" || fail "stdout lacks '$1'"; }
err_has() { grep -q -F -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
err_lacks() { ! grep -q -F -- "$1" "$tmp/err" || fail "stderr has '$1'"; }

# Without the launcher the probe loads the system libgomp, and says so.
t 1 "$probe" && err_has "the OpenMP runtime loaded is not pvomp"

# Plain run.
t 0 "$run" -- "$probe" && out_has "LD_LIBRARY_PATH=$libdir" && out_has "GOMP_WAIT_POLICY=(unset)"
t 0 "$run" "$probe" && out_has "team="

# Options, both spellings.
t 0 "$run" --threads 3 --wait-policy passive -- "$probe" &&
    out_has "OMP_NUM_THREADS=3" && out_has "GOMP_WAIT_POLICY=passive" && out_has "max_threads=3 team=3"
t 0 "$run" --threads=2 --wait-policy=active -- "$probe" &&
    out_has "OMP_NUM_THREADS=2" && out_has "GOMP_WAIT_POLICY=active" && out_has "team=2"
for p in pvsched active passive default; do
    t 0 "$run" --wait-policy "$p" --threads 2 -- "$probe" && out_has "GOMP_WAIT_POLICY=$p"
done
t 0 "$run" --threads 3,2 -- "$probe" && out_has "OMP_NUM_THREADS=3,2" && out_has "team=3"
for m in shared separate; do
    t 0 "$run" --device-memory "$m" -- "$probe" && out_has "PVOMP_DEVICE_MEMORY=$m"
done

# Tracing variables.
t 0 "$run" --trace "$tmp/trace.log" --threads 2 -- "$probe" &&
    out_has "PVOMP_TRACE=$tmp/trace.log" && out_has "PVOMP_TRACE_EVENTS=*"
t 0 "$run" --trace "$tmp/trace2.log" --trace-events 'parallel_*,!wait_*' --threads 2 -- "$probe" &&
    out_has "PVOMP_TRACE=$tmp/trace2.log" && out_has "PVOMP_TRACE_EVENTS=parallel_*,!wait_*"
t 0 env 'PVOMP_TRACE_EVENTS=barrier_*' "$run" --trace "$tmp/trace3.log" --threads 2 -- "$probe" &&
    out_has "PVOMP_TRACE_EVENTS=barrier_*"

# The user's LD_LIBRARY_PATH is kept, after pvomp's directory.
t 0 env LD_LIBRARY_PATH=/nonexistent/a:/nonexistent/b "$run" -- "$probe" &&
    out_has "LD_LIBRARY_PATH=$libdir:/nonexistent/a:/nonexistent/b"

# Arguments and exit status pass through unchanged.
t 7 "$run" -- "$probe" exit 7 "a b" '*' "" --threads && out_has "arg[0]=<a b>" &&
    out_has "arg[1]=<*>" && out_has "arg[2]=<>" && out_has "arg[3]=<--threads>"
t 5 "$run" -v -- "$probe" exit 5 && err_has "exit status 5"

# -v: which runtime, and the loader's proof.
if t 0 "$run" -v --threads 2 -- "$probe"; then
    err_has "runtime: $libdir/libgomp.so.1 (pvomp "
    err_has "proof: the loader bound"
    err_has "to $libdir/libgomp.so.1:"
    err_has " GOMP_parallel"
    err_lacks "WARNING"
fi
# -v with a program that makes no OpenMP call.
t 0 "$run" -v -- /bin/true && err_has "bound no GOMP_*/__kmpc_*/omp_* symbol of the program"

# Usage errors: status 2 and a message.
t 0 "$run" --help && out_has "Usage: pvomp-run"
t 0 "$run" -h && out_has "--wait-policy"
t 2 "$run" --wait-policy bogus -- "$probe" && err_has "invalid wait policy 'bogus'"
t 0 "$run" --help && out_has "--device-memory M"
t 2 "$run" --device-memory=own -- "$probe" && err_has "invalid device memory 'own'"
t 2 "$run" --wait-policy= -- "$probe" && err_has "invalid wait policy"
t 2 "$run" --threads 0 -- "$probe" && err_has "invalid thread count"
t 2 "$run" --threads abc -- "$probe" && err_has "invalid thread count 'abc'"
t 2 "$run" --threads 2,,3 -- "$probe" && err_has "invalid thread count"
t 2 "$run" --threads -- "$probe" && err_has "invalid thread count"
t 2 "$run" --threads && err_has "needs a value"
t 2 "$run" --frobnicate -- "$probe" && err_has "unknown option: --frobnicate"
t 2 "$run" --verbose=1 -- "$probe" && err_has "takes no value"
t 2 "$run" && err_has "no program to run"
t 2 "$run" --threads 2 -- && err_has "no program to run"
t 2 "$run" --trace "" -- "$probe" && err_has "invalid trace file name"
t 127 "$run" -- "$tmp/does-not-exist" && err_has "cannot run"
t 127 "$run" -- no-such-program-pvomp && err_has "not found"

# Installed layout: prefix/bin/pvomp-run with prefix/lib/libgomp.so.1, run
# directly, through a symlink, and through PATH.
bindir=$(dirname "$(readlink -f "$run")")
mkdir -p "$tmp/prefix/bin" "$tmp/prefix/lib"
cp "$run" "$tmp/prefix/bin/pvomp-run"
[ -x "$bindir/pvomp-version" ] && cp "$bindir/pvomp-version" "$tmp/prefix/bin/"
cp -P "$libdir"/libgomp.so* "$tmp/prefix/lib/"
inst=$(readlink -f "$tmp/prefix/lib")
if t 0 "$tmp/prefix/bin/pvomp-run" -v -- "$probe"; then
    out_has "LD_LIBRARY_PATH=$inst"
    err_has "runtime: $inst/libgomp.so.1 (pvomp "
    err_has "to $inst/libgomp.so.1:"
fi
ln -s "$tmp/prefix/bin/pvomp-run" "$tmp/link-to-run"
t 0 "$tmp/link-to-run" -- "$probe" && out_has "LD_LIBRARY_PATH=$inst"
t 0 env PATH="$tmp/prefix/bin:$PATH" pvomp-run -- "$probe" && out_has "LD_LIBRARY_PATH=$inst"

# A prefix whose lib/libgomp.so.1 is not pvomp is refused.
mkdir -p "$tmp/wrong/bin" "$tmp/wrong/lib"
cp "$run" "$tmp/wrong/bin/pvomp-run"
if [ -x "$bindir/pvomp-version" ]; then
    cp "$bindir/pvomp-version" "$tmp/wrong/bin/"
    cp "$(gcc -print-file-name=libgomp.so.1)" "$tmp/wrong/lib/libgomp.so.1"
    t 2 "$tmp/wrong/bin/pvomp-run" -- "$probe" && err_has "is not a pvomp runtime"
fi
# A prefix without any libgomp.so.1.
rm -f "$tmp/wrong/lib/libgomp.so.1"
t 2 "$tmp/wrong/bin/pvomp-run" -- "$probe" && err_has "cannot find pvomp"

if [ $fails -ne 0 ]; then
    echo "$fails launcher check(s) failed"
    exit 1
fi
echo "pvomp-run: all launcher checks passed"
