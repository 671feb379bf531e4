/* Events that only clang-compiled programs produce: clang calls the
 * runtime for masked/master (__kmpc_masked), for a reduction's combining
 * step (__kmpc_reduce*) and for flush (__kmpc_flush), where gcc's code does
 * them inline.  They fire for clang programs only; set_callback answers
 * ompt_set_always for them, as libomp does (callbacks.c says why). */
#include "ompt/events.h"

void pv_ompt_masked(int endpoint, const void *codeptr)
{
    pv_ompt_enter();
    if (!pv_ompt_on(masked))
        return;
    pv_ompt_call(masked, endpoint, pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data,
                 pv_ompt_codeptr(codeptr));
}

void pv_ompt_reduction(int endpoint, const void *codeptr)
{
    pv_ompt_enter();
    if (!pv_ompt_on(reduction))
        return;
    pv_ompt_callt(reduction, sync_region, ompt_sync_region_reduction, endpoint,
                  pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data, pv_ompt_codeptr(codeptr));
}

void pv_ompt_flush(const void *codeptr)
{
    pv_ompt_enter();
    if (!pv_ompt_on(flush))
        return;
    pv_ompt_call(flush, pv_ompt_get_thread_data(), pv_ompt_codeptr(codeptr));
}
