/* omp_control_tool (OpenMP 5.1, 3.14): the program talks to the tool.
 * Not part of libgomp 12's ABI; pvomp exports it in its own node
 * (PVOMP_1.0), where an unversioned reference binds to it. */
#include <stdint.h>

#include "ompt/events.h"
#include "ompt/tool.h"

enum {
    PV_CONTROL_TOOL_NOTOOL = -2,      /* omp_control_tool_notool */
    PV_CONTROL_TOOL_NOCALLBACK = -1,  /* omp_control_tool_nocallback */
};

PV_EXPORT int omp_control_tool(int command, int modifier, void *arg)
{
    if (!pv_ompt_tool())
        return PV_CONTROL_TOOL_NOTOOL;
    pv_ompt_thread_ensure();
    /* The task is in the runtime during the callback: its reenter frame is
     * this call's frame (as libomp's; the tool's control_tool callback
     * reads it with ompt_get_task_info). */
    ompt_frame_t *frame = &pv_ompt_cur_task()->frame;
    ompt_frame_t saved = *frame;
    frame->enter_frame.ptr = __builtin_frame_address(0);
    frame->enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    /* One load, inside the count of callbacks in progress (ompt.h): NULL
     * means no callback. */
    unsigned long *n = pv_ompt_dispatch_begin();
    ompt_callback_control_tool_t cb = (ompt_callback_control_tool_t)__atomic_load_n(
        &pv_ompt_callbacks[ompt_callback_control_tool], __ATOMIC_SEQ_CST);
    int ret = cb ? cb((uint64_t)command, (uint64_t)modifier, arg, __builtin_return_address(0))
                 : PV_CONTROL_TOOL_NOCALLBACK;
    pv_ompt_dispatch_end(n);
    *frame = saved;
    return ret;
}
