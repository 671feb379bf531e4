/* advise's findings of the log being read, and the tables its parts share
 * (advise_internal.h): below advise.c, advise_region.c and advise_sync.c. */
#include <stdlib.h>
#include <string.h>

#include "advise_internal.h"
#include "mem.h"

struct tr_finding *tr_adv_finding(struct adv *a, enum tr_cause c, uint64_t fn, uint64_t key)
{
    struct tr_advice *o = a->out;
    for (size_t i = o->n; i-- > 0;) {
        struct tr_finding *f = &o->v[i];
        if (f->log != a->ix)
            break;
        if (f->cause == c && f->fn == fn && f->key == key)
            return f;
    }
    if (o->n >= MAX_FINDINGS)
        return NULL;
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 32;
        o->v = tr_xrealloc(o->v, o->cap, sizeof *o->v);
    }
    struct tr_finding *f = &o->v[o->n++];
    memset(f, 0, sizeof *f);
    f->cause = c;
    f->log = a->ix;
    f->fn = fn;
    f->key = key;
    f->cpus = a->cpus;
    return f;
}

void tr_adv_add(struct adv *a, enum tr_cause c, uint64_t fn, uint64_t key, uint64_t gain,
                uint64_t ns, uint64_t work, unsigned threads)
{
    struct tr_finding *f = tr_adv_finding(a, c, fn, key);
    if (!f)
        return;
    f->gain_ns += gain;
    f->count++;
    f->ns += ns;
    f->work_ns += work;
    if (threads > f->threads)
        f->threads = threads;
}

/* The entry of fn in a table of (fn, ns), made when missing. */
struct fn_wall *tr_adv_fn_slot(struct fn_wall **v, size_t *n, uint64_t fn)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].fn == fn)
            return &(*v)[i];
    *v = tr_xrealloc(*v, *n + 1, sizeof **v);
    (*v)[*n] = (struct fn_wall){ fn, 0 };
    return &(*v)[(*n)++];
}

struct region *tr_adv_region_of(struct adv *a, uint64_t team)
{
    for (size_t i = 0; i < a->nreg; i++)
        if (a->reg[i].team == team)
            return &a->reg[i];
    return NULL;
}
