/* advise: a region instance's end (advise.c hands its findings here until
 * then), and per region function at the log's end, whether its regions are
 * too short for their fork/join cost (docs/trace.md, "advise": fork_join,
 * serial between regions). */
#include <string.h>

#include "advise_internal.h"
#include "mem.h"

void tr_adv_hold(struct region *g, enum tr_cause c, uint64_t gain, uint64_t ns, uint64_t work)
{
    struct pending *p = &g->pend[c];
    p->gain += gain;
    p->ns += ns;
    p->work += work;
    p->count++;
}

static void sum(struct pending *to, const struct pending *p)
{
    to->gain += p->gain;
    to->ns += p->ns;
    to->work += p->work;
    to->count += p->count;
}

/* Add p to the finding of cause c at region function fn. */
static void put(struct adv *a, uint64_t fn, unsigned threads, enum tr_cause c,
                const struct pending *p)
{
    struct tr_finding *f = p->count ? tr_adv_finding(a, c, fn, 0) : NULL;
    if (!f)
        return;
    f->gain_ns += p->gain;
    f->count += p->count;
    f->ns += p->ns;
    f->work_ns += p->work;
    if (threads > f->threads)
        f->threads = threads;
}

/* serial (between regions): the primary ran `gap` ns alone (n times)
 * after region `before` and then forked fn's region; shared by its team
 * that code would take 1/threads of the time. */
static void serial_between(struct adv *a, uint64_t before, uint64_t fn, unsigned threads,
                           uint64_t gap, unsigned n)
{
    if (!gap || threads < 2)
        return;
    struct tr_finding *f = tr_adv_finding(a, C_SERIAL, before, fn);
    if (!f)
        return;
    f->between = true;
    f->gain_ns += gap * (threads - 1) / threads;
    f->count += n;
    f->ns += gap;
    if (threads > f->threads)
        f->threads = threads;
}

static struct fn_regions *fn_regions(struct adv *a, uint64_t fn)
{
    for (size_t i = 0; i < a->nfns; i++)
        if (a->fns[i].fn == fn)
            return &a->fns[i];
    a->fns = tr_xrealloc(a->fns, a->nfns + 1, sizeof *a->fns);
    memset(&a->fns[a->nfns], 0, sizeof *a->fns);
    a->fns[a->nfns].fn = fn;
    return &a->fns[a->nfns++];
}

/* The region instance g ends at ts.  With tasks, its wall time (less the
 * pool's creation, once a process, and its phantoms' late starts: a cut-off
 * removes neither) is what task_overhead shares out, and its findings
 * stand.  Else its findings,
 * what its wall time has beyond its episodes' slowest members and late
 * starts (rest: fork/join cost) and what running it serially would save
 * (its wall time less its members' work summed) go to its function's
 * sums, decided at the log's end (tr_adv_regions_finish). */
void tr_adv_region_end(struct adv *a, struct region *g, uint64_t ts)
{
    uint64_t wall = ts > g->start + g->creation ? ts - g->start - g->creation : 0;
    bool over = a->cpus && g->nthreads > a->cpus;
    if (g->tasks) {
        /* a cut-off does not remove the wait for members off their CPU */
        uint64_t lost = g->pend[C_PHANTOM].gain + g->pend[C_OVERSUBSCRIPTION].gain;
        tr_adv_fn_slot(&a->task_regions, &a->ntask_regions, g->fn)->wall +=
            wall > lost ? wall - lost : 0;
        for (unsigned c = 0; c < C__COUNT; c++)
            put(a, g->fn, g->nthreads, (enum tr_cause)c, &g->pend[c]);
        serial_between(a, g->gap_fn, g->fn, g->nthreads, g->gap, 1);
        return;
    }
    struct fn_regions *r = fn_regions(a, g->fn);
    for (unsigned c = 0; c < C__COUNT; c++)
        sum(&r->pend[c], &g->pend[c]);
    if (g->dropped) {
        /* a member's lost records leave an episode open: the region's
         * time beyond its episodes, and its work, are not known */
        serial_between(a, g->gap_fn, g->fn, g->nthreads, g->gap, 1);
        return;
    }
    uint64_t rest = wall > g->crit_path ? wall - g->crit_path : 0;
    uint64_t serial = wall > g->work_sum ? wall - g->work_sum : 0;
    if (rest)
        sum(&r->rest, &(struct pending){ rest, wall, g->crit_path, 1 });
    /* a gap shorter than the region's fork/join cost is the runtime's own
     * leaving and entering the regions, not code worth a fork: gone with
     * the fork when the regions run serially */
    uint64_t cost = rest + g->late_fj;
    if (g->gap && g->gap < cost) {
        r->gap += g->gap;
        r->gap_fn = g->gap_fn;
        r->gaps++;
    } else
        serial_between(a, g->gap_fn, g->fn, g->nthreads, g->gap, 1);
    sum(&r->serial, &(struct pending){ serial, wall, g->work_sum, 1 });
    r->work += g->work_sum;
    r->n++;
    r->short_n += cost > g->work_sum;
    r->over |= over;
    if (g->nthreads > r->threads)
        r->threads = g->nthreads;
}

/* A region function most of whose instances cost more to fork, wake and
 * join than their members' work summed is too short for its fork/join
 * cost.  That cost: the remainder (rest), and of each late start up to the
 * limit that makes it late (LATE_NS, LATE_WOKEN_NS): a later one had lost
 * its CPU, which a loaded machine does to long regions too (most, not all:
 * a loaded machine also stretches some instances' work).  Running its
 * regions serially (if clause) would take their work instead of their
 * wall time, so fork_join gains their wall time less their work, with the
 * gaps before them shorter than that cost; every other finding there (late starts,
 * imbalance) is part of that: the fix removes the team.  Else its findings
 * stand, the remainders are fork_join's (oversubscription's in a team
 * larger than the CPUs), and the gaps serial between regions. */
void tr_adv_regions_finish(struct adv *a)
{
    for (size_t i = 0; i < a->nfns; i++) {
        struct fn_regions *r = &a->fns[i];
        if (!r->over && 2 * r->short_n > r->n) {
            r->serial.gain += r->gap;
            put(a, r->fn, r->threads, C_FORK_JOIN, &r->serial);
            continue;
        }
        for (unsigned c = 0; c < C__COUNT; c++)
            put(a, r->fn, r->threads, (enum tr_cause)c, &r->pend[c]);
        put(a, r->fn, r->threads, r->over ? C_OVERSUBSCRIPTION : C_FORK_JOIN, &r->rest);
        serial_between(a, r->gap_fn, r->fn, r->threads, r->gap, r->gaps);
    }
}
