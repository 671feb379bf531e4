#!/bin/sh
# linked_versions.sh PROGRAM ROUTINE...: PROGRAM, linked by clang -fopenmp
# -L build/lib, needs libomp.so.5 (which is pvomp's libgomp.so.1) and
# references libomp's versions (@VERSION) of the ROUTINEs, whose layout
# differs from gcc's.
prog=$1
shift
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v readelf >/dev/null || fail "readelf is not installed"
[ -x "$prog" ] || fail "$prog was not built"
readelf -d "$prog" | grep -q 'NEEDED.*\[libomp\.so\.5\]' || fail "$prog does not need libomp.so.5"
readelf -d "$prog" | grep -q 'NEEDED.*\[libgomp\.so\.1\]' && fail "$prog needs libgomp.so.1"
syms=$(readelf -W --dyn-syms "$prog")
[ $# -gt 0 ] || fail "no routines given"
for f in "$@"; do
  echo "$syms" | grep -q " $f@VERSION" || fail "$prog: no reference to $f@VERSION"
done
echo "linked_versions: $prog needs libomp.so.5 and references libomp's versions"
