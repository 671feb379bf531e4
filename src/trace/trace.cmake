# The flight log (src/trace), included by the top-level CMakeLists.txt before
# the modules are defined.  The C trace points are generated from
# the catalog (trace-events) at build time.

set(PV_TRACE_DIR ${CMAKE_SOURCE_DIR}/src/trace)
set(PV_TRACE_GEN ${GEN_DIR}/trace)
file(MAKE_DIRECTORY ${PV_TRACE_GEN})

add_custom_command(
  OUTPUT ${PV_TRACE_GEN}/events.h ${PV_TRACE_GEN}/events.c
  COMMAND ${Python3_EXECUTABLE} ${PV_TRACE_DIR}/tracegen.py --runtime
          ${PV_TRACE_DIR}/trace-events ${PV_TRACE_GEN}/events.h ${PV_TRACE_GEN}/events.c
  DEPENDS ${PV_TRACE_DIR}/tracegen.py ${PV_TRACE_DIR}/trace-events
  COMMENT "Generating trace points from src/trace/trace-events")
add_custom_target(pvomp_trace_events DEPENDS ${PV_TRACE_GEN}/events.h ${PV_TRACE_GEN}/events.c)

# events.c is compiled into the trace module and gen/ is on the include path
# of the modules above it (cmake/layers.cmake, the top-level CMakeLists.txt).

# The generator, for programs that declare their own events.
add_custom_command(
  OUTPUT ${PVOMP_BIN_DIR}/pvomp-tracegen
  COMMAND ${CMAKE_COMMAND} -E copy ${PV_TRACE_DIR}/tracegen.py ${PVOMP_BIN_DIR}/pvomp-tracegen
  DEPENDS ${PV_TRACE_DIR}/tracegen.py)
add_custom_target(pvomp_tracegen ALL DEPENDS ${PVOMP_BIN_DIR}/pvomp-tracegen)

include(${PV_TRACE_DIR}/PvompTraceEvents.cmake)
