#!/usr/bin/env bash
# Bring the libgomp testsuite of GCC 12 into a cache directory (outside git):
# download Debian's gcc-12 source package with a private apt configuration,
# keep its orig tarball in <cache-dir>/dl, and extract only the test
# directories the runner uses (C, C++, Fortran; not OpenACC).  Reuses the
# extraction when it holds all of them, and the kept tarball when a new
# extraction is needed (e.g. a cache made when only the C tests were used).
# Usage: fetch.sh <cache-dir>      (prints the extracted libgomp directory)
set -euo pipefail
cache=$1
dest=$cache/src                       # will hold libgomp/{testsuite,libgomp_g.h}, include/
dl=$cache/dl                          # the orig tarball of the source package
dirs=(libgomp.c libgomp.c-c++-common libgomp.c++ libgomp.fortran)   # of libgomp/testsuite
# and single files of the gcc tree: the GOMP prototypes a few tests include,
# the one OpenACC test file an OpenMP test includes (libgomp.fortran/pr90030.f90),
# and gcc's include/gomp-constants.h (libgomp.fortran/on_device_arch.c)
files=(libgomp/libgomp_g.h libgomp/testsuite/libgomp.oacc-fortran/pr90030.f90
       include/gomp-constants.h)
stamp="${dirs[*]} ${files[*]}"        # what an extraction holds (in .complete)
if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$stamp" ]; then
  echo "$dest/libgomp"
  exit 0
fi

orig=$(bash "$(dirname "$0")/../deb-source-orig.sh" gcc-12 "$dl" "$cache/fetch" testsuite)

inner=$(tar -tf "$orig" | grep -E '/gcc-[0-9.]+(-dfsg)?\.tar\.xz$' | head -n1)
[ -n "$inner" ] || { echo "testsuite: no gcc tarball inside $orig" >&2; exit 1; }
echo "testsuite: extracting libgomp/testsuite (${dirs[*]}) from $(basename "$orig"):$inner" >&2
rm -rf "$dest"
mkdir -p "$dest"
patterns=()
for f in "${files[@]}"; do
  patterns+=("*/$f")
done
for d in "${dirs[@]}"; do
  patterns+=("*/libgomp/testsuite/$d/*")
done
tar -xOf "$orig" "$inner" |
  tar -xJf - -C "$dest" --strip-components=1 --wildcards "${patterns[@]}"
for f in "${files[@]}"; do
  [ -f "$dest/$f" ] || { echo "testsuite: extraction incomplete ($f)" >&2; exit 1; }
done
for d in "${dirs[@]}"; do
  [ -d "$dest/libgomp/testsuite/$d" ] || { echo "testsuite: extraction incomplete ($d)" >&2; exit 1; }
done
echo "$stamp" > "$dest/.complete"
echo "$dest/libgomp"
