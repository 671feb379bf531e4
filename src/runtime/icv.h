/* The internal control variables: the data environment's (struct pv_icv,
 * which each task carries) and the process's (pv_gicv), with the reading
 * of the environment that sets them (env.c).  The current task's ICVs:
 * pv_icv_get (runtime/thread.h). */
#ifndef PV_RUNTIME_ICV_H
#define PV_RUNTIME_ICV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wait/wait.h"

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
 * schedule(runtime) loops: src/abi/kmpc_sched.c) see run-sched-var where
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

/* run-sched-var as omp_get_schedule reports it: the kind, and the chunk
 * as an int (a larger one is INT_MAX). */
static inline void pv_icv_schedule(const struct pv_icv *icv, int *kind, int *chunk)
{
    *kind = (int)icv->run_sched_var;
    *chunk = icv->run_sched_chunk > INT_MAX ? INT_MAX : (int)icv->run_sched_chunk;
}

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

void pv_env_init(void);                   /* env.c: fills the ICVs from the environment */
/* OMP_SCHEDULE once more, if the program changed it since load (setenv):
 * into pv_initial_icv and *icv; false when it is as it was, or unset. */
bool pv_env_schedule_reread(struct pv_icv *icv);
void pv_display_env(bool verbose);        /* env.c */

#endif
