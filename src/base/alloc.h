/* Allocation that cannot fail quietly: out of memory ends the program with a
 * message (pv_fatal). */
#ifndef PV_BASE_ALLOC_H
#define PV_BASE_ALLOC_H

#include <stddef.h>

void *pv_malloc(size_t size);
void *pv_calloc(size_t n, size_t size);
void *pv_realloc(void *p, size_t size);
void *pv_aligned_alloc(size_t align, size_t size);

#endif
