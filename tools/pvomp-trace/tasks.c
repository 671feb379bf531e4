/* Explicit tasks by where they were created (analyze.c calls these, with its tr_tasks):
 * task_create says which task pointer has which body (fn) and construct
 * (codeptr_ra); task_begin/task_end carry only the pointer.  A table of the
 * tasks created and not yet begun maps the pointer to its site; the
 * pointer leaves the table when the task begins (the runtime reuses task
 * memory, and an undeferred task's is on the stack), so the table holds
 * only what is queued at a time. */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "log.h"
#include "mem.h"
#include "tasks.h"

#define MAX_SITES 4096u

static void sites_start(struct tr_tasks *a)
{
    if (a->nsites)
        return;
    a->sites_cap = 16;
    a->sites = tr_xcalloc(a->sites_cap, sizeof *a->sites);
    a->nsites = 1; /* sites[0]: created before the log */
}

static uint32_t site_of(struct tr_tasks *a, uint64_t fn, uint64_t ra)
{
    sites_start(a);
    for (size_t i = a->nsites; i-- > 1;) /* few sites; a program's loop repeats the last */
        if (a->sites[i].fn == fn && a->sites[i].ra == ra)
            return (uint32_t)i;
    if (a->nsites >= MAX_SITES)
        return (uint32_t)(a->nsites - 1); /* lumped with the last one */
    if (a->nsites == a->sites_cap) {
        a->sites_cap *= 2;
        a->sites = tr_xrealloc(a->sites, a->sites_cap, sizeof *a->sites);
    }
    a->sites[a->nsites] = (struct tr_task_site){ .fn = fn, .ra = ra };
    return (uint32_t)a->nsites++;
}

void tr_task_created(struct tr_tasks *a, const struct tr_rec *r)
{
    /* Logs from before codeptr_ra have three arguments. */
    uint64_t ra = r->nargs > TR_ARG_task_create_codeptr_ra ? r->u[TR_ARG_task_create_codeptr_ra] : 0;
    uint64_t fn = r->nargs > TR_ARG_task_create_fn ? r->u[TR_ARG_task_create_fn] : 0;
    uint32_t s = site_of(a, fn, ra);
    tr_idmap_put(&a->pending, r->u[TR_ARG_task_create_task], s);
}

uint32_t tr_task_begun(struct tr_tasks *a, uint64_t task)
{
    uint32_t v = tr_idmap_take(&a->pending, task);
    sites_start(a);
    return v == UINT32_MAX ? 0 : v;
}

void tr_task_ran(struct tr_tasks *a, size_t nthr, uint32_t site, uint32_t thr, uint64_t ns)
{
    struct tr_task_site *s = &a->sites[site];
    if (!s->ran)
        s->ran = tr_xcalloc((nthr + 63) / 64, sizeof *s->ran);
    s->ran[thr / 64] |= 1ull << (thr % 64);
    s->instances++;
    s->total += ns;
    if (ns > s->max)
        s->max = ns;
}

void tr_tasks_free(struct tr_tasks *a)
{
    for (size_t i = 0; i < a->nsites; i++)
        free(a->sites[i].ran);
    free(a->sites);
    tr_idmap_free(&a->pending);
    a->sites = NULL;
    a->nsites = a->sites_cap = 0;
}
