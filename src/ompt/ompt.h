/* OMPT dispatch, as runtime code sees it.
 *
 * With no tool attached an event site costs one load and one predictable,
 * not-taken branch:
 *
 *     if (pv_ompt_tool()) pv_ompt_exit_frame(...);
 *
 * or nothing more than the trace point beside it, whose flag it shares
 * (observe.c: an attached tool sets a bit of its own in that flag byte):
 *
 *     if (pv_trace_state[PV_TRACE_EV_single]) single_observed(...);
 *
 * pv_ompt_tool() tests whether a tool is attached; pv_ompt_on(ev) whether
 * one event has a callback.  Everything behind the branch is out of line in
 * src/ompt, so the sites stay small.  Building with -DPVOMP_NO_OMPT (cmake
 * -DPVOMP_OMPT=OFF) turns every site into dead code, for the overhead
 * benchmark.
 *
 * codeptr_ra: a site inside an exported entry point passes
 * __builtin_return_address(0); a site deeper in the runtime passes NULL and
 * src/ompt finds the program's return address by unwinding to the first
 * frame outside pvomp (only when a tool is attached).  GOMP_parallel,
 * GOMP_parallel_start, GOMP_task and GOMP_taskloop hand theirs down with
 * PV_OMPT_ENTRY(), consumed by the first event of the call.  A __kmpc_*
 * entry point that calls a GOMP one gives it its own first (PV_OMPT_GIVE). */
#ifndef PV_OMPT_OMPT_H
#define PV_OMPT_OMPT_H

#include <stdbool.h>
#include <stdint.h>

#include "omp-tools.h" /* include/, on every module's path (pvomp_flags) */
#include "base/compiler.h"
#include "ompt/ompt_types.h"
#include "runtime/barrier_kind.h"

#define PV_OMPT_NEVENTS 38   /* event ids are 1..37 (ompt_callbacks_t) */
#define PV_OMPT_WORK_LEVELS 16

/* The tool's callbacks by event id (NULL: none registered).  Written by
 * ompt_set_callback and at finalization, read by every event site (hidden:
 * direct access, no GOT). */
extern PV_HIDDEN ompt_callback_t pv_ompt_callbacks[PV_OMPT_NEVENTS];
/* A tool is attached: its initializer succeeded and it is not finalized. */
extern PV_HIDDEN bool pv_ompt_active;

#ifdef PVOMP_NO_OMPT
#define pv_ompt_on(ev) 0
#define pv_ompt_tool() 0
#else
/* Relaxed loads: a plain mov; a callback registered concurrently with an
 * event is seen by later events. */
#define pv_ompt_on(ev)                                                                  \
    __builtin_expect(__atomic_load_n(&pv_ompt_callbacks[ompt_callback_##ev],            \
                                     __ATOMIC_RELAXED) != 0, 0)
/* A plain read, as the trace flags: gcc then tests the byte in memory
 * (cmpb; an atomic load is movzbl + test).  pv_ompt_active is written only
 * when a tool starts or is finalized; a thread that reads it stale sees the
 * change at its next event, as with a relaxed load. */
#define pv_ompt_tool() __builtin_expect(pv_ompt_active, 0)
#endif

/* An entry point whose path without a tool makes no test at all (one whose
 * work without a tool is a few instructions, or none: GOMP_taskwait,
 * GOMP_ordered_end): the exported function jumps through a pointer that a
 * tool's start switches from `plain` to `told`, the variant with the
 * events, and its end switches back (pv_ompt_observe_sites, through the
 * pv_ompt_switch section).  A jump to a fixed target is one predicted
 * instruction; reached by a jump, `told` has the entry's return address
 * and CFA as its own.  The pointer is read plainly, as pv_ompt_active (gcc
 * then jumps through memory).  Without OMPT the entry is `plain` itself. */
struct pv_ompt_switch {
    void (**entry)(void);
    void (*plain)(void);
    void (*told)(void);
};
#ifdef PVOMP_NO_OMPT
#define PV_OMPT_SWITCHED(name, plain, told)                                            \
    static void (*const name##_told)(void) __attribute__((unused)) = told;              \
    PV_EXPORT void name(void)                                                          \
    {                                                                                  \
        plain();                                                                       \
    }
#else
#define PV_OMPT_SWITCHED(name, plain, told)                                            \
    static void (*name##_entry)(void) = plain;                                         \
    static const struct pv_ompt_switch name##_switch                                   \
        __attribute__((used, section("pv_ompt_switch"), aligned(8))) = {               \
            &name##_entry, plain, told};                                               \
    PV_EXPORT void name(void)                                                          \
    {                                                                                  \
        name##_entry();                                                                \
    }
#endif

/* In an exported entry point, inside its `if (pv_ompt_tool())` branch: the
 * entry's return address (codeptr_ra) for the out-of-line variant with the
 * events.  The empty asm keeps gcc from loading it ahead of the test, which
 * would cost the path without a tool an instruction and often a frame of
 * its own (the load needs the frame's layout, so the prologue can no
 * longer be moved into the paths that need it). */
#ifdef PVOMP_NO_OMPT
#define pv_ompt_entry_ra() ((const void *)0)
#else
#define pv_ompt_entry_ra()                                                              \
    ({                                                                                  \
        __asm__ volatile("" ::: "memory");                                              \
        pv_ompt_take_given_ra(__builtin_return_address(0));                             \
    })
#endif

/* Callbacks in progress, counted in 64 slots (a thread's slot is a hash of
 * its TLS address; padded, so that threads rarely share a line), so that the
 * finalizer can wait for every callback that started before it cleared the
 * table: the tool's finalize then runs after the last of them returned, and
 * none starts after it.  The pairing is Dekker's: a dispatcher increments
 * its slot, then loads the callback (both seq_cst); the finalizer stores
 * NULL in every slot of the table, then reads the counts (seq_cst).  Either
 * it sees the increment and waits for the decrement, or the dispatcher's
 * load comes after the NULL store and calls nothing. */
struct pv_ompt_dispatch_slot {
    _Alignas(64) unsigned long n;
};
extern PV_HIDDEN struct pv_ompt_dispatch_slot pv_ompt_dispatching[64];
extern __thread PV_HIDDEN unsigned pv_ompt_dispatch_depth
    __attribute__((tls_model("initial-exec")));

static inline unsigned long *pv_ompt_dispatch_begin(void)
{
    uint64_t h = ((uint64_t)(uintptr_t)&pv_ompt_dispatch_depth >> 6) * 0x9E3779B97F4A7C15ull;
    unsigned long *n = &pv_ompt_dispatching[h >> 58].n;
    __atomic_fetch_add(n, 1, __ATOMIC_SEQ_CST);
    pv_ompt_dispatch_depth++;
    return n;
}

static inline void pv_ompt_dispatch_end(unsigned long *n)
{
    pv_ompt_dispatch_depth--;
    /* Release: the callback's effects come before the finalizer goes on. */
    __atomic_fetch_sub(n, 1, __ATOMIC_RELEASE);
}

/* Call the registered callback of `ev` with these arguments, if there is
 * one (pv_ompt_callt: events whose signature has another name, e.g.
 * mutex_acquired is an ompt_callback_mutex_t).  Used behind pv_ompt_on(ev),
 * which stays the cheap test; the slot is loaded again here. */
#define pv_ompt_callt(ev, type, ...)                                                   \
    do {                                                                                \
        unsigned long *n_ = pv_ompt_dispatch_begin();                                   \
        ompt_callback_##type##_t f_ = (ompt_callback_##type##_t)__atomic_load_n(        \
            &pv_ompt_callbacks[ompt_callback_##ev], __ATOMIC_SEQ_CST);                  \
        if (f_)                                                                         \
            f_(__VA_ARGS__);                                                            \
        pv_ompt_dispatch_end(n_);                                                       \
    } while (0)
#define pv_ompt_call(ev, ...) pv_ompt_callt(ev, ev, __VA_ARGS__)

/* Per-thread OMPT state. */
struct pv_ompt_thread {
    ompt_data_t data;             /* the tool's thread data */
    int state;                    /* ompt_state_t, for ompt_get_state */
    ompt_wait_id_t wait_id;       /* what the thread waits for in a wait state */
    const void *codeptr;          /* PV_OMPT_ENTRY: return address of the call ... */
    void *enter_frame;            /* ... and its frame address */
    unsigned requested;           /* requested parallelism of the region being forked */
    unsigned char begun;          /* thread_begin dispatched */
    unsigned char ended;          /* thread_end dispatched */
    unsigned char type;           /* ompt_thread_t */
    unsigned char legacy;         /* the region being forked: GOMP_parallel_start */
    unsigned char combined;       /* the region being forked: parallel sections */
    unsigned char pending_single; /* a single's end is owed (dispatched at the next event) */
    unsigned char use_ending;     /* `ending` stands for the current task */
    unsigned char yielded;        /* pv_ompt_task_yield: the next task_begin yields */
    const void *pending_codeptr;
    const void *taskloop_codeptr; /* inside GOMP_taskloop: its return address */
    uint64_t chunk_start, chunk_iterations; /* the taskloop task being created */
    const void *given_codeptr;    /* PV_OMPT_GIVE: a __kmpc_* entry's return address */
    void *given_frame;            /* ... and its CFA, for the GOMP entry it calls */
    void (*given_body)(void *);   /* __kmpc_fork_call: the program's microtask, the
                                     region's body in place of the runtime's */
    const void *dep_wait_codeptr; /* an undeferred task's dependence wait: the call's */
    void *dep_wait_frame;         /* codeptr and frame, for the task's own task_create */
    int work[PV_OMPT_WORK_LEVELS]; /* ompt_work_t of the construct the thread is in, by level */
    const void *sections_codeptr[PV_OMPT_WORK_LEVELS]; /* its sections construct's codeptr_ra */
    struct pv_ompt_team initial_parallel;   /* the implicit parallel region around the
                                               thread's initial task (pv_thr.initial_task) */
    struct pv_ompt_task ending;   /* copy of a worker's implicit task after its team ended */
    /* A host teams region whose teams this thread runs (NULL: none): the
     * thread's task when it entered the league (while that task is
     * current, the team's tasks below stand for it), the current team's
     * initial task, the parallel region the runtime forks in the team and
     * its implicit task, in which the teams region's body runs. */
    struct pv_ompt_league *league;
    struct pv_task *league_at;
    struct pv_ompt_task league_task;
    ompt_data_t league_region;
    struct pv_ompt_task league_implicit;
    unsigned char league_in_region;    /* the team's region has begun: its implicit task is current */
    unsigned char begin_as_worker;     /* a device thread that joins a league begins as
                                          libomp's league workers do */
};

extern __thread PV_HIDDEN struct pv_ompt_thread pv_ompt_thr
    __attribute__((tls_model("initial-exec")));

/* The hand-over from libomp's ABI (the families' kmpc_*.c): a __kmpc_* entry point that
 * calls a GOMP entry point gives it, with PV_OMPT_GIVE, its own return
 * address (the clang program's call) and CFA; the GOMP entry's
 * pv_ompt_entry_ra, PV_OMPT_ENTRY and PV_OMPT_FRAME take them, once, in
 * place of their own.  Both are given and taken only with a tool attached
 * (inside the sites' pv_ompt_tool() branches), so a program without a tool
 * pays nothing; a GOMP entry that may return without taking them is
 * followed by PV_OMPT_GIVEN_DROP in its caller. */
static inline const void *pv_ompt_take_given_ra(const void *own)
{
    const void *given = pv_ompt_thr.given_codeptr;
    if (!given)
        return own;
    pv_ompt_thr.given_codeptr = NULL;
    return given;
}

static inline void *pv_ompt_take_given_frame(void *own)
{
    void *given = pv_ompt_thr.given_frame;
    if (!given)
        return own;
    pv_ompt_thr.given_frame = NULL;
    return given;
}

/* Both, for a GOMP entry that takes both (PV_OMPT_ENTRY, or PV_OMPT_FRAME
 * with pv_ompt_entry_ra); PV_OMPT_GIVE_RA: the address alone, for one that
 * takes only pv_ompt_entry_ra. */
#define PV_OMPT_GIVE()                                                                 \
    do {                                                                               \
        if (pv_ompt_tool()) {                                                          \
            pv_ompt_thr.given_codeptr = __builtin_return_address(0);                   \
            pv_ompt_thr.given_frame = __builtin_dwarf_cfa();                           \
        }                                                                              \
    } while (0)
#define PV_OMPT_GIVE_RA()                                                              \
    do {                                                                               \
        if (pv_ompt_tool())                                                            \
            pv_ompt_thr.given_codeptr = __builtin_return_address(0);                   \
    } while (0)
/* __kmpc_fork_call, with PV_OMPT_GIVE: the region's body is the program's
 * microtask, not the runtime's function that calls it (pv_ompt_parallel_begin
 * takes it): the stand-in codeptr_ra of a tail call from the body. */
#define PV_OMPT_GIVE_BODY(body)                                                        \
    do {                                                                               \
        if (pv_ompt_tool())                                                            \
            pv_ompt_thr.given_body = (void (*)(void *))(void (*)(void))(body);         \
    } while (0)
#define PV_OMPT_GIVEN_DROP()                                                           \
    do {                                                                               \
        if (pv_ompt_tool())                                                            \
            pv_ompt_thr.given_codeptr = NULL, pv_ompt_thr.given_frame = NULL;          \
    } while (0)

/* The calling thread uses OpenMP: if it is not an OpenMP thread yet, it
 * begins now (thread_begin, and its initial task; src/ompt/thread.c).
 * Every event does this first; so do, inside their `if (pv_ompt_tool())`,
 * the omp_* routines that read or set the thread's state (its team, its
 * ICVs) and the first target event of a thread, as libomp registers a
 * thread at such a call (docs/ompt.md, "When a thread begins"). */
void pv_ompt_thread_begin(void);
static inline void pv_ompt_thread_ensure(void)
{
    if (__builtin_expect(!pv_ompt_thr.begun, 0))
        pv_ompt_thread_begin();
}

/* In GOMP_parallel*, GOMP_task*, GOMP_taskloop*: where the program called
 * from and the entry's frame, for the first event of the call.  The frame is
 * the entry's CFA (ompt_frame_cfa): unlike __builtin_frame_address it does
 * not make the entry point keep a frame pointer when no tool is attached. */
#define PV_OMPT_ENTRY()                                                      \
    do {                                                                     \
        if (pv_ompt_tool())                                                  \
            PV_OMPT_ENTRY_SET();                                             \
    } while (0)
/* The same, inside a branch already taken only with a tool attached. */
#define PV_OMPT_ENTRY_SET()                                                  \
    do {                                                                     \
        pv_ompt_thr.codeptr = pv_ompt_take_given_ra(__builtin_return_address(0)); \
        pv_ompt_thr.enter_frame = pv_ompt_take_given_frame(__builtin_dwarf_cfa()); \
    } while (0)

/* Inside a site's `if (pv_ompt_tool())` branch of an entry point whose task
 * waits in the runtime (GOMP_barrier, GOMP_taskwait, ...): the entry's CFA,
 * which the wait's event function makes the current task's enter_frame
 * while the task is suspended there.  Without it that function finds the
 * entry's frame by unwinding (pv_ompt_caller). */
#define PV_OMPT_FRAME() (pv_ompt_thr.enter_frame = pv_ompt_take_given_frame(__builtin_dwarf_cfa()))

struct pv_team;
struct pv_task;
struct pv_ws;

/* ------------------------------------------------------ start and stop */
void pv_ompt_init(void);          /* tool discovery and initialization (once) */
void pv_ompt_shutdown(void);      /* end of program: finalize the tool */
/* A tool starts (on) or ends: the trace flags whose test a runtime site
 * shares with its OMPT events get, or lose, the tool's bit (observe.c). */
void pv_ompt_observe_sites(bool on);

/* ----------------------------------------------- parallel regions (team.c) */
/* Before the members start: parallel_begin; the implicit tasks' tool state
 * (fn: the region's body). */
void pv_ompt_parallel_begin(struct pv_team *team, void (*fn)(void *));
/* In member `id`, its implicit task current: implicit_task begin.  exit_frame:
 * the frame of the runtime function that calls the region's body (NULL for
 * the primary thread, which reports it with pv_ompt_exit_frame). */
void pv_ompt_implicit_begin(struct pv_team *team, unsigned id, void *exit_frame);
void pv_ompt_exit_frame(void *frame);
/* The same, for a body the program calls itself (__kmpc_serialized_parallel):
 * the program's frame pointer (ompt_frame_application). */
void pv_ompt_exit_program_frame(void *frame);
/* The encountering task is current again: parallel_end. */
void pv_ompt_parallel_end(struct pv_team *team);
void pv_ompt_thread_exit(void);   /* a pool worker exits: thread_end */

/* ------------------------------ host teams (src/parallel/gomp_teams.c) */
/* A host teams region, shared by the threads that run its teams. */
struct pv_ompt_league {
    ompt_data_t parallel;           /* the league's parallel data */
    struct pv_ompt_task *enc;       /* the encountering task */
    const void *codeptr;
    unsigned size;                  /* number of teams */
};
/* On the encountering thread: parallel_begin with ompt_parallel_league
 * (l, in the caller's frame until league_end, is then the league the
 * other threads join), and parallel_end. */
void pv_ompt_league_begin(struct pv_ompt_league *l, unsigned num_teams, const void *codeptr);
void pv_ompt_league_end(void);
/* On each other thread that runs teams of it: before its first team and
 * after its last. */
void pv_ompt_league_join(struct pv_ompt_league *l);
void pv_ompt_league_leave(void);
/* A team begins or ends on the calling thread: its initial task, and in it
 * the parallel region of one thread the runtime forks for the teams
 * region's body (as libomp reports it). */
void pv_ompt_league_team(bool begin, unsigned team_num);

/* ------------------------------------------------------------ barriers */
/* Notifications around a team barrier's wait, which the runtime does
 * between them (pv_barrier_at): sync_region and sync_region_wait begin,
 * the wait state; then their ends, a cancel event when `cancelled`.  For
 * the join (PV_BARRIER_JOIN) the end hook also ends the member's implicit
 * task; a worker's end hook no longer touches the team.  codeptr: as
 * given to pv_barrier_at.  `s` carries begin's data to end. */
void pv_ompt_barrier_begin(struct pv_ompt_sync *s, enum pv_barrier_kind kind, const void *codeptr);
void pv_ompt_barrier_end(struct pv_ompt_sync *s, bool cancelled);

/* --------------------------------------------------------- worksharing */
void pv_ompt_loop_begin(struct pv_ws *ws);              /* a thread enters a loop */
void pv_ompt_sections_begin(struct pv_ws *ws);
void pv_ompt_dispatch_chunk(const struct pv_ws *ws, unsigned long long s0, unsigned long long e0);
void pv_ompt_dispatch_section(void);
void pv_ompt_work_end(void);                            /* leaves its construct */
void pv_ompt_single(bool executor, bool copy, const void *codeptr);
/* clang's statically scheduled constructs (__kmpc_for_static_init: type an
 * ompt_work_t, loop, sections or distribute): work begin with the trip
 * count, the dispatch of the thread's share [first, first + n) (logical
 * iterations; sections: one per section); static_end (for_static_fini)
 * ends it.  single_end: __kmpc_end_single ends the executor's single. */
void pv_ompt_static_begin(int type, uint64_t count, uint64_t first, uint64_t n,
                          const void *codeptr);
void pv_ompt_static_end(const void *codeptr);
void pv_ompt_single_end(const void *codeptr);
/* clang programs only (ev_kmpc.c): endpoint is an ompt_scope_endpoint_t. */
void pv_ompt_masked(int endpoint, const void *codeptr);
void pv_ompt_reduction(int endpoint, const void *codeptr);
void pv_ompt_flush(const void *codeptr);

/* ---------------------------------------------------------- mutexes */
/* kind: ompt_mutex_t; wait_id: the lock's address. */
void pv_ompt_mutex_acquire(int kind, const void *wait_id, const void *codeptr);
void pv_ompt_mutex_acquired(int kind, const void *wait_id, const void *codeptr);
void pv_ompt_mutex_released(int kind, const void *wait_id, const void *codeptr);
void pv_ompt_mutex_failed(void);   /* a test-lock call did not get the lock */
void pv_ompt_lock_init(int kind, unsigned hint, const void *wait_id, const void *codeptr);
void pv_ompt_lock_destroy(int kind, const void *wait_id, const void *codeptr);
void pv_ompt_nest_lock(int endpoint, const void *wait_id, const void *codeptr);

/* --------------------------------------------------------------- tasks */
/* t is initialised, not yet visible: task_create (and dependences). */
void pv_ompt_task_create(struct pv_task *t, bool undeferred, unsigned gomp_flags, void **depend);
/* GOMP_taskwait_depend: w, the taskwait's empty stand-in task, is initialised
 * and its dependences not yet registered: task_create (ompt_task_taskwait)
 * and dependences, then the thread waits; w's predecessors are done:
 * task_schedule with ompt_taskwait_complete. */
void pv_ompt_taskwait_init(struct pv_task *w, void **depend);
void pv_ompt_taskwait_complete(struct pv_task *w);
/* An undeferred task t with depend clauses (if(0), or run at once), as
 * libomp reports it: first the wait for its dependences, as a taskwait with
 * those dependences (t's slot stands for that taskwait's task until the
 * wait is over), then t itself, without dependences. */
void pv_ompt_dep_wait_init(struct pv_task *t, void **depend);
void pv_ompt_dep_wait_done(struct pv_task *t, unsigned gomp_flags);
/* Dependence registration found that `sink` waits for `src` (siblings). */
void pv_ompt_task_dependence(struct pv_task *src, struct pv_task *sink);
/* The thread switches from `prior` to `next` (next begins or resumes);
 * exit_frame: the frame of the runtime function that runs next's body. */
void pv_ompt_task_begin(struct pv_task *prior, struct pv_task *next, void *exit_frame);
/* The same for a task whose body the program calls itself (libomp's if(0)
 * protocol): its exit_frame is the program's frame (the caller's frame
 * pointer, ompt_frame_application), as libomp gives it. */
void pv_ompt_task_begin_in_program(struct pv_task *prior, struct pv_task *next, void *frame);
/* A taskyield runs a task (on) or is over (off): the next task to begin on
 * this thread in between is switched to with ompt_task_yield, as libomp. */
void pv_ompt_task_yield(bool on);
/* `t` stops and `next` continues: complete, or cancelled (the body was
 * skipped), or detached (body done, event not fulfilled yet). */
/* cancelled_by: 0, or the construct whose cancellation discarded the task
 * (ompt_cancel_parallel or ompt_cancel_taskgroup) */
void pv_ompt_task_end(struct pv_task *t, int cancelled_by, struct pv_task *next);
/* A detached task's event was fulfilled after (late) or before its body ended. */
void pv_ompt_task_fulfilled(struct pv_task *t, bool late);
/* taskwait / taskgroup (kind: ompt_sync_region_t): sync_region begin (and,
 * for taskwait, the wait begins), the wait of a taskgroup end begins, and
 * the wait and the region end. */
void pv_ompt_sync_begin(int kind, const void *codeptr);
void pv_ompt_sync_wait(int kind, const void *codeptr);
void pv_ompt_sync_end(int kind, const void *codeptr);
void pv_ompt_taskloop(bool begin, unsigned long long count, const void *codeptr);
/* ordered depend(source) (ompt_dependence_type_source) or depend(sink)
 * (_sink) in a doacross loop: a dependences event of the implicit task with
 * the iteration vector v[0..n-1], as libomp reports them. */
void pv_ompt_doacross(int type, const unsigned long long *v, unsigned n);
/* The next task that taskloop creates runs iterations [start, start + n)
 * (logical numbers): its ompt_dispatch_taskloop_chunk when it begins. */
void pv_ompt_taskloop_chunk(unsigned long long start, unsigned long long n);

/* ------------------------------------------------------ the rest */
/* GOMP_cancel / GOMP_cancellation_point (which: GOMP_CANCEL_* bits): the
 * cancellation was activated, or detected (`which` 0: the parallel region's,
 * at a cancellable barrier). */
void pv_ompt_cancel(int which, bool activated, const void *codeptr);
void pv_ompt_error(int severity, const char *msg, size_t len, const void *codeptr);

#endif
