/* Messages and allocation that cannot fail quietly. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

/* One line on stderr: prefix, then the formatted message. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void pv_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("pvomp: ", fmt, ap);
    va_end(ap);
    abort();
}

void pv_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("pvomp: warning: ", fmt, ap);
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
