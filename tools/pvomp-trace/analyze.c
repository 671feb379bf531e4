/* From events to intervals: per thread, a small state machine turns the
 * runtime's begin/end events into time spent in regions, barriers, waits
 * (spinning or blocked), critical sections, locks, tasks and target
 * operations, and, per parallel region, the load imbalance between members.
 * stats prints the totals; timeline draws the intervals. */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "desc.h"
#include "log.h"
#include "mem.h"
#include "records.h"
#include "tasks.h"


/* section() reads the ns of critical_held and lock_held alike. */
_Static_assert(TR_ARG_critical_held_ns == TR_ARG_lock_held_ns, "_held events' ns argument");

const char *const tr_iv_name[IV__COUNT] = {
    "region", "parallel", "barrier", "spin", "blocked", "critical wait", "critical",
    "lock wait", "lock", "task", "target", "phantom",
};

#define MAX_MEMBERS 4096u
#define MAX_FNS 4096u

struct tr_active_region {
    uint64_t team, fn, start;
    unsigned nthreads;
    uint64_t *work;           /* per member, UINT64_MAX until reported */
};

void tr_analysis_init(struct tr_analysis *a, struct tr_log *log)
{
    tr_iv_fn cb = a->on_interval;
    void *ctx = a->ctx;
    memset(a, 0, sizeof *a);
    a->on_interval = cb;
    a->ctx = ctx;
    a->log = log;
    a->nthr = log->nstreams + 1;
    a->thr = tr_xcalloc(a->nthr, sizeof *a->thr);
    for (size_t i = 0; i < log->nstreams; i++)
        a->thr[i].tid = log->streams[i].tid;
    a->thr[log->nstreams].tid = (uint32_t)log->pid;
}

static void interval(struct tr_analysis *a, uint32_t t, enum tr_iv k, uint64_t s, uint64_t e)
{
    if (e < s)
        e = s;
    a->thr[t].t[k] += e - s;
    a->thr[t].n[k]++;
    if (a->on_interval)
        a->on_interval(a->ctx, t, k, s, e);
    a->iv_fn = 0;
    a->iv_site = 0;
}

/* ------------------------------------------------------------- regions */
static struct tr_active_region *region_find(struct tr_analysis *a, uint64_t team, bool create)
{
    for (size_t i = 0; i < a->nactive; i++)
        if (a->active[i].team == team)
            return &a->active[i];
    if (!create)
        return NULL;
    if (a->nactive == a->active_cap) {
        a->active_cap = a->active_cap ? 2 * a->active_cap : 8;
        a->active = tr_xrealloc(a->active, a->active_cap, sizeof *a->active);
    }
    struct tr_active_region *r = &a->active[a->nactive++];
    memset(r, 0, sizeof *r);
    r->team = team;
    return r;
}

static void region_size(struct tr_active_region *r, unsigned n)
{
    if (n > MAX_MEMBERS)
        n = MAX_MEMBERS;
    if (n <= r->nthreads)
        return;
    r->work = tr_xrealloc(r->work, n, sizeof *r->work);
    for (unsigned i = r->nthreads; i < n; i++)
        r->work[i] = UINT64_MAX;
    r->nthreads = n;
}

static struct tr_region_fn *fn_entry(struct tr_analysis *a, uint64_t fn)
{
    for (size_t i = 0; i < a->nfns; i++)
        if (a->fns[i].fn == fn)
            return &a->fns[i];
    if (a->nfns >= MAX_FNS)
        return &a->fns[a->nfns - 1]; /* lumped with the last one */
    if (a->nfns == a->fns_cap) {
        a->fns_cap = a->fns_cap ? 2 * a->fns_cap : 16;
        a->fns = tr_xrealloc(a->fns, a->fns_cap, sizeof *a->fns);
    }
    struct tr_region_fn *f = &a->fns[a->nfns++];
    memset(f, 0, sizeof *f);
    f->fn = fn;
    return f;
}

static void region_end(struct tr_analysis *a, struct tr_active_region *r, uint64_t ts)
{
    uint64_t max = 0, sum = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < r->nthreads; i++)
        if (r->work[i] != UINT64_MAX) {
            n++;
            sum += r->work[i];
            if (r->work[i] > max)
                max = r->work[i];
        }
    struct tr_region_fn *f = fn_entry(a, r->fn);
    f->instances++;
    f->wall += ts > r->start ? ts - r->start : 0;
    f->work += sum;
    if (n > f->max_threads)
        f->max_threads = n;
    if (n > 1 && sum > 0) {
        /* Imbalance: how much longer the slowest member worked than the average. */
        double imb = (double)max * n / (double)sum - 1.0;
        f->imb_sum += imb;
        if (imb > f->imb_max)
            f->imb_max = imb;
    }
    free(r->work);
    *r = a->active[--a->nactive];
}

/* The task at depth d of thread ti ends (at the log's end: is cut) at ts. */
static void task_interval(struct tr_analysis *a, uint32_t ti, unsigned d, uint64_t ts)
{
    struct tr_thr *t = &a->thr[ti];
    uint64_t s = t->task_start[d];
    tr_task_ran(&a->tasks, a->nthr, t->task_site[d], ti, ts > s ? ts - s : 0);
    a->iv_site = t->task_site[d];
    interval(a, ti, IV_TASK, s, ts);
}

/* ----------------------------------------------- critical sections, locks */
/* One of the four events of a critical section or lock (`step` 0 _enter,
 * 1 _acquired, 2 _release, 3 _held: acquired `ns` before, released now).
 * An acquisition ends the wait _enter began and starts the held interval
 * unless the thread holds another section of the kind (the analyses count
 * the outermost). */
static void section(struct tr_analysis *a, uint32_t ti, struct tr_sect *s, enum tr_iv wait_kind,
                    enum tr_iv kind, unsigned step, const struct tr_rec *r, uint64_t ts)
{
    if (step == 0) {
        s->wait_start = ts;
        return;
    }
    if (step != 2) {
        uint64_t ns = step == 3 ? r->u[TR_ARG_critical_held_ns] : 0;
        uint64_t at = ns < ts ? ts - ns : ts;
        if (s->wait_start)
            interval(a, ti, wait_kind, s->wait_start, at);
        s->wait_start = 0;
        if (s->depth++ == 0)
            s->start = at;
    }
    if (step != 1 && s->depth && --s->depth == 0)
        interval(a, ti, kind, s->start, ts);
}

/* ------------------------------------------------------------ per event */
void tr_analysis_add(struct tr_analysis *a, const struct tr_rec *r)
{
    uint32_t ti = r->stream == UINT32_MAX ? (uint32_t)(a->nthr - 1) : r->stream;
    struct tr_thr *t = &a->thr[ti];
    uint64_t ts = r->ts;
    if (!a->records || ts < a->t0)
        a->t0 = ts;
    if (ts > a->t1)
        a->t1 = ts;
    a->records++;
    if (!t->records || ts < t->first_ts)
        t->first_ts = ts;
    if (ts > t->last_ts)
        t->last_ts = ts;
    t->records++;
    r->d->count++;

    switch (r->d->kind) {
    case K_DROPPED:
        t->dropped += r->u[0]; /* the reader's own pseudo event: count */
        a->dropped += r->u[0];
        break;
    case K_PARALLEL_BEGIN: {
        if (t->region_depth < 8)
            t->region_start[t->region_depth] = ts;
        t->region_depth++;
        struct tr_active_region *g = region_find(a, r->u[TR_ARG_parallel_begin_team], true);
        g->fn = r->u[TR_ARG_parallel_begin_fn];
        g->start = ts;
        region_size(g, (unsigned)r->u[TR_ARG_parallel_begin_nthreads]);
        break;
    }
    case K_PARALLEL_END: {
        struct tr_active_region *g = region_find(a, r->u[TR_ARG_parallel_end_team], false);
        if (t->region_depth) {
            t->region_depth--;
            a->iv_fn = g ? g->fn : 0;
            if (t->region_depth < 8)
                interval(a, ti, IV_REGION, t->region_start[t->region_depth], ts);
        }
        if (g)
            region_end(a, g, ts);
        break;
    }
    case K_ITASK_BEGIN:
        t->itask_start = ts;
        t->itask_barrier = 0;
        t->itask_team = (void *)(uintptr_t)r->u[TR_ARG_implicit_task_begin_team];
        t->itask_num = (unsigned)r->u[TR_ARG_implicit_task_begin_thread_num];
        region_size(region_find(a, r->u[TR_ARG_implicit_task_begin_team], true),
                    (unsigned)r->u[TR_ARG_implicit_task_begin_nthreads]);
        break;
    case K_ITASK_END:
        if (t->itask_start) {
            struct tr_active_region *g = region_find(a, r->u[TR_ARG_implicit_task_end_team], false);
            uint64_t num = r->u[TR_ARG_implicit_task_end_thread_num];
            a->iv_fn = g ? g->fn : 0;
            interval(a, ti, IV_PARALLEL, t->itask_start, ts);
            uint64_t work = ts - t->itask_start;
            work = work > t->itask_barrier ? work - t->itask_barrier : 0;
            if (g && num < g->nthreads)
                g->work[num] = work;
            t->itask_start = 0;
        }
        break;
    case K_BARRIER_ENTER:
        t->barrier_start = ts;
        break;
    case K_BARRIER_LEAVE:
        if (t->barrier_start) {
            interval(a, ti, IV_BARRIER, t->barrier_start, ts);
            if (t->itask_start)
                t->itask_barrier += ts - t->barrier_start;
            t->barrier_start = 0;
        }
        break;
    case K_WAIT_BEGIN:
        t->spin_start = ts;
        t->block_start = 0;
        break;
    case K_WAIT_BLOCK:
        if (t->spin_start)
            interval(a, ti, IV_SPIN, t->spin_start, ts);
        t->spin_start = 0;
        t->block_start = ts;
        break;
    case K_WAIT_WAKE:
        if (t->block_start)
            interval(a, ti, IV_BLOCK, t->block_start, ts);
        t->block_start = 0;
        t->spin_start = ts;
        break;
    case K_WAIT_END:
        if (t->spin_start)
            interval(a, ti, IV_SPIN, t->spin_start, ts);
        if (t->block_start)
            interval(a, ti, IV_BLOCK, t->block_start, ts);
        t->spin_start = t->block_start = 0;
        break;
    case K_CRIT_ENTER: case K_CRIT_ACQ: case K_CRIT_REL: case K_CRIT_HELD:
        section(a, ti, &t->crit, IV_CRIT_WAIT, IV_CRIT, r->d->kind - K_CRIT_ENTER, r, ts);
        break;
    case K_LOCK_ENTER: case K_LOCK_ACQ: case K_LOCK_REL: case K_LOCK_HELD:
        section(a, ti, &t->lock, IV_LOCK_WAIT, IV_LOCK, r->d->kind - K_LOCK_ENTER, r, ts);
        break;
    case K_TASK_CREATE:
        tr_task_created(&a->tasks, r);
        break;
    case K_TASK_BEGIN: {
        uint32_t site = tr_task_begun(&a->tasks, r->u[TR_ARG_task_begin_task]);
        if (t->task_depth < 16) {
            t->task_start[t->task_depth] = ts;
            t->task_site[t->task_depth] = site;
        }
        t->task_depth++;
        break;
    }
    case K_TASK_END:
        if (t->task_depth && --t->task_depth < 16)
            task_interval(a, ti, t->task_depth, ts);
        break;
    case K_TARGET_BEGIN:
        if (t->target_depth < 16)
            t->target_start[t->target_depth] = ts;
        t->target_depth++;
        break;
    case K_TARGET_END:
        if (t->target_depth && --t->target_depth < 16)
            interval(a, ti, IV_TARGET, t->target_start[t->target_depth], ts);
        break;
    case K_PHANTOM: {
        unsigned n = (unsigned)r->u[TR_ARG_phantom_change_phantoms];
        if (n > a->phantom_max)
            a->phantom_max = n;
        if (n && !a->phantoms)
            a->phantom_start = ts;
        else if (!n && a->phantoms)
            interval(a, (uint32_t)(a->nthr - 1), IV_PHANTOM, a->phantom_start, ts);
        a->phantoms = n;
        break;
    }
    default:
        break;
    }
}

/* Intervals still open when the log ends (killed process, or a thread that
 * never finished) end at the thread's last record. */
void tr_analysis_finish(struct tr_analysis *a)
{
    for (uint32_t i = 0; i < a->nthr; i++) {
        struct tr_thr *t = &a->thr[i];
        uint64_t e = t->last_ts;
        while (t->region_depth) {
            t->region_depth--;
            if (t->region_depth < 8)
                interval(a, i, IV_REGION, t->region_start[t->region_depth], e);
        }
        if (t->itask_start)
            interval(a, i, IV_PARALLEL, t->itask_start, e);
        if (t->barrier_start)
            interval(a, i, IV_BARRIER, t->barrier_start, e);
        if (t->spin_start)
            interval(a, i, IV_SPIN, t->spin_start, e);
        if (t->block_start)
            interval(a, i, IV_BLOCK, t->block_start, e);
        if (t->crit.depth)
            interval(a, i, IV_CRIT, t->crit.start, e);
        if (t->lock.depth)
            interval(a, i, IV_LOCK, t->lock.start, e);
        for (; t->task_depth; t->task_depth--)
            if (t->task_depth <= 16)
                task_interval(a, i, t->task_depth - 1, e);
        t->itask_start = t->barrier_start = t->spin_start = t->block_start = 0;
        t->crit.depth = t->lock.depth = 0;
    }
    if (a->phantoms)
        interval(a, (uint32_t)(a->nthr - 1), IV_PHANTOM, a->phantom_start, a->t1);
    a->phantoms = 0;
    while (a->nactive)
        region_end(a, &a->active[0], a->t1);
}

void tr_analysis_free(struct tr_analysis *a)
{
    for (size_t i = 0; i < a->nactive; i++)
        free(a->active[i].work);
    free(a->active);
    free(a->fns);
    tr_tasks_free(&a->tasks);
    free(a->thr);
    a->active = NULL;
    a->fns = NULL;
    a->thr = NULL;
}

void tr_analysis_run(struct tr_analysis *a)
{
    struct tr_merge *m = tr_merge_new(a->log, false);
    const struct tr_rec *r;
    for (size_t i = 0; i < a->log->ndescs; i++)
        a->log->descs[i].count = 0;
    while (m && (r = tr_merge_next(m)))
        tr_analysis_add(a, r);
    tr_merge_free(m);
    tr_analysis_finish(a);
}
