/* Problems with the input (diag.c): one line each on the diagnostics
 * stream, at most `limit` of them, the rest counted. */
#ifndef PVOMP_TRACE_DIAG_H
#define PVOMP_TRACE_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tr_diag {
    unsigned n;             /* messages printed */
    unsigned limit;         /* print at most this many, count the rest */
    unsigned suppressed;
    bool damaged;           /* some input could not be read */
    FILE *out;
    const char *path;
};
__attribute__((format(printf, 3, 4)))
void tr_problem(struct tr_diag *dg, uint64_t off, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void tr_note(struct tr_diag *dg, const char *fmt, ...);

#endif
