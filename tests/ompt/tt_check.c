/* Invariants of a whole OMPT event log, for any program (tt.h: the tool
 * runs them at finalization when TT_CHECK=1, e.g. under every test of the
 * libgomp testsuite).  Only what must hold whatever the program does:
 *
 * - a parallel region begins once and ends at most once, after its begin,
 *   with the same encountering task;
 * - an implicit task ends at most once, after its begin;
 * - per thread, sync regions (and their waits), worksharing regions and
 *   masked regions nest: an end closes the innermost open one of its kind,
 *   with the parallel (or NULL) and task ids of its begin (regions still open at exit
 *   are allowed: workers may not have left the last barrier when the
 *   program ends);
 * - per thread, mutex_acquired follows a mutex_acquire of the same wait id
 *   with no other acquisition in between, and mutex_released releases a
 *   wait id that thread holds;
 * - a task completes (task_schedule with status complete) at most once, and
 *   only a task that was switched to before; every explicit task created
 *   ends (completes, is cancelled or detached) before the program does,
 *   unless the program ended from inside a task;
 * - a thread begins and ends at most once, and every event of a thread
 *   comes after its thread_begin (an event on a thread before it begins
 *   has no thread data: thread id 0), but for the devices' end at the
 *   tool's finalization;
 * - an implicit task of a team begins with an index below the team's size;
 * - a dispatch (an iteration or loop chunk, a section; not a taskloop's chunk)
 *   happens inside an open worksharing region of its thread.
 *
 * The log must be complete (no event dropped for lack of room). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tt.h"

#define MAX_DEPTH 64

struct open_region {
    int key;             /* callback type * 64 + kind */
    uint64_t parallel, task;
};

struct per_thread {
    uint64_t thread;
    struct open_region stack[MAX_DEPTH];
    int depth;
    uint64_t pending;     /* wait id of an acquire not yet acquired (0: none) */
    uint64_t *held;       /* wait ids held */
    size_t nheld, capheld;
    int begun, ended;
};

static struct per_thread *threads;
static size_t nthreads, capthreads;
static size_t violations;
static FILE *out;

static void bad(const struct tt_event *e, const char *what)
{
    if (violations++ < 20)
        fprintf(out, "tt_check: event %llu (%s, thread %llu): %s\n", (unsigned long long)e->seq,
                tt_name(e->type), (unsigned long long)e->thread, what);
}

static struct per_thread *thread_of(uint64_t id)
{
    for (size_t i = 0; i < nthreads; i++)
        if (threads[i].thread == id)
            return &threads[i];
    if (nthreads == capthreads) {
        capthreads = capthreads ? 2 * capthreads : 16;
        threads = realloc(threads, capthreads * sizeof *threads);
        if (!threads)
            abort();
    }
    memset(&threads[nthreads], 0, sizeof threads[nthreads]);
    threads[nthreads].thread = id;
    return &threads[nthreads++];
}

/* Scope events that nest per thread: push on begin, pop on end. */
static void scope(struct per_thread *t, const struct tt_event *e)
{
    struct open_region r = {e->type * 64 + e->kind, e->parallel, e->task};
    if (e->endpoint == ompt_scope_begin) {
        if (t->depth == MAX_DEPTH)
            bad(e, "regions nested deeper than the checker follows");
        else
            t->stack[t->depth++] = r;
    } else if (e->endpoint == ompt_scope_end) {
        if (t->depth == 0 || t->stack[t->depth - 1].key != r.key) {
            bad(e, "ends a region that is not the innermost open one of this thread");
        } else {
            const struct open_region *b = &t->stack[--t->depth];
            /* At the end of the implicit barrier of a parallel region the
             * region may be over: the spec gives a NULL parallel_data. */
            if ((r.parallel && b->parallel != r.parallel) || b->task != r.task)
                bad(e, "ends a region with other parallel or task ids than its begin");
        }
    }
}

static bool in_work(const struct per_thread *t)
{
    for (int i = 0; i < t->depth; i++)
        if (t->stack[i].key / 64 == ompt_callback_work)
            return true;
    return false;
}

static void mutex(struct per_thread *t, const struct tt_event *e)
{
    uint64_t w = e->a;
    switch (e->type) {
    case ompt_callback_mutex_acquire:
        t->pending = w;
        break;
    case ompt_callback_mutex_acquired:
        if (t->pending != w)
            bad(e, "mutex_acquired without a mutex_acquire of that wait id before it");
        t->pending = 0;
        if (t->nheld == t->capheld) {
            t->capheld = t->capheld ? 2 * t->capheld : 8;
            t->held = realloc(t->held, t->capheld * sizeof *t->held);
            if (!t->held)
                abort();
        }
        t->held[t->nheld++] = w;
        break;
    case ompt_callback_mutex_released:
        for (size_t i = t->nheld; i-- > 0;)
            if (t->held[i] == w) {
                t->held[i] = t->held[--t->nheld];
                return;
            }
        bad(e, "mutex_released of a wait id this thread does not hold");
        break;
    }
}

/* Per id: seq of its begin (0: none yet) and count of ends, in a small
 * open-addressing table. */
struct idrec {
    uint64_t id;
    uint64_t begin_seq1; /* seq + 1 of the begin, 0: none */
    uint64_t other;      /* parallel regions: the encountering task of the begin */
    unsigned begins, ends;
};

struct idtab {
    struct idrec *r;
    size_t cap, n;
};

static struct idrec *id_get(struct idtab *t, uint64_t id)
{
    if (2 * (t->n + 1) > t->cap) {
        struct idtab g = {calloc(t->cap ? 2 * t->cap : 1024, sizeof *g.r), t->cap ? 2 * t->cap : 1024, 0};
        if (!g.r)
            abort();
        for (size_t i = 0; i < t->cap; i++)
            if (t->r[i].id)
                *id_get(&g, t->r[i].id) = t->r[i];
        free(t->r);
        *t = g;
    }
    size_t i = (size_t)(id * 0x9e3779b97f4a7c15ull) & (t->cap - 1);
    while (t->r[i].id && t->r[i].id != id)
        i = (i + 1) & (t->cap - 1);
    if (!t->r[i].id) {
        t->r[i].id = id;
        t->n++;
    }
    return &t->r[i];
}

static void begin_end(struct idtab *tab, const struct tt_event *e, uint64_t id, bool is_begin,
                      const char *what)
{
    if (!id)
        return;
    struct idrec *r = id_get(tab, id);
    if (is_begin) {
        if (r->begins++)
            bad(e, what);
        r->begin_seq1 = e->seq + 1;
    } else {
        if (!r->begin_seq1)
            bad(e, "ends before it began");
        if (r->ends++)
            bad(e, "ends twice");
    }
}

size_t tt_check(FILE *report)
{
    out = report;
    violations = 0;
    struct idtab parallels = {0}, implicit = {0}, switched = {0}, completed = {0}, created = {0};
    size_t n = tt_count();
    for (size_t i = 0; i < n; i++) {
        const struct tt_event *e = tt_get(i);
        struct per_thread *t = thread_of(e->thread);
        /* Devices end when the tool is finalized, on the finalizing thread,
         * which may never have used OpenMP. */
        if (e->thread == 0 && e->type != TT_DEVICE_END)
            bad(e, "an event on a thread that has not begun (no thread_begin before it)");
        switch (e->type) {
        case ompt_callback_thread_begin:
            if (t->begun++)
                bad(e, "thread begins twice");
            break;
        case ompt_callback_thread_end:
            if (t->ended++)
                bad(e, "thread ends twice");
            break;
        case ompt_callback_parallel_begin:
            begin_end(&parallels, e, e->parallel, true, "parallel region begins twice");
            id_get(&parallels, e->parallel)->other = e->task;
            break;
        case ompt_callback_parallel_end:
            begin_end(&parallels, e, e->parallel, false, "");
            if (id_get(&parallels, e->parallel)->other != e->task)
                bad(e, "parallel_end names another encountering task than parallel_begin");
            break;
        case ompt_callback_task_create:
            if (e->flags & ompt_task_explicit)
                id_get(&created, e->task2)->other = e->seq + 1;
            break;
        case ompt_callback_implicit_task:
            begin_end(&implicit, e, e->task, e->endpoint == ompt_scope_begin,
                      "implicit task begins twice");
            if (e->endpoint == ompt_scope_begin && !(e->flags & ompt_task_initial) &&
                e->b >= e->a)
                bad(e, "implicit task index not below the team size");
            break;
        case ompt_callback_dispatch:
            /* A taskloop's chunk begins in its task, on any thread. */
            if (e->kind != ompt_dispatch_taskloop_chunk && !in_work(t))
                bad(e, "a worksharing dispatch outside any worksharing region of the thread");
            break;
        case ompt_callback_sync_region:
        case ompt_callback_sync_region_wait:
        case ompt_callback_work:
        case ompt_callback_masked:
            scope(t, e);
            break;
        case ompt_callback_mutex_acquire:
        case ompt_callback_mutex_acquired:
        case ompt_callback_mutex_released:
            mutex(t, e);
            break;
        case ompt_callback_task_schedule:
            if (e->kind == ompt_task_switch) {
                id_get(&switched, e->task2)->begins++;
            } else if (e->kind == ompt_task_complete) {
                if (!id_get(&switched, e->task)->begins)
                    bad(e, "a task completes that was never switched to");
                if (id_get(&completed, e->task)->ends++)
                    bad(e, "a task completes twice");
            }
            if (e->kind == ompt_task_complete || e->kind == ompt_task_cancel ||
                e->kind == ompt_task_detach)
                id_get(&created, e->task)->ends++;
            break;
        }
    }
    /* A program may end from inside a task (exit() in a task body): then
     * tasks still queued never run, and nothing is required of them. */
    bool exited_in_task = false;
    for (size_t i = 0; i < created.cap; i++) {
        const struct idrec *r = &created.r[i];
        if (r->id && r->other && !r->ends && id_get(&switched, r->id)->begins)
            exited_in_task = true;
    }
    for (size_t i = 0; i < created.cap && !exited_in_task; i++) {
        const struct idrec *r = &created.r[i];
        if (r->id && r->other && !r->ends) {
            struct tt_event at = *tt_get(r->other - 1);
            bad(&at, "an explicit task created here never completed, was cancelled or detached");
        }
    }
    for (size_t i = 0; i < nthreads; i++)
        free(threads[i].held);
    free(threads);
    threads = NULL;
    nthreads = capthreads = 0;
    free(parallels.r);
    free(implicit.r);
    free(switched.r);
    free(completed.r);
    free(created.r);
    return violations;
}
