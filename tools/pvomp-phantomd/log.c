/* Messages: stderr while in the foreground, syslog once detached. */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "phantomd.h"

bool pvd_verbose;
static bool use_syslog;

void pvd_log_to_syslog(void)
{
    openlog("pvomp-phantomd", LOG_PID, LOG_DAEMON);
    use_syslog = true;
}

static void vlog(int prio, const char *fmt, va_list ap)
{
    if (use_syslog) {
        vsyslog(prio, fmt, ap);
        return;
    }
    fputs("pvomp-phantomd: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void pvd_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(LOG_INFO, fmt, ap);
    va_end(ap);
}

void pvd_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(LOG_ERR, fmt, ap);
    va_end(ap);
}
