#!/usr/bin/env bash
# build-matrix.sh [DIR]: build pvomp in every usual way, each with warnings as
# errors: the build types Release, Debug, RelWithDebInfo, MinSizeRel with gcc
# and with clang as pvomp's own compiler, and once with the optional part
# (the eBPF phantom tracker) forced off.  Each entry builds the runtime and
# the tools only (PVOMP_TESTS=OFF); the tests run on the main build
# (scripts/test.sh).  Builds go to DIR/<compiler>-<type>[-nophantom]
# (default build/matrix).  Exit status 1 if any entry fails.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/build/matrix}
jobs=${PVOMP_MATRIX_JOBS:-2}
mkdir -p "$dir"

entries=()
for cc in gcc clang; do
    for type in Release Debug RelWithDebInfo MinSizeRel; do
        entries+=("$cc $type ON")
    done
done
entries+=("gcc RelWithDebInfo OFF")

status=0
summary=()
for e in "${entries[@]}"; do
    read -r cc type phantom <<<"$e"
    name=$cc-$type$([ "$phantom" = OFF ] && echo -nophantom)
    b=$dir/$name
    if ! command -v "$cc" >/dev/null; then
        echo "build-matrix: $name: FAILED ($cc is not installed; scripts/setup.sh installs it)"
        summary+=("$name FAILED (no $cc)"); status=1; continue
    fi
    start=$SECONDS
    if CC=$cc cmake -S "$here" -B "$b" -DCMAKE_BUILD_TYPE="$type" -DPVOMP_WERROR=ON \
            -DPVOMP_TESTS=OFF -DPVOMP_PHANTOM="$phantom" >"$b.log" 2>&1 &&
       cmake --build "$b" -j"$jobs" >>"$b.log" 2>&1; then
        summary+=("$name ok ($((SECONDS - start)) s)")
    else
        echo "build-matrix: $name FAILED; the end of $b.log:"
        tail -40 "$b.log"
        summary+=("$name FAILED ($((SECONDS - start)) s, $b.log)"); status=1
    fi
done
echo "== build matrix"
printf '  %s\n' "${summary[@]}"
exit $status
