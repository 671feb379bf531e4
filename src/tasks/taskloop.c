/* The taskloop construct (pv_taskloop; its entry points GOMP_taskloop and
 * GOMP_taskloop_ull are in gomp_task.c).
 *
 * The n iterations are cut into tasks: the first `nbig` tasks get `big`
 * iterations, the others `small`.  Each task's firstprivate block starts
 * with its own [lo, hi) bounds, as gcc's outlined body expects.
 *   grainsize(g):         n / g tasks (at least one) sharing n evenly;
 *   grainsize(strict: g): tasks of exactly g iterations, the last one less;
 *   num_tasks(k):         min(k, n) tasks sharing n evenly (k = 0: the team
 *                         size, as libgomp does when neither clause is given).
 * Without nogroup the construct is a taskgroup; with reduction that
 * taskgroup registers the reductions whose array pointer gcc stores after the
 * two bounds. */
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/task_internal.h"

struct split {
    uint64_t ntasks, nbig, big, small;
};

static struct split split_evenly(uint64_t n, uint64_t ntasks)
{
    return (struct split){ntasks, n % ntasks, n / ntasks + 1, n / ntasks};
}

static struct split split_iterations(uint64_t n, unsigned flags, unsigned long num,
                                     unsigned nthreads)
{
    if (flags & PV_GTF_GRAINSIZE) {
        uint64_t g = num ? num : 1;
        uint64_t k = n / g;
        if (flags & PV_GTF_STRICT) {
            uint64_t rem = n % g;
            if (rem == 0)
                return (struct split){k, k, g, g};
            return (struct split){k + 1, k, g, rem};
        }
        if (k <= 1)
            return (struct split){1, 1, n, n};
        return split_evenly(n, k);
    }
    uint64_t k = num ? num : nthreads;
    if (k >= n)
        return (struct split){n, n, 1, 1};
    return split_evenly(n, k);
}

/* The data block of a taskloop with reductions starts with the two bounds
 * and the reduction array. */
struct taskloop_head {
    uint64_t lo, hi;
    uintptr_t *reductions;
};

/* n iterations from start by step (the entry point counted them).  codeptr:
 * the call's return address when a tool is attached, else NULL.
 * The tool sees the taskloop region inside its taskgroup (as libomp
 * reports it): taskgroup begin, taskloop begin, the tasks (each with its
 * chunk), taskloop end, the taskgroup's wait and end. */
void pv_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                 long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                 uint64_t start, uint64_t n, uint64_t step, const void *codeptr)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    bool with_red = (flags & (PV_GTF_NOGROUP | PV_GTF_REDUCTION)) == PV_GTF_REDUCTION;
    if (n == 0 || (team && atomic_load_explicit(&team->cancelled, memory_order_relaxed))) {
        /* Tell gcc's code that no reduction was registered. */
        if (with_red)
            ((struct taskloop_head *)data)->reductions[2] = 0;
        if (codeptr) {
            pv_ompt_taskloop(true, n, codeptr);
            pv_ompt_taskloop(false, n, codeptr);
        }
        return;
    }
    struct split sp = split_iterations(n, flags, num_tasks, team ? team->nthreads : 1);

    if (flags & PV_GTF_NOGROUP) {
        if (pv_unlikely(pv_gicv.cancel_var) && team && thr->task &&
            pv_task_creation_cancelled(team, thr->task))
            return;
    } else {
        pv_taskgroup_start();
        if (codeptr)
            pv_ompt_sync_begin(ompt_sync_region_taskgroup, codeptr);
        if (with_red)
            pv_taskgroup_reduction_register(((struct taskloop_head *)data)->reductions);
    }
    if (codeptr)
        pv_ompt_taskloop(true, n, codeptr);

    struct pv_task_args a = pv_task_args_of(fn, data, cpyfn, arg_size, arg_align,
                                            flags & PV_GTF_FINAL, pv_task_priority_bound(priority));
    a.bounds = true;
    bool deferrable = (flags & PV_GTF_IF) && team && thr->task && !thr->task->final &&
                      !pv_task_throttled(team, sp.ntasks < pv_task_throttle_limit(team)
                                                   ? sp.ntasks
                                                   : pv_task_throttle_limit(team));
    bool skip = pv_unlikely(pv_gicv.cancel_var) && team && thr->task &&
                pv_task_creation_cancelled(team, thr->task);

    /* Undeferred with copy constructors: every copy is made before the
     * first task runs, as if the tasks had been created first. */
    char *copies = NULL;
    size_t stride = ((size_t)a.arg_size + (size_t)a.arg_align - 1) & ~((size_t)a.arg_align - 1);
    char *base = NULL;
    if (!skip && !deferrable && cpyfn) {
        copies = pv_malloc(sp.ntasks * stride + (size_t)a.arg_align);
        base = (char *)(((uintptr_t)copies + (uintptr_t)a.arg_align - 1) &
                        ~((uintptr_t)a.arg_align - 1));
        for (uint64_t i = 0; i < sp.ntasks; i++)
            cpyfn(base + i * stride, data);
        a.in_place = true;
        a.cpyfn = NULL;
    }

    uint64_t lo = start, first = 0;
    for (uint64_t i = 0; i < sp.ntasks && !skip; i++) {
        uint64_t cnt = i < sp.nbig ? sp.big : sp.small;
        a.lo = lo;
        lo += cnt * step; /* modulo 2^64, as the loop type wraps */
        a.hi = lo;
        if (base)
            a.data = base + i * stride;
        if (codeptr)
            pv_ompt_taskloop_chunk(first, cnt);
        first += cnt;
        pv_task_spawn(&a, deferrable);
    }
    free(copies);

    if (codeptr)
        pv_ompt_taskloop(false, n, codeptr);
    if (!(flags & PV_GTF_NOGROUP)) {
        if (codeptr)
            pv_ompt_sync_wait(ompt_sync_region_taskgroup, codeptr);
        pv_taskgroup_end();
        if (codeptr)
            pv_ompt_sync_end(ompt_sync_region_taskgroup, codeptr);
    }
}
