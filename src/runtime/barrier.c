/* Team barriers.
 *
 * Centralized: every thread increments `arrived`; the thread that finds
 * everybody arrived and no task outstanding resets `arrived` and advances the
 * generation, which releases the others.  Waiters watch the generation word
 * (spin, then futex, through src/wait).  Two flag bits in that word let other
 * events reach sleeping waiters without advancing the generation:
 *   PV_BAR_TASK   - task work appeared or the last task finished: re-check;
 *   PV_BAR_CANCEL - the region was cancelled: cancellable waits return.
 */
#include "runtime/barrier_site.h"

/* The trace records pv_barrier_trace_kind(kind): the catalog's barrier_kind. */
_Static_assert((int)PV_BARRIER_EXPLICIT == (int)PVTRACE_BARRIER_KIND_EXPLICIT &&
                   (int)PV_BARRIER_WORKSHARE == (int)PVTRACE_BARRIER_KIND_WORKSHARE &&
                   (int)PV_BARRIER_JOIN == (int)PVTRACE_BARRIER_KIND_JOIN &&
                   (int)PV_BARRIER_CANCEL == (int)PVTRACE_BARRIER_KIND_CANCEL &&
                   (int)PV_BARRIER_OTHER == (int)PVTRACE_BARRIER_KIND_OTHER,
               "enum pv_barrier_kind numbers its kinds as #enum barrier_kind (trace-events)");

void pv_barrier_init(struct pv_barrier *b, unsigned total)
{
    /* The generation is never reset: a thread of a previous use that is
     * still inside pv_wake() must not see it go backwards.  Only flags. */
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&b->total, total, memory_order_relaxed);
    atomic_fetch_and_explicit(&b->gen.word, ~(PV_BAR_TASK | PV_BAR_CANCEL), memory_order_relaxed);
}

static inline uint32_t task_count(struct pv_team *team)
{
    /* seq_cst: pairs with the task creator's seq_cst look at `arrived` in
     * pv_barrier_tasks_changed (either it sees us arrived, or we see its task). */
    return team ? atomic_load_explicit(&team->task_count, memory_order_seq_cst) : 0;
}

/* Everybody is here and no task is outstanding: one thread wins the reset of
 * `arrived` and opens the next generation. */
static bool try_release(struct pv_barrier *b, struct pv_team *team, uint32_t gen)
{
    uint32_t total = atomic_load_explicit(&b->total, memory_order_relaxed);
    if (!atomic_compare_exchange_strong_explicit(&b->arrived, &total, 0, memory_order_acq_rel,
                                                 memory_order_relaxed))
        return false;
    /* A cancelled worksharing construct ends at this barrier. */
    if (team)
        atomic_store_explicit(&team->ws_cancelled, 0, memory_order_relaxed);
    /* seq_cst store: pairs with the sleepers' seq_cst increment in pv_wake. */
    atomic_store_explicit(&b->gen.word, gen + PV_BAR_INCR, memory_order_seq_cst);
    pv_wake(&b->gen);
    return true;
}

bool pv_barrier_wait(struct pv_barrier *b, struct pv_team *team, bool cancellable)
{
    uint32_t gen = atomic_load_explicit(&b->gen.word, memory_order_acquire);
    if (cancellable && (gen & PV_BAR_CANCEL))
        return true;
    gen &= ~(PV_BAR_TASK | PV_BAR_CANCEL);

    uint32_t now = atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1;
    if (now == atomic_load_explicit(&b->total, memory_order_relaxed) && task_count(team) == 0 && try_release(b, team, gen))
        return false;

    for (;;) {
        uint32_t cur = atomic_load_explicit(&b->gen.word, memory_order_acquire);
        if ((cur & ~(PV_BAR_TASK | PV_BAR_CANCEL)) != gen)
            return false;
        if (cancellable && (cur & PV_BAR_CANCEL))
            return true;
        if (cur & PV_BAR_TASK) {
            /* Clear the hint before looking for work (seq_cst RMW): a task
             * queued after our look sets it again and wakes us. */
            atomic_fetch_and_explicit(&b->gen.word, ~PV_BAR_TASK, memory_order_seq_cst);
            cur &= ~PV_BAR_TASK;
        }
        if (task_count(team) != 0) {
            if (pv_task_run_pending_gen(team, &b->gen.word, gen))
                continue;
        } else if (atomic_load_explicit(&b->arrived, memory_order_acquire) ==
                   atomic_load_explicit(&b->total, memory_order_relaxed)) {
            if (try_release(b, team, gen))
                return false;
            continue;
        }
        pv_wait_while_eq(&b->gen, cur);
    }
}

static void flag_task_news(struct pv_team *team, bool wake_all)
{
    struct pv_barrier *bars[2] = {&team->barrier, &team->final};
    for (int i = 0; i < 2; i++) {
        struct pv_barrier *b = bars[i];
        /* Only threads that have arrived can be sleeping here. */
        if (atomic_load_explicit(&b->arrived, memory_order_seq_cst) == 0)
            continue;
        atomic_fetch_or_explicit(&b->gen.word, PV_BAR_TASK, memory_order_seq_cst);
        if (wake_all)
            pv_wake(&b->gen);
        else
            pv_wake_one(&b->gen);
    }
}

void pv_barrier_tasks_changed(struct pv_team *team)
{
    flag_task_news(team, true);
}

/* One task was queued: any waiter of the barrier may run it, so one is
 * woken (a sleeper woken for nothing costs a futex round trip and, with
 * more threads than CPUs, a context switch away from the thread that
 * works).  Spinning waiters see the flag anyway; the woken one runs every
 * queued task it finds. */
void pv_barrier_task_queued(struct pv_team *team)
{
    flag_task_news(team, false);
}

void pv_barrier_cancel(struct pv_barrier *b)
{
    atomic_fetch_or_explicit(&b->gen.word, PV_BAR_CANCEL, memory_order_seq_cst);
    pv_wake(&b->gen);
}

/* ------------------------------------------------- the one barrier site */

bool pv_barrier_observed(enum pv_barrier_kind kind, unsigned trace_prev, const void *codeptr)
{
    bool tool = kind != PV_BARRIER_OTHER && pv_ompt_tool();
    return pv_barrier_sequence(kind, pv_thr.ts.team, trace_prev, codeptr, tool);
}
