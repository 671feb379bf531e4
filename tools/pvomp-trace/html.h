/* The interactive HTML report (html.c). */
#ifndef PVOMP_TRACE_HTML_H
#define PVOMP_TRACE_HTML_H

#include <stddef.h>

#include "commands.h"
#include "log.h"
#include "out.h"

/* timeline --html (html.c): the interactive report of one log or several
 * (one time base: each log's CLOCK_MONOTONIC). */
int tr_html_report(struct tr_log **logs, size_t n, const struct tr_opts *o, struct tr_out *out);

#endif
