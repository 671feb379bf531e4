# The modules of libgomp.so.1, each a CMake OBJECT library that sees only its
# own headers and those of the modules below it (docs/DESIGN.md, "Layers").
#
# Every header is included by its path under src/ ("wait/wait.h").  A module
# does not get -Isrc: it gets -I<build>/layers/<module>, a directory holding
# one symbolic link per module it may use (itself and those below), so an
# include that climbs ("runtime/team.h" from src/wait) finds no file and
# the build fails.  tests/layers checks that it does, and that no module's
# objects call a function of a module above it (a bare declaration would
# get past the include directories, not past that test).
#
# A module may also see single headers of a module it does not see whole
# (VIEWS <module>/<header>...): its directory then holds a real <module>/
# directory with one link per such header, and every other header of that
# module is not found.  src/ompt sees the runtime so: runtime/ompt_view.h
# and runtime/barrier_kind.h, never runtime/team.h.  (src/abi, the
# two ABIs' headers, is below every construct family: they see it whole.)
#
# A module may call entry points of a module whose headers it does not see
# at all (CALLS <module>...): the ABI declares them (abi/gomp.h, omp.h), so the
# link check admits the calls and the include directories stay shut.
# src/target calls src/tasks so (GOMP_task), src/api src/tasks
# (omp_fulfill_event_), src/tasks src/parallel (the gtid).
#
# pvomp_module(<name> BELOW <module>... [VIEWS <module>/<header>...]
#              [CALLS <module>...] SOURCES <file>...)
# All modules take their compile flags from the interface library
# pvomp_flags (definitions that the options add, e.g. PVOMP_NO_OMPT).

add_library(pvomp_flags INTERFACE)
target_compile_definitions(pvomp_flags INTERFACE _GNU_SOURCE PVOMP_BUILD)
target_include_directories(pvomp_flags INTERFACE ${CMAKE_SOURCE_DIR}/include)

set(PVOMP_LAYERS_DIR ${CMAKE_BINARY_DIR}/layers)
set(PVOMP_MODULES)

function(pvomp_module name)
  cmake_parse_arguments(M "" "" "BELOW;VIEWS;CALLS;SOURCES" ${ARGN})
  set(view ${PVOMP_LAYERS_DIR}/${name})
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view})
  foreach(m ${name} ${M_BELOW})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${m} ${view}/${m} SYMBOLIC)
  endforeach()
  foreach(h ${M_VIEWS})
    get_filename_component(d ${h} DIRECTORY)
    if(d IN_LIST M_BELOW OR d STREQUAL name)
      message(FATAL_ERROR "pvomp_module(${name}): VIEWS ${h} of a module it sees whole")
    endif()
    file(MAKE_DIRECTORY ${view}/${d})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${h} ${view}/${h} SYMBOLIC)
  endforeach()
  add_library(pvomp_${name} OBJECT ${M_SOURCES})
  set_target_properties(pvomp_${name} PROPERTIES
    C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON)
  target_include_directories(pvomp_${name} PRIVATE ${view})
  # The generated trace points (gen/trace/events.h) belong to the trace module.
  if(name STREQUAL trace OR "trace" IN_LIST M_BELOW)
    target_include_directories(pvomp_${name} PRIVATE ${GEN_DIR})
    add_dependencies(pvomp_${name} pvomp_trace_events)
  endif()
  target_link_libraries(pvomp_${name} PRIVATE pvomp_flags)
  # What the module may call, for the link check (tests/layers/links.py):
  # anything of the modules below it and of those it CALLS, and of a module it sees through VIEWS
  # only what those headers name.
  set_property(GLOBAL PROPERTY PVOMP_CALLS_${name} ${M_BELOW} ${M_CALLS})
  set(view_paths)
  foreach(h ${M_VIEWS})
    list(APPEND view_paths ${CMAKE_SOURCE_DIR}/src/${h})
  endforeach()
  set_property(GLOBAL PROPERTY PVOMP_VIEWS_${name} ${view_paths})
  set(PVOMP_MODULES ${PVOMP_MODULES} ${name} PARENT_SCOPE)
endfunction()

macro(pvomp_glob var)
  file(GLOB ${var} CONFIGURE_DEPENDS ${ARGN})
endmacro()
