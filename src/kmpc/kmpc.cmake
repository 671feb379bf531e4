# libomp's ABI (__kmpc_*@VERSION) in the same libgomp.so.1, and libomp's
# names for that file in build/lib, so clang-compiled programs load pvomp.
file(GLOB PVOMP_KMPC_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/kmpc/*.c)
# An entry-point module above the runtime (cmake/layers.cmake).
pvomp_module(kmpc BELOW runtime ompt target wait trace phantom base SOURCES ${PVOMP_KMPC_SOURCES})
target_link_libraries(pvomp PRIVATE pvomp_kmpc)
add_custom_command(TARGET pvomp POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink libgomp.so.1 ${PVOMP_LIB_DIR}/libomp.so.5
  COMMAND ${CMAKE_COMMAND} -E create_symlink libgomp.so.1 ${PVOMP_LIB_DIR}/libomp.so
  VERBATIM)
