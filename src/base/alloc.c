/* Allocation (see alloc.h). */
#include <stdlib.h>

#include "base/alloc.h"
#include "base/message.h"

void *pv_malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        pv_fatal("out of memory allocating %zu bytes", size);
    return p;
}

void *pv_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        pv_fatal("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *pv_realloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        pv_fatal("out of memory allocating %zu bytes", size);
    return q;
}

void pv_grow_failed(size_t bytes)
{
    pv_fatal("out of memory allocating %zu bytes", bytes);
}

void *pv_aligned_alloc(size_t align, size_t size)
{
    void *p = NULL;
    if (align < sizeof(void *))
        align = sizeof(void *);
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        pv_fatal("out of memory allocating %zu bytes aligned to %zu", size, align);
    return p;
}
