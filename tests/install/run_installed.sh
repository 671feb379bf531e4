#!/bin/sh
# run_installed.sh PREFIX HELLO_SOURCE: build a user's OpenMP program against
# the pvomp installed in PREFIX (with pkg-config and with find_package), run
# it and prove the installed runtime was loaded, then a traced run through
# PREFIX/bin/pvomp-run and `pvomp-trace stats` on its log.  Only files under
# PREFIX are used (and the system's compiler, pkg-config and cmake).
set -eu
prefix=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

rtdir=$(PKG_CONFIG_PATH=$(dirname "$(find "$prefix/lib" "$prefix/lib64" -name pvomp.pc -path "*/pkgconfig/*" 2>/dev/null | head -1)") \
        pkg-config --variable=runtimedir pvomp) || fail "pkg-config does not know pvomp"
pcdir=$(dirname "$(find "$prefix/lib" "$prefix/lib64" -name pvomp.pc -path "*/pkgconfig/*" 2>/dev/null | head -1)")
want=$(readlink -f "$rtdir/libgomp.so.1")
case $want in "$(readlink -f "$prefix")"/*) ;; *) fail "runtime $want is not under $prefix" ;; esac
# libomp's run-time name (for clang-compiled programs) is the same file; its
# link-time libomp.so a small library whose soname is libomp.so.5.
[ "$(readlink -f "$rtdir/libomp.so.5")" = "$want" ] || fail "$rtdir/libomp.so.5 is not the installed runtime"
[ -f "$rtdir/libomp.so" ] || fail "no $rtdir/libomp.so"
readelf -d "$rtdir/libomp.so" | grep -q 'SONAME.*\[libomp\.so\.5\]' ||
    fail "$rtdir/libomp.so: soname is not libomp.so.5"

check() { # check LABEL PROGRAM: runs on the installed pvomp, without LD_LIBRARY_PATH
    out=$(env -u LD_LIBRARY_PATH "$2") || fail "$1: the program failed: $out"
    echo "$out" | grep -qx "runtime $want" || fail "$1: not run on $want: $out"
    echo "$out" | grep -qx "sum 3" || fail "$1: wrong result: $out"
    echo "$1: ok ($want)"
}

# pkg-config
cc $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags pvomp) "$src" -o "$work/hello_pc" \
   $(PKG_CONFIG_PATH=$pcdir pkg-config --libs pvomp) || fail "cc with pkg-config"
check pkg-config "$work/hello_pc"

# find_package
cmake -S "$(dirname "$0")/consumer" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" \
      -DHELLO_SOURCE="$src" >/dev/null || fail "cmake with find_package(pvomp)"
cmake --build "$work/cm" >/dev/null || fail "building with find_package(pvomp)"
check find_package "$work/cm/hello"

# pvomp-run on a program linked the ordinary way (against the system libgomp)
cc -fopenmp "$src" -o "$work/hello_sys" || fail "cc -fopenmp"
out=$(env -u LD_LIBRARY_PATH "$prefix/bin/pvomp-run" --threads 2 --trace "$work/t.log" \
      "$work/hello_sys") || fail "pvomp-run: $out"
echo "$out" | grep -qx "runtime $want" || fail "pvomp-run did not pick $want: $out"
[ -s "$work/t.log" ] || fail "the traced run wrote no log"
stats=$("$prefix/bin/pvomp-trace" stats "$work/t.log") || fail "pvomp-trace stats: $stats"
echo "$stats" | grep -q "parallel" || fail "pvomp-trace stats shows no parallel region: $stats"
echo "pvomp-run --trace + pvomp-trace stats: ok"

# clang, linked against the installed libomp.so: runs on the installed pvomp.
if command -v clang >/dev/null 2>&1; then
    clang -fopenmp "$src" -o "$work/hello_clang" -L"$rtdir" -Wl,-rpath,"$rtdir" ||
        fail "clang -fopenmp -L$rtdir"
    check clang "$work/hello_clang"
fi

for t in pvomp-run pvomp-trace pvomp-version; do
    "$prefix/bin/$t" --help >/dev/null 2>&1 || fail "$t --help"
done
echo "all checks passed"
