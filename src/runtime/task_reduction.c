/* Task reductions: taskgroup task_reduction, reduction(task, ...) on
 * parallel / for / sections / scope, taskloop reductions and in_reduction.
 *
 * gcc describes the reduction items of a construct in an array of words:
 *   d[0] number of items        d[1] bytes of one thread's private block
 *   d[2] alignment in, address of the private blocks (nthreads of them) out
 *   d[3] allocator              d[4] next array (chained to the enclosing
 *                                    taskgroup's arrays at registration)
 *   d[5] ours: the lookup map   d[6] ours: end of the private blocks
 *   then per item: address of the original, offset in a private block,
 *   and ours: the array the item belongs to.
 * A participating task asks GOMP_task_reduction_remap for the address of
 * its thread's private copy of each item; gcc's code combines the blocks
 * at the end and calls the unregister entry point.  The entry points are
 * src/tasks/gomp_task_reduction.c's; here are the maps and the private blocks. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "runtime/task_internal.h"
#include "trace/trace.h"

/* Open-addressing map from an original's address to its item (3 words). */
struct red_map {
    size_t mask, count;
    uintptr_t *slot[];
};

static struct red_map *map_new(size_t n)
{
    size_t cap = 8;
    while (cap < 2 * n)
        cap *= 2;
    struct red_map *m = pv_calloc(1, sizeof *m + cap * sizeof m->slot[0]);
    m->mask = cap - 1;
    return m;
}

static inline size_t map_hash(const struct red_map *m, uintptr_t key)
{
    key ^= key >> 21;
    key *= 0x9E3779B97F4A7C15ull;
    return (size_t)(key >> 32) & m->mask;
}

static void map_put(struct red_map *m, uintptr_t *item)
{
    size_t i = map_hash(m, item[0]);
    while (m->slot[i]) {
        if (m->slot[i][0] == item[0]) {
            m->slot[i] = item; /* the innermost registration wins */
            return;
        }
        i = (i + 1) & m->mask;
    }
    m->slot[i] = item;
    m->count++;
}

static uintptr_t *map_get(const struct red_map *m, uintptr_t key)
{
    for (size_t i = map_hash(m, key); m->slot[i]; i = (i + 1) & m->mask)
        if (m->slot[i][0] == key)
            return m->slot[i];
    return NULL;
}

/* Register the chain starting at `data`: allocate the private blocks (or
 * share those of `orig`, the first thread's registration of the same
 * worksharing construct), chain it to `old` and build its map. */
static void red_register(uintptr_t *data, uintptr_t *old, uintptr_t *orig, unsigned nthreads)
{
    size_t total = 0;
    uintptr_t *d = data;
    for (;;) {
        if (orig) {
            d[2] = orig[2];
            d[6] = orig[6];
            orig = (uintptr_t *)orig[4];
        } else {
            size_t size = (size_t)d[1] * nthreads;
            size_t align = d[2] ? (size_t)d[2] : sizeof(void *);
            void *blocks = pv_aligned_alloc(align, size);
            memset(blocks, 0, size);
            d[2] = (uintptr_t)blocks;
            d[6] = d[2] + size;
        }
        d[5] = 0;
        total += d[0];
        if (d[4] == 0) {
            d[4] = (uintptr_t)old;
            break;
        }
        d = (uintptr_t *)d[4];
    }
    struct red_map *old_map = old ? (struct red_map *)old[5] : NULL;
    struct red_map *m = map_new(total + (old_map ? old_map->count : 0));
    if (old_map)
        for (size_t i = 0; i <= old_map->mask; i++)
            if (old_map->slot[i])
                map_put(m, old_map->slot[i]);
    for (d = data;; d = (uintptr_t *)d[4]) {
        for (size_t j = 0; j < d[0]; j++) {
            uintptr_t *item = d + 7 + 3 * j;
            item[2] = (uintptr_t)d;
            map_put(m, item);
        }
        if (d[4] == (uintptr_t)old)
            break;
    }
    data[5] = (uintptr_t)m;
}

void pv_taskgroup_reduction_register(uintptr_t *data)
{
    struct pv_task *t = pv_task_current();
    if (!t->taskgroup)
        pv_taskgroup_start();
    struct pv_team *team = pv_thr.ts.team;
    red_register(data, t->taskgroup->reductions, NULL, team ? team->nthreads : 1);
    t->taskgroup->reductions = data;
}

void pv_task_reduction_unregister(uintptr_t *data)
{
    free((void *)data[5]);
    uintptr_t *d = data;
    do {
        free((void *)d[2]);
        d = (uintptr_t *)d[4];
    } while (d && !d[5]);
}

/* ptrs[0..cnt) hold addresses of originals, or of private copies handed out
 * earlier; replace each with this thread's private copy.  For i < cntorig
 * also store the original's address in ptrs[cnt + i]. */
void pv_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    struct pv_task *t = pv_thr.task;
    uintptr_t *data = t && t->taskgroup ? t->taskgroup->reductions : NULL;
    if (!data)
        pv_fatal("in_reduction outside of any task reduction");
    uintptr_t id = pv_thr.ts.team_id;
    const struct red_map *m = (const struct red_map *)data[5];
    for (size_t i = 0; i < cnt; i++) {
        uintptr_t p = (uintptr_t)ptrs[i];
        uintptr_t *item = map_get(m, p);
        if (item) {
            uintptr_t *d = (uintptr_t *)item[2];
            ptrs[i] = (void *)(d[2] + id * d[1] + item[1]);
            if (i < cntorig)
                ptrs[cnt + i] = (void *)item[0];
            continue;
        }
        /* A private copy: find its array, then the item by its offset. */
        uintptr_t *d = data;
        while (d && !(p >= d[2] && p < d[6]))
            d = (uintptr_t *)d[4];
        if (!d)
            pv_fatal("no task reduction registered for %p", (void *)p);
        uintptr_t off = (p - d[2]) % d[1];
        ptrs[i] = (void *)(d[2] + id * d[1] + off);
        if (i < cntorig) {
            size_t lo = 0, hi = d[0];
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (d[7 + 3 * mid + 1] < off)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == d[0] || d[7 + 3 * lo + 1] != off)
                pv_fatal("no task reduction item at offset %lu", (unsigned long)off);
            ptrs[cnt + i] = (void *)d[7 + 3 * lo];
        }
    }
}

/* --------------------------------------------------------------- parallel */

struct par_red {
    void (*fn)(void *);
    void *data;
    struct pv_taskgroup *tg;
};

static void par_red_member(void *arg)
{
    struct par_red *r = arg;
    pv_thr.task->taskgroup = r->tg;
    r->fn(r->data);
}

unsigned pv_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags)
{
    unsigned n = pv_resolve_num_threads(num_threads, 0);
    uintptr_t *rdata = *(uintptr_t **)data;
    struct pv_taskgroup tg = {.prev = NULL, .workshare = false};
    atomic_init(&tg.pending, 0);
    atomic_init(&tg.cancelled, false);
    red_register(rdata, NULL, NULL, n);
    tg.reductions = rdata;
    struct par_red r = {fn, data, &tg};
    /* Every implicit task is in this taskgroup; the region's final barrier
     * waits for the tasks, gcc's code then combines and unregisters. */
    pv_team_start_ws(par_red_member, &r, n, flags, NULL, NULL);
    return n;
}

/* ------------------------------------------------------------ worksharing */

void pv_task_ws_reductions_reset(struct pv_tstate *ts)
{
    /* "Construct 2^31 - 1, ready": matches no construct of the new region
     * before the slot's state is overwritten. */
    for (unsigned i = 0; i < PV_WS_SLOTS; i++)
        atomic_store_explicit(&ts->ws_red[i].state.word, UINT32_MAX, memory_order_relaxed);
}

void pv_task_ws_reductions(uintptr_t *reductions)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *t = pv_task_current();
    struct pv_taskgroup *tg = pv_taskgroup_new(t->taskgroup);
    tg->workshare = true;
    t->taskgroup = tg;
    struct pv_team *team = thr->ts.team;
    if (!team) {
        red_register(reductions, tg->reductions, NULL, 1);
        tg->reductions = reductions;
        return;
    }
    struct pv_tstate *ts = team->task_state;
    unsigned slot = (unsigned)(thr->ts.ws - team->ws);
    pv_futex_t *state = &ts->ws_red[slot].state;
    uint32_t mine = (uint32_t)((thr->ts.ws_seq - 1) << 1);
    /* The slot is reused (for construct seq + PV_WS_SLOTS) only after every
     * thread left this construct, so the state cannot move past `mine`
     * while somebody here still looks at it. */
    uint32_t cur = atomic_load_explicit(&state->word, memory_order_acquire);
    bool first = false;
    while (cur != mine && cur != (mine | 1)) {
        if (atomic_compare_exchange_weak_explicit(&state->word, &cur, mine,
                                                  memory_order_acquire, memory_order_acquire)) {
            first = true;
            break;
        }
    }
    if (first) {
        red_register(reductions, tg->reductions, NULL, team->nthreads);
        ts->ws_red[slot].first = reductions;
        /* seq_cst store, then wake: the wait primitive's protocol. */
        atomic_store_explicit(&state->word, mine | 1, memory_order_seq_cst);
        pv_wake(state);
    } else {
        while ((cur = atomic_load_explicit(&state->word, memory_order_acquire)) != (mine | 1))
            pv_wait_while_eq(state, cur);
        red_register(reductions, tg->reductions, ts->ws_red[slot].first, team->nthreads);
    }
    tg->reductions = reductions;
}

void pv_task_ws_reductions_end(void)
{
    struct pv_thread *thr = &pv_thr;
    uintptr_t *data = thr->task->taskgroup->reductions;
    pv_taskgroup_end();
    /* The private blocks are shared by the team: member 0 frees them, the
     * others their own lookup table.  This runs before the construct's
     * barrier (GOMP_workshare_task_reduction_unregister's order, which is
     * libgomp's). */
    if (thr->ts.team_id == 0)
        pv_task_reduction_unregister(data);
    else
        free((void *)data[5]);
}
