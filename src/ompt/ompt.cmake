# OMPT build options (included by the top-level CMakeLists.txt).
#
# PVOMP_OMPT=OFF compiles every OMPT event site out of the runtime
# (-DPVOMP_NO_OMPT), for the overhead benchmark in bench/ompt; such a
# library never looks for a tool.
option(PVOMP_OMPT "Dispatch OMPT events (OFF: compile the event sites out)" ON)
if(NOT PVOMP_OMPT)
  target_compile_definitions(pvomp_flags INTERFACE PVOMP_NO_OMPT)
endif()
