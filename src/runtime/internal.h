/* pvomp runtime internals: threads, teams, ICVs, worksharing state.
 *
 * A thread's view of where it stands is `pv_thr.ts` (team, id, nesting
 * levels).  A team owns its barrier and a small ring of worksharing slots;
 * threads that run ahead through `nowait` constructs use the next slot.
 * Every wait goes through src/wait (spin, then futex). */
#ifndef PV_RUNTIME_INTERNAL_H
#define PV_RUNTIME_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/message.h"
#include "ompt/ompt.h"
#include "runtime/barrier_kind.h"
#include "runtime/ompt_view.h"
#include "runtime/unsupported.h"
#include "wait/wait.h"

struct pv_team;

/* -------------------------------------------------------------------- ICVs */
/* Schedule kinds as the GOMP ABI and omp_sched_t encode them. */
enum pv_sched {
    PV_SCHED_RUNTIME = 0,
    PV_SCHED_STATIC = 1,
    PV_SCHED_DYNAMIC = 2,
    PV_SCHED_GUIDED = 3,
    PV_SCHED_AUTO = 4,
};
#define PV_SCHED_MONOTONIC 0x80000000u

/* How libomp's routines (omp_get_schedule@VERSION, a clang program's
 * schedule(runtime) loops: src/abi/kmpc_icv.c) see run-sched-var where
 * libomp's implementation-defined answer differs from libgomp's, which
 * run_sched_var keeps for gcc programs. */
enum pv_run_sched_kmp {
    PV_RUN_SCHED_KMP_SAME = 0,      /* the same kind and chunk */
    PV_RUN_SCHED_KMP_DEFAULT,       /* never set: libomp's default, static unchunked */
    PV_RUN_SCHED_KMP_NO_MODIFIER,   /* OMP_SCHEDULE=static: monotonic by rule, not shown */
    PV_RUN_SCHED_KMP_TRAPEZOIDAL,   /* OMP_SCHEDULE=trapezoidal: libomp's kind 101 */
};

/* Active levels of parallelism supported (max-active-levels-var is capped here). */
#define PV_SUPPORTED_ACTIVE_LEVELS 255u

/* proc_bind values as omp_proc_bind_t encodes them. */
enum pv_bind {
    PV_BIND_FALSE = 0,
    PV_BIND_TRUE = 1,
    PV_BIND_MASTER = 2, /* primary */
    PV_BIND_CLOSE = 3,
    PV_BIND_SPREAD = 4,
};

/* Per-task (data environment) ICVs. */
struct pv_icv {
    unsigned nthreads_var;         /* first element of nthreads-var */
    unsigned run_sched_var;        /* enum pv_sched, possibly | PV_SCHED_MONOTONIC */
    long run_sched_chunk;
    unsigned char run_sched_kmp;   /* enum pv_run_sched_kmp */
    bool dyn_var;
    unsigned max_active_levels_var;
    unsigned thread_limit_var;     /* UINT_MAX = unlimited */
    unsigned bind_var;             /* enum pv_bind */
    int default_device_var;
    uintptr_t def_allocator_var;   /* omp_allocator_handle_t (api/alloc.c) */
};

/* Process-wide settings read from the environment (env.c). */
struct pv_global_icv {
    unsigned *nthreads_list;       /* OMP_NUM_THREADS list (NULL: single value) */
    unsigned nthreads_list_len;
    unsigned *bind_list;           /* OMP_PROC_BIND list */
    unsigned bind_list_len;
    size_t stacksize;              /* 0 = system default */
    bool cancel_var;
    int max_task_priority_var;
    unsigned num_teams_var;        /* OMP_NUM_TEAMS, 0 = unset */
    unsigned teams_thread_limit_var;
    enum pv_wait_policy wait_policy;
    bool display_env;
    bool display_env_verbose;
    bool run_sched_api;            /* omp_set_schedule was called */
    int target_offload;            /* 0 default, 1 mandatory, 2 disabled */
    bool device_separate;          /* PVOMP_DEVICE_MEMORY=separate: device 0 has its own memory */
    char *affinity_format;
    bool affinity_format_env;      /* affinity_format is OMP_AFFINITY_FORMAT's */
    bool display_affinity;
    unsigned default_allocator;    /* omp_allocator_handle_t value */
    uint32_t task_throttle;        /* tasks per thread before new ones run at once (64;
                                      KMP_ENABLE_TASK_THROTTLING=0: UINT32_MAX, never) */
    unsigned hidden_helpers;       /* libomp's hidden helper threads for target tasks (8;
                                      0: none, target tasks are plain tasks; src/tasks) */
    unsigned teams_bind;           /* how host teams split the places (PV_BIND_SPREAD;
                                      KMP_TEAMS_PROC_BIND) */
    bool task_checks;              /* PVOMP_TASK_CHECKS: check the task scheduler's
                                      no-idle-sleep invariant (task_check.c; tests) */
};

extern struct pv_icv pv_initial_icv;      /* of the initial task */
extern struct pv_global_icv pv_gicv;

/* Places (affinity_*.c).  A place is a set of CPU numbers. */
struct pv_place {
    unsigned ncpus;
    int *cpus;
};
extern struct pv_place *pv_places;        /* pv_num_places of them (ompt_view.h) */

void pv_env_init(void);                   /* env.c: fills the ICVs from the environment */
/* OMP_SCHEDULE once more, if the program changed it since load (setenv):
 * into pv_initial_icv and *icv; false when it is as it was, or unset. */
bool pv_env_schedule_reread(struct pv_icv *icv);
void pv_affinity_init(void);              /* affinity_bind.c: the initial thread's place */
/* Pick the places for a new team of n threads (bind policy `bind`) inside the
 * parent's partition; fills place[i] and partition for each member. */
void pv_affinity_assign(unsigned n, unsigned bind, unsigned parent_place,
                        unsigned part_off, unsigned part_len,
                        unsigned *place, unsigned *sub_off, unsigned *sub_len);
void pv_affinity_bind_self(unsigned place);  /* pins the calling thread; no-op without places */
void pv_display_env(bool verbose);        /* env.c */
/* OMP_DISPLAY_AFFINITY: print the calling thread's affinity line if it
 * changed since it last printed, or if `team_changed` (a teammate's place
 * changed: the spec then shows every thread of the team); no-op unless
 * pv_gicv.display_affinity.  Team code calls it in every member after
 * setting up pv_thr.ts. */
void pv_affinity_display_thread(bool team_changed); /* affinity_format.c */
unsigned pv_affinity_shown_place(void); /* the place of the caller's last line, or UINT_MAX */
/* The program speaks libomp's ABI (src/abi/kmpc_icv.c calls it when a clang program
 * forks or displays): affinity lines go to stdout as libomp prints them,
 * not to stderr as libgomp does. */
void pv_affinity_display_kmp(void);       /* affinity_format.c */

/* -------------------------------------------------------------- barriers */
/* Centralized barrier: the arrival counter and the generation word live on
 * separate cache lines so that spinning waiters do not slow arrivals.
 * gen.word = generation * PV_BAR_INCR | flags. */
#define PV_BAR_TASK 1u      /* tasks were queued while threads wait here */
#define PV_BAR_CANCEL 2u    /* the region was cancelled: cancellable waits return */
#define PV_BAR_INCR 4u
struct pv_barrier {
    _Alignas(PV_CACHELINE) _Atomic uint32_t arrived;
    /* Atomic only because the next fork rewrites it while a waiter of the
     * finished barrier may still compare against it (harmlessly). */
    _Atomic uint32_t total;
    _Alignas(PV_CACHELINE) pv_futex_t gen;
};

void pv_barrier_init(struct pv_barrier *b, unsigned total);
/* Wait for all `total` threads; while waiting, run the team's pending tasks.
 * Returns true only when `cancellable` and the region was cancelled. */
bool pv_barrier_wait(struct pv_barrier *b, struct pv_team *team, bool cancellable);
/* Tell threads waiting in the team's barriers that there is task work, or that
 * the last outstanding task finished.  task.c calls it after queueing a task
 * (after its seq_cst increment of team->task_count) and when task_count drops
 * to zero. */
void pv_barrier_task_queued(struct pv_team *team);
void pv_barrier_tasks_changed(struct pv_team *team);
/* task_count dropped to zero: wakes the waiters where everybody arrived. */
void pv_barrier_tasks_done(struct pv_team *team);
/* A thread waiting in a barrier took a queued task: wake one more sleeper. */
void pv_barrier_task_taken(struct pv_team *team);
/* Cancellation of the parallel region: release every cancellable wait. */
void pv_barrier_cancel(struct pv_barrier *b);

/* ----------------------------------------------------------- worksharing */
#define PV_WS_SLOTS 8   /* worksharing constructs a thread may run ahead by (nowait) */
#define PV_WS_INLINE_MEM 64

/* Phase in the low two bits of a slot's state word; sequence number above. */
enum { PV_WS_FREE = 0, PV_WS_INITIALIZING = 1, PV_WS_READY = 2 };

/* Ordered hand-over (loops/ordered.c), kept inline in the slot: the chunk that
 * starts at zero-based iteration `turn` may run its ordered regions.  A
 * waiter for turn t sleeps on chan[hash(t)], which the hand-over to t bumps,
 * so that a hand-over wakes (nearly always) just the thread it concerns. */
#define PV_ORD_CHANNELS 7   /* with `turn`, one cache line */
struct pv_ordered {
    _Atomic unsigned long long turn;
    pv_futex_t chan[PV_ORD_CHANNELS];
};
struct pv_doacross;  /* loops/doacross.c */

struct pv_ws {
    /* state = (seq << 2) | phase.  The first thread to arrive for `seq` moves
     * FREE -> INITIALIZING, sets the construct up, then publishes READY with a
     * release store; the others wait for READY.  The last thread to leave
     * recycles the slot for seq + PV_WS_SLOTS. */
    _Alignas(PV_CACHELINE) pv_futex_t state;
    _Atomic uint32_t left;               /* threads that have left the construct */

    /* Loop or sections description (src/loops: iter.c, gomp_loop.c, gomp_sections.c): written by
     * the initialiser, read-only afterwards, on its own line.  Iterations are
     * numbered 0..n-1; number k is start + k * incr in modulo-2^64 arithmetic,
     * which covers long and unsigned long long loops in both directions.
     * `end` is the caller's bound, handed back as the end of the last chunk. */
    _Alignas(PV_CACHELINE) unsigned long long n;
    unsigned long long start, incr, end;
    unsigned long long chunk;            /* iterations per chunk; static: 0 = one block each */
    int sched;                           /* PV_SCHED_STATIC, _DYNAMIC or _GUIDED */
    bool fast_add;                       /* dynamic: fetch_add on `next` cannot wrap */
    bool ordered_loop;                   /* ordered hand-over in use (ordered, > 1 thread) */
    bool ordered_start_work;             /* GOMP_ordered_start has work: the hand-over, or a
                                            tool's events (its one test) */
    unsigned nthreads;                   /* team size the construct was set up for */

    /* single copyprivate: the executing thread's data pointer. */
    void *copyprivate;

    /* Memory requested through the `mem` argument (zeroed; heap if large). */
    void *mem;
    _Alignas(16) char inline_mem[PV_WS_INLINE_MEM];

    struct pv_ordered *ordered;          /* &ord for ordered loops */
    struct pv_doacross *doacross;        /* doacross loops (heap) */
    unsigned doacross_dims;              /* doacross loops: ordered(n)'s n (for OMPT) */

    /* Hot shared iteration cursor (dynamic, guided, sections), own line. */
    _Alignas(PV_CACHELINE) _Atomic unsigned long long next;
    _Atomic uint64_t own_taken;          /* sections: bit t, thread t took its own section */

    /* Ordered hand-over, own line. */
    _Alignas(PV_CACHELINE) struct pv_ordered ord;
};

/* Enter the next worksharing construct.  Returns true for the one thread that
 * must initialise it; that thread then calls pv_ws_init_done().  Everybody
 * else gets the slot after it is READY. */
bool pv_ws_start(void);
void pv_ws_init_done(void);
void pv_ws_reset(struct pv_team *team);   /* all slots free, for a new region */
/* Leave the current construct (called by every thread once). */
void pv_ws_end_nowait(void);
/* Leave and wait at the team barrier. */
void pv_ws_end(void);
/* Leave and wait at a cancellable barrier; true when the region was cancelled. */
bool pv_ws_end_cancel(void);
/* Called by the last thread leaving a slot, before it is recycled
 * (ws_release.c; loops/ordered.c, loops/doacross.c own these pointers). */
void pv_ordered_release(struct pv_ws *ws);
void pv_doacross_release(struct pv_ws *ws);

/* ------------------------------------------------------------ thread state */
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
    struct pv_team *team;           /* team whose task_count counts this task */
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
 * pv_run_sched_kmp): omp_set_schedule@VERSION's libomp kinds (kmpc_icv.c).
 * Defined in src/api/icv_api.c, above the runtime: src/abi calls it. */
void pv_icv_set_schedule(int kind, int chunk, unsigned char kmp);

/* ------------------------------------------------------------------- teams */
/* Teams construct (host): the team number and count, per thread. */
struct pv_league {
    unsigned num_teams;
    unsigned team_num;
    unsigned device;   /* 1 + device number inside a target region on a non-host device (src/target) */
};
extern __thread struct pv_league pv_league;

/* ----------------------------------------------------------------- devices */
/* What the ICVs and the thread's league say about devices (league.c);
 * src/target builds the devices themselves on these. */
#define PV_MAX_DEVICES 1          /* non-host devices pvomp provides */
/* target-offload-var (pv_gicv.target_offload), OMP_TARGET_OFFLOAD's words. */
enum { PV_OFFLOAD_DEFAULT = 0, PV_OFFLOAD_MANDATORY = 1, PV_OFFLOAD_DISABLED = 2 };
/* omp_get_num_devices(): 1, or 0 with OMP_TARGET_OFFLOAD=disabled. */
int pv_target_num_devices(void);
/* omp_is_initial_device, omp_get_device_num (a kernel knows its device). */
bool pv_target_in_kernel(void);
int pv_target_current_device(void);

struct pv_team {
    struct pv_league league;        /* of the encountering thread, for every member */
    unsigned nthreads;
    unsigned level, active_level;   /* of the team's members */
    struct pv_barrier barrier;      /* barriers inside the region (cancellable) */
    struct pv_barrier final;        /* the implicit barrier that ends the region */
    /* Tasks created in this team and not finished yet (task.c maintains it;
     * a barrier completes only when it is zero). */
    _Alignas(PV_CACHELINE) _Atomic uint32_t task_count;
    struct pv_ts prev_ts;           /* the master's state before the team began */
    struct pv_task *prev_task;      /* the master's task before the team began */
    struct pv_thread **members;     /* members[i] runs implicit task i */

    _Atomic uint64_t single_seq;    /* single constructs claimed so far */
    _Atomic int cancelled;          /* parallel cancellation requested */
    _Atomic int ws_cancelled;       /* for/sections cancellation; cleared by the next barrier */
    bool nested;                    /* started from inside another team */
    bool display_all;               /* OMP_DISPLAY_AFFINITY: a member's place changed */

    uint64_t ws_seq0;               /* 1 when slot 0 was set up before the fork */
    struct pv_ws ws[PV_WS_SLOTS];
    struct pv_task *implicit;       /* implicit tasks, one per member */
    unsigned *place;                /* per member: place, partition (NULL: no places) */
    unsigned *part_off, *part_len;
    unsigned capacity;              /* members this allocation can hold */
    struct pv_team *spare_next;     /* link in the spare-team list */
    _Atomic unsigned *cg_extra;     /* the contention group's thread count */
    unsigned cg_added;              /* what this team added to it */
    struct pv_tstate *task_state;   /* tasking's per-team queues (task_internal.h) */
    struct pv_ompt_team ompt;       /* the tool's view (src/ompt; untouched without a tool) */
};

/* Number of threads for a parallel region (spec's algorithm); with a tool
 * attached, the requested parallelism is noted for its parallel_begin.
 * pv_team_threads: the number alone, for an entry point that has made its
 * one tool test already. */
unsigned pv_resolve_num_threads(unsigned requested, unsigned count);
unsigned pv_team_threads(unsigned requested, unsigned count);
/* Sets up the first worksharing construct of a combined construct. */
typedef void (*pv_ws_preinit_fn)(struct pv_ws *ws, void *arg);
/* Fork a team of nthreads (already resolved) running fn(data); the caller
 * becomes member 0 and returns at once (pv_team_end joins).  With `preinit`,
 * slot 0 is initialised by the caller before the fork and every member starts
 * inside it. */
void pv_team_fork_ws(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                     pv_ws_preinit_fn preinit, void *arg);
/* Fork, run fn(data) as member 0, join (pv_team_run: without a tool, for
 * an entry point that has made its one tool test already). */
void pv_team_start_ws(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                      pv_ws_preinit_fn preinit, void *arg);
void pv_team_run(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                 pv_ws_preinit_fn preinit, void *arg);
/* The end of a region: the implicit barrier, then the caller's old state back. */
void pv_team_end(void);
/* pv_runtime_init, pv_runtime_pause: ompt_view.h. */


/* Tasking hooks (task.c). */
void pv_task_team_init(struct pv_team *team);      /* a team is (re)used */
/* Run queued tasks of the team; true if at least one ran. */
bool pv_task_run_pending(struct pv_team *team);
/* The same for a thread waiting in the barrier whose word is gen_word at
 * generation gen: stops (true) once that barrier completed. */
bool pv_task_run_pending_gen(struct pv_team *team, _Atomic uint32_t *gen_word, uint32_t gen);
/* True when cancellation of the innermost parallel region was requested. */
static inline bool pv_team_cancelled(void)
{
    struct pv_team *t = pv_thr.ts.team;
    return t && atomic_load_explicit(&t->cancelled, memory_order_relaxed);
}


static inline unsigned pv_team_size(void)
{
    return pv_thr.ts.team ? pv_thr.ts.team->nthreads : 1;
}


#endif
