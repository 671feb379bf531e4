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

#include "runtime/unsupported.h"
#include "wait/wait.h"

#define PV_EXPORT __attribute__((visibility("default")))
#define PV_CACHELINE 64
#define pv_likely(x) __builtin_expect(!!(x), 1)
#define pv_unlikely(x) __builtin_expect(!!(x), 0)

/* ------------------------------------------------------------------ errors */
__attribute__((noreturn, format(printf, 1, 2))) void pv_fatal(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pv_warn(const char *fmt, ...);
void *pv_malloc(size_t size);      /* aborts with a message on failure */
void *pv_calloc(size_t n, size_t size);
void *pv_aligned_alloc(size_t align, size_t size);

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
    unsigned nthreads_level;       /* index of the next list element for nested regions */
    unsigned run_sched_var;        /* enum pv_sched, possibly | PV_SCHED_MONOTONIC */
    long run_sched_chunk;
    bool dyn_var;
    unsigned max_active_levels_var;
    unsigned thread_limit_var;     /* UINT_MAX = unlimited */
    unsigned bind_var;             /* enum pv_bind */
    unsigned bind_level;           /* index of the next bind-var list element */
    int default_device_var;
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
    int target_offload;            /* 0 default, 1 mandatory, 2 disabled */
    char *affinity_format;
    bool display_affinity;
    unsigned default_allocator;    /* omp_allocator_handle_t value */
};

extern struct pv_icv pv_initial_icv;      /* of the initial task */
extern struct pv_global_icv pv_gicv;
extern unsigned pv_num_procs;             /* CPUs this process may run on */

/* Places (affinity.c).  A place is a set of CPU numbers. */
struct pv_place {
    unsigned ncpus;
    int *cpus;
};
extern struct pv_place *pv_places;
extern unsigned pv_num_places;

void pv_env_init(void);                   /* env.c: fills the ICVs from the environment */
void pv_affinity_init(void);              /* affinity.c: places from OMP_PLACES */
/* Pick the places for a new team of n threads (bind policy `bind`) inside the
 * parent's partition; fills place[i] and partition for each member. */
void pv_affinity_assign(unsigned n, unsigned bind, unsigned parent_place,
                        unsigned part_off, unsigned part_len,
                        unsigned *place, unsigned *sub_off, unsigned *sub_len);
void pv_affinity_bind_self(unsigned place);  /* pins the calling thread; no-op without places */
void pv_display_env(bool verbose);        /* env.c */

/* -------------------------------------------------------------- barriers */
/* Centralized barrier: the arrival counter and the generation word live on
 * separate cache lines so that spinning waiters do not slow arrivals. */
struct pv_barrier {
    _Alignas(PV_CACHELINE) _Atomic uint32_t arrived;
    uint32_t total;
    _Alignas(PV_CACHELINE) pv_futex_t gen;
};

void pv_barrier_init(struct pv_barrier *b, unsigned total);
void pv_barrier_wait(struct pv_barrier *b);

/* ----------------------------------------------------------- worksharing */
#define PV_WS_SLOTS 8   /* worksharing constructs a thread may run ahead by (nowait) */
#define PV_WS_INLINE_MEM 64

/* Phase in the low two bits of a slot's state word; sequence number above. */
enum { PV_WS_FREE = 0, PV_WS_INITIALIZING = 1, PV_WS_READY = 2 };

struct pv_ordered;   /* ordered.c */
struct pv_doacross;  /* doacross.c */

struct pv_ws {
    /* state = (seq << 2) | phase.  The first thread to arrive for `seq` moves
     * FREE -> INITIALIZING, sets the construct up, then publishes READY with a
     * release store; the others wait for READY.  The last thread to leave
     * recycles the slot for seq + PV_WS_SLOTS. */
    _Alignas(PV_CACHELINE) pv_futex_t state;
    _Atomic uint32_t left;               /* threads that have left the construct */

    /* Loop description (signed or unsigned long long form). */
    int sched;                           /* enum pv_sched, resolved (never RUNTIME) */
    bool ull;                            /* unsigned long long iteration space */
    bool up;                             /* ull: increasing */
    long chunk;                          /* chunk size (iterations, or *incr for dynamic) */
    long end;
    long incr;
    unsigned long long chunk_ull, end_ull, incr_ull;
    unsigned nthreads;

    /* Sections: count of sections (next is shared below). */
    unsigned sections;

    /* single copyprivate: the executing thread's data pointer. */
    void *copyprivate;

    /* Memory requested through GOMP_loop_start's `mem` (zeroed). */
    void *mem;
    char inline_mem[PV_WS_INLINE_MEM];

    struct pv_ordered *ordered;          /* ordered loops */
    struct pv_doacross *doacross;        /* doacross loops */

    /* Hot shared iteration cursor, on its own line. */
    _Alignas(PV_CACHELINE) _Atomic long next;
    _Atomic unsigned long long next_ull;
};

/* Enter the next worksharing construct.  Returns true for the one thread that
 * must initialise it; that thread then calls pv_ws_init_done().  Everybody
 * else gets the slot after it is READY. */
bool pv_ws_start(void);
void pv_ws_init_done(void);
/* Leave the current construct (called by every thread once). */
void pv_ws_end_nowait(void);
/* Leave and wait at the team barrier. */
void pv_ws_end(void);
/* Leave and wait at a cancellable barrier; true when the region was cancelled. */
bool pv_ws_end_cancel(void);
/* Called by the last thread leaving a slot, before it is recycled (loop.c,
 * ordered.c, doacross.c own these pointers). */
void pv_ordered_release(struct pv_ws *ws);
void pv_doacross_release(struct pv_ws *ws);

/* ------------------------------------------------------------ thread state */
struct pv_team;

/* Per-task state that tasking (task.c) extends; the implicit task of each
 * team member carries the ICVs of its data environment. */
struct pv_task {
    struct pv_icv icv;
    struct pv_task *parent;
    bool final;
    bool in_final;
};

/* Where a thread stands. */
struct pv_ts {
    struct pv_team *team;           /* NULL outside any parallel region */
    unsigned team_id;
    unsigned level;                 /* nesting level (0 = initial) */
    unsigned active_level;          /* active (more than one thread) levels */
    unsigned place;                 /* place index, or UINT_MAX when unbound */
    unsigned part_off, part_len;    /* place partition */
    uint64_t ws_seq;                /* sequence number of the next worksharing construct */
    struct pv_ws *ws;               /* the construct this thread is in */
    uint64_t single_seq;            /* single constructs met (nowait form) */
    unsigned long static_trip;      /* static schedule: chunks taken so far */
};

struct pv_thread {
    struct pv_ts ts;
    struct pv_task *task;           /* current task (implicit or explicit) */

    /* The pool: a docked worker waits on `dock` for its next assignment. */
    pv_futex_t dock;
    void (*fn)(void *);
    void *data;
    struct pv_thread **pool;        /* workers this thread uses as a level-0 master */
    unsigned pool_size;
    pthread_t handle;
    pid_t tid;
    bool is_worker;
};

extern __thread struct pv_thread pv_thr __attribute__((tls_model("initial-exec")));

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

/* ------------------------------------------------------------------- teams */
struct pv_team {
    unsigned nthreads;
    struct pv_barrier barrier;
    struct pv_ts prev_ts;           /* the master's state before the team began */
    struct pv_task *prev_task;      /* the master's task before the team began */
    struct pv_thread **members;     /* members[i] runs implicit task i */

    _Atomic uint64_t single_seq;    /* single constructs claimed so far */
    _Atomic int cancelled;          /* parallel cancellation requested */
    bool nested;                    /* started from inside another team */

    struct pv_ws ws[PV_WS_SLOTS];
    struct pv_task *implicit;       /* implicit tasks, one per member */
};

/* Number of threads for a parallel region (spec's algorithm). */
unsigned pv_resolve_num_threads(unsigned requested, unsigned count);
/* Fork a team running fn(data), the caller as member 0; returns after the
 * caller has been made member 0 (pv_team_end joins). */
void pv_team_start(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags);
void pv_team_end(void);
/* Lazily created runtime state (env, places); safe to call often. */
void pv_runtime_init(void);

/* A team barrier for the current team (no-op outside a team). */
void pv_team_barrier(void);
/* Cancellable form: returns true when the parallel region was cancelled. */
bool pv_team_barrier_cancel(void);
/* True when cancellation of the innermost parallel region was requested. */
static inline bool pv_team_cancelled(void)
{
    struct pv_team *t = pv_thr.ts.team;
    return t && atomic_load_explicit(&t->cancelled, memory_order_relaxed);
}

/* Teams construct (host): the team number and count, per thread. */
struct pv_league {
    unsigned num_teams;
    unsigned team_num;
};
extern __thread struct pv_league pv_league;

static inline unsigned pv_team_size(void)
{
    return pv_thr.ts.team ? pv_thr.ts.team->nthreads : 1;
}

/* Loops: initialise the current slot for a loop (loop.c). */
void pv_loop_init(struct pv_ws *ws, long start, long end, long incr, int sched, long chunk);
void pv_loop_ull_init(struct pv_ws *ws, bool up, unsigned long long start,
                      unsigned long long end, unsigned long long incr, int sched,
                      unsigned long long chunk);

#endif
