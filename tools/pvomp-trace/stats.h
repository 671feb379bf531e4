/* The summary of an analysis (stats.c), as text or as the HTML report's tables. */
#ifndef PVOMP_TRACE_STATS_H
#define PVOMP_TRACE_STATS_H

#include "analyze.h"
#include "out.h"

void tr_stats_text(struct tr_analysis *a, struct tr_out *o);
void tr_stats_html(struct tr_analysis *a, struct tr_out *o);

#endif
