/* The table of mapped host ranges of one device: a sorted array of entries
 * (by start, then end) searched by bisection.  Non-empty entries never
 * overlap; an empty entry [a, a) (a zero-length array section mapped alone)
 * is found only by address lookups at a.  Callers hold the device lock. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "target/target.h"

uint64_t pv_map_serial(void)
{
    static _Atomic uint64_t next = 1;
    return atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
}

static bool key_less(const struct pv_mapping *m, uintptr_t start, uintptr_t end)
{
    return m->host_start < start || (m->host_start == start && m->host_end < end);
}

/* Index of the first entry whose key (start, end) is not below m's. */
static size_t first_not_less(const struct pv_map_table *t, const struct pv_mapping *m)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_less(t->v[mid], m->host_start, m->host_end))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Number of entries whose start is < limit (or <= limit when `incl`). */
static size_t count_before(const struct pv_map_table *t, uintptr_t limit, bool incl)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uintptr_t s = t->v[mid]->host_start;
        if (s < limit || (incl && s == limit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last non-empty entry among the first `k`, or NULL. */
static struct pv_mapping *last_nonempty(const struct pv_map_table *t, size_t k)
{
    while (k > 0) {
        struct pv_mapping *m = t->v[--k];
        if (m->host_end > m->host_start)
            return m;
    }
    return NULL;
}

struct pv_mapping *pv_map_find(struct pv_map_table *t, uintptr_t start, uintptr_t end)
{
    if (start == end)
        return pv_map_find_addr(t, start);
    struct pv_mapping *m = last_nonempty(t, count_before(t, end, false));
    return m && m->host_end > start ? m : NULL;
}

struct pv_mapping *pv_map_find_addr(struct pv_map_table *t, uintptr_t a)
{
    size_t k = count_before(t, a, true);
    struct pv_mapping *m = last_nonempty(t, k);
    if (m && m->host_end > a)
        return m;
    /* An empty entry exactly at a (they sort last among equal starts' empties). */
    for (size_t i = k; i > 0 && t->v[i - 1]->host_start == a; i--)
        if (t->v[i - 1]->host_end == a)
            return t->v[i - 1];
    return NULL;
}

void pv_map_insert(struct pv_map_table *t, struct pv_mapping *m)
{
    PV_GROW(t->v, t->n, t->cap, 16);
    size_t lo = first_not_less(t, m);
    memmove(&t->v[lo + 1], &t->v[lo], (t->n - lo) * sizeof *t->v);
    t->v[lo] = m;
    t->n++;
}

void pv_map_remove(struct pv_map_table *t, struct pv_mapping *m)
{
    for (size_t i = first_not_less(t, m); i < t->n; i++) {
        if (t->v[i] == m) {
            memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof *t->v);
            t->n--;
            return;
        }
    }
    pv_fatal("internal error: device mapping [%p, %p) not in the table", (void *)m->host_start,
             (void *)m->host_end);
}
