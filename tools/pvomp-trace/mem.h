/* Allocation for the reader (mem.c). */
#ifndef PVOMP_TRACE_MEM_H
#define PVOMP_TRACE_MEM_H

#include <stddef.h>

/* Allocation that exits with one message when there is no memory
 * (mem.c); tr_xcalloc's memory is zeroed. */
void *tr_xcalloc(size_t n, size_t size);
void *tr_xrealloc(void *p, size_t n, size_t size);
/* A copy of n bytes at s with a 0 after them; of the string s ("" for NULL). */
char *tr_xstrndup(const void *s, size_t n);
char *tr_xstrdup(const char *s);

#endif
