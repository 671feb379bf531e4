#!/usr/bin/env bash
# Install what pvomp needs on a fresh Debian 12 machine (as root), then build.
# Usage: scripts/setup.sh [--demo] [build-dir]
#   --demo: only what the demo runs (the runtime, pvomp-run, pvomp-trace) and
#           the packages they need; no tests, benchmarks or tracker.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
demo=0
if [ "${1:-}" = --demo ]; then
  demo=1
  shift
fi
build=${1:-$here/build}

demo_packages=(
  build-essential cmake python3 pkg-config              # the runtime
  libdw-dev                                             # pvomp-trace names code (symbols, lines)
)
packages=(
  build-essential cmake python3 pkg-config git
  clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev   # eBPF phantom tracker
  libomp-dev                                            # LLVM libomp + omp-tools.h, Archer
  liblttng-ust-dev lttng-tools                          # tracing benchmark reference
  valgrind gdb                                          # stress tests
  chromium                                              # HTML timeline screenshot test
  dpkg-dev xz-utils                                     # apt-get source gcc-12, llvm-toolchain-16 (testsuites)
  gfortran                                              # Fortran bindings: tests/unit, libgomp.fortran
  libdw-dev                                             # pvomp-trace names code (symbols, lines)
  openmpi-bin libopenmpi-dev                            # merged logs of MPI ranks (trace_names_mpi)
)
if ((demo)); then
  packages=("${demo_packages[@]}")
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages (${missing[*]}); run as root to install them" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ((demo)); then
  # A build directory configured before (with its tests) keeps its settings;
  # a new one is configured without tests.  Either way only the demo's
  # targets are built.
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPVOMP_WERROR=ON \
      -DPVOMP_TESTS=OFF >/dev/null
  fi
  cmake --build "$build" -j"$(nproc)" --target pvomp pvomp-run pvomp-trace
else
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPVOMP_WERROR=ON \
    -DPVOMP_TESTS=ON >/dev/null
  cmake --build "$build" -j"$(nproc)"
fi
