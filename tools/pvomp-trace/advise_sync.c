/* advise: critical sections, locks and tasks (advise.c hands their
 * records here): waits and held times per lock and region, tasks' exclusive
 * times per construct, and the gains docs/trace.md gives for `critical`,
 * `lock` and `task_overhead`. */
#include <stdlib.h>
#include <string.h>

#include "advise_internal.h"
#include "log.h"
#include "mem.h"

_Static_assert(TR_ARG_critical_held_ns == TR_ARG_lock_held_ns, "_held events' ns argument");

uint32_t tr_adv_site_of(struct adv *a, uint64_t fn, uint64_t ra)
{
    for (size_t i = a->nsites; i-- > 0;)
        if (a->sites[i].fn == fn && a->sites[i].ra == ra)
            return (uint32_t)i;
    if (a->nsites >= MAX_ADV_SITES)
        return (uint32_t)(a->nsites - 1);
    a->sites = tr_xrealloc(a->sites, a->nsites + 1, sizeof *a->sites);
    a->sites[a->nsites] = (struct site){ .fn = fn, .ra = ra };
    return (uint32_t)a->nsites++;
}

/* A critical finding is named by the construct of its longest wait (a
 * lock serves every unnamed critical construct: the site of an
 * uncontended one is not recorded). */
static void name_site(struct adv *a, struct thr *t, uint64_t lock, uint64_t waited)
{
    struct tr_finding *f = tr_adv_finding(a, C_CRITICAL, t->fn, lock);
    if (f && waited > f->site_wait) {
        f->site = t->crit_ra;
        f->site_wait = waited;
    }
    t->crit_ra = 0;
}

/* A gap's bucket: 4 an octave of its ns, and the bucket's middle back. */
static unsigned gap_bucket(uint64_t ns)
{
    if (ns < 4)
        return (unsigned)ns;
    unsigned lg = 63u - (unsigned)__builtin_clzll(ns);
    unsigned b = 4 * (lg - 1) + (unsigned)((ns >> (lg - 2)) & 3);
    return b < GAP_BUCKETS ? b : GAP_BUCKETS - 1;
}

static uint64_t gap_middle(unsigned b)
{
    if (b < 4)
        return b;
    unsigned lg = b / 4 + 1, q = b % 4;
    uint64_t lo = (1ull << lg) + ((uint64_t)q << (lg - 2));
    return lo + (1ull << (lg - 2)) / 2;
}

static void gap_add(struct adv *a, const struct tr_finding *f, uint64_t ns)
{
    size_t i = (size_t)(f - a->out->v);
    if (!a->gaps)
        a->gaps = tr_xcalloc(MAX_FINDINGS, sizeof *a->gaps);
    if (!a->gaps[i])
        a->gaps[i] = tr_xcalloc(1, sizeof **a->gaps);
    struct sec_gaps *g = a->gaps[i];
    g->sum += ns;
    g->n++;
    g->hist[gap_bucket(ns)]++;
}

/* The gaps beyond their median: what the lock's handing over (a wake-up
 * after the release, the waiter's way back) added to the members' own
 * work between entries, gone with the section. */
static uint64_t gap_excess(const struct sec_gaps *g)
{
    if (!g || !g->n)
        return 0;
    uint64_t seen = 0, med = 0;
    for (unsigned b = 0; b < GAP_BUCKETS; b++)
        if ((seen += g->hist[b]) * 2 >= g->n) {
            med = gap_middle(b);
            break;
        }
    return g->sum > med * g->n ? g->sum - med * g->n : 0;
}

/* Critical sections and locks: waits and held times by (lock, region), and
 * each member's gaps between its entries of one lock in one phase. */
void tr_adv_section(struct adv *a, struct thr *t, enum tr_cause c, unsigned step,
                    const struct tr_rec *r)
{
    struct held_state *h = &t->held[c == C_CRITICAL ? 0 : 1];
    uint64_t ts = r->ts, lock = r->u[0];
    if (step == 0) {            /* _enter */
        h->wait = ts;
        if (c == C_CRITICAL)
            t->crit_ra = r->nargs > TR_ARG_critical_enter_codeptr_ra
                             ? r->u[TR_ARG_critical_enter_codeptr_ra] : 0;
        return;
    }
    uint64_t ns = step == 3 ? r->u[TR_ARG_critical_held_ns] : 0;
    uint64_t at = step == 3 ? (ns < ts ? ts - ns : ts) : ts;
    uint64_t waited = 0;
    if (step != 2) {            /* acquired (or held: acquired at ts - ns) */
        uint64_t asked = h->wait && h->wait < at ? h->wait : at;
        if (h->wait && at > h->wait)
            waited = at - h->wait;
        h->wait = 0;
        if (waited && c == C_CRITICAL && t->crit_ra)
            name_site(a, t, r->u[0], waited);
        if (h->depth++ == 0) {
            h->start = at;
            if (h->rel_ts && h->rel_lock == lock && h->rel_fn == t->fn && h->rel_k == t->k &&
                asked >= h->rel_ts) {
                struct tr_finding *f = tr_adv_finding(a, c, t->fn, lock);
                if (f)
                    gap_add(a, f, asked - h->rel_ts);
            }
        }
        if (step == 1) {
            struct tr_finding *f = waited ? tr_adv_finding(a, c, t->fn, lock) : NULL;
            if (f)
                f->ns += waited;
            return;
        }
    }
    if (h->depth && --h->depth == 0) {
        uint64_t held = ts > h->start ? ts - h->start : 0;
        struct tr_finding *f = tr_adv_finding(a, c, t->fn, lock);
        if (f) {
            f->ns += waited;
            f->work_ns += held;
            f->count++;
            if (t->nthreads > f->threads)
                f->threads = t->nthreads;
        }
        h->rel_ts = ts;
        h->rel_lock = lock;
        h->rel_fn = t->fn;
        h->rel_k = t->k;
    }
}

/* task_starvation.  A member idle in a barrier (not running a task) that
 * found its region's task pool empty (tasks created less tasks begun) and
 * then starts a task waited for one to be created: that whole wait (how
 * soon it saw the new task included: a pool kept full spares it) goes to
 * its barrier's episode (advise.c), or, the episode complete, straight to a
 * finding, over the team size.  A wait that began with a task queued went
 * unseen: the member had lost its CPU (episode_close's phantom). */
static struct region *team_region(struct adv *a, const struct thr *t)
{
    uint64_t team = t->team ? t->team : t->joining;
    return team ? tr_adv_region_of(a, team) : NULL;
}

void tr_adv_task_created(struct adv *a, struct thr *t)
{
    struct region *g = team_region(a, t);
    if (g)
        g->queued++;
}

void tr_adv_task_begun(struct adv *a, struct thr *t, uint64_t ts)
{
    struct region *g = team_region(a, t);
    if (g && t->idle_from && !t->t_depth && ts > t->idle_from) {
        uint64_t idle = ts - t->idle_from, k = t->k - 1;
        struct episode *e = &g->ep[k & 3];
        if (e->k == k)
            *(t->idle_queued ? &e->ready_idle : &e->starved) += idle;
        else if (!t->idle_queued && g->nthreads)
            tr_adv_add(a, C_TASK_STARVATION, g->fn, 0, idle / g->nthreads, idle, 0,
                       g->nthreads);
    }
    t->idle_from = 0;
    if (g && g->queued)
        g->queued--;
}

/* t, in a barrier, ended a task of dur ns that it began there: that was
 * work (its episode's, while open), and t is idle again. */
void tr_adv_task_ended(struct adv *a, struct thr *t, uint64_t ts, uint64_t dur)
{
    struct region *g = team_region(a, t);
    uint64_t k = t->k - 1;
    if (g && g->ep[k & 3].k == k)
        g->ep[k & 3].task_ns += dur;
    tr_adv_idle(a, t, ts, true);
}

/* t is idle in a barrier from ts (idle), or leaves it. */
void tr_adv_idle(struct adv *a, struct thr *t, uint64_t ts, bool idle)
{
    struct region *g = idle ? team_region(a, t) : NULL;
    t->idle_from = g ? ts : 0;
    t->idle_queued = g && g->queued;
}

/* task_overhead: a site whose tasks average under SMALL_TASK_NS gets its
 * share (by task time) of the wall time of the regions its tasks ran in. */
void tr_adv_tasks_finish(struct adv *a)
{
    for (size_t r = 0; r < a->ntask_regions; r++) {
        uint64_t all = 0;
        for (size_t i = 0; i < a->nsites; i++)
            if (a->sites[i].region_fn == a->task_regions[r].fn)
                all += a->sites[i].excl;
        for (size_t i = 0; i < a->nsites && all; i++) {
            struct site *s = &a->sites[i];
            if (s->region_fn != a->task_regions[r].fn || !s->n || s->excl / s->n >= SMALL_TASK_NS)
                continue;
            struct tr_finding *f = tr_adv_finding(a, C_TASK_OVERHEAD, s->region_fn, s->ra ? s->ra : s->fn);
            if (!f)
                continue;
            f->task_site = true;
            /* no more than SMALL_TASK_NS a task: managing one costs less
             * than the smallest task worth keeping (a few tasks beside
             * long serial work are not the region's wall time) */
            uint64_t share = (uint64_t)((double)a->task_regions[r].wall * (double)s->excl / (double)all);
            uint64_t bound = s->n * SMALL_TASK_NS;
            f->gain_ns += share < bound ? share : bound;
            f->count += s->n;
            f->work_ns += s->excl;
            f->body = s->fn;
        }
    }
}

/* Critical sections and locks.  A reduction or atomic instead runs the
 * held work in parallel and saves each entry's cost (SECTION_ENTRY_NS).
 * With H the held time, W the waits and T the members' phase work less W:
 * when the section is the bottleneck (H > T/n), the region's slowest
 * phases P become its members' work without the waits and without the
 * handing over (the gaps' excess over their median, X) shared by n: the
 * gain is P - (T - X)/n, at least H - T/n; the region's imbalance finding
 * is folded into it (a bottleneck's tail is its doing).  Else the members'
 * wait for it, W/n. */
void tr_adv_sections_finish(struct adv *a, size_t first)
{
    for (size_t i = first; i < a->out->n; i++) {
        struct tr_finding *f = &a->out->v[i];
        if (f->cause != C_CRITICAL && f->cause != C_LOCK)
            continue;
        uint64_t n = f->threads ? f->threads : 1;
        uint64_t work = tr_adv_fn_slot(&a->work, &a->nwork, f->fn)->wall;
        uint64_t path = tr_adv_fn_slot(&a->path, &a->npath, f->fn)->wall;
        uint64_t t = (work > f->ns ? work - f->ns : 0) / n; /* the wait is no work */
        uint64_t gain = f->ns / n;
        if (f->work_ns > t) {
            uint64_t x = gap_excess(a->gaps ? a->gaps[i] : NULL) / n;
            uint64_t after = t > x ? t - x : 0;
            uint64_t bound = f->work_ns - t;
            if (path > after && path - after > bound)
                bound = path - after;
            if (bound > gain) {
                gain = bound;
                for (size_t k = first; k < a->out->n; k++)
                    if (a->out->v[k].cause == C_IMBALANCE && a->out->v[k].fn == f->fn)
                        a->out->v[k].gain_ns = 0;
            }
        }
        f->gain_ns = gain + f->count * SECTION_ENTRY_NS / n;
    }
    if (a->gaps)
        for (size_t i = 0; i < MAX_FINDINGS; i++)
            free(a->gaps[i]);
    free(a->gaps);
    a->gaps = NULL;
}
