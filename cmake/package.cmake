# `cpack -G DEB` in the build directory: pvomp_<version>_<arch>.deb, installed
# under /usr.  The runtime lands in /usr/lib/pvomp/ (see install.cmake), so the
# package never replaces or shadows the system's libgomp.so.1; programs reach
# it through pvomp-run, pkg-config or find_package(pvomp).
set(CPACK_PACKAGE_NAME pvomp)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "pvomp developers <pvomp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "OpenMP runtime for gcc programs with OMPT, a flight log and pvsched")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Dependencies from the binaries (dpkg-shlibdeps: libc6, libbpf1, libelf1, ...).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The private directory /usr/lib/pvomp is not on the loader's path: tell
# dpkg-shlibdeps where our own libgomp.so.1 is so it is not looked up as libgomp1.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PVOMP_LIB_DIR})
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc")
set(CPACK_GENERATOR DEB)
include(CPack)
