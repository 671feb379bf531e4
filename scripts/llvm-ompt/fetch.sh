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

orig=$(ls "$dl"/llvm-toolchain-16_*.orig.tar.* 2>/dev/null | head -n1 || true)
if [ -z "$orig" ]; then
  work=$cache/fetch
  rm -rf "$work"
  mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
  cat > "$work/sources.list.d/llvm-16-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_opts=(
    -o "Dir::Etc::SourceList=$work/none.list"
    -o "Dir::Etc::SourceParts=$work/sources.list.d"
    -o "Dir::State::Lists=$work/lists"
    -o "Dir::Cache=$work/cache"
    -o "APT::Sandbox::User=$(id -un)"
    -q
  )
  echo "llvm-ompt: fetching the llvm-toolchain-16 source package (once; cached in $cache)" >&2
  apt-get "${apt_opts[@]}" update >"$work/update.log" 2>&1 ||
    { cat "$work/update.log" >&2; echo "llvm-ompt: apt-get update failed" >&2; exit 1; }
  (cd "$work/dl" && apt-get "${apt_opts[@]}" source --download-only llvm-toolchain-16) >"$work/source.log" 2>&1 ||
    { cat "$work/source.log" >&2; echo "llvm-ompt: apt-get source failed" >&2; exit 1; }
  # apt-get has checked the files against the signed .dsc; keep the orig tarball.
  mkdir -p "$dl"
  mv "$(ls "$work"/dl/llvm-toolchain-16_*.orig.tar.* | head -n1)" "$dl/"
  rm -rf "$work"
  orig=$(ls "$dl"/llvm-toolchain-16_*.orig.tar.* | head -n1)
fi

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
