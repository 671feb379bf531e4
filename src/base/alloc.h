/* Allocation that cannot fail quietly: out of memory ends the program with a
 * message (pv_fatal). */
#ifndef PV_BASE_ALLOC_H
#define PV_BASE_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *pv_malloc(size_t size);
void *pv_calloc(size_t n, size_t size);
void *pv_realloc(void *p, size_t size);
void *pv_aligned_alloc(size_t align, size_t size);

/* Room for one more element in the array `arr` that holds `n` of `cap`: when
 * it is full, `cap` doubles (from 0 it becomes `first`) and the array moves;
 * out of memory ends the program.  realloc is called in line, as the task
 * dependences' successor lists did before (one call per task). */
#define PV_GROW(arr, n, cap, first)                                           \
    do {                                                                      \
        if ((n) >= (cap)) {                                                   \
            (cap) = (cap) ? 2 * (cap) : (first);                              \
            (arr) = realloc((arr), (size_t)(cap) * sizeof *(arr));            \
            if (!(arr))                                                       \
                pv_grow_failed((size_t)(cap) * sizeof *(arr));                \
        }                                                                     \
    } while (0)
void pv_grow_failed(size_t bytes) __attribute__((noreturn, cold));

#endif
