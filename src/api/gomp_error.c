/* The error directive with at(execution) (OpenMP 5.1 2.5.4).  gcc calls
 * GOMP_warning for severity(warning) and GOMP_error for severity(fatal);
 * `msg` is the message clause (NULL without one), `msglen` its length, or
 * (size_t)-1 when it is NUL-terminated.  A warning prints and continues; a
 * fatal error prints and ends the program with exit status 1 (exit(), so
 * that stdio buffers are flushed, as libgomp does).
 *
 * The message text is libgomp's, byte for byte, prefix included: programs and
 * test suites (GCC's error-1.c) match it.  On stderr:
 *   "\nlibgomp: error directive encountered[: MSG]\n"              (warning)
 *   "\nlibgomp: fatal error: error directive encountered[: MSG]\n" (fatal)
 * pvomp's own diagnostics keep their "pvomp: " prefix; only these directive
 * messages, which the program asked for, speak as libgomp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/gomp.h"
#include "base/compiler.h"
#include "ompt/ompt.h"

static void say(const char *prefix, const char *msg, size_t msglen)
{
    flockfile(stderr);
    fputs("\nlibgomp: ", stderr);
    fputs(prefix, stderr);
    fputs("error directive encountered", stderr);
    if (msg) {
        fputs(": ", stderr);
        fwrite(msg, 1, msglen == (size_t)-1 ? strlen(msg) : msglen, stderr);
    }
    fputc('\n', stderr);
    funlockfile(stderr);
}

PV_EXPORT void GOMP_warning(const char *msg, size_t msglen)
{
    if (pv_ompt_tool())
        pv_ompt_error(ompt_warning, msg, msglen, __builtin_return_address(0));
    say("", msg, msglen);
}

PV_EXPORT void GOMP_error(const char *msg, size_t msglen)
{
    if (pv_ompt_tool())
        pv_ompt_error(ompt_fatal, msg, msglen, __builtin_return_address(0));
    say("fatal error: ", msg, msglen);
    exit(EXIT_FAILURE);
}
