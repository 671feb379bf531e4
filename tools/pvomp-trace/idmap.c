/* Open-addressing maps from a 64-bit key to a 32-bit value (UINT32_MAX
 * marks a free slot, so it cannot be stored), with linear probing. */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "mem.h"


static size_t home_of(const struct tr_idmap *m, uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);
}

static size_t slot_of(const struct tr_idmap *m, uint64_t key)
{
    size_t i = home_of(m, key);
    while (m->vals[i] != UINT32_MAX && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void grow(struct tr_idmap *m)
{
    struct tr_idmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = tr_xcalloc(m->cap, sizeof *m->keys);
    m->vals = tr_xrealloc(NULL, m->cap, sizeof *m->vals);
    memset(m->vals, 0xff, m->cap * sizeof *m->vals);
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i] != UINT32_MAX)
            tr_idmap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

void tr_idmap_put(struct tr_idmap *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    size_t i = slot_of(m, key);
    if (m->vals[i] == UINT32_MAX)
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

uint32_t tr_idmap_get(const struct tr_idmap *m, uint64_t key)
{
    if (!m->cap)
        return UINT32_MAX;
    return m->vals[slot_of(m, key)];
}

/* Removes key and returns its value (UINT32_MAX: absent).  The entries
 * after the hole that probe through it move back into it, so that every
 * entry stays reachable from its home slot. */
uint32_t tr_idmap_take(struct tr_idmap *m, uint64_t key)
{
    if (!m->n)
        return UINT32_MAX;
    size_t j = slot_of(m, key), mask = m->cap - 1;
    uint32_t v = m->vals[j];
    if (v == UINT32_MAX)
        return v;
    m->vals[j] = UINT32_MAX;
    m->n--;
    for (size_t k = (j + 1) & mask; m->vals[k] != UINT32_MAX; k = (k + 1) & mask) {
        /* k's entry may stay unless the hole j lies between its home and k */
        if (((k - home_of(m, m->keys[k])) & mask) >= ((k - j) & mask)) {
            m->keys[j] = m->keys[k];
            m->vals[j] = m->vals[k];
            m->vals[k] = UINT32_MAX;
            j = k;
        }
    }
    return v;
}

void tr_idmap_free(struct tr_idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
