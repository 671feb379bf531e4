/* OMP_TOOL_VERBOSE_INIT (OpenMP 5.1, 6.19): where the runtime reports its
 * tool discovery -- "disabled" (the default), "stdout", "stderr", or the
 * name of a file to create.  Keywords are case-insensitive.  The log has
 * libomp's line format (docs/ompt.md), which tools' own tests match; a
 * message is printed as given (the caller ends lines), so that what a
 * tool's ompt_start_tool prints lands where libomp's log has it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/message.h"
#include "ompt/tool.h"

static FILE *verbose_out;
static bool verbose_owned;   /* a file we opened (and close) */

void pv_ompt_verbose_open(void)
{
    const char *v = getenv("OMP_TOOL_VERBOSE_INIT");
    if (!v || !*v || strcasecmp(v, "disabled") == 0)
        return;
    if (strcasecmp(v, "stdout") == 0) {
        verbose_out = stdout;
    } else if (strcasecmp(v, "stderr") == 0) {
        verbose_out = stderr;
    } else {
        verbose_out = fopen(v, "w");
        if (!verbose_out) {
            pv_warn("OMP_TOOL_VERBOSE_INIT: cannot create '%s' (%s); not logging", v,
                    strerror(errno));
            return;
        }
        verbose_owned = true;
    }
}

void pv_ompt_verbose(const char *fmt, ...)
{
    if (!verbose_out)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(verbose_out, fmt, ap);
    fflush(verbose_out);
    va_end(ap);
}

void pv_ompt_verbose_close(void)
{
    if (verbose_owned)
        fclose(verbose_out);
    verbose_out = NULL;
    verbose_owned = false;
}
