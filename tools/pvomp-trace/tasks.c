/* Explicit tasks by where they were created (analyze.c calls these):
 * task_create says which task pointer has which body (fn) and construct
 * (codeptr_ra); task_begin/task_end carry only the pointer.  A table of the
 * tasks created and not yet begun maps the pointer to its site; the
 * pointer leaves the table when the task begins (the runtime reuses task
 * memory, and an undeferred task's is on the stack), so the table holds
 * only what is queued at a time. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define MAX_SITES 4096u

/* p grown to n elements of size (p NULL: n zeroed ones). */
static void *grow_to(void *p, size_t n, size_t size)
{
    p = p ? realloc(p, n * size) : calloc(n, size);
    if (!p) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    return p;
}

static size_t slot_of(const struct tr_task_map *m, uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (m->cap - 1);
}

static void map_put(struct tr_task_map *m, uint64_t key, uint32_t val)
{
    if (2 * (m->n + 1) > m->cap) {
        struct tr_task_map old = *m;
        m->cap = old.cap ? 2 * old.cap : 256;
        m->keys = grow_to(NULL, m->cap, sizeof *m->keys);
        m->vals = grow_to(NULL, m->cap, sizeof *m->vals);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.vals[i])
                map_put(m, old.keys[i], old.vals[i]);
        free(old.keys);
        free(old.vals);
    }
    size_t j = slot_of(m, key);
    while (m->vals[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    m->n += !m->vals[j];
    m->keys[j] = key;
    m->vals[j] = val;
}

/* Removes key; returns its value, or 0.  Linear probing: the entries after
 * the hole that hash at or before it move back into it. */
static uint32_t map_take(struct tr_task_map *m, uint64_t key)
{
    if (!m->n)
        return 0;
    size_t j = slot_of(m, key), mask = m->cap - 1;
    while (m->vals[j] && m->keys[j] != key)
        j = (j + 1) & mask;
    uint32_t v = m->vals[j];
    if (!v)
        return 0;
    m->vals[j] = 0;
    m->n--;
    for (size_t k = (j + 1) & mask; m->vals[k]; k = (k + 1) & mask) {
        size_t home = slot_of(m, m->keys[k]);
        /* k's entry may stay unless the hole j lies between its home and k */
        if (((k - home) & mask) >= ((k - j) & mask)) {
            m->keys[j] = m->keys[k];
            m->vals[j] = m->vals[k];
            m->vals[k] = 0;
            j = k;
        }
    }
    return v;
}

static void sites_start(struct tr_analysis *a)
{
    if (a->nsites)
        return;
    a->sites_cap = 16;
    a->sites = grow_to(NULL, a->sites_cap, sizeof *a->sites);
    a->nsites = 1; /* sites[0]: created before the log */
}

static uint32_t site_of(struct tr_analysis *a, uint64_t fn, uint64_t ra)
{
    sites_start(a);
    for (size_t i = a->nsites; i-- > 1;) /* few sites; a program's loop repeats the last */
        if (a->sites[i].fn == fn && a->sites[i].ra == ra)
            return (uint32_t)i;
    if (a->nsites >= MAX_SITES)
        return (uint32_t)(a->nsites - 1); /* lumped with the last one */
    if (a->nsites == a->sites_cap) {
        a->sites_cap *= 2;
        a->sites = grow_to(a->sites, a->sites_cap, sizeof *a->sites);
    }
    a->sites[a->nsites] = (struct tr_task_site){ .fn = fn, .ra = ra };
    return (uint32_t)a->nsites++;
}

void tr_task_created(struct tr_analysis *a, const struct tr_rec *r)
{
    /* Logs from before codeptr_ra have three arguments. */
    uint64_t ra = r->nargs > TR_ARG_task_create_codeptr_ra ? r->u[TR_ARG_task_create_codeptr_ra] : 0;
    uint64_t fn = r->nargs > TR_ARG_task_create_fn ? r->u[TR_ARG_task_create_fn] : 0;
    uint32_t s = site_of(a, fn, ra);
    map_put(&a->pending, r->u[TR_ARG_task_create_task], s + 1);
}

uint32_t tr_task_begun(struct tr_analysis *a, uint64_t task)
{
    uint32_t v = map_take(&a->pending, task);
    sites_start(a);
    return v ? v - 1 : 0;
}

void tr_task_ran(struct tr_analysis *a, uint32_t site, uint32_t thr, uint64_t ns)
{
    struct tr_task_site *s = &a->sites[site];
    if (!s->ran)
        s->ran = grow_to(NULL, (a->nthr + 63) / 64, sizeof *s->ran);
    s->ran[thr / 64] |= 1ull << (thr % 64);
    s->instances++;
    s->total += ns;
    if (ns > s->max)
        s->max = ns;
}

unsigned tr_task_threads(const struct tr_analysis *a, const struct tr_task_site *s)
{
    unsigned n = 0;
    for (size_t i = 0; s->ran && i < (a->nthr + 63) / 64; i++)
        n += (unsigned)__builtin_popcountll(s->ran[i]);
    return n;
}

void tr_tasks_free(struct tr_analysis *a)
{
    for (size_t i = 0; i < a->nsites; i++)
        free(a->sites[i].ran);
    free(a->sites);
    free(a->pending.keys);
    free(a->pending.vals);
    a->sites = NULL;
    a->nsites = a->sites_cap = 0;
    memset(&a->pending, 0, sizeof a->pending);
}
