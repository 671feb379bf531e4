/* Worksharing events: work begin/end for loops, sections and single, and
 * dispatch of loop chunks and sections.
 *
 * What gcc 12 compiles without calling the runtime never reaches here:
 * loops with a static schedule (with or without chunk) and distribute are
 * scheduled inline, so they have no work or dispatch events; the callbacks
 * are still answered ompt_set_always (callbacks.c).  Loops report OpenMP
 * 5.2's work types (ompt_work_loop_static/_dynamic/_guided), both ABIs.
 * A single without copyprivate calls the runtime only at its start, so the
 * executor's work end is dispatched at its next runtime event (normally
 * the implicit barrier that follows); a clang program's __kmpc_end_single
 * marks it.  A single's end has count 1, as its begin
 * (as libomp). */
#include "ompt/events.h"

/* codeptr NULL: found by unwinding, only when the tool wants the event. */
static void work_event(int type, int endpoint, uint64_t count, const void *codeptr)
{
    if (!pv_ompt_on(work))
        return;
    pv_ompt_call(work, type, endpoint, pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data, count,
                 pv_ompt_codeptr(codeptr));
}

/* An OpenMP 5.2 chunk dispatch (ws_loop, taskloop or distribute chunk). */
static void dispatch_chunk(int kind, uint64_t start, uint64_t n)
{
    ompt_dispatch_chunk_t chunk = {start, n};
    ompt_data_t instance = {.ptr = &chunk};
    pv_ompt_call(dispatch, pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data, kind, instance);
}

static void work_begin(int type, uint64_t count, const void *codeptr)
{
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = type;
    work_event(type, ompt_scope_begin, count, codeptr);
}

void pv_ompt_loop_begin(struct pv_ws *ws)
{
    pv_ompt_enter();
    /* OpenMP 5.2's loop work type of the schedule that runs (as libomp 19;
     * ompt_work_loop, 5.1's, is deprecated by 5.2). */
    work_begin(pv_ws_loop_work_type(ws), pv_ws_count(ws), NULL);
}

void pv_ompt_sections_begin(struct pv_ws *ws)
{
    pv_ompt_enter();
    const void *codeptr = NULL;
    if (pv_ompt_on(work) || pv_ompt_on(dispatch))
        codeptr = pv_ompt_codeptr(NULL);
    const void **slot = pv_ompt_sections_codeptr_slot();
    if (slot)
        *slot = codeptr;
    work_begin(ompt_work_sections, pv_ws_count(ws), codeptr);
}

static void work_end_at(const void *codeptr)
{
    int *slot = pv_ompt_work_slot();
    int type = slot ? *slot : 0;
    if (!type)
        return;
    *slot = 0;
    bool single = type == ompt_work_single_executor || type == ompt_work_single_other;
    /* The end carries the begin's type (the slot), the loop's schedule too. */
    work_event(type, ompt_scope_end, single, codeptr);
}

void pv_ompt_work_end(void)
{
    pv_ompt_enter();
    work_end_at(NULL);
}

/* clang's static constructs: the runtime hands each thread its whole share
 * at once, so its dispatch comes with the construct's begin. */
void pv_ompt_static_begin(int type, uint64_t count, uint64_t first, uint64_t n,
                          const void *codeptr)
{
    pv_ompt_enter();
    if (type == ompt_work_sections) {
        const void **slot = pv_ompt_sections_codeptr_slot();
        if (slot)
            *slot = codeptr;
    }
    work_begin(type, count, codeptr);
    if (!n || !pv_ompt_on(dispatch))
        return;
    if (type == ompt_work_sections) {
        ompt_data_t instance = {.ptr = (void *)(uintptr_t)codeptr};
        for (uint64_t i = 0; i < n; i++)
            pv_ompt_call(dispatch, pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data,
                         ompt_dispatch_section, instance);
        return;
    }
    dispatch_chunk(type == ompt_work_distribute ? ompt_dispatch_distribute_chunk
                                                : ompt_dispatch_ws_loop_chunk,
                   first, n);
}

void pv_ompt_static_end(const void *codeptr)
{
    pv_ompt_enter();
    work_end_at(codeptr);
}

/* A chunk [s0, e0) of logical iterations, numbered from 0 in the loop's
 * order: OpenMP 5.2's ws_loop_chunk dispatch (instance.ptr to its
 * ompt_dispatch_chunk_t). */
void pv_ompt_dispatch_chunk(const struct pv_ws *ws, unsigned long long s0, unsigned long long e0)
{
    (void)ws;
    pv_ompt_enter();
    if (!pv_ompt_on(dispatch))
        return;
    dispatch_chunk(ompt_dispatch_ws_loop_chunk, s0, e0 - s0);
}

/* A section is reported by the code address of its construct: gcc 12
 * inlines the structured blocks of all sections in one function, so there
 * is nothing closer to name (OpenMP 5.1, 4.5.2.6: instance.ptr; as libomp:
 * the sections construct's codeptr_ra). */
void pv_ompt_dispatch_section(void)
{
    pv_ompt_enter();
    if (!pv_ompt_on(dispatch))
        return;
    const void **slot = pv_ompt_sections_codeptr_slot();
    ompt_data_t instance = {.ptr = slot ? (void *)(uintptr_t)*slot : NULL};
    pv_ompt_call(dispatch, pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data,
                 ompt_dispatch_section, instance);
}

void pv_ompt_single(bool executor, bool copy, const void *codeptr)
{
    pv_ompt_enter();
    int type = executor ? ompt_work_single_executor : ompt_work_single_other;
    if (copy) {
        /* GOMP_single_copy_*: the construct ends through the worksharing slot. */
        work_begin(type, 1, codeptr);
        return;
    }
    work_event(type, ompt_scope_begin, 1, codeptr);
    if (executor) {
        pv_ompt_thr.pending_single = 1;
        pv_ompt_thr.pending_codeptr = codeptr;
    } else {
        work_event(type, ompt_scope_end, 1, codeptr);
    }
}

void pv_ompt_flush_pending(void)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    me->pending_single = 0;
    work_event(ompt_work_single_executor, ompt_scope_end, 1, me->pending_codeptr);
}

/* __kmpc_end_single: clang marks the end of the executor's block, so the
 * owed end goes out here, with the program's address of that call. */
void pv_ompt_single_end(const void *codeptr)
{
    pv_ompt_thread_ensure();
    if (!pv_ompt_thr.pending_single)
        return;
    pv_ompt_thr.pending_codeptr = codeptr;
    pv_ompt_flush_pending();
}
