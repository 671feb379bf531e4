#!/usr/bin/env bash
# Bring LLVM 16's OpenMP runtime tests into a cache directory (outside git):
# download Debian's llvm-toolchain-16 source package with a private apt
# configuration, keep its orig tarball in <cache-dir>/dl, and extract only
# openmp/runtime/test/ and LLVM's omp-tools.h.var.  Nothing of LLVM is committed.
# Usage: fetch.sh <cache-dir>      (prints the extracted openmp/runtime directory)
set -euo pipefail
cache=$(mkdir -p "$1" && cd "$1" && pwd)   # apt needs absolute paths
dest=$cache/src                       # will hold openmp/runtime/{test,src/include/omp-tools.h.var}
dl=$cache/dl                          # the orig tarball of the source package
stamp="openmp/runtime/test openmp/runtime/src/include/omp-tools.h.var"
if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$stamp" ]; then
  echo "$dest/openmp/runtime"
  exit 0
fi

orig=$(bash "$(dirname "$0")/../deb-source-orig.sh" llvm-toolchain-16 "$dl" "$cache/fetch" llvm-ompt)

echo "llvm-ompt: extracting openmp/runtime/test from $(basename "$orig")" >&2
rm -rf "$dest"
mkdir -p "$dest"
tar -xf "$orig" -C "$dest" --strip-components=1 --wildcards \
  '*/openmp/runtime/test/*' '*/openmp/runtime/src/include/omp-tools.h.var'
for f in $stamp; do
  [ -e "$dest/$f" ] || { echo "llvm-ompt: extraction incomplete ($f)" >&2; exit 1; }
done
echo "$stamp" > "$dest/.complete"
echo "$dest/openmp/runtime"
