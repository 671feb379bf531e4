#!/usr/bin/env bash
# Install what pvomp needs on a fresh Debian 12 machine (as root), then build.
# Usage: scripts/setup.sh [build-dir]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}

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

cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPVOMP_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
