/* Problems with the input (diag.h): one line each, with the byte offset. */
#include <stdarg.h>

#include "diag.h"


void tr_problem(struct tr_diag *dg, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    dg->damaged = true;
    if (dg->n >= dg->limit) {
        dg->suppressed++;
        return;
    }
    dg->n++;
    fprintf(dg->out, "pvomp-trace: %s: byte %llu: ", dg->path, (unsigned long long)off);
    va_start(ap, fmt);
    vfprintf(dg->out, fmt, ap);
    va_end(ap);
    fputc('\n', dg->out);
}

void tr_note(struct tr_diag *dg, const char *fmt, ...)
{
    va_list ap;
    fprintf(dg->out, "pvomp-trace: %s: ", dg->path);
    va_start(ap, fmt);
    vfprintf(dg->out, fmt, ap);
    va_end(ap);
    fputc('\n', dg->out);
}
