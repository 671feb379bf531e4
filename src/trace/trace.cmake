# The flight log (src/trace), included by the top-level CMakeLists.txt after
# the `pvomp` library target exists.  The C trace points are generated from
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

target_sources(pvomp PRIVATE ${PV_TRACE_GEN}/events.c)
add_dependencies(pvomp pvomp_trace_events)
# "trace/events.h" (generated) and "trace/trace.h" (src) for every pvomp file.
target_include_directories(pvomp PRIVATE ${GEN_DIR} ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)

# The generator, for programs that declare their own events.
add_custom_command(
  OUTPUT ${PVOMP_BIN_DIR}/pvomp-tracegen
  COMMAND ${CMAKE_COMMAND} -E copy ${PV_TRACE_DIR}/tracegen.py ${PVOMP_BIN_DIR}/pvomp-tracegen
  DEPENDS ${PV_TRACE_DIR}/tracegen.py)
add_custom_target(pvomp_tracegen ALL DEPENDS ${PVOMP_BIN_DIR}/pvomp-tracegen)

include(${PV_TRACE_DIR}/PvompTraceEvents.cmake)
