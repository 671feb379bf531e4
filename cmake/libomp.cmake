# libomp's names for libgomp.so.1 in build/lib, so that clang-compiled
# programs load pvomp (its __kmpc_*@VERSION entries are the construct
# families', src/*/kmpc_*.c, and src/abi's).
# Run time: libomp.so.5 is the same file as libgomp.so.1.
add_custom_command(TARGET pvomp POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink libgomp.so.1 ${PVOMP_LIB_DIR}/libomp.so.5
  VERBATIM)
# Link time: libomp.so is a small library of its own (gen_abi.py's
# libomp_link.c, every symbol an alias of one that is never run) with soname
# libomp.so.5 and libomp's default versions.  `clang -fopenmp -L build/lib`
# then binds omp_*_nest_lock and omp_fulfill_event to @VERSION (libomp's
# layouts; libgomp.so.1's defaults are gcc's) and records libomp.so.5, which
# loads pvomp.  An older build's libomp.so was a link to libgomp.so.1: the
# linker would write through it, so it goes first.
if(IS_SYMLINK ${PVOMP_LIB_DIR}/libomp.so)
  file(REMOVE ${PVOMP_LIB_DIR}/libomp.so)
endif()
add_library(pvomp_libomp_link SHARED ${GEN_DIR}/libomp_link.c)
set_target_properties(pvomp_libomp_link PROPERTIES
  OUTPUT_NAME omp NO_SONAME ON LIBRARY_OUTPUT_DIRECTORY ${PVOMP_LIB_DIR}
  LINK_DEPENDS ${GEN_DIR}/libomp_link.map)
target_link_options(pvomp_libomp_link PRIVATE -Wl,-soname,libomp.so.5
  -Wl,--version-script=${GEN_DIR}/libomp_link.map)
add_dependencies(pvomp pvomp_libomp_link)
