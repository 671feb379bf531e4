/* The reader's allocations: on failure one message and exit (a reader
 * cannot go on without the memory for what it has read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"


static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    return p;
}

void *tr_xcalloc(size_t n, size_t size)
{
    return need(calloc(n ? n : 1, size ? size : 1));
}

void *tr_xrealloc(void *p, size_t n, size_t size)
{
    return need(realloc(p, (n ? n : 1) * (size ? size : 1)));
}

char *tr_xstrndup(const void *s, size_t n)
{
    char *d = need(malloc(n + 1));
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *tr_xstrdup(const char *s)
{
    return s ? tr_xstrndup(s, strlen(s)) : tr_xstrndup("", 0);
}
