/* What advise finds (advise.h): the causes, one finding, the findings of
 * the logs advised.  tr_cause_name is in advise.c. */
#ifndef PVOMP_TRACE_ADVICE_H
#define PVOMP_TRACE_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tr_log;

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

#endif
