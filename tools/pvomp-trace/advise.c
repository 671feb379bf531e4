/* advise: from a log's records to findings with an estimated gain each
 * (docs/trace.md, "advise", says how each cause's gain is estimated).
 *
 * One pass in time order keeps, per thread, the phase it is in (from the
 * start of its implicit task or its last barrier to its next barrier), and
 * per active parallel region its barrier episodes: every member's k-th
 * barrier is the same barrier, and no member reaches barrier k+1 before all
 * have reached barrier k, so an episode is complete when all members'
 * phase works are in.  A complete episode's imbalance (slowest member minus
 * the mean) is blamed on the serial single the slowest member ran, on
 * oversubscription, on phantoms, or on the work's split; what the region's
 * wall time has beyond its episodes' slowest members is fork/join cost.
 * Loop chunks, critical sections, locks and tasks are counted per place. */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "advise_internal.h"
#include "desc.h"
#include "idmap.h"
#include "log.h"
#include "mem.h"
#include "records.h"

const char *const tr_cause_name[C__COUNT] = {
    "imbalance", "serial", "scheduling", "critical", "lock", "task_overhead",
    "task_starvation", "phantom", "oversubscription", "fork_join",
};

static uint64_t phantom_now(const struct adv *a, uint64_t ts)
{
    return a->phantom_ns + (a->phantoms && ts > a->phantom_since ? ts - a->phantom_since : 0);
}

/* A complete episode: its imbalance goes to one cause. */
static void episode_close(struct adv *a, struct region *g, struct episode *e, uint64_t ts)
{
    unsigned n = e->arrived;
    bool over = a->cpus && g->nthreads > a->cpus;
    uint64_t late = g->late_k == e->k ? g->late_ns : 0;
    g->crit_path += e->max;
    g->work_sum += e->sum;
    tr_adv_fn_slot(&a->work, &a->nwork, g->fn)->wall += e->sum;
    tr_adv_fn_slot(&a->path, &a->npath, g->fn)->wall += e->max;
    g->released_k = e->k;
    g->release = e->last_arrival;
    g->late_max = 0;
    g->late_k = e->k + 1;
    g->late_ns = 0;
    e->k = UINT64_MAX;
    if (n < 2)
        return;
    uint64_t by_arrival = e->max_at - e->sum_at / n;
    if (over) {
        /* a team of as many threads as CPUs would do the members' work
         * over the CPUs (a phase shorter than a time slice runs without
         * losing its CPU, so its time is CPU time; a longer one's is more,
         * and this less): what the phase took from its release beyond
         * that is the oversubscription's, late starts included */
        uint64_t fit = e->sum / a->cpus;
        if (e->max_at > fit)
            tr_adv_hold(g, C_OVERSUBSCRIPTION, e->max_at - fit, e->max_at, e->sum);
        return;
    }
    /* A member that started late (late_start) arrived late by as much:
     * with a dynamic schedule the others would have taken its work
     * meanwhile, and the phase would end the delay x (n-1)/n sooner, which
     * the arrivals' spread shows (a static loop: the work's spread does
     * not) */
    uint64_t lost = late * (n - 1) / n < by_arrival ? late * (n - 1) / n : by_arrival;
    if (lost) {
        tr_adv_hold(g, C_PHANTOM, lost, late, 0);
        by_arrival -= lost;
    }
    uint64_t mean = e->sum / n, uneven = e->max - mean, spread = e->max - e->min;
    /* The slowest member was off its CPU for a tenth of its phase or more
     * (its run delay): a dynamic schedule would have moved work to the
     * members that had their CPUs (taken to have had them whole), in
     * proportion to the CPU each got, and the phase would take C / (n - 1
     * + s), C the members' CPU work, s the slowest one's share of its CPU.
     * What remains uneven is the CPU work's. */
    if (10 * e->max_lost >= e->max && e->max_lost) {
        double cpu = (double)(e->sum - e->max_lost);
        double share = 1.0 - (double)e->max_lost / (double)e->max;
        uint64_t fair = (uint64_t)(cpu / (n - 1 + share));
        uint64_t gained = e->max > fair ? e->max - fair : 0;
        /* Off its CPU longer than it worked: it lost the CPU once, for
         * another task's whole time slice, and the phase still ends after
         * that slice (it holds a chunk, or its arrival is what the others
         * wait for); only the work it did after the slice could have gone
         * to the others: at most its own work.  (Half of it, the mean for
         * a switch at a random point, predicted 14 ms where patho.c's
         * co-runner case gained 21-33 ms quiet: its switches come early
         * in its phases, the slice taken at its yield in the barrier.) */
        uint64_t own = e->max - e->max_lost;
        if (e->max_lost >= own && gained > own)
            gained = own;
        if (gained > by_arrival)
            gained = by_arrival;
        if (gained) {
            tr_adv_hold(g, C_PHANTOM, gained, e->max_lost, mean);
            by_arrival -= gained;
        }
        uint64_t cpu_max = e->max - e->max_lost, cpu_mean = (e->sum - e->max_lost) / n;
        uneven = cpu_max > cpu_mean ? cpu_max - cpu_mean : 0;
    }
    /* Idle time at the barrier that uneven work explains: the work's spread,
     * but no more than the arrivals' (a member that started late, already
     * counted as such, did less work without arriving earlier). */
    uint64_t gain = uneven < by_arrival ? uneven : by_arrival;
    if (!gain)
        return;
    /* tasks the early members ran in the barrier were work: a split even
     * with them would save less; their waits there for a task still to be
     * created are task_starvation, as much as they explain over the team */
    if (e->task_ns / n >= gain)
        return;
    gain -= e->task_ns / n;
    uint64_t starved = e->starved / n < gain ? e->starved / n : gain;
    if (starved) {
        tr_adv_hold(g, C_TASK_STARVATION, starved, e->starved, mean);
        if (!(gain -= starved))
            return;
    }
    /* a member idle although a task was queued did not see it: it had
     * lost its CPU */
    uint64_t unseen = e->ready_idle / n < gain ? e->ready_idle / n : gain;
    if (unseen) {
        tr_adv_hold(g, C_PHANTOM, unseen, e->ready_idle, mean);
        if (!(gain -= unseen))
            return;
    }
    enum tr_cause c = C_IMBALANCE;
    uint64_t ns = spread;
    if (e->max_serial && 2 * e->max_serial >= spread) {
        c = C_SERIAL;
        ns = e->max_serial;
    } else if (phantom_now(a, ts) > e->phantom_ns)
        c = C_PHANTOM;
    else if (e->max_chunks >= 2 && gain > 2 * (e->max_chunk_ns / (e->max_chunks - 1)))
        c = C_PHANTOM; /* a dynamic loop evens out to a chunk: that member lost its CPU */
    tr_adv_hold(g, c, gain, ns, mean);
}

/* A run_delay reading, taken right after the thread's arrival at a
 * barrier: the time since its reading before that it was runnable without
 * a CPU, most of it in the phase that just ended when the reading before
 * was at its previous arrival (its wait between is short when it is the
 * slowest).  At most the phase's wall time goes to the episode, if the
 * thread is its slowest member. */
static void record_run_delay(struct adv *a, struct thr *t, const struct tr_rec *r)
{
    if (r->nargs <= TR_ARG_run_delay_delay_ns)
        return;
    uint64_t v = r->u[TR_ARG_run_delay_delay_ns];
    struct episode *e = t->arrived_ep;
    if (t->rd_any && v >= t->rd_ns && e && e->k == t->arrived_k &&
        e->max_thr == (size_t)(t - a->thr)) {
        uint64_t off = v - t->rd_ns;
        e->max_lost = off < t->arrived_w ? off : t->arrived_w;
    }
    t->arrived_ep = NULL;
    t->rd_any = true;
    t->rd_ns = v;
}

/* Member t arrives at its region's barrier t->k with its phase's work. */
static void arrive(struct adv *a, struct thr *t, uint64_t ts)
{
    struct region *g = tr_adv_region_of(a, t->team);
    uint64_t w = t->phase_start && ts > t->phase_start ? ts - t->phase_start : 0;
    uint64_t serial = t->single_ns, chunks = t->chunks, chunk_ns = t->chunk_ns;
    uint64_t k = t->k++;
    t->chunks = t->chunk_ns = 0;
    t->phase_start = 0;
    t->single_ts = t->single_ns = 0;
    t->last_chunk = 0;
    if (!g || !g->nthreads)
        return;
    struct episode *e = &g->ep[k & 3];
    if (e->k != k) {
        *e = (struct episode){ .k = k, .min = UINT64_MAX, .phantom_ns = phantom_now(a, ts) };
    }
    uint64_t at = ts > g->release ? ts - g->release : 0;
    e->arrived++;
    e->sum += w;
    e->sum_at += at;
    if (at > e->max_at)
        e->max_at = at;
    if (ts > e->last_arrival)
        e->last_arrival = ts;
    t->arrived_ep = e;
    t->arrived_k = k;
    t->arrived_w = w;
    if (w >= e->max) {
        e->max = w;
        e->max_lost = 0;
        e->max_thr = (size_t)(t - a->thr);
        e->max_serial = serial;
        e->max_chunks = chunks;
        e->max_chunk_ns = chunk_ns;
    }
    if (w < e->min)
        e->min = w;
    if (e->arrived >= g->nthreads) {
        /* closed at the next record, unless that is this member's
         * run_delay reading (close_pending) */
        a->pend_g = g;
        a->pend_e = e;
        a->pend_ts = ts;
        a->pend_thr = (size_t)(t - a->thr);
    }
}

/* The last member's arrival completed an episode; its runtime reads its run
 * delay right after the barrier_enter record (src/trace/run_delay.h), so
 * that reading, if one comes, belongs to the episode: close it after that
 * (and after the join's barrier_enter, which follows implicit_task_end).
 * Any other record closes it first: the release that the others' records
 * depend on is the episode's.  True: the record (that reading) is taken. */
static bool close_pending(struct adv *a, const struct tr_rec *r, size_t ti)
{
    if (!a->pend_e)
        return false;
    bool own = ti == a->pend_thr;
    if (own && r->d->kind == K_BARRIER_ENTER)
        return false;   /* the join's, after implicit_task_end: still pending */
    if (!own && (r->d->kind == K_WAIT_BEGIN || r->d->kind == K_WAIT_BLOCK ||
                 r->d->kind == K_WAIT_WAKE))
        return false;   /* a waiter's own progress: nothing of the episode */
    struct region *g = a->pend_g;
    struct episode *e = a->pend_e;
    a->pend_e = NULL;
    if (own && r->d->kind == K_RUN_DELAY) {
        record_run_delay(a, &a->thr[ti], r);
        episode_close(a, g, e, a->pend_ts);
        return true;
    }
    episode_close(a, g, e, a->pend_ts);
    return false;
}

/* A member leaves the barrier its team passed last (or starts after the
 * fork).  A waiter that spun sees the release within a microsecond; one
 * that starts later than LATE_NS after the release was off its CPU.  A
 * waiter that slept is woken within tens of microseconds when a CPU is
 * free; later than LATE_WOKEN_NS, none was.  The team's next phase waits
 * for the latest of them: its episode weighs that (episode_close).  One
 * after the last barrier (the primary seeing the join open late) delays
 * the region's end, but no teammate can take it over: no phantom gain,
 * only its share of the fork/join cost (late_fj). */
static void late_start(struct adv *a, struct thr *t, uint64_t ts)
{
    struct region *g = tr_adv_region_of(a, t->team);
    uint64_t limit = t->blocked ? LATE_WOKEN_NS : LATE_NS;
    t->blocked = false;
    if (!g || !g->release || g->released_k + 1 != t->k || ts < g->release + limit)
        return;
    uint64_t late = ts - g->release;
    if (late <= g->late_max)
        return;
    if (!g->late_max)   /* a fork or barrier can cost up to limit: beyond, a lost CPU */
        g->late_fj += limit;
    g->crit_path += late - g->late_max;
    g->late_max = late;
    g->late_k = t->k;
    g->late_ns = late;
}

static void region_end(struct adv *a, struct region *g, uint64_t ts)
{
    tr_adv_region_end(a, g, ts);
    *g = a->reg[--a->nreg];
}

static void record(struct adv *a, const struct tr_rec *r)
{
    uint32_t ti = r->stream == UINT32_MAX ? (uint32_t)(a->nthr - 1) : r->stream;
    struct thr *t = &a->thr[ti];
    uint64_t ts = r->ts;
    if (close_pending(a, r, ti))
        return;
    switch (r->d->kind) {
    case K_PARALLEL_BEGIN: {
        struct region *g = tr_adv_region_of(a, r->u[TR_ARG_parallel_begin_team]);
        if (!g) {
            if (a->nreg == a->reg_cap) {
                a->reg_cap = a->reg_cap ? 2 * a->reg_cap : 8;
                a->reg = tr_xrealloc(a->reg, a->reg_cap, sizeof *a->reg);
            }
            g = &a->reg[a->nreg++];
        }
        memset(g, 0, sizeof *g);
        for (unsigned i = 0; i < 4; i++)
            g->ep[i].k = UINT64_MAX;
        g->team = r->u[TR_ARG_parallel_begin_team];
        g->fn = r->u[TR_ARG_parallel_begin_fn];
        g->start = ts;
        g->nthreads = (unsigned)r->u[TR_ARG_parallel_begin_nthreads];
        g->release = ts;            /* the fork: members start after it */
        g->released_k = UINT64_MAX; /* "barrier -1" */
        g->level = (unsigned)r->u[TR_ARG_parallel_begin_level];
        if (g->level <= 1 && t->after_ts && ts > t->after_ts) {
            g->gap = ts - t->after_ts;  /* the primary alone since its last region */
            g->gap_fn = t->after_fn;
        }
        t->after_ts = 0;
        break;
    }
    case K_PARALLEL_END: {
        struct region *g = tr_adv_region_of(a, r->u[TR_ARG_parallel_end_team]);
        if (g && g->level <= 1) {
            t->after_fn = g->fn;
            t->after_ts = ts;
        }
        if (g)
            region_end(a, g, ts);
        break;
    }
    case K_ITASK_BEGIN: {
        struct region *g = tr_adv_region_of(a, r->u[TR_ARG_implicit_task_begin_team]);
        t->team = r->u[TR_ARG_implicit_task_begin_team];
        t->num = (unsigned)r->u[TR_ARG_implicit_task_begin_thread_num];
        t->fn = g ? g->fn : 0;
        t->nthreads = (unsigned)r->u[TR_ARG_implicit_task_begin_nthreads];
        if (g && g->nthreads < r->u[TR_ARG_implicit_task_begin_nthreads])
            g->nthreads = (unsigned)r->u[TR_ARG_implicit_task_begin_nthreads];
        t->phase_start = ts;
        t->k = 0;
        t->single_ts = t->single_ns = t->last_chunk = t->chunks = t->chunk_ns = 0;
        if (g && (t->created || (!t->num && !a->forks))) {
            /* started by this fork, or the process's first fork (which
             * creates the pool): creation, once a process */
            if (ts > g->start && ts - g->start > g->creation)
                g->creation = ts - g->start;
        } else if (t->num) {    /* a worker woken by the fork */
            late_start(a, t, ts);
        } else {                /* the primary, forking: microseconds of work */
            t->blocked = true;
            late_start(a, t, ts);
        }
        if (!t->num)
            a->forks++;
        t->created = false;
        break;
    case K_THREAD_BEGIN:
        t->created = r->u[0] == THREAD_POOL;
        break;
    }
    case K_ITASK_END:
        if (t->team)
            arrive(a, t, ts);   /* the join barrier's episode */
        t->joining = t->team;
        t->team = 0;
        t->fn = 0;
        t->nthreads = 0;
        break;
    case K_BARRIER_ENTER: {
        unsigned kind = (unsigned)r->u[0];
        t->in_barrier = true;
        if (!t->t_depth)
            tr_adv_idle(a, t, ts, true);
        if (t->team && t->phase_start && kind != BARRIER_JOIN && kind <= BARRIER_CANCEL) {
            if (t->single_ts)
                t->single_ns = ts - t->single_ts;
            arrive(a, t, ts);
        }
        break;
    }
    case K_BARRIER_LEAVE:
        t->in_barrier = false;
        tr_adv_idle(a, t, ts, false);
        if (t->team && !t->phase_start && r->u[0] != BARRIER_JOIN) {
            t->phase_start = ts;
            late_start(a, t, ts);
        } else if (r->u[0] == BARRIER_JOIN && t->joining) {
            /* the primary ends the region when it sees the join open */
            if (t->num == 0) {
                t->team = t->joining;
                late_start(a, t, ts);
                t->team = 0;
            }
            t->joining = 0;
        }
        break;
    case K_WAIT_END:
        t->blocked = r->u[TR_ARG_wait_end_blocked] != 0;
        break;
    case K_RUN_DELAY:
        record_run_delay(a, t, r);
        break;
    case K_SINGLE:
        if (r->u[0] && t->team)
            t->single_ts = ts;
        break;
    case K_LOOP_INIT:
        a->chunk = (int64_t)r->u[TR_ARG_loop_init_chunk];
        break;
    case K_LOOP_CHUNK:
        t->chunks++;
        if (t->last_chunk && t->phase_start) {
            uint64_t iv = ts - t->last_chunk;
            t->chunk_ns += iv;
            struct tr_finding *f = tr_adv_finding(a, C_SCHEDULING, t->fn, 0);
            if (f) {
                /* a short interval is mostly dispatch; in a long one the
                 * dispatch is a small part of the chunk's work */
                f->gain_ns += iv < DISPATCH_CAP_NS ? iv / (t->nthreads ? t->nthreads : 1) : 0;
                f->count++;
                f->work_ns += iv;
                f->chunk = a->chunk;
            }
        }
        t->last_chunk = ts;
        break;
    case K_CRIT_ENTER: case K_CRIT_ACQ: case K_CRIT_REL: case K_CRIT_HELD:
        tr_adv_section(a, t, C_CRITICAL, r->d->kind - K_CRIT_ENTER, r);
        break;
    case K_LOCK_ENTER: case K_LOCK_ACQ: case K_LOCK_REL: case K_LOCK_HELD:
        tr_adv_section(a, t, C_LOCK, r->d->kind - K_LOCK_ENTER, r);
        break;
    case K_TASK_CREATE: {
        uint64_t ra = r->nargs > TR_ARG_task_create_codeptr_ra ? r->u[TR_ARG_task_create_codeptr_ra] : 0;
        uint32_t s = tr_adv_site_of(a, r->u[TR_ARG_task_create_fn], ra);
        tr_idmap_put(&a->pending, r->u[TR_ARG_task_create_task], s);
        tr_adv_task_created(a, t);
        break;
    }
    case K_TASK_BEGIN: {
        uint32_t s = tr_idmap_take(&a->pending, r->u[TR_ARG_task_begin_task]);
        if (s == UINT32_MAX)
            s = tr_adv_site_of(a, 0, 0);
        tr_adv_task_begun(a, t, ts);
        if (t->t_depth < TASK_DEPTH) {
            t->t_start[t->t_depth] = ts;
            t->t_child[t->t_depth] = 0;
            t->t_site[t->t_depth] = s;
        }
        t->t_depth++;
        if (t->team) {
            struct region *g = tr_adv_region_of(a, t->team);
            if (g)
                g->tasks = true;
            if (!a->sites[s].region_fn)
                a->sites[s].region_fn = t->fn;
        }
        break;
    }
    case K_TASK_END:
        if (t->t_depth && --t->t_depth < TASK_DEPTH) {
            unsigned d = t->t_depth;
            uint64_t dur = ts > t->t_start[d] ? ts - t->t_start[d] : 0;
            if (!d && t->in_barrier)
                tr_adv_task_ended(a, t, ts, dur);
            struct site *s = &a->sites[t->t_site[d]];
            s->n++;
            s->excl += dur > t->t_child[d] ? dur - t->t_child[d] : 0;
            if (d)
                t->t_child[d - 1] += dur;
        }
        break;
    case K_DROPPED:
        for (size_t i = 0; i < a->nreg; i++)
            a->reg[i].dropped = true;
        break;
    case K_CPUS:
        a->cpus = (unsigned)r->u[TR_ARG_cpus_allowed];
        break;
    case K_PHANTOM: {
        unsigned n = (unsigned)r->u[TR_ARG_phantom_change_phantoms];
        if (n && !a->phantoms)
            a->phantom_since = ts;
        else if (!n && a->phantoms)
            a->phantom_ns += ts - a->phantom_since;
        a->phantoms = n;
        break;
    }
    default:
        break;
    }
}

void tr_advise_log(struct tr_advice *adv, struct tr_log *log, size_t ix)
{
    struct adv a = { .out = adv, .ix = ix };
    size_t first = adv->n;
    a.nthr = log->nstreams + 1;
    a.thr = tr_xcalloc(a.nthr, sizeof *a.thr);
    struct tr_merge *m = tr_merge_new(log, false);
    const struct tr_rec *r;
    uint64_t t0 = 0, t1 = 0;
    bool any = false;
    while (m && (r = tr_merge_next(m))) {
        if (!any || r->ts < t0)
            t0 = r->ts;
        if (r->ts > t1)
            t1 = r->ts;
        any = true;
        record(&a, r);
    }
    tr_merge_free(m);
    if (a.pend_e)
        episode_close(&a, a.pend_g, a.pend_e, a.pend_ts);
    while (a.nreg)
        region_end(&a, &a.reg[0], t1);
    tr_adv_regions_finish(&a);
    tr_adv_tasks_finish(&a);
    tr_adv_sections_finish(&a, first);
    if (adv->nlogs <= ix) {
        adv->run_ns = tr_xrealloc(adv->run_ns, ix + 1, sizeof *adv->run_ns);
        adv->nlogs = ix + 1;
    }
    adv->run_ns[ix] = t1 - t0;
    tr_idmap_free(&a.pending);
    free(a.thr);
    free(a.reg);
    free(a.sites);
    free(a.task_regions);
    free(a.work);
    free(a.path);
    free(a.fns);
}

static int by_gain(const void *x, const void *y)
{
    const struct tr_finding *a = x, *b = y;
    if (a->gain_ns != b->gain_ns)
        return a->gain_ns < b->gain_ns ? 1 : -1;
    return a->cause - b->cause;
}

void tr_advise_rank(struct tr_advice *adv)
{
    size_t k = 0;
    for (size_t i = 0; i < adv->n; i++)
        if (adv->v[i].gain_ns)
            adv->v[k++] = adv->v[i];
    adv->n = k;
    if (adv->n)
        qsort(adv->v, adv->n, sizeof *adv->v, by_gain);
}

void tr_advice_free(struct tr_advice *adv)
{
    free(adv->v);
    free(adv->run_ns);
    memset(adv, 0, sizeof *adv);
}
