# pvomp_trace_events(<target> <trace-events file> [GROUP <name>] [PREFIX <prefix>])
#
# Generates <name>-trace.h / <name>-trace.c from a trace-events file, compiles
# the .c into <target> and puts the header's directory on its include path.
# The program then includes "<name>-trace.h" and calls trace_<event>(...).
# Include this file from your own project (it needs only Python 3 and the
# directory of pvomp's include/pvomp/trace.h, given as PVOMP_INCLUDE_DIR when
# used outside the pvomp tree).
if(NOT DEFINED PVOMP_TRACEGEN)
  set(PVOMP_TRACEGEN ${CMAKE_CURRENT_LIST_DIR}/tracegen.py)
endif()
if(NOT DEFINED PVOMP_INCLUDE_DIR)
  get_filename_component(PVOMP_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../../include ABSOLUTE)
endif()
if(NOT Python3_EXECUTABLE)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()

function(pvomp_trace_events target events)
  cmake_parse_arguments(E "" "GROUP;PREFIX" "" ${ARGN})
  if(NOT E_GROUP)
    set(E_GROUP ${target})
  endif()
  if(NOT E_PREFIX)
    set(E_PREFIX trace_)
  endif()
  get_filename_component(events ${events} ABSOLUTE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}-trace)
  file(MAKE_DIRECTORY ${dir})
  add_custom_command(
    OUTPUT ${dir}/${E_GROUP}-trace.h ${dir}/${E_GROUP}-trace.c
    COMMAND ${Python3_EXECUTABLE} ${PVOMP_TRACEGEN} --group ${E_GROUP} --prefix ${E_PREFIX}
            ${events} ${dir}/${E_GROUP}-trace.h ${dir}/${E_GROUP}-trace.c
    DEPENDS ${PVOMP_TRACEGEN} ${events}
    COMMENT "Generating trace points of ${target} from ${events}")
  target_sources(${target} PRIVATE ${dir}/${E_GROUP}-trace.c ${dir}/${E_GROUP}-trace.h)
  target_include_directories(${target} PRIVATE ${dir} ${PVOMP_INCLUDE_DIR})
endfunction()
