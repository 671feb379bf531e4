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

static inline bool tasks_outstanding(struct pv_team *team)
{
    /* seq_cst loads: pair with the task creator's fence and look at
     * `arrived` in barrier_task_news (either it sees us arrived, or we see
     * its count). */
    return team && pv_task_outstanding(team);
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

    /* seq_cst: pairs with flag_task_news's look at `arrived` (a completer
     * that sees fewer than all arrived leaves the zero count to us). */
    uint32_t now = atomic_fetch_add_explicit(&b->arrived, 1, memory_order_seq_cst) + 1;
    if (now == atomic_load_explicit(&b->total, memory_order_relaxed) && !tasks_outstanding(team) && try_release(b, team, gen))
        return false;

    for (;;) {
        uint32_t cur = atomic_load_explicit(&b->gen.word, memory_order_acquire);
        if ((cur & ~(PV_BAR_TASK | PV_BAR_CANCEL)) != gen)
            return false;
        if (cancellable && (cur & PV_BAR_CANCEL))
            return true;
        if (cur & PV_BAR_TASK) {
            /* Clear the hint before looking for work (seq_cst RMW): a task
             * queued after our look sets it again and wakes us.  Our look
             * (pv_task_run_pending_gen) begins with a seq_cst fence, which
             * pairs with the creator's fence in task_queue: a creator that
             * finds the flag still set and so leaves it alone
             * (barrier_task_news) queued its task before our clear was
             * visible to it, and our look sees the task. */
            atomic_fetch_and_explicit(&b->gen.word, ~PV_BAR_TASK, memory_order_seq_cst);
            cur &= ~PV_BAR_TASK;
        }
        if (tasks_outstanding(team)) {
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

/* What a barrier waiter is told about tasks, and whom it wakes. */
enum task_news {
    NEWS_CHANGED, /* tasks of another region were requeued: flag, wake all */
    NEWS_DONE,    /* a thread outside the team completed a task: flag, wake all, where all have arrived */
    NEWS_QUEUED,  /* a task was queued: flag, wake one (see pv_barrier_task_queued) */
    NEWS_TAKEN,   /* a waiter took a task: where some sleep, flag and wake one */
};

static inline __attribute__((always_inline)) void barrier_task_news(struct pv_barrier *b,
                                                                    enum task_news news)
{
    /* Only threads that have arrived can be sleeping here.  seq_cst: pairs
     * with an arriver's look at the task counts (either we see it arrived,
     * or it sees the count we left). */
    uint32_t arrived = atomic_load_explicit(&b->arrived, memory_order_seq_cst);
    if (arrived == 0)
        return;
    /* A completion can end the barrier only once everybody arrived; before
     * that, the last arriver sees the counts itself. */
    if (news == NEWS_DONE && arrived != atomic_load_explicit(&b->total, memory_order_relaxed))
        return;
    if (news == NEWS_TAKEN && atomic_load_explicit(&b->gen.sleepers, memory_order_seq_cst) == 0)
        return;
    if (news == NEWS_QUEUED || news == NEWS_TAKEN) {
        /* Test before set: with the flag still set, the RMW below would
         * wake nobody, and it would take the word's cache line from the
         * waiters (in a task tree every queued task did, both threads in
         * turn).  Store-buffer pairing, fence against fence: task_queue
         * fenced after queueing the task, the waiter clears the flag and
         * fences (pv_task_run_pending_gen) before it looks; if our load
         * misses its clear, its look finds our task, and a waiter sleeps
         * only with the flag clear.  (A waiter that took a task, NEWS_TAKEN,
         * wakes one more only where the RMW would have found the flag
         * clear, as before.) */
        if (atomic_load_explicit(&b->gen.word, memory_order_relaxed) & PV_BAR_TASK)
            return;
    }
    uint32_t old = atomic_fetch_or_explicit(&b->gen.word, PV_BAR_TASK, memory_order_seq_cst);
    if (news == NEWS_CHANGED || news == NEWS_DONE)
        pv_wake(&b->gen);
    else if (!(old & PV_BAR_TASK))
        pv_wake_one(&b->gen);
}

/* Both barriers of the team (the team barrier and the region's final one). */
static inline __attribute__((always_inline)) void flag_task_news(struct pv_team *team,
                                                                 enum task_news news)
{
    barrier_task_news(&team->barrier, news);
    barrier_task_news(&team->final, news);
}

void pv_barrier_tasks_changed(struct pv_team *team)
{
    flag_task_news(team, NEWS_CHANGED);
}

/* A thread outside the team completed a task (omp_fulfill_event): every
 * member may be asleep here waiting for just that. */
void pv_barrier_tasks_done(struct pv_team *team)
{
    flag_task_news(team, NEWS_DONE);
}

/* One task was queued: any waiter of the barrier may run it, so one is
 * woken (a sleeper woken for nothing costs a futex round trip and, with
 * more threads than CPUs, a context switch away from the thread that
 * works).  Spinning waiters see the flag anyway; the woken one runs every
 * queued task it finds.
 *
 * No wake when the flag was set already: since it was set no waiter has
 * cleared it, and a waiter sleeps only with the flag clear (it waits while
 * the word equals what it read after clearing), so the earlier setter's
 * wake, or a waiter that was awake then, is still on its way to the
 * queues and will see this task too (its clearing RMW follows our set in
 * the word's order).  Without this, a creator whose tasks its own taskwait
 * takes back at once made a futex call per task while a barrier waiter
 * slept, the woken waiter finding nothing.  The parallelism it would lose
 * (tasks queued behind the one a woken waiter takes while others sleep)
 * comes back through pv_barrier_task_taken. */
void pv_barrier_task_queued(struct pv_team *team)
{
    flag_task_news(team, NEWS_QUEUED);
}

/* A barrier waiter took a queued task: if others sleep, flag and wake one,
 * who looks for more (a chain: each waiter that finds work wakes the
 * next, as the wake-ups skipped above would have). */
void pv_barrier_task_taken(struct pv_team *team)
{
    flag_task_news(team, NEWS_TAKEN);
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
