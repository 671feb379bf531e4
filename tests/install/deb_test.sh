#!/bin/sh
# deb_test.sh BUILD HELLO_SOURCE: `cpack -G DEB` in BUILD, install the .deb on
# this machine with apt-get (dependencies resolved by apt), run a user's
# OpenMP program, a traced run and `pvomp-trace stats` from the installed
# files only (run_installed.sh /usr), then purge it and check that nothing is
# left and that the system's libgomp.so.1 was never touched.  It changes the
# machine, so it runs only as root (CI); otherwise it is skipped (exit 77).
set -eu
build=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "installing a .deb needs root (CI runs this test as root)"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "no apt-get/dpkg: not a Debian system"
if dpkg -s pvomp >/dev/null 2>&1; then
    skip "a pvomp package is already installed here; not replacing it"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pvomp_*.deb)
dpkg-deb -f "$deb" Depends | grep -q libc6 || fail "the .deb declares no dependencies"
if dpkg-deb -c "$deb" | grep -E '/libgomp\.so' | grep -vq '/pvomp/'; then
    fail "the .deb ships a libgomp outside a pvomp directory"
fi

sys_gomp=$(ldconfig -p | awk '/libgomp\.so\.1 /{print $NF; exit}')
before=$( [ -n "$sys_gomp" ] && md5sum "$(readlink -f "$sys_gomp")" || true)

# From here on, always try to purge again.
trap 'dpkg -s pvomp >/dev/null 2>&1 && apt-get purge -y -q pvomp >/dev/null 2>&1; rm -rf "$work"' EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$work/apt.log" 2>&1 \
    || { cat "$work/apt.log"; fail "apt-get install $deb"; }
[ "$(command -v pvomp-run)" = /usr/bin/pvomp-run ] || fail "pvomp-run is not on the PATH"
sh "$here/run_installed.sh" /usr "$src"
after=$( [ -n "$sys_gomp" ] && md5sum "$(readlink -f "$sys_gomp")" || true)
[ "$before" = "$after" ] || fail "the system's libgomp.so.1 changed"
new_sys=$(ldconfig -p | awk '/libgomp\.so\.1 /{print $NF; exit}')
[ "$new_sys" = "$sys_gomp" ] || fail "the loader now finds libgomp.so.1 at $new_sys, not $sys_gomp"

DEBIAN_FRONTEND=noninteractive apt-get purge -y -q pvomp >"$work/apt.log" 2>&1 \
    || { cat "$work/apt.log"; fail "apt-get purge pvomp"; }
dpkg -s pvomp >/dev/null 2>&1 && fail "pvomp is still installed after the purge"
[ ! -e /usr/bin/pvomp-run ] && [ ! -e /usr/lib/pvomp ] || fail "files are left after the purge"
echo "deb: installed, used and purged cleanly"
