/* Task dependences among sibling tasks.
 *
 * Every task that has children with depend clauses owns a table (its
 * `deps`), keyed by address.  For an address the table keeps two groups of
 * unfinished tasks: the current group and the one before it.  A group is
 * either one writer (out, inout, mutexinoutset), or a set of readers (in),
 * or a set of inoutset tasks; members of one group may run concurrently and
 * every member depends on the whole group before it.  So a new task
 *   - of the current group's kind (in after in, inoutset after inoutset)
 *     joins it and depends on the previous group;
 *   - otherwise starts a new group and depends on the current one, which
 *     becomes the previous group.
 * mutexinoutset is treated as out: the members are then ordered, which is
 * stricter than needed but keeps them mutually exclusive.  A NULL address
 * with an out kind is omp_all_memory (gcc 13's encoding; gcc 12 never emits
 * it): such a task depends on every unfinished task of the table, and every
 * later task with dependences depends on it.
 *
 * A finished task unlinks itself; an address whose groups are both empty
 * leaves the table, so memory follows the live tasks.  One lock per table:
 * creation runs on the parent's thread, completions anywhere; there is no
 * team-wide lock. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "runtime/mutex.h"
#include "runtime/task_internal.h"

enum { L_NONE = 0, L_CUR = 1, L_PREV = 2 };
enum { K_OUT = 0, K_INOUTSET = 1, K_IN = 2, K_NKINDS = 3 };

struct pv_dep_entry {
    void *addr;
    struct pv_dep_entry *hnext;
    struct pv_dep_node *cur, *prev;      /* group lists */
    uint8_t cur_kind, prev_kind;
};

struct pv_deps {
    _Atomic uint32_t lock;
    unsigned nbuckets, count;
    struct pv_dep_entry **buckets;
    struct pv_dep_entry allmem;          /* omp_all_memory tasks (addr NULL) */
    struct pv_dep_entry *spare;          /* a few free entries for reuse */
    unsigned nspare;
};

struct pv_deps *pv_deps_new(void)
{
    struct pv_deps *d = pv_calloc(1, sizeof *d);
    d->nbuckets = 16;
    d->buckets = pv_calloc(d->nbuckets, sizeof *d->buckets);
    return d;
}

void pv_deps_free(struct pv_deps *d)
{
    if (!d)
        return;
    for (unsigned i = 0; i < d->nbuckets; i++)
        for (struct pv_dep_entry *e = d->buckets[i], *n; e; e = n) {
            n = e->hnext;
            free(e);
        }
    for (struct pv_dep_entry *e = d->spare, *n; e; e = n) {
        n = e->hnext;
        free(e);
    }
    free(d->buckets);
    free(d);
}

bool pv_deps_empty(struct pv_deps *d)
{
    if (!d)
        return true;
    /* Completions change the table under the lock (rare path: undeferred
     * tasks and taskwait with dependences). */
    pv_mutex_lock(&d->lock);
    bool empty = d->count == 0 && !d->allmem.cur && !d->allmem.prev;
    pv_mutex_unlock(&d->lock);
    return empty;
}

/* --------------------------------------------------------- the items */

/* One depend item, decoded. */
struct dep_item {
    void *addr;
    int kind; /* K_* */
};

size_t pv_deps_count(void **depend)
{
    return (uintptr_t)depend[0] ? (uintptr_t)depend[0] : (uintptr_t)depend[1];
}

static int depobj_kind(void **obj)
{
    switch ((uintptr_t)obj[1]) {
    case PV_DEP_IN:
        return K_IN;
    case PV_DEP_OUT:
    case PV_DEP_INOUT:
    case PV_DEP_MUTEXINOUTSET:
        return K_OUT;
    case PV_DEP_INOUTSET:
        return K_INOUTSET;
    default:
        pv_fatal("unknown omp_depend_t dependence type %d", (int)(uintptr_t)obj[1]);
    }
}

/* Item i of the array.  Old layout: [n, nout, addr...] (outs first).  New
 * layout: [0, n, nout, nmutexinoutset, nin, addr..., depobj...]. */
static struct dep_item dep_item(void **depend, size_t i)
{
    size_t n = (uintptr_t)depend[0];
    if (n) {
        size_t nout = (uintptr_t)depend[1];
        return (struct dep_item){depend[2 + i], i < nout ? K_OUT : K_IN};
    }
    size_t nout = (uintptr_t)depend[2] + (uintptr_t)depend[3];
    size_t normal = nout + (uintptr_t)depend[4];
    if (i < normal)
        return (struct dep_item){depend[5 + i], i < nout ? K_OUT : K_IN};
    void **obj = (void **)depend[5 + i];
    return (struct dep_item){obj[0], depobj_kind(obj)};
}

/* ------------------------------------------------------------ the table */

static inline unsigned addr_hash(const struct pv_deps *d, void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    a ^= a >> 17;
    a *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(a >> 40) & (d->nbuckets - 1);
}

static void table_grow(struct pv_deps *d)
{
    unsigned old = d->nbuckets;
    struct pv_dep_entry **ob = d->buckets;
    d->nbuckets = old * 2;
    d->buckets = pv_calloc(d->nbuckets, sizeof *d->buckets);
    for (unsigned i = 0; i < old; i++)
        for (struct pv_dep_entry *e = ob[i], *n; e; e = n) {
            n = e->hnext;
            unsigned h = addr_hash(d, e->addr);
            e->hnext = d->buckets[h];
            d->buckets[h] = e;
        }
    free(ob);
}

static struct pv_dep_entry *entry_get(struct pv_deps *d, void *addr)
{
    unsigned h = addr_hash(d, addr);
    for (struct pv_dep_entry *e = d->buckets[h]; e; e = e->hnext)
        if (e->addr == addr)
            return e;
    if (d->count >= 2 * d->nbuckets) {
        table_grow(d);
        h = addr_hash(d, addr);
    }
    struct pv_dep_entry *e = d->spare;
    if (e) {
        d->spare = e->hnext;
        d->nspare--;
    } else {
        e = pv_malloc(sizeof *e);
    }
    memset(e, 0, sizeof *e);
    e->addr = addr;
    e->hnext = d->buckets[h];
    d->buckets[h] = e;
    d->count++;
    return e;
}

static void entry_remove(struct pv_deps *d, struct pv_dep_entry *e)
{
    struct pv_dep_entry **p = &d->buckets[addr_hash(d, e->addr)];
    while (*p != e)
        p = &(*p)->hnext;
    *p = e->hnext;
    d->count--;
    if (d->nspare < 32) {
        e->hnext = d->spare;
        d->spare = e;
        d->nspare++;
    } else {
        free(e);
    }
}

/* ---------------------------------------------------------------- edges */

/* t must wait for pred (both children of the table's owner). */
static void add_edge(struct pv_task *pred, struct pv_task *t)
{
    if (pred == t)
        return;
    /* t's edges are added one after the other under the lock, so a repeat
     * can only be the last successor recorded. */
    if (pred->nsucc && pred->succ[pred->nsucc - 1] == t)
        return;
    PV_GROW(pred->succ, pred->nsucc, pred->succ_cap, 4);
    pred->succ[pred->nsucc++] = t;
    atomic_fetch_add_explicit(&t->npred, 1, memory_order_relaxed);
    if (pv_ompt_tool())
        pv_ompt_task_dependence(pred, t);
}

static void edges_from_list(struct pv_dep_node *list, struct pv_task *t)
{
    for (struct pv_dep_node *n = list; n; n = n->next)
        add_edge(n->task, t);
}

static void list_push(struct pv_dep_node **head, struct pv_dep_node *n, struct pv_dep_entry *e,
                      uint8_t which)
{
    n->entry = e;
    n->list = which;
    n->prev = NULL;
    n->next = *head;
    if (*head)
        (*head)->prev = n;
    *head = n;
}

static void list_unlink(struct pv_dep_node **head, struct pv_dep_node *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        *head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    n->entry = NULL;
    n->list = L_NONE;
}

/* The previous group is forgotten (its members stay linked to nothing),
 * the current group becomes the previous one. */
static void shift_groups(struct pv_dep_entry *e)
{
    for (struct pv_dep_node *n = e->prev; n; n = n->next) {
        n->entry = NULL;
        n->list = L_NONE;
    }
    e->prev = e->cur;
    e->prev_kind = e->cur_kind;
    for (struct pv_dep_node *n = e->prev; n; n = n->next)
        n->list = L_PREV;
    e->cur = NULL;
}

/* Place t's item of kind k in entry e, adding the edges it needs. */
static void entry_add(struct pv_dep_entry *e, struct pv_dep_node *node, struct pv_task *t, int k)
{
    node->task = t;
    if (!e->cur && !e->prev) {
        e->cur_kind = (uint8_t)k;
        list_push(&e->cur, node, e, L_CUR);
        return;
    }
    if (e->cur && e->cur_kind == k && k != K_OUT) {
        edges_from_list(e->prev, t);
        list_push(&e->cur, node, e, L_CUR);
        return;
    }
    edges_from_list(e->cur, t);
    if (k == K_OUT)
        edges_from_list(e->prev, t); /* normally redundant; cheap insurance */
    shift_groups(e);
    e->cur_kind = (uint8_t)k;
    list_push(&e->cur, node, e, L_CUR);
}

static void register_allmem(struct pv_deps *d, struct pv_dep_node *node, struct pv_task *t)
{
    for (unsigned i = 0; i < d->nbuckets; i++)
        for (struct pv_dep_entry *e = d->buckets[i]; e; e = e->hnext) {
            edges_from_list(e->cur, t);
            edges_from_list(e->prev, t);
        }
    entry_add(&d->allmem, node, t, K_OUT);
}

void pv_deps_register(struct pv_task *parent, struct pv_task *t, void **depend)
{
    struct pv_deps *d = parent->deps;
    size_t n = pv_deps_count(depend);
    struct pv_dep_node *nodes = t->dnodes;
    unsigned used = 0;
    pv_mutex_lock(&d->lock);
    /* Earlier omp_all_memory tasks come before everything. */
    edges_from_list(d->allmem.cur, t);
    edges_from_list(d->allmem.prev, t);
    /* Strongest kinds first: a repeated address keeps its first, strongest
     * kind (an entry whose newest member is t already has t's item). */
    for (int k = K_OUT; k < K_NKINDS; k++) {
        for (size_t i = 0; i < n; i++) {
            struct dep_item it = dep_item(depend, i);
            if (it.kind != k)
                continue;
            struct pv_dep_node *node = &nodes[used];
            if (!it.addr && k == K_OUT) {
                if (d->allmem.cur && d->allmem.cur->task == t)
                    continue;
                register_allmem(d, node, t);
                used++;
                continue;
            }
            struct pv_dep_entry *e = entry_get(d, it.addr);
            if (e->cur && e->cur->task == t)
                continue;
            entry_add(e, node, t, k);
            used++;
        }
    }
    t->ndeps = used;
    pv_mutex_unlock(&d->lock);
}

/* Under the lock: node leaves its entry; an empty entry leaves the table. */
static void node_leave(struct pv_deps *d, struct pv_dep_node *node)
{
    struct pv_dep_entry *e = node->entry;
    if (!e)
        return;
    if (node->list == L_CUR)
        list_unlink(&e->cur, node);
    else
        list_unlink(&e->prev, node);
    if (!e->cur && e->prev) {
        /* Cannot happen while members wait for the whole previous group,
         * but keep the table sound: the older group becomes current. */
        e->cur = e->prev;
        e->cur_kind = e->prev_kind;
        e->prev = NULL;
        for (struct pv_dep_node *n = e->cur; n; n = n->next)
            n->list = L_CUR;
    }
    if (!e->cur && e != &d->allmem)
        entry_remove(d, e);
}

struct pv_task *pv_deps_release(struct pv_task *t, bool hand_over)
{
    struct pv_deps *d = t->parent->deps;
    pv_mutex_lock(&d->lock);
    for (unsigned i = 0; i < t->ndeps; i++)
        node_leave(d, &t->dnodes[i]);
    struct pv_task **succ = t->succ;
    unsigned nsucc = t->nsucc;
    t->succ = NULL;
    t->nsucc = t->succ_cap = 0;
    t->ndeps = 0;
    pv_mutex_unlock(&d->lock);
    struct pv_task *next = NULL;
    for (unsigned i = 0; i < nsucc; i++) {
        if (!pv_task_pred_release(succ[i]))
            continue;
        if (hand_over && !next && succ[i]->priority <= 0)
            next = succ[i];
        else
            pv_task_queue_ready(succ[i]);
    }
    free(succ);
    return next;
}
