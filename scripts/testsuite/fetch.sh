#!/usr/bin/env bash
# Bring the libgomp testsuite of GCC 12 into a cache directory (outside git):
# download Debian's gcc-12 source package with a private apt configuration,
# then extract only what the C tests need.  Reuses the cache when present.
# Usage: fetch.sh <cache-dir>      (prints the extracted libgomp directory)
set -euo pipefail
cache=$1
dest=$cache/src                       # will hold libgomp/{testsuite,libgomp_g.h}
if [ -f "$dest/.complete" ]; then
  echo "$dest/libgomp"
  exit 0
fi

work=$cache/fetch
rm -rf "$work" "$dest"
mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
cat > "$work/sources.list.d/gcc-12-src.sources" <<'SRC'
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
echo "testsuite: fetching the gcc-12 source package (once; cached in $cache)" >&2
apt-get "${apt_opts[@]}" update >"$work/update.log" 2>&1 ||
  { cat "$work/update.log" >&2; echo "testsuite: apt-get update failed" >&2; exit 1; }
(cd "$work/dl" && apt-get "${apt_opts[@]}" source --download-only gcc-12) >"$work/source.log" 2>&1 ||
  { cat "$work/source.log" >&2; echo "testsuite: apt-get source failed" >&2; exit 1; }

orig=$(ls "$work"/dl/gcc-12_*.orig.tar.* | head -n1)
inner=$(tar -tf "$orig" | grep -E '/gcc-[0-9.]+(-dfsg)?\.tar\.xz$' | head -n1)
[ -n "$inner" ] || { echo "testsuite: no gcc tarball inside $orig" >&2; exit 1; }
echo "testsuite: extracting libgomp/testsuite from $(basename "$orig"):$inner" >&2
mkdir -p "$dest"
tar -xOf "$orig" "$inner" |
  tar -xJf - -C "$dest" --strip-components=1 --wildcards \
      '*/libgomp/testsuite/libgomp.c/*' '*/libgomp/testsuite/libgomp.c-c++-common/*' \
      '*/libgomp/libgomp_g.h'
[ -f "$dest/libgomp/libgomp_g.h" ] && [ -d "$dest/libgomp/testsuite/libgomp.c" ] ||
  { echo "testsuite: extraction incomplete" >&2; exit 1; }
rm -rf "$work"
touch "$dest/.complete"
echo "$dest/libgomp"
