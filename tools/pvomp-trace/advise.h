/* advise: what is slow in a traced run, why, where, and what fixing it
 * would save (docs/trace.md, "advise").  advise.c reads logs into findings
 * (advise_sync.c: critical sections, locks, tasks); advise_out.c ranks them
 * and prints them (text, JSON, an HTML section). */
#ifndef PVOMP_TRACE_ADVISE_H
#define PVOMP_TRACE_ADVISE_H

#include "advice.h"
#include "log.h"
#include "out.h"


/* Add log number `ix`'s findings to adv. */
void tr_advise_log(struct tr_advice *adv, struct tr_log *log, size_t ix);
/* Sort best first (gain), dropping findings under 0.5 % of their run. */
void tr_advise_rank(struct tr_advice *adv);
void tr_advice_free(struct tr_advice *adv);

/* Output (advise_out.c).  max: at most this many findings (0: all). */
void tr_advise_text(const struct tr_advice *adv, struct tr_out *o, size_t max);
void tr_advise_json(const struct tr_advice *adv, struct tr_out *o);
void tr_advise_html(const struct tr_advice *adv, struct tr_out *o);
/* The finding's place ("main:42 (demo.c)", in buf or the log's names),
 * and its advice sentence. */
#define TR_WHERE_MAX 512
const char *tr_finding_where(const struct tr_advice *adv, const struct tr_finding *f,
                             char buf[TR_WHERE_MAX]);
void tr_finding_advice(const struct tr_advice *adv, const struct tr_finding *f, char *buf, size_t n);

#endif
