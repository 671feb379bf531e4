/* The callback registry: ompt_set_callback and ompt_get_callback.
 *
 * What set_callback answers is what pvomp really does for gcc 12 programs
 * (docs/ompt.md explains every entry):
 *   always     - dispatched at every occurrence of the event that reaches the
 *                runtime.  Where the only occurrences missed are constructs
 *                the compiler never reports to any runtime (gcc 12's inline
 *                static loops and distribute for work and dispatch; its
 *                masked, flush and reductions, which it compiles without a
 *                call), pvomp answers always, as libomp does and as tools
 *                expect (Score-P builds without OMPT unless work is always);
 *   sometimes  - (none at present);
 *   impossible - (none at present);
 *   never      - the event cannot occur on pvomp (none at present; target
 *                and device events are src/target's, on its host device).
 * Callbacks answered never or impossible are not registered, so a later
 * get_callback reports none. */
#include <time.h>
#include <stddef.h>

#include "ompt/tool.h"

ompt_callback_t pv_ompt_callbacks[PV_OMPT_NEVENTS];

static const unsigned char support[PV_OMPT_NEVENTS] = {
    [ompt_callback_thread_begin] = ompt_set_always,
    [ompt_callback_thread_end] = ompt_set_always,
    [ompt_callback_parallel_begin] = ompt_set_always,
    [ompt_callback_parallel_end] = ompt_set_always,
    [ompt_callback_task_create] = ompt_set_always,
    [ompt_callback_task_schedule] = ompt_set_always,
    [ompt_callback_implicit_task] = ompt_set_always,
    [ompt_callback_target] = ompt_set_always,
    [ompt_callback_target_data_op] = ompt_set_always,
    [ompt_callback_target_submit] = ompt_set_always,
    [ompt_callback_control_tool] = ompt_set_always,
    [ompt_callback_device_initialize] = ompt_set_always,
    [ompt_callback_device_finalize] = ompt_set_always,
    [ompt_callback_device_load] = ompt_set_always,
    [ompt_callback_device_unload] = ompt_set_always,
    [ompt_callback_sync_region_wait] = ompt_set_always,
    [ompt_callback_mutex_released] = ompt_set_always,
    [ompt_callback_dependences] = ompt_set_always,
    [ompt_callback_task_dependence] = ompt_set_always,
    [ompt_callback_work] = ompt_set_always,
    [ompt_callback_masked] = ompt_set_always,     /* clang programs (ev_kmpc.c) */
    [ompt_callback_target_map] = ompt_set_always,
    [ompt_callback_sync_region] = ompt_set_always,
    [ompt_callback_lock_init] = ompt_set_always,
    [ompt_callback_lock_destroy] = ompt_set_always,
    [ompt_callback_mutex_acquire] = ompt_set_always,
    [ompt_callback_mutex_acquired] = ompt_set_always,
    [ompt_callback_nest_lock] = ompt_set_always,
    [ompt_callback_flush] = ompt_set_always,      /* clang programs */
    [ompt_callback_cancel] = ompt_set_always,
    [ompt_callback_reduction] = ompt_set_always,  /* clang programs */
    [ompt_callback_dispatch] = ompt_set_always,
    [ompt_callback_target_emi] = ompt_set_always,
    [ompt_callback_target_data_op_emi] = ompt_set_always,
    [ompt_callback_target_submit_emi] = ompt_set_always,
    [ompt_callback_target_map_emi] = ompt_set_always,
    [ompt_callback_error] = ompt_set_always,
};

ompt_set_result_t pv_ompt_support(int event)
{
    if (event <= 0 || event >= PV_OMPT_NEVENTS || !support[event])
        return ompt_set_error;
    return (ompt_set_result_t)support[event];
}

ompt_set_result_t pv_ompt_set_callback(ompt_callbacks_t event, ompt_callback_t callback)
{
    ompt_set_result_t r = pv_ompt_support((int)event);
    if (r == ompt_set_error)
        return r;
    /* A NULL callback unregisters. */
    ompt_callback_t stored = r > ompt_set_impossible ? callback : NULL;
    __atomic_store_n(&pv_ompt_callbacks[event], stored, __ATOMIC_RELEASE);
    return r;
}

int pv_ompt_get_callback(ompt_callbacks_t event, ompt_callback_t *callback)
{
    if (pv_ompt_support((int)event) == ompt_set_error || !callback)
        return 0;
    ompt_callback_t cb = __atomic_load_n(&pv_ompt_callbacks[event], __ATOMIC_ACQUIRE);
    if (!cb)
        return 0;
    *callback = cb;
    return 1;
}

struct pv_ompt_dispatch_slot pv_ompt_dispatching[64];
__thread unsigned pv_ompt_dispatch_depth __attribute__((tls_model("initial-exec")));

void pv_ompt_clear_callbacks(void)
{
    /* seq_cst: the first half of the pairing in ompt.h. */
    for (int i = 0; i < PV_OMPT_NEVENTS; i++)
        __atomic_store_n(&pv_ompt_callbacks[i], NULL, __ATOMIC_SEQ_CST);
}

void pv_ompt_wait_until(bool (*done)(void))
{
    struct timespec nap = { 0, 50000 };
    for (int i = 0; i < 20000 && !done(); i++)
        nanosleep(&nap, NULL);
}

/* No callback in progress but the calling thread's own (seq_cst loads: the
 * second half of the pairing in ompt.h). */
static bool dispatches_ended(void)
{
    unsigned long busy = 0;
    for (int k = 0; k < 64; k++)
        busy += __atomic_load_n(&pv_ompt_dispatching[k].n, __ATOMIC_SEQ_CST);
    return busy <= pv_ompt_dispatch_depth;
}

void pv_ompt_wait_dispatches(void)
{
    pv_ompt_wait_until(dispatches_ended);
}
