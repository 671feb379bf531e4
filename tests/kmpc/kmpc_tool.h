/* The OMPT tool of a kmpc test is the program itself: KMPC_TOOL(init)
 * defines its ompt_start_tool, with `init` as the tool's initializer and a
 * finalizer that does nothing (the test checks its counts in main). */
#ifndef KMPC_TOOL_H
#define KMPC_TOOL_H

#include <omp-tools.h>

static void kmpc_tool_fini(ompt_data_t *data)
{
    (void)data;
}

#define KMPC_TOOL(init)                                                                 \
    ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)   \
    {                                                                                   \
        (void)version, (void)runtime;                                                   \
        static ompt_start_tool_result_t r = {init, kmpc_tool_fini, {0}};                \
        return &r;                                                                      \
    }

#endif
