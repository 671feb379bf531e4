/* The allocate directive and clause: gcc's calls, on the omp_alloc
 * family (alloc.c). */
#include <stdlib.h>

#include "abi/gomp.h"
#include "base/alloc.h"
#include "base/compiler.h"
#include "base/message.h"
#include "runtime/mutex.h"
#include "runtime/omp_api.h"

/* alloc.c */

/* What gcc emits for the allocate directive/clause: a failure that the
 * allocator would report as NULL is fatal here. */
PV_EXPORT void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator)
{
    void *p = omp_aligned_alloc(alignment, size, allocator);
    if (pv_unlikely(!p && size))
        pv_fatal("out of memory allocating %zu bytes", size);
    return p;
}

PV_EXPORT void GOMP_free(void *ptr, uintptr_t allocator)
{
    omp_free(ptr, allocator);
}

/* gfortran's allocate directive on an ALLOCATABLE (GCC 14's GOMP_5.1.2):
 * after GOMP_alloc it registers the pointer (GOMP_add_alloc); where the
 * program deallocates or reallocates the variable, GOMP_is_alloc says
 * whether GOMP_alloc made the block (then GOMP_free must release it, not
 * free()) and forgets it.  A set of pointers, open addressing with
 * tombstones, one lock: the calls come from allocate statements, not from
 * hot loops. */
#define ALLOC_TOMB ((void *)1)

static struct {
    _Atomic uint32_t lock;
    void **slot;
    size_t cap, used;   /* used: live and tombstone slots */
} fort_allocs;

static size_t alloc_hash(void *p, size_t cap)
{
    uintptr_t a = (uintptr_t)p;
    return (size_t)((a >> 4) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

/* The slot holding p, or NULL. */
static void **alloc_find(void *p)
{
    if (!fort_allocs.cap)
        return NULL;
    for (size_t i = alloc_hash(p, fort_allocs.cap);; i = (i + 1) & (fort_allocs.cap - 1)) {
        void **s = &fort_allocs.slot[i];
        if (*s == p)
            return s;
        if (!*s)
            return NULL;
    }
}

static void alloc_grow(void)
{
    size_t old = fort_allocs.cap;
    void **v = fort_allocs.slot;
    fort_allocs.cap = old ? old * 2 : 64;
    fort_allocs.slot = pv_calloc(fort_allocs.cap, sizeof *fort_allocs.slot);
    fort_allocs.used = 0;
    for (size_t i = 0; i < old; i++)
        if (v[i] && v[i] != ALLOC_TOMB) {
            size_t j = alloc_hash(v[i], fort_allocs.cap);
            while (fort_allocs.slot[j])
                j = (j + 1) & (fort_allocs.cap - 1);
            fort_allocs.slot[j] = v[i];
            fort_allocs.used++;
        }
    free(v);
}

PV_EXPORT void GOMP_add_alloc(void *ptr)
{
    if (!ptr || ptr == ALLOC_TOMB)
        return;
    pv_mutex_lock(&fort_allocs.lock);
    if (!alloc_find(ptr)) {
        if (2 * (fort_allocs.used + 1) > fort_allocs.cap)
            alloc_grow();
        size_t i = alloc_hash(ptr, fort_allocs.cap);
        while (fort_allocs.slot[i] && fort_allocs.slot[i] != ALLOC_TOMB)
            i = (i + 1) & (fort_allocs.cap - 1);
        if (!fort_allocs.slot[i])
            fort_allocs.used++;
        fort_allocs.slot[i] = ptr;
    }
    pv_mutex_unlock(&fort_allocs.lock);
}

PV_EXPORT bool GOMP_is_alloc(void *ptr)
{
    pv_mutex_lock(&fort_allocs.lock);
    void **s = ptr ? alloc_find(ptr) : NULL;
    if (s)
        *s = ALLOC_TOMB;
    pv_mutex_unlock(&fort_allocs.lock);
    return s != NULL;
}
