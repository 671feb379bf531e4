/* A thread's state (pv_thr) and the task it runs (struct pv_task, with
 * the ICVs of its data environment).  A thread's view of where it stands
 * is `pv_thr.ts` (team, id, nesting levels: struct pv_ts, ompt_view.h). */
#ifndef PV_RUNTIME_THREAD_H
#define PV_RUNTIME_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ompt/ompt_types.h"
#include "runtime/icv.h"
#include "runtime/ompt_view.h"
#include "wait/wait.h"

struct pv_team;

/* Per-task state that tasking (task.c) extends; the implicit task of each
 * team member carries the ICVs of its data environment. */
struct pv_taskgroup;
struct pv_deps;
struct pv_tstate;                   /* per-team tasking state (task_internal.h) */
struct pv_dep_node;
struct pv_task {
    struct pv_icv icv;
    struct pv_task *parent;
    bool final;
    bool in_final;
    /* Tasking state (task.c, task_internal.h).  A zeroed task is an implicit
     * task: never freed, depth 0; pv_task_team_init fills in the rest. */
    uint8_t kind;                   /* enum pv_task_kind */
    uint8_t tflags;                 /* PV_TF_* */
    unsigned depth;                 /* generations below the implicit task */
    int priority;
    unsigned ndeps;                 /* (here: no padding hole beside priority) */
    struct pv_team *team;           /* team whose counts count this task */
    void (*fn)(void *);
    void *arg;
    struct pv_taskgroup *taskgroup; /* innermost taskgroup (inherited at creation) */
    struct pv_deps *deps;           /* dependence table of this task's children */
    struct pv_dep_node *dnodes;     /* this task's own depend items (ndeps) */
    struct pv_task *next;           /* free-list link */
    struct pv_ompt_task ompt;       /* the tool's view (src/ompt; untouched without a tool) */
    void *pool;                     /* block pool the task's memory returns to */
    /* Written by other threads while the task runs; kept a cache line away
     * from the fields above, which the task's own thread reads all the time
     * (the padding works whatever the 16-byte-aligned block's offset). */
    char pad_hot[64];
    _Atomic uint64_t cnt;           /* incomplete children | references << 32 */
    _Atomic uint32_t npred;         /* unfinished predecessors (+1 while registering) */
    _Atomic uint32_t detach;        /* PV_DETACH_* state bits */
    unsigned nsucc, succ_cap;       /* successors (guarded by the parent's deps lock) */
    struct pv_task **succ;
    uint32_t qstamp;                /* its deque's push count when queued (task_check.c) */
    char pad_tail[44];              /* and away from the next task of an array */
};

/* struct pv_ts, where a thread stands: ompt_view.h. */

#define PV_TEAM_CACHE_LEVELS 4
struct pv_thread {
    struct pv_ts ts;
    struct pv_task *task;           /* current task (implicit or explicit) */
    /* The initial task of a thread that is not a team member (its ICVs once
     * it changes one; pv_icv_for_write points `task` here). */
    struct pv_task initial_task;

    /* The pool: a docked worker waits on `dock` for its next assignment. */
    pv_futex_t dock;
    void (*fn)(void *);             /* assignment: what to run ... */
    void *data;
    struct pv_team *asg_team;       /* ... in which team ... */
    unsigned asg_id;                /* ... as which member */
    struct pv_thread **pool;        /* workers this thread uses as a level-0 master */
    unsigned pool_size, pool_cap;
    /* The team this thread last mastered at each nesting level, for reuse
     * (a thread masters at most one team per level at a time). */
    struct pv_team *team_cache[PV_TEAM_CACHE_LEVELS];
    struct pv_thread *idle_next;    /* link in the global idle list */
    /* thread-limit-var accounting: threads beyond the root that the
     * contention group rooted at this thread uses now (only while a limit
     * is set), and what pv_resolve_num_threads reserved for the next fork. */
    _Atomic unsigned cg_extra;
    unsigned cg_reserved;
    pthread_t handle;
    pid_t tid;
    bool is_worker;
    /* task_create's codeptr_ra (PV_TASK_SITE): where the program created
     * the task being created; kept while an outer entry (__kmpc_omp_task,
     * __kmpc_taskloop) has named it (task_site_outer).  Written and read
     * only while task_create is traced. */
    bool task_site_outer;
    const void *task_site;
    /* parallel_begin's fn when the region's body is a trampoline
     * (__kmpc_fork_call's pv_kmpc_body): the program's microtask.  Set by
     * the entry and taken by the fork only while parallel_begin is traced. */
    const void *trace_body;
};

extern __thread struct pv_thread pv_thr __attribute__((tls_model("initial-exec")));
/* ompt_view.h reads the position through a pointer to pv_thr. */
_Static_assert(offsetof(struct pv_thread, ts) == 0, "pv_thr_ts: ts is pv_thread's first member");

static inline struct pv_thread *pv_self(void)
{
    return &pv_thr;
}

/* The ICVs of the current task (the initial task's before any region). */
static inline struct pv_icv *pv_icv_get(void)
{
    struct pv_task *t = pv_thr.task;
    return t ? &t->icv : &pv_initial_icv;
}
/* ICVs that the caller is going to modify (gives the initial thread its own task). */
struct pv_icv *pv_icv_for_write(void);
/* omp_set_schedule with how libomp's view shows the value (kmp, enum
 * pv_run_sched_kmp): omp_set_schedule@VERSION's libomp kinds (src/api/kmpc_answers.c).
 * Defined in src/api/icv_api.c, above the runtime. */
void pv_icv_set_schedule(int kind, int chunk, unsigned char kmp);

#endif
