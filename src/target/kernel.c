/* GOMP_target_ext: the target construct.
 *
 * gcc 12 without an offload compiler passes device -1 ("the default
 * device"), the host version of the outlined region as `fn`, and the map
 * list.  On device 0 the list is mapped (mapvars.c), fn runs on device
 * threads with the array of device addresses, and the list is unmapped.  On
 * the initial device (if(false), OMP_TARGET_OFFLOAD=disabled, device number
 * omp_get_initial_device()) fn runs on a device thread of the host with the
 * host addresses, firstprivate items copied.
 *
 * nowait and depend make the construct a target task (tasks/gomp_task.c's GOMP_task,
 * with a copy of the lists and of the firstprivate data taken now); depend
 * without nowait makes it an undeferred task, which waits for its
 * dependences first. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "ompt/inquiry.h"
#include "runtime/league.h"
#include "runtime/thread.h"
#include "target/events.h"
#include "target/target.h"
#include "trace/trace.h"

#define K_FIRSTPRIVATE 0x0c

struct targs {
    int num_teams;      /* 1: no teams construct; 0: unspecified; -1: unknown */
    int thread_limit;
};

static struct targs parse_args(void **args)
{
    struct targs t = {1, 0};
    while (args && *args) {
        intptr_t id = (intptr_t)*args++, val;
        if (id & PV_TARG_SUBSEQUENT)
            val = (intptr_t)*args++;
        else
            val = id >> PV_TARG_VALUE_SHIFT;
        if ((id & PV_TARG_DEVICE_MASK) != 0)
            continue;   /* for another kind of device */
        if (val > INT_MAX)
            val = INT_MAX;
        if ((id & PV_TARG_ID_MASK) == PV_TARG_NUM_TEAMS)
            t.num_teams = (int)val;
        else if ((id & PV_TARG_ID_MASK) == PV_TARG_THREAD_LIMIT)
            t.thread_limit = val > 0 ? (int)val : 0;
    }
    return t;
}

/* Host fallback: fn gets the host addresses, with firstprivate items copied
 * into `fp` (caller-provided, firstprivate_size() bytes). */
static size_t firstprivate_size(const struct pv_maplist *l)
{
    size_t size = 0;
    for (size_t i = 0; i < l->n; i++)
        if ((l->kinds[i] & 0xff) == K_FIRSTPRIVATE && l->hostaddrs[i]) {
            size_t a = (size_t)1 << (l->kinds[i] >> 8);
            size = ((size + a - 1) & ~(a - 1)) + l->sizes[i];
        }
    return size;
}

static size_t firstprivate_align(const struct pv_maplist *l)
{
    size_t align = 1;
    for (size_t i = 0; i < l->n; i++)
        if ((l->kinds[i] & 0xff) == K_FIRSTPRIVATE && (size_t)1 << (l->kinds[i] >> 8) > align)
            align = (size_t)1 << (l->kinds[i] >> 8);
    return align;
}

/* Copies firstprivate items to fp and points hostaddrs (a copy) at them. */
static void firstprivate_copy(const struct pv_maplist *l, void **out, char *fp)
{
    size_t off = 0;
    for (size_t i = 0; i < l->n; i++) {
        out[i] = l->hostaddrs[i];
        if ((l->kinds[i] & 0xff) != K_FIRSTPRIVATE || !l->hostaddrs[i])
            continue;
        size_t a = (size_t)1 << (l->kinds[i] >> 8);
        off = (off + a - 1) & ~(a - 1);
        memcpy(fp + off, l->hostaddrs[i], l->sizes[i]);
        out[i] = fp + off;
        off += l->sizes[i];
    }
}

static void run_on_host(void (*fn)(void *), const struct pv_maplist *l, struct targs a)
{
    size_t fsize = firstprivate_size(l), align = firstprivate_align(l);
    char *fp = fsize ? pv_aligned_alloc(align < 16 ? 16 : align, (fsize + 15) & ~(size_t)15)
                     : NULL;
    void **addrs = pv_malloc((l->n ? l->n : 1) * sizeof *addrs);
    firstprivate_copy(l, addrs, fp);
    if (pv_target_in_kernel())
        fn(addrs);   /* nested in a kernel: runs where it is */
    else
        pv_league_run(NULL, fn, addrs, a.num_teams, a.thread_limit);
    free(addrs);
    free(fp);
}

static void run_target(struct pv_device *d, void (*fn)(void *), const struct pv_maplist *l,
                       struct targs a, const void *codeptr, bool nowait)
{
    struct pv_tctx c;
    bool ev = pv_ev_on();
    int devnum = d ? d->num : pv_target_num_devices();
    trace_target_begin(PVTRACE_TARGET_KIND_REGION, devnum);
    if (ev)
        pv_ev_target_begin(&c, nowait ? ompt_target_nowait : ompt_target, devnum, codeptr);
    if (!d) {
        run_on_host(fn, l, a);
    } else {
        struct pv_mapped *h = pv_map_enter(d, l, PV_MAP_TARGET);
        struct pv_op op;
        unsigned requested = a.num_teams > 0 ? (unsigned)a.num_teams : 0;
        if (ev)
            pv_ev_submit_begin(&op, d->num, requested);
        unsigned granted = pv_league_run(d, fn, h->devaddrs, a.num_teams, a.thread_limit);
        if (ev)
            pv_ev_submit_end(&op, granted);
        pv_map_exit(h);
    }
    if (ev)
        pv_ev_target_end(&c);
    trace_target_end(PVTRACE_TARGET_KIND_REGION, devnum);
}

/* ------------------------------------------------------------ target tasks */

/* Everything a deferred construct needs, in one block. */
struct ttask {
    int device;                 /* as given (resolved when the task runs) */
    int op;                     /* PV_TT_* */
    void (*fn)(void *);
    unsigned flags;
    struct pv_maplist l;
    struct targs a;
    const void *codeptr;
    bool nowait;
};

static struct ttask *ttask_new(int device, int op, void (*fn)(void *), const struct pv_maplist *l,
                               unsigned flags, struct targs a, const void *codeptr, bool nowait)
{
    size_t n = l->n, fsize = op == PV_TT_TARGET ? firstprivate_size(l) : 0;
    size_t size = sizeof(struct ttask) + n * (sizeof(void *) + sizeof(size_t) +
                                              sizeof(unsigned short)) + 64 + fsize;
    struct ttask *t = pv_calloc(1, size);
    *t = (struct ttask){.device = device, .op = op, .fn = fn, .flags = flags, .a = a,
                        .codeptr = codeptr, .nowait = nowait};
    char *p = (char *)(t + 1);
    t->l.n = n;
    t->l.hostaddrs = (void **)p;
    p += n * sizeof(void *);
    t->l.sizes = (size_t *)p;
    p += n * sizeof(size_t);
    t->l.kinds = (unsigned short *)p;
    p += n * sizeof(unsigned short);
    memcpy(t->l.sizes, l->sizes, n * sizeof(size_t));
    memcpy(t->l.kinds, l->kinds, n * sizeof(unsigned short));
    if (fsize) {
        /* Firstprivate values are the ones at the construct. */
        size_t align = firstprivate_align(l);
        char *fp = (char *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
        if (align > 64)
            pv_fatal("firstprivate alignment %zu is not supported in a target task", align);
        firstprivate_copy(l, t->l.hostaddrs, fp);
    } else {
        memcpy(t->l.hostaddrs, l->hostaddrs, n * sizeof(void *));
    }
    return t;
}

static void pv_target_task_body(struct ttask *t);

static void ttask_run(void *arg)
{
    struct ttask *t = *(struct ttask **)arg;
    pv_target_task_body(t);
    free(t);
}

/* Run `t` as a task: deferred with nowait, undeferred (after its
 * dependences) without. */
static void ttask_spawn(struct ttask *t, void **depend)
{
    GOMP_task(ttask_run, &t, NULL, sizeof t, sizeof t, t->nowait,
              depend ? PV_GTF_TASK_DEPEND : 0, depend, 0, NULL);
}

void pv_target_ttask_launch(int device, int op, void (*fn)(void *), const struct pv_maplist *l,
                            unsigned flags, void **depend, const void *codeptr, bool nowait)
{
    struct ttask *t = ttask_new(device, op, fn, l, flags, (struct targs){1, 0}, codeptr, nowait);
    ttask_spawn(t, depend);
}

static void pv_target_task_body(struct ttask *t)
{
    struct pv_device *d = pv_target_resolve(t->device);
    ompt_data_t *saved = pv_ev_target_task;
    if (pv_ev_on()) {
        struct pv_ompt_task *me = pv_ompt_task_at(0);
        pv_ev_target_task = me ? &me->data : NULL;
    }
    if (t->op == PV_TT_TARGET)
        run_target(d, t->fn, &t->l, t->a, t->codeptr, t->nowait);
    else
        pv_target_data_op(t->op, d, &t->l, t->flags, t->codeptr, t->nowait);
    pv_ev_target_task = saved;
}

PV_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                               size_t *sizes, unsigned short *kinds, unsigned int flags,
                               void **depend, void **args)
{
    const void *codeptr = __builtin_return_address(0);
    struct pv_maplist l = {mapnum, hostaddrs, sizes, kinds};
    struct targs a = parse_args(args);
    bool nowait = (flags & PV_TF_NOWAIT) != 0;
    if (nowait || depend) {
        struct ttask *t = ttask_new(device, PV_TT_TARGET, fn, &l, flags, a, codeptr, nowait);
        ttask_spawn(t, depend);
        return;
    }
    run_target(pv_target_resolve(device), fn, &l, a, codeptr, false);
}

/* The GCC 4.9 ABI: 8-bit kinds (kind in the low 3 bits, log2 alignment
 * above), no arguments. */
static unsigned short *widen_kinds(const unsigned char *kinds, size_t n)
{
    unsigned short *w = pv_malloc((n ? n : 1) * sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i] = (unsigned short)((kinds[i] & 7) | ((kinds[i] >> 3) << 8));
    return w;
}

PV_EXPORT void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                           void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused;
    unsigned short *w = widen_kinds(kinds, mapnum);
    struct pv_maplist l = {mapnum, hostaddrs, sizes, w};
    run_target(pv_target_resolve(device), fn, &l, (struct targs){1, 0},
               __builtin_return_address(0), false);
    free(w);
}

PV_EXPORT void GOMP_teams(unsigned int num_teams, unsigned int thread_limit)
{
    (void)num_teams;
    if (thread_limit)
        pv_icv_for_write()->thread_limit_var = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
}

unsigned short *pv_target_widen_kinds(const unsigned char *kinds, size_t n)
{
    return widen_kinds(kinds, n);
}
