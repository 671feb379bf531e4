/* Tasking internals shared by task.c, task_queue.c, task_depend.c,
 * taskloop.c and task_reduction.c (task.c, taskloop.c: src/tasks).  See
 * docs/tasks.md for the design.
 *
 * Life of an explicit task (struct pv_task, fields in thread.h):
 *   - created by the thread that runs its parent; counted in the parent's
 *     `cnt` (one incomplete child and one reference), in its taskgroup's
 *     `pending` and in the creator's `created` count (struct pv_tpool) before
 *     anybody else can see it;
 *   - ready when its dependences are met (`npred` reaches zero), then queued
 *     on the creating (or releasing) thread's deque, or on the team's shared
 *     priority queue;
 *   - completed when its body returned and, with detach, its event was
 *     fulfilled: successors released, taskgroup and parent counts dropped,
 *     the completer's `completed` count last (pv_task_outstanding);
 *   - freed when it is complete and none of its children still holds a
 *     reference, so that a task's ancestors stay readable while it lives
 *     (the tied-task scheduling check walks up the parent chain).
 */
#ifndef PV_RUNTIME_TASK_INTERNAL_H
#define PV_RUNTIME_TASK_INTERNAL_H

#include "ompt/ompt.h"
#include "runtime/icv.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"
#include "trace/trace.h" /* pv_trace_state, for PV_TASK_SITE */

/* GOMP_task / GOMP_taskloop flag bits, as gcc 12 passes them. */
enum {
    PV_GTF_UNTIED = 1u << 0,
    PV_GTF_FINAL = 1u << 1,
    PV_GTF_MERGEABLE = 1u << 2,
    PV_GTF_DEPEND = 1u << 3,
    PV_GTF_PRIORITY = 1u << 4,
    PV_GTF_UP = 1u << 8,          /* taskloop_ull: the loop counts up */
    PV_GTF_GRAINSIZE = 1u << 9,   /* taskloop: num_tasks argument is a grainsize */
    PV_GTF_IF = 1u << 10,         /* taskloop: if clause true (or absent) */
    PV_GTF_NOGROUP = 1u << 11,
    PV_GTF_REDUCTION = 1u << 12,
    PV_GTF_DETACH = 1u << 13,
    PV_GTF_STRICT = 1u << 14,     /* taskloop: strict grainsize */
};

/* Dependence kinds of omp_depend_t objects (gcc encodes in..mutexinoutset as
 * 1..4; 5 is inoutset, which gcc 13 emits and we accept). */
enum {
    PV_DEP_IN = 1,
    PV_DEP_OUT = 2,
    PV_DEP_INOUT = 3,
    PV_DEP_MUTEXINOUTSET = 4,
    PV_DEP_INOUTSET = 5,
};

enum pv_task_kind {
    PV_TASK_IMPLICIT = 0, /* team->implicit[i] or a thread's initial task */
    PV_TASK_HEAP = 1,     /* freed when complete and unreferenced */
    PV_TASK_STACK = 2,    /* lives in a caller's frame (included tasks, waiters) */
};

enum {
    PV_TF_CACHED = 1u << 0,     /* block from the per-thread task cache */
    PV_TF_WAITER = 1u << 1,     /* dependences met: wake the creator, do not queue */
    PV_TF_COPIED = 1u << 2,     /* copy constructors ran: never skip the body */
    PV_TF_DETACH = 1u << 3,     /* has a detach event */
    PV_TF_UNDEFERRED = 1u << 4, /* runs inline in the encountering task */
    PV_TF_PROMOTABLE = 1u << 5, /* in a frame; moved to a block (arg) on demand */
};

/* task->detach state bits. */
enum {
    PV_DETACH_BODY_DONE = 1u,
    PV_DETACH_FULFILLED = 2u,
    PV_DETACH_COMPLETED = 4u,   /* completed without waiting (cancelled) */
};

#define PV_TASK_REF ((uint64_t)1 << 32)
#define PV_TASK_PENDING(c) ((uint32_t)(c))

struct pv_taskgroup {
    struct pv_taskgroup *prev;
    _Atomic uint32_t pending;     /* tasks of the group not completed yet */
    _Atomic bool cancelled;
    bool workshare;               /* opened by a worksharing construct's task reduction */
    uintptr_t *reductions;        /* registered task reductions (task_reduction.c) */
};

/* One thread's deque: the owner pushes and pops at `tail` (newest first),
 * thieves take at `head` (oldest first).  Every change is made under `lock`
 * (a short critical section); head/tail are atomics so that an empty deque
 * can be skipped without taking the lock. */
struct pv_tq {
    _Alignas(PV_CACHELINE) _Atomic uint32_t lock;
    _Atomic uint32_t head, tail;
    uint32_t mask;
    uint32_t pushes;              /* tasks ever pushed (stamps them: task_check.c) */
    struct pv_task **buf;
};

/* A member's pool of task blocks (task.c), and its counts of the team's
 * tasks (pv_task_outstanding): only the member writes this line. */
struct pv_tpool {
    _Alignas(PV_CACHELINE) struct pv_task *local;  /* the member's own list */
    unsigned nlocal;
    _Atomic uint64_t created;     /* tasks it created since the team's fork */
    _Atomic uint64_t completed;   /* tasks it completed since the team's fork */
    int32_t unshared;             /* created - completed not yet added to `outstanding` */
    _Alignas(PV_CACHELINE) _Atomic(struct pv_task *) remote; /* returned by others */
};

struct pv_prio_item {
    int priority;
    uint64_t seq;
    struct pv_task *task;
};

/* Per-team tasking state (team->task_state), allocated once per team object. */
struct pv_tstate {
    unsigned cap;                     /* members this state can serve */
    unsigned counted;                 /* members whose counts are kept (task_alloc.c) */
    struct pv_tq *q;                  /* one deque per member */
    struct pv_tpool *pools;           /* one task block pool per member */
    struct pv_deps **impl_deps;       /* dependence tables of the implicit tasks, kept */
    /* Task reductions of worksharing constructs, per ws slot: the first
     * thread to arrive registers and publishes its array (state word =
     * construct sequence << 1 | ready), the others share its memory. */
    struct {
        pv_futex_t state;
        uintptr_t *first;
    } ws_red[PV_WS_SLOTS];

    /* Threads waiting in taskwait / taskgroup / dependences / detach sleep on
     * `work`; anybody who makes work or completes something bumps it when
     * `idle` is non-zero. */
    _Alignas(PV_CACHELINE) pv_futex_t work;
    _Atomic uint32_t idle;
    /* Detached tasks whose event is not fulfilled yet: while there are any,
     * tasks with dependences are never run at once by the throttle (waiting
     * for their predecessors could wait for such an event, which the
     * creating thread may fulfil only later). */
    _Atomic uint32_t open_events;
    /* Tasks completed by a thread that is not a member (omp_fulfill_event). */
    _Atomic uint64_t completed_outside;
    /* The throttle's estimate of the team's outstanding tasks: each member
     * adds its count's changes in steps of PV_TASK_SHARE_STEP, so it is off
     * by less than that per member (docs/tasks.md, "Counting"). */
    _Alignas(PV_CACHELINE) _Atomic int64_t outstanding;

    /* Shared queue: prioritised tasks and tasks made ready by threads outside
     * the team (a binary heap, highest priority first, FIFO among equals). */
    _Alignas(PV_CACHELINE) _Atomic uint32_t shared_lock;
    _Atomic uint32_t nshared;
    uint64_t shared_seq;
    struct pv_prio_item *heap;
    unsigned heap_cap;
};

/* -------------------------------------------------------------- task.c */
/* Bump the team's (or, without a team, the process's) task-wait word. */
void pv_task_notify(struct pv_team *team);
static inline void pv_task_notify_if_idle(struct pv_team *team)
{
    struct pv_tstate *ts = team ? team->task_state : NULL;
    /* seq_cst: pairs with the waiter's seq_cst increment of `idle`. */
    if (!ts || atomic_load_explicit(&ts->idle, memory_order_seq_cst) != 0)
        pv_task_notify(team);
}
/* A predecessor of t finished.  Returns true when t became ready to run and
 * the caller must run or queue it (a waiting undeferred task is notified
 * instead). */
bool pv_task_pred_release(struct pv_task *t);
/* Queue a task whose predecessors are all done. */
void pv_task_queue_ready(struct pv_task *t);
/* The current task, creating the initial thread's task if needed. */
static inline struct pv_task *pv_task_current(void)
{
    if (!pv_thr.task)
        pv_icv_for_write();
    return pv_thr.task;
}

/* Task creation parameters shared by GOMP_task and GOMP_taskloop. */
struct pv_task_args {
    void (*fn)(void *);
    void *data;
    void (*cpyfn)(void *, void *);
    long arg_size, arg_align;
    unsigned flags;               /* PV_GTF_* */
    int priority;                 /* already bounded */
    void **depend;
    void *detach;
    bool bounds;                  /* taskloop: store lo, hi in the first two words */
    bool in_place;                /* undeferred: data is already the task's own copy */
    uint64_t lo, hi;
};
/* A priority clause's value within 0..max-task-priority-var (the args'
 * `priority`; GOMP_task and GOMP_taskloop). */
static inline int pv_task_priority_bound(int priority)
{
    if (priority < 0)
        return 0;
    return priority > pv_gicv.max_task_priority_var ? pv_gicv.max_task_priority_var : priority;
}
/* The arguments of a GOMP_task or GOMP_taskloop call (the body, its data
 * and how to copy it) as a spawn's; the caller adds what its construct has. */
static inline struct pv_task_args pv_task_args_of(void (*fn)(void *), void *data,
                                                  void (*cpyfn)(void *, void *), long arg_size,
                                                  long arg_align, unsigned flags, int priority)
{
    return (struct pv_task_args){
        .fn = fn,
        .data = data,
        .cpyfn = cpyfn,
        .arg_size = arg_size,
        .arg_align = arg_align > 0 ? arg_align : 1,
        .flags = flags,
        .priority = priority,
    };
}
/* In GOMP_task and GOMP_taskloop*: the entry's return address as the
 * site of the tasks it creates (task_create's codeptr_ra), unless an outer
 * entry (kmpc's, which calls GOMP_task) named it.  Only while task_create is
 * traced; the empty asm keeps the return address's load behind the test, as
 * in pv_ompt_entry_ra, so the untraced path is the flag test alone. */
#define PV_TASK_SITE()                                                                  \
    do {                                                                                \
        if (__builtin_expect(pv_trace_state[PV_TRACE_EV_task_create], 0) &&             \
            !pv_thr.task_site_outer) {                                                  \
            __asm__ volatile("" ::: "memory");                                          \
            pv_thr.task_site = __builtin_return_address(0);                             \
        }                                                                               \
    } while (0)
/* GOMP_task: PV_TASK_SITE and the tool's PV_OMPT_ENTRY (the call's address
 * and frame for task_create) in one test of task_create's flag, in which an
 * attached tool sets a bit of its own (ompt/observe.c): without a tool the
 * entry pays what a build without OMPT pays. */
#define PV_TASK_SITE_ENTRY()                                                            \
    do {                                                                                \
        if (pv_trace_site_on(PV_TRACE_EV_task_create)) {                                \
            __asm__ volatile("" ::: "memory");                                          \
            if (!pv_thr.task_site_outer)                                                \
                pv_thr.task_site = __builtin_return_address(0);                         \
            if (pv_ompt_tool())                                                         \
                PV_OMPT_ENTRY_SET();                                                    \
        }                                                                               \
    } while (0)
/* Around the GOMP_task calls of an outer entry (a __kmpc_* one): its own return
 * address is the site, for every task it creates. */
#define PV_TASK_SITE_OUTER_BEGIN()                                                      \
    do {                                                                                \
        if (__builtin_expect(pv_trace_state[PV_TRACE_EV_task_create], 0)) {             \
            __asm__ volatile("" ::: "memory");                                          \
            pv_thr.task_site = __builtin_return_address(0);                             \
            pv_thr.task_site_outer = true;                                              \
        }                                                                               \
    } while (0)
#define PV_TASK_SITE_OUTER_END() (pv_thr.task_site_outer = false)

/* Create and queue (or run, when it cannot be deferred) one task. */
void pv_task_spawn(const struct pv_task_args *a, bool deferrable);
/* An undeferred task whose body the caller runs between these two calls
 * (libomp's task_begin_if0 ... task_complete_if0; tasks/task_if0.c): begin
 * creates it (flags: PV_GTF_UNTIED, _FINAL, _DETACH, its event then stored
 * at *detach) and makes it the current task; `code` names its body for the
 * trace, `exit_frame` (the program's frame pointer) its exit frame for a tool.  end makes its parent
 * current again; a detached task may complete later, at omp_fulfill_event. */
struct pv_task *pv_task_if0_begin(unsigned flags, void *detach, void *code, void *exit_frame);
void pv_task_if0_end(struct pv_task *t);
/* taskyield as libomp does it (__kmpc_omp_taskyield): run one ready
 * descendant of the current task, if there is one (task_wait.c). */
void pv_task_yield(void);
/* taskwait with depend (GOMP_taskwait_depend, which took the tool's entry
 * frame and codeptr): as if an included, empty task with those
 * dependences ran here. */
void pv_taskwait_depend(void **depend);
/* True when new tasks of the current task must be discarded (cancellation). */
bool pv_task_creation_cancelled(struct pv_team *team, struct pv_task *parent);
/* The throttle (as libgomp): the team holds so many tasks, queued,
 * running or waiting for their dependences, that new ones run at once.
 * It reads the shared estimate (a read, not a write, of a line that
 * changes once per PV_TASK_SHARE_STEP tasks of a member). */
static inline uint64_t pv_task_throttle_limit(const struct pv_team *team)
{
    return (uint64_t)pv_gicv.task_throttle * team->nthreads;
}
static inline bool pv_task_throttled(struct pv_team *team, uint64_t more)
{
    int64_t n = atomic_load_explicit(&team->task_state->outstanding, memory_order_relaxed);
    return n > 0 && (uint64_t)n + more > pv_task_throttle_limit(team);
}

#define PV_TASK_SHARE_STEP 8

/* A member's change of the team's outstanding tasks (+1 created, -1
 * completed), added to the shared estimate once it adds up to a step. */
static inline void pv_task_share_change(struct pv_tstate *ts, struct pv_tpool *p, int32_t d)
{
    p->unshared += d;
    if (pv_unlikely(p->unshared >= PV_TASK_SHARE_STEP || p->unshared <= -PV_TASK_SHARE_STEP)) {
        atomic_fetch_add_explicit(&ts->outstanding, p->unshared, memory_order_relaxed);
        p->unshared = 0;
    }
}

/* One more in a count that only the calling member writes: a plain
 * increment, published with a seq_cst store (pv_task_outstanding). */
static inline void pv_task_count_own(_Atomic uint64_t *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                          memory_order_seq_cst);
}

/* The creating member (team is its team) counts a new task before anybody
 * can see it.  Only the member writes its count, so no read-modify-write:
 * a task used to cost two on one team-wide cache line, the creator's and
 * the completer's.  The seq_cst store puts every count in the one order
 * pv_task_outstanding's argument needs. */
static inline void pv_task_count_created(struct pv_team *team, unsigned member)
{
    struct pv_tstate *ts = team->task_state;
    struct pv_tpool *p = &ts->pools[member];
    pv_task_count_own(&p->created);
    pv_task_share_change(ts, p, 1);
}

/* The taskloop construct of n iterations from start by step (tasks/taskloop.c;
 * codeptr: the entry's return address with a tool attached, else NULL). */
void pv_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                 long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                 uint64_t start, uint64_t n, uint64_t step, const void *codeptr);

/* Taskgroups (task.c): the bodies of GOMP_taskgroup_start/end. */
struct pv_taskgroup *pv_taskgroup_new(struct pv_taskgroup *prev);
void pv_taskgroup_start(void);
void pv_taskgroup_end(void);
/* Cancels the innermost taskgroup, or only says whether it is cancelled
 * (task_group.c; GOMP_cancel, GOMP_cancellation_point). */
bool pv_taskgroup_cancel(bool query_only);
/* The whole of an exported taskgroup start / end (GOMP_taskgroup_*,
 * __kmpc_*taskgroup): inline, so that the events' codeptr_ra and the task's
 * enter_frame are those of the entry the program called. */
static inline __attribute__((always_inline)) void pv_taskgroup_start_entry(void)
{
    pv_taskgroup_start();
    if (pv_ompt_tool())
        pv_ompt_sync_begin(ompt_sync_region_taskgroup, pv_ompt_entry_ra());
}
static inline __attribute__((always_inline)) void pv_taskgroup_end_entry(void)
{
    if (pv_ompt_tool()) {
        PV_OMPT_FRAME();
        pv_ompt_sync_wait(ompt_sync_region_taskgroup, pv_ompt_entry_ra());
    }
    pv_taskgroup_end();
    if (pv_ompt_tool())
        pv_ompt_sync_end(ompt_sync_region_taskgroup, pv_ompt_entry_ra());
}

/* ------------------------------------------------------- task_queue.c */
void pv_tq_init(struct pv_tstate *ts);
void pv_tq_push(struct pv_tq *q, struct pv_task *t);
void pv_tq_push_shared(struct pv_tstate *ts, struct pv_task *t);
/* Take a ready task for thread `me` of an n-thread team: shared queue, own
 * deque, then the others'.  With `under` non-NULL only descendants of
 * `under` are taken (the tied-task scheduling constraint). */
struct pv_task *pv_tq_take(struct pv_tstate *ts, unsigned me, unsigned n,
                           const struct pv_task *under);

/* ------------------------------------------------------- task_check.c */
/* PVOMP_TASK_CHECKS (pv_gicv.task_checks): the queues' push counts before a
 * look for work, then, when the thread is about to wait, the check that no
 * task it may run (any, or with `under` a descendant of it) queued before
 * that look is still queued (aborts with a report if one is).  The check
 * frees the mark. */
struct pv_task_mark;
struct pv_task_mark *pv_task_check_mark(struct pv_tstate *ts);
void pv_task_check_wait(struct pv_tstate *ts, struct pv_task_mark *m, unsigned me,
                        const struct pv_task *under, const char *where);

/* True when x is `anc` or one of its descendants.  Safe on a live x: every
 * task keeps its ancestors allocated. */
static inline bool pv_task_descends(const struct pv_task *x, const struct pv_task *anc)
{
    unsigned d = anc->depth;
    while (x->depth > d)
        x = x->parent;
    return x == anc;
}

/* ------------------------------------------------------ task_depend.c */
struct pv_dep_entry;
struct pv_dep_node {
    struct pv_dep_node *next, *prev;
    struct pv_dep_entry *entry;   /* NULL when not in a list */
    struct pv_task *task;
    uint8_t list;                 /* 0 none, 1 current group, 2 previous group */
};
/* Number of depend items in a GOMP depend array. */
size_t pv_deps_count(void **depend);
struct pv_deps *pv_deps_new(void);
void pv_deps_free(struct pv_deps *d);
bool pv_deps_empty(struct pv_deps *d);
/* Register t (child of parent, t->dnodes has room for pv_deps_count items)
 * in the parent's table; adds one to t->npred per unfinished predecessor. */
void pv_deps_register(struct pv_task *parent, struct pv_task *t, void **depend);
/* t completed: leave the table and release the successors, queueing those
 * that became ready.  With `hand_over`, one ready successor without
 * priority is returned instead of queued, for the calling thread to run
 * next; otherwise (and when there is none) NULL. */
struct pv_task *pv_deps_release(struct pv_task *t, bool hand_over);

/* --------------------------------------------------- task_reduction.c */
/* The bodies of the entry points of src/tasks/gomp_task_reduction.c. */
/* Register the reduction array `data` in the current taskgroup (a new one
 * if there is none). */
void pv_taskgroup_reduction_register(uintptr_t *data);
/* Free what registering `data` allocated: its map and private blocks. */
void pv_task_reduction_unregister(uintptr_t *data);
/* ptrs[0..cnt): originals or private copies, replaced by this thread's
 * private copies; for i < cntorig the original also in ptrs[cnt + i]. */
void pv_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs);
/* A parallel region with reduction(task, ...): every implicit task in one
 * taskgroup holding the reductions; returns the team's size. */
unsigned pv_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                unsigned flags);

/* Task reductions of a worksharing construct (loop, sections, scope): call
 * once per thread right after entering the construct (pv_ws_start).  Opens
 * the construct's taskgroup and registers `reductions` in it; the team's
 * threads share the private copies of the first one to register. */
void pv_task_ws_reductions(uintptr_t *reductions);
/* Its end (GOMP_workshare_task_reduction_unregister, before the barrier):
 * ends the construct's taskgroup; member 0 frees the shared blocks. */
void pv_task_ws_reductions_end(void);
/* A team is used again: forget the previous region's worksharing state. */
void pv_task_ws_reductions_reset(struct pv_tstate *ts);

#endif
