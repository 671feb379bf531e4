#!/usr/bin/env bash
# Download the orig tarball of a Debian bookworm source package with a
# private apt configuration (no change to the system's apt sources), keep it
# in <dl-dir>, and print its path; reuses a tarball already there.
# Usage: deb-source-orig.sh <source-package> <dl-dir> <scratch-dir> <log-tag>
# Used by scripts/testsuite/fetch.sh (gcc-12) and scripts/llvm-ompt/fetch.sh
# (llvm-toolchain-16).
set -euo pipefail
pkg=$1 dl=$2 work=$3 tag=$4
orig=$(ls "$dl"/"${pkg}"_*.orig.tar.* 2>/dev/null | head -n1 || true)
if [ -n "$orig" ]; then
  echo "$orig"
  exit 0
fi
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)             # apt needs absolute paths
mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
cat > "$work/sources.list.d/$pkg-src.sources" <<'SRC'
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
echo "$tag: fetching the $pkg source package (once; cached in $dl)" >&2
apt-get "${apt_opts[@]}" update >"$work/update.log" 2>&1 ||
  { cat "$work/update.log" >&2; echo "$tag: apt-get update failed" >&2; exit 1; }
(cd "$work/dl" && apt-get "${apt_opts[@]}" source --download-only "$pkg") >"$work/source.log" 2>&1 ||
  { cat "$work/source.log" >&2; echo "$tag: apt-get source failed" >&2; exit 1; }
# apt-get has checked the files against the signed .dsc; keep the orig tarball.
mkdir -p "$dl"
mv "$(ls "$work"/dl/"${pkg}"_*.orig.tar.* | head -n1)" "$dl/"
rm -rf "$work"
ls "$dl"/"${pkg}"_*.orig.tar.* | head -n1
