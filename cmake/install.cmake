# `cmake --install <build> [--prefix P]`: what goes where (README.md, "Install").
#
#   P/lib/pvomp/libgomp.so.1        the runtime (and libomp.so.5: the same file; libomp.so: for linking), in a directory of its own so
#                                   that it never shadows the system's libgomp
#                                   for programs that did not ask for pvomp
#   P/bin/pvomp-run, pvomp-trace, pvomp-version
#   P/sbin/pvomp-phantomd, P/lib/systemd/system/pvomp-phantomd.service
#                                   (when the phantom tracker is built)
#   P/include/omp-tools.h, P/include/pvomp/*.h
#   P/lib/pkgconfig/pvomp.pc, P/lib/cmake/pvomp/  (pkg-config, find_package)
#   P/share/man/man1/*.1
# (lib is CMAKE_INSTALL_LIBDIR: lib/<multiarch> for the /usr prefix on Debian.)
include(CMakePackageConfigHelpers)

set(PVOMP_INSTALL_RTDIR ${CMAKE_INSTALL_LIBDIR}/pvomp)
install(TARGETS pvomp
  LIBRARY DESTINATION ${PVOMP_INSTALL_RTDIR} COMPONENT runtime)
# libomp's run-time name for the same file, and the link-time libomp.so
# (cmake/libomp.cmake), beside it, so that clang-compiled programs link and
# load pvomp from there too.
install(FILES ${PVOMP_LIB_DIR}/libomp.so.5
  DESTINATION ${PVOMP_INSTALL_RTDIR} COMPONENT runtime)
if(TARGET pvomp_libomp_link)
  install(TARGETS pvomp_libomp_link LIBRARY DESTINATION ${PVOMP_INSTALL_RTDIR} COMPONENT runtime)
endif()

install(FILES ${CMAKE_SOURCE_DIR}/include/omp-tools.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/pvomp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS pvomp-trace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        FILES_MATCHING PATTERN "*.1")

# pkg-config: `cc -fopenmp $(pkg-config --cflags --libs pvomp)` links against
# pvomp's libgomp and records its directory as the program's RUNPATH.
file(RELATIVE_PATH PVOMP_PC_UP /x/${CMAKE_INSTALL_LIBDIR}/pkgconfig /x)
string(REGEX REPLACE "/$" "" PVOMP_PC_UP "${PVOMP_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/pvomp.pc.in ${CMAKE_BINARY_DIR}/pvomp.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pvomp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(pvomp): the imported target pvomp::pvomp does the same.
set(PVOMP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pvomp)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pvompConfig.cmake.in
  ${CMAKE_BINARY_DIR}/pvompConfig.cmake INSTALL_DESTINATION ${PVOMP_CMAKE_DIR}
  PATH_VARS PVOMP_INSTALL_RTDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/pvompConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/pvompConfig.cmake ${CMAKE_BINARY_DIR}/pvompConfigVersion.cmake
        DESTINATION ${PVOMP_CMAKE_DIR})
