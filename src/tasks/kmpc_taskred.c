/* Task reductions through libomp's ABI: taskgroup task_reduction(...) and
 * in_reduction tasks (__kmpc_taskred_init, the older
 * __kmpc_task_reduction_init, __kmpc_task_reduction_get_th_data), and the
 * task modifier of parallel and worksharing reductions
 * (__kmpc_taskred_modifier_init, __kmpc_task_reduction_modifier_fini).
 *
 * A reduction taskgroup keeps, for each item, one private copy per thread
 * of the team, initialised when the taskgroup starts (libomp's eager
 * initialisation; the lazy flag is not needed for correctness).  A task
 * asks for the copy of the thread that runs it, by the item's original
 * address (or any address inside the item's copies, as libomp accepts).
 * When the taskgroup ends (every task in it is done) the copies are
 * combined into the original, in thread order, and finalised.
 *
 * Taskgroups with reductions form a stack per thread, matched to the
 * taskgroup nesting depth (kmpc_task.c calls enter/leave).  A task that
 * runs on another thread looks up the taskgroup clang passes it, and that
 * taskgroup's enclosing ones on its creator's stack, which outlive it.
 *
 * The modifier: every thread of the team calls modifier_init with its own
 * private variable as the original.  The private copies are shared by the
 * team (made once, pv_kmpc_team_once); each thread's taskgroup names its own
 * original.  modifier_fini ends the thread's taskgroup; the last thread to
 * get there (all tasks of all threads are then done) combines the copies
 * into its own original, which the enclosing reduction then combines as
 * usual, and frees them. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "tasks/kmpc_task.h"

/* libomp's kmp_taskred_input_t (taskred_init, taskred_modifier_init). */
typedef struct {
    void *reduce_shar;
    void *reduce_orig;
    size_t reduce_size;
    void *reduce_init; /* void (*)(void *priv, void *orig) */
    void *reduce_fini; /* void (*)(void *priv), or NULL */
    void *reduce_comb; /* void (*)(void *shar, void *priv) */
    kmp_uint32 flags;
} kmp_taskred_input_t;

/* libomp's older kmp_task_red_input_t (task_reduction_init): init(priv). */
typedef struct {
    void *reduce_shar;
    size_t reduce_size;
    void *reduce_init;
    void *reduce_fini;
    void *reduce_comb;
    kmp_uint32 flags;
} kmp_task_red_input_t;

struct item {
    void *shar;
    size_t stride;  /* bytes per thread's copy */
    void (*fini)(void *priv);
    void (*comb)(void *shar, void *priv);
    char *priv;     /* nthreads copies */
};

/* The copies, shared by the team for the modifier, else by one taskgroup. */
struct copies {
    _Atomic int left; /* modifier: threads that have not finished */
    int nthreads, n;
    struct item items[];
};

struct redgroup {
    struct redgroup *prev; /* the enclosing one on this thread */
    int depth;             /* taskgroup depth it belongs to */
    bool modifier;
    struct copies *c;
    void *shar[];          /* this thread's originals (the modifier's differ) */
};

static __thread struct redgroup *top;
static __thread int depth;

void pv_kmpc_taskred_enter(void)
{
    depth++;
}

static void combine(struct redgroup *g)
{
    struct copies *c = g->c;
    for (int i = 0; i < c->n; i++) {
        struct item *it = &c->items[i];
        for (int k = 0; k < c->nthreads; k++) {
            void *p = it->priv + (size_t)k * it->stride;
            it->comb(g->shar[i], p);
            if (it->fini)
                it->fini(p);
        }
    }
    for (int i = 0; i < c->n; i++)
        free(c->items[i].priv);
    free(c);
}

static void pop(struct redgroup *g)
{
    top = g->prev;
    free(g);
}

void pv_kmpc_taskred_leave(void)
{
    struct redgroup *g = top;
    if (g && g->depth == depth && !g->modifier) {
        combine(g);
        pop(g);
    }
    depth--;
}

/* One entry of either input layout. */
struct input {
    void *shar, *orig;
    size_t size;
    void *init, *fini, *comb;
    bool init_has_orig;
};

static struct copies *copies_new(int n, const struct input *in, int nthreads)
{
    struct copies *c = pv_malloc(sizeof *c + (size_t)n * sizeof(struct item));
    atomic_init(&c->left, nthreads);
    c->nthreads = nthreads;
    c->n = n;
    for (int i = 0; i < n; i++) {
        struct item *it = &c->items[i];
        it->shar = in[i].shar;
        it->stride = (in[i].size + 63) & ~(size_t)63; /* one cache line at least */
        if (!it->stride)
            it->stride = 64;
        it->fini = (void (*)(void *))in[i].fini;
        it->comb = (void (*)(void *, void *))in[i].comb;
        it->priv = pv_malloc(it->stride * (size_t)nthreads);
        memset(it->priv, 0, it->stride * (size_t)nthreads);
        for (int k = 0; k < nthreads; k++) {
            void *p = it->priv + (size_t)k * it->stride;
            if (!in[i].init)
                continue; /* zero-initialised, as libomp does without init */
            if (in[i].init_has_orig)
                ((void (*)(void *, void *))in[i].init)(p, in[i].orig ? in[i].orig : in[i].shar);
            else
                ((void (*)(void *))in[i].init)(p);
        }
    }
    return c;
}

static struct redgroup *push(struct copies *c, const struct input *in, bool modifier)
{
    struct redgroup *g = pv_malloc(sizeof *g + (size_t)c->n * sizeof(void *));
    g->prev = top;
    g->depth = depth;
    g->modifier = modifier;
    g->c = c;
    for (int i = 0; i < c->n; i++)
        g->shar[i] = in[i].shar;
    top = g;
    return g;
}

static struct input *read_new(int num, const kmp_taskred_input_t *d, struct input *in)
{
    for (int i = 0; i < num; i++)
        in[i] = (struct input){d[i].reduce_shar, d[i].reduce_orig, d[i].reduce_size,
                               d[i].reduce_init, d[i].reduce_fini, d[i].reduce_comb, true};
    return in;
}

static struct input *read_old(int num, const kmp_task_red_input_t *d, struct input *in)
{
    for (int i = 0; i < num; i++)
        in[i] = (struct input){d[i].reduce_shar, NULL, d[i].reduce_size, d[i].reduce_init,
                               d[i].reduce_fini, d[i].reduce_comb, false};
    return in;
}

PV_EXPORT void *__kmpc_taskred_init(kmp_int32 gtid, kmp_int32 num, void *data)
{
    (void)gtid;
    if (num <= 0)
        return NULL;
    struct input in[num];
    read_new(num, data, in);
    return push(copies_new(num, in, omp_get_num_threads()), in, false);
}

PV_EXPORT void *__kmpc_task_reduction_init(kmp_int32 gtid, kmp_int32 num, void *data)
{
    (void)gtid;
    if (num <= 0)
        return NULL;
    struct input in[num];
    read_old(num, data, in);
    return push(copies_new(num, in, omp_get_num_threads()), in, false);
}

PV_EXPORT void *__kmpc_task_reduction_get_th_data(kmp_int32 gtid, void *tskgrp, void *data)
{
    (void)gtid;
    int tid = omp_get_thread_num();
    for (struct redgroup *g = tskgrp ? tskgrp : top; g; g = g->prev) {
        struct copies *c = g->c;
        if (tid >= c->nthreads)
            break;
        for (int i = 0; i < c->n; i++) {
            struct item *it = &c->items[i];
            char *p = data;
            if (data == g->shar[i] || data == it->shar ||
                (p >= it->priv && p < it->priv + it->stride * (size_t)c->nthreads))
                return it->priv + (size_t)tid * it->stride;
        }
    }
    pv_warn("__kmpc_task_reduction_get_th_data: %p is no reduction item of the enclosing "
            "taskgroups; the task updates it directly", data);
    return data;
}

/* ----------------------------------------------------------- the modifier */

struct modifier_args {
    int n;
    const struct input *in;
    int nthreads;
};

static void *modifier_copies(void *ctx)
{
    const struct modifier_args *a = ctx;
    return copies_new(a->n, a->in, a->nthreads);
}

static void *modifier_init(int num, const struct input *in)
{
    GOMP_taskgroup_start();
    pv_kmpc_taskred_enter();
    struct modifier_args a = {num, in, omp_get_num_threads()};
    struct copies *c = pv_kmpc_team_once(modifier_copies, &a);
    return push(c, in, true);
}

PV_EXPORT void *__kmpc_taskred_modifier_init(ident_t *loc, kmp_int32 gtid, kmp_int32 is_ws,
                                             kmp_int32 num, void *data)
{
    (void)loc, (void)gtid, (void)is_ws;
    if (num <= 0)
        return NULL;
    struct input in[num];
    return modifier_init(num, read_new(num, data, in));
}

PV_EXPORT void *__kmpc_task_reduction_modifier_init(ident_t *loc, kmp_int32 gtid,
                                                    kmp_int32 is_ws, kmp_int32 num,
                                                    void *data)
{
    (void)loc, (void)gtid, (void)is_ws;
    if (num <= 0)
        return NULL;
    struct input in[num];
    return modifier_init(num, read_old(num, data, in));
}

PV_EXPORT void __kmpc_task_reduction_modifier_fini(ident_t *loc, kmp_int32 gtid,
                                                   kmp_int32 is_ws)
{
    (void)loc, (void)gtid, (void)is_ws;
    GOMP_taskgroup_end(); /* this thread's tasks are done */
    struct redgroup *g = top;
    if (g && g->depth == depth && g->modifier) {
        /* acq_rel: the last one sees every other thread's tasks done. */
        if (atomic_fetch_sub_explicit(&g->c->left, 1, memory_order_acq_rel) == 1)
            combine(g);
        pop(g);
    }
    depth--;
}
