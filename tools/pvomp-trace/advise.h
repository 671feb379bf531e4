/* advise: what is slow in a traced run, why, where, and what fixing it
 * would save (docs/trace.md, "advise").  advise.c reads logs into findings
 * (advise_sync.c: critical sections, locks, tasks); advise_out.c ranks them
 * and prints them (text, JSON, an HTML section). */
#ifndef PVOMP_TRACE_ADVISE_H
#define PVOMP_TRACE_ADVISE_H

#include "reader.h"

enum tr_cause {
    C_IMBALANCE, C_SERIAL, C_SCHEDULING, C_CRITICAL, C_LOCK, C_TASK_OVERHEAD,
    C_TASK_STARVATION, C_PHANTOM, C_OVERSUBSCRIPTION, C_FORK_JOIN, C__COUNT
};
extern const char *const tr_cause_name[C__COUNT];

/* One inefficiency of one log: a cause at one place (a region's outlined
 * function, a task site, a lock), with what the advice needs. */
struct tr_finding {
    enum tr_cause cause;
    size_t log;             /* index among the logs advised */
    uint64_t fn;            /* the region's outlined function (0: outside any) */
    uint64_t key;           /* the lock's address, the task site's codeptr_ra / fn */
    uint64_t gain_ns;       /* estimated wall time saved */
    uint64_t count;         /* instances: episodes, chunks, entries, tasks, regions */
    uint64_t ns;            /* cause's own measure: serial time, held/ns per chunk... */
    uint64_t work_ns;       /* chunk/task/region work for the advice */
    unsigned threads, cpus; /* team size, CPUs the process may use (0: unknown) */
    int64_t chunk;          /* scheduling: the loops' chunk size */
    uint64_t body;          /* task_overhead: the tasks' outlined function */
    bool task_site;         /* key names a task site (codeptr_ra, else body) */
    bool between;           /* serial code after region fn, before region key */
    uint64_t site, site_wait; /* critical: the construct's call site (a return
                                 address; 0: unknown) of the longest wait */
};

struct tr_advice {
    struct tr_finding *v;
    size_t n, cap;
    uint64_t *run_ns;       /* per log: its wall time (first to last record) */
    struct tr_log **logs;
    size_t nlogs;
};

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
