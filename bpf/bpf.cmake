# eBPF build support (CO-RE).  Included by bpf/CMakeLists.txt and by anything
# that uses a skeleton (tools/pvomp-phantomd, tests/phantom), whichever CMake
# reaches first.  At build time it
#   1. dumps the running kernel's BTF into vmlinux.h with bpftool,
#   2. compiles bpf/<name>.bpf.c with clang -target bpf,
#   3. generates the libbpf skeleton <name>.skel.h with `bpftool gen skeleton`.
# Users link the INTERFACE target pvomp_bpf_<name> (include path + libbpf)
# when PVOMP_BPF_OK is true.
include_guard(GLOBAL)

find_program(PVOMP_CLANG NAMES clang clang-14 clang-15 clang-16)
find_program(PVOMP_BPFTOOL NAMES bpftool PATHS /usr/sbin /usr/local/sbin)
find_library(PVOMP_LIBBPF NAMES bpf)
find_path(PVOMP_LIBBPF_INC bpf/libbpf.h)
set(PVOMP_KERNEL_BTF /sys/kernel/btf/vmlinux)
# The verdict is a cache variable so that every directory sees it, although
# this file runs only once (include_guard).

set(PVOMP_BPF_OK TRUE)
if(NOT PVOMP_PHANTOM)
  set(PVOMP_BPF_OK FALSE)
  message(STATUS "pvomp: PVOMP_PHANTOM=OFF: the eBPF phantom tracker is not built")
endif()
foreach(v PVOMP_CLANG PVOMP_BPFTOOL PVOMP_LIBBPF PVOMP_LIBBPF_INC)
  if(NOT PVOMP_PHANTOM)
    break()
  endif()
  if(NOT ${v})
    set(PVOMP_BPF_OK FALSE)
    message(WARNING "pvomp: ${v} not found; the eBPF phantom tracker is not built "
                    "(install clang, bpftool and libbpf-dev: scripts/setup.sh)")
  endif()
endforeach()
if(PVOMP_BPF_OK AND NOT EXISTS ${PVOMP_KERNEL_BTF})
  set(PVOMP_BPF_OK FALSE)
  message(WARNING "pvomp: ${PVOMP_KERNEL_BTF} does not exist (kernel without "
                  "CONFIG_DEBUG_INFO_BTF); the eBPF phantom tracker is not built")
endif()
set(PVOMP_BPF_OK ${PVOMP_BPF_OK} CACHE INTERNAL "eBPF toolchain and kernel BTF present")

set(PVOMP_BPF_SRC_DIR ${CMAKE_SOURCE_DIR}/bpf CACHE INTERNAL "")
set(PVOMP_BPF_GEN_DIR ${CMAKE_BINARY_DIR}/bpf-gen CACHE INTERNAL "")
file(MAKE_DIRECTORY ${PVOMP_BPF_GEN_DIR})

if(PVOMP_BPF_OK)
  add_custom_command(
    OUTPUT ${PVOMP_BPF_GEN_DIR}/vmlinux.h
    COMMAND ${PVOMP_BPFTOOL} btf dump file ${PVOMP_KERNEL_BTF} format c > vmlinux.h.tmp
    COMMAND ${CMAKE_COMMAND} -E rename vmlinux.h.tmp vmlinux.h
    WORKING_DIRECTORY ${PVOMP_BPF_GEN_DIR}
    COMMENT "Generating vmlinux.h from the kernel's BTF")

  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    set(PVOMP_BPF_ARCH x86)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
    set(PVOMP_BPF_ARCH arm64)
  else()
    set(PVOMP_BPF_ARCH ${CMAKE_SYSTEM_PROCESSOR})
  endif()
endif()

# pvomp_bpf_skeleton(name): bpf/<name>.bpf.c -> target pvomp_bpf_<name>.
function(pvomp_bpf_skeleton name)
  if(NOT PVOMP_BPF_OK OR TARGET pvomp_bpf_${name})
    return()
  endif()
  set(src ${PVOMP_BPF_SRC_DIR}/${name}.bpf.c)
  set(obj ${PVOMP_BPF_GEN_DIR}/${name}.bpf.o)
  set(skel ${PVOMP_BPF_GEN_DIR}/${name}.skel.h)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${PVOMP_CLANG} -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_${PVOMP_BPF_ARCH}
            -Wall -Werror -Wno-unused-function
            -I${PVOMP_BPF_GEN_DIR} -I${CMAKE_SOURCE_DIR}/include -I${PVOMP_LIBBPF_INC}
            -c ${src} -o ${obj}
    DEPENDS ${src} ${PVOMP_BPF_GEN_DIR}/vmlinux.h ${CMAKE_SOURCE_DIR}/include/pvomp/phantom.h
    COMMENT "Compiling eBPF program ${name}.bpf.c")
  add_custom_command(
    OUTPUT ${skel}
    COMMAND ${PVOMP_BPFTOOL} gen skeleton ${obj} name ${name}_bpf > ${skel}.tmp
    COMMAND ${CMAKE_COMMAND} -E rename ${skel}.tmp ${skel}
    DEPENDS ${obj}
    COMMENT "Generating libbpf skeleton ${name}.skel.h")
  add_custom_target(pvomp_bpf_${name}_gen DEPENDS ${skel})
  add_library(pvomp_bpf_${name} INTERFACE)
  add_dependencies(pvomp_bpf_${name} pvomp_bpf_${name}_gen)
  target_include_directories(pvomp_bpf_${name} INTERFACE ${PVOMP_BPF_GEN_DIR}
                             ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(pvomp_bpf_${name} INTERFACE ${PVOMP_LIBBPF} elf z)
endfunction()

pvomp_bpf_skeleton(phantom)
pvomp_bpf_skeleton(waitobs)
