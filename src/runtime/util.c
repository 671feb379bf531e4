/* Messages and allocation that cannot fail quietly. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

void pv_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pvomp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void pv_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pvomp: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void pv_unsupported(const char *name)
{
    fprintf(stderr, "pvomp: %s is not supported yet\n", name);
    fflush(stderr);
    abort();
}

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

void *pv_aligned_alloc(size_t align, size_t size)
{
    void *p = NULL;
    if (align < sizeof(void *))
        align = sizeof(void *);
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        pv_fatal("out of memory allocating %zu bytes aligned to %zu", size, align);
    return p;
}
