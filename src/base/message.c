/* Messages (see message.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/message.h"

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

void pv_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("pvomp: ", fmt, ap);
    va_end(ap);
}
