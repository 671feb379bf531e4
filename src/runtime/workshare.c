/* Worksharing slots.
 *
 * A team has PV_WS_SLOTS slots used round-robin by sequence number, so that
 * threads may run ahead through `nowait` constructs.  Slot state word:
 * (seq << 2) | phase.  Protocol for construct `seq` in slot seq % SLOTS:
 *   - the slot is FREE for seq once every thread left construct seq - SLOTS;
 *   - the first thread to CAS FREE -> INITIALIZING sets the construct up and
 *     publishes READY with a release store; the others wait for READY
 *     (acquire) through the wait primitive;
 *   - the last thread to leave (counted in `left`) makes the slot FREE for
 *     seq + SLOTS.
 * Outside any team a thread uses its own private slot. */
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/barrier_site.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"
#include "trace/trace.h"

static __thread struct pv_ws *orphan_ws;

static inline uint32_t ws_word(uint64_t seq, uint32_t phase)
{
    return (uint32_t)(seq << 2) | phase;
}

static struct pv_ws *orphan_slot(void)
{
    if (!orphan_ws)
        orphan_ws = pv_aligned_alloc(PV_CACHELINE, sizeof(struct pv_ws));
    return orphan_ws;
}

void pv_ws_reset(struct pv_team *team)
{
    for (unsigned i = 0; i < PV_WS_SLOTS; i++) {
        struct pv_ws *ws = &team->ws[i];
        atomic_store_explicit(&ws->state.word, ws_word(i, PV_WS_FREE), memory_order_relaxed);
        atomic_store_explicit(&ws->left, 0, memory_order_relaxed);
    }
}

static void ws_release_resources(struct pv_ws *ws)
{
    if (ws->ordered)
        pv_ordered_release(ws);
    if (ws->doacross)
        pv_doacross_release(ws);
    if (ws->mem && ws->mem != ws->inline_mem)
        free(ws->mem);
    ws->mem = NULL;
    ws->copyprivate = NULL;
}

bool pv_ws_start(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    thr->ts.static_trip = 0;
    if (!team) {
        struct pv_ws *ws = orphan_slot();
        ws->ordered = NULL;
        ws->doacross = NULL;
        ws->mem = NULL;
        thr->ts.ws = ws;
        return true;
    }
    uint64_t seq = thr->ts.ws_seq++;
    struct pv_ws *ws = &team->ws[seq % PV_WS_SLOTS];
    thr->ts.ws = ws;
    uint32_t free_word = ws_word(seq, PV_WS_FREE);
    uint32_t ready_word = ws_word(seq, PV_WS_READY);
    for (;;) {
        uint32_t cur = atomic_load_explicit(&ws->state.word, memory_order_acquire);
        if (cur == ready_word)
            return false;
        if (cur == free_word) {
            /* A failed CAS rewrites `cur`; re-read from the top rather than
             * sleeping on a value (READY, say) that will not change. */
            if (atomic_compare_exchange_weak_explicit(&ws->state.word, &cur,
                                                      ws_word(seq, PV_WS_INITIALIZING),
                                                      memory_order_acquire, memory_order_relaxed))
                return true;
            continue;
        }
        /* Being initialised, or still used by the construct SLOTS earlier. */
        pv_wait_while_eq(&ws->state, cur);
    }
}

void pv_ws_init_done(void)
{
    struct pv_thread *thr = &pv_thr;
    if (!thr->ts.team)
        return;
    struct pv_ws *ws = thr->ts.ws;
    /* Release: the construct's fields are visible to whoever sees READY. */
    atomic_store_explicit(&ws->state.word, ws_word(thr->ts.ws_seq - 1, PV_WS_READY),
                          memory_order_seq_cst);
    pv_wake(&ws->state);
}

/* The thread leaves its construct (the last one frees the slot). */
static inline void ws_leave(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_ws *ws = thr->ts.ws;
    if (!team) {
        ws_release_resources(ws);
        return;
    }
    uint64_t seq = thr->ts.ws_seq - 1;
    if (atomic_fetch_add_explicit(&ws->left, 1, memory_order_acq_rel) + 1 == team->nthreads) {
        atomic_store_explicit(&ws->left, 0, memory_order_relaxed);
        ws_release_resources(ws);
        /* Release: the reset above happens before the next user's init. */
        atomic_store_explicit(&ws->state.word, ws_word(seq + PV_WS_SLOTS, PV_WS_FREE),
                              memory_order_seq_cst);
        pv_wake(&ws->state);
    }
}

void pv_ws_end_nowait(void)
{
    if (pv_ompt_tool())
        pv_ompt_work_end();
    ws_leave();
}

/* With the barrier after it, the tool's work end shares the barrier's one
 * flag test (barrier_site.h): traced or observed, the whole end is out of
 * line; otherwise it is the leave, the wait and the leave record's test,
 * as in a build without OMPT. */
static __attribute__((noinline, cold)) bool ws_end_observed(enum pv_barrier_kind kind)
{
    pv_ws_end_nowait();
    return pv_barrier_observed(kind, 0, NULL);
}

static inline __attribute__((always_inline)) bool ws_end(enum pv_barrier_kind kind)
{
    if (pv_barrier_observed_on())
        return ws_end_observed(kind);
    ws_leave();
    return pv_barrier_wait_leave(kind, pv_thr.ts.team, NULL, false);
}

void pv_ws_end(void)
{
    ws_end(PV_BARRIER_WORKSHARE);
}

bool pv_ws_end_cancel(void)
{
    return ws_end(PV_BARRIER_WORKSHARE_CANCEL);
}
