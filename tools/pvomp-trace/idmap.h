/* A map from 64-bit keys to 32-bit values, open addressing (idmap.c). */
#ifndef PVOMP_TRACE_IDMAP_H
#define PVOMP_TRACE_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct tr_idmap {           /* event id -> descriptor index, stream id -> index, ... */
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, n;
};
void tr_idmap_put(struct tr_idmap *m, uint64_t key, uint32_t val); /* val != UINT32_MAX */
uint32_t tr_idmap_get(const struct tr_idmap *m, uint64_t key);     /* UINT32_MAX: absent */
uint32_t tr_idmap_take(struct tr_idmap *m, uint64_t key);          /* get, and remove */
void tr_idmap_free(struct tr_idmap *m);

#endif
