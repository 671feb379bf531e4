/* The allocate directive and clause: gcc's calls, on the omp_alloc
 * family (runtime/alloc.c). */
#include "gomp/gomp.h"
#include "runtime/internal.h"

/* runtime/alloc.c */
void *omp_aligned_alloc(size_t alignment, size_t size, uintptr_t allocator);
void omp_free(void *ptr, uintptr_t allocator);

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
