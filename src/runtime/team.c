/* Teams and the thread pool.
 *
 * A thread outside any team (the initial thread, or a user pthread) keeps its
 * own pool of workers and reuses them region after region.  Threads that fork
 * a nested team take workers from a global idle list instead, and put them
 * back at the team's end.  No thread is created for a region when an idle
 * one exists.
 *
 * Handing work to a docked worker: the master writes the assignment fields
 * (fn, data, asg_team, asg_id), then bumps the worker's `dock` word with a
 * seq_cst RMW (release for the fields; pairs with pv_wake) and wakes it if it
 * sleeps.  The worker counts the bumps it consumed, so a bump that lands
 * before it is back at its dock is not lost. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/linux.h"
#include "base/message.h"
#include "runtime/barrier.h"
#include "runtime/barrier_site.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/places.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"
#include "trace/trace.h"

__thread struct pv_thread pv_thr __attribute__((tls_model("initial-exec")));
__thread struct pv_league pv_league = {1, 0, 0};

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pv_thread *idle_list;         /* docked workers not owned by a pool */
static pthread_key_t pool_key;              /* frees a user thread's pool at its exit */
static pthread_attr_t worker_attr;

/* ------------------------------------------------------------- workers */

static void team_retire(struct pv_team *team);

/* A thread that goes away hands the teams it mastered back for reuse. */
static void retire_team_caches(struct pv_thread *thr)
{
    for (unsigned l = 0; l < PV_TEAM_CACHE_LEVELS; l++)
        if (thr->team_cache[l]) {
            team_retire(thr->team_cache[l]);
            thr->team_cache[l] = NULL;
        }
}

struct worker_boot {
    struct pv_thread **self_slot;  /* where to publish &pv_thr (NULL: global idle worker) */
    void (*fn)(void *);
    void *data;
    struct pv_team *team;
    unsigned id;
};

/* Make the calling thread member `id` of `team`: its place in the team, its
 * binding, its implicit task.  The master and every worker go through here. */
static void become_member(struct pv_thread *thr, struct pv_team *team, unsigned id)
{
    thr->ts.team = team;
    thr->ts.team_id = id;
    thr->ts.level = team->level;
    thr->ts.active_level = team->active_level;
    thr->ts.ws_seq = team->ws_seq0;
    thr->ts.ws = team->ws_seq0 ? &team->ws[0] : NULL;
    thr->ts.single_seq = 0;
    thr->ts.static_trip = 0;
    if (team->place) {
        if (thr->ts.place != team->place[id])
            pv_affinity_bind_self(team->place[id]);
        thr->ts.place = team->place[id];
        thr->ts.part_off = team->part_off[id];
        thr->ts.part_len = team->part_len[id];
    }
    thr->task = &team->implicit[id];
    pv_league = team->league;
    if (__builtin_expect(pv_gicv.display_affinity, 0))
        pv_affinity_display_thread(team->display_all);
}

/* A worker's implicit task begins, traced or observed by a tool (one flag
 * test, implicit_task_begin's, in which an attached tool sets a bit of its
 * own, ompt/observe.c).  exit_frame: the frame that calls the body. */
static __attribute__((noinline)) void member_begin_observed(struct pv_team *team, unsigned id,
                                                            void *exit_frame)
{
    trace_implicit_task_begin(team, id, team->nthreads);
    if (pv_ompt_tool())
        pv_ompt_implicit_begin(team, id, exit_frame);
}

static void run_assignment(struct pv_thread *thr, void (*fn)(void *), void *data,
                           struct pv_team *team, unsigned id)
{
    become_member(thr, team, id);

    if (pv_trace_site_on(PV_TRACE_EV_implicit_task_begin))
        member_begin_observed(team, id, __builtin_frame_address(0));
    fn(data);
    trace_implicit_task_end(team, id);

    /* The barrier's trace point shares the clock read of the task's end. */
    pv_barrier_join(team);
    /* From here on the team may be reused by its master: do not touch it. */
    thr->ts.team = NULL;
    thr->task = NULL;
}

static void *worker_main(void *arg)
{
    struct worker_boot boot = *(struct worker_boot *)arg;
    free(arg);
    struct pv_thread *thr = &pv_thr;
    thr->is_worker = true;
    thr->tid = pv_gettid();
    thr->handle = pthread_self();
    thr->ts.place = UINT_MAX;
    bool pooled = boot.self_slot != NULL;
    if (pooled)
        *boot.self_slot = thr; /* read by the master only after the final barrier */
    else
        boot.team->members[boot.id] = thr; /* likewise: pv_team_end docks it idle */
    pv_wait_thread_start();
    trace_thread_begin(PVTRACE_THREAD_ROLE_POOL);

    uint32_t consumed = 0;
    void (*fn)(void *) = boot.fn;
    void *data = boot.data;
    struct pv_team *team = boot.team;
    unsigned id = boot.id;
    for (;;) {
        run_assignment(thr, fn, data, team, id);
        pv_wait_while_eq(&thr->dock, consumed);
        consumed = atomic_load_explicit(&thr->dock.word, memory_order_acquire);
        fn = thr->fn;
        if (!fn) {
            if (pv_ompt_tool())
                pv_ompt_thread_exit();
            retire_team_caches(thr);
            pv_wait_managed_threads_add(-1);
            pv_wait_thread_end();
            trace_thread_end();
            break;
        }
        data = thr->data;
        team = thr->asg_team;
        id = thr->asg_id;
    }
    return NULL;
}

static void create_worker(struct pv_thread **self_slot, void (*fn)(void *), void *data,
                          struct pv_team *team, unsigned id)
{
    struct worker_boot *boot = pv_malloc(sizeof *boot);
    *boot = (struct worker_boot){self_slot, fn, data, team, id};
    pthread_t handle;
    int err = pthread_create(&handle, &worker_attr, worker_main, boot);
    if (err)
        pv_fatal("cannot create a worker thread: %s", strerror(err));
    pthread_detach(handle);
    /* Docked workers spin too: every live worker counts for the throttle. */
    pv_wait_managed_threads_add(1);
}

static void assign(struct pv_thread *w, void (*fn)(void *), void *data, struct pv_team *team,
                   unsigned id)
{
    w->fn = fn;
    w->data = data;
    w->asg_team = team;
    w->asg_id = id;
    /* seq_cst RMW: publishes the fields above and pairs with pv_wake. */
    atomic_fetch_add_explicit(&w->dock.word, 1, memory_order_seq_cst);
    pv_wake(&w->dock);
}

/* Give members 1..n-1 of `team` their work, reusing docked threads. */
static void launch_members(struct pv_thread *master, struct pv_team *team, unsigned n,
                           void (*fn)(void *), void *data, bool nested)
{
    unsigned next = 1;
    if (!nested) {
        if (master->pool_cap < n - 1) {
            struct pv_thread **pool = pv_calloc(n - 1, sizeof *pool);
            if (master->pool)
                memcpy(pool, master->pool, master->pool_size * sizeof *pool);
            /* Safe to free: every pooled worker published itself long ago
             * (it took part in the final barrier of an earlier region). */
            free(master->pool);
            master->pool = pool;
            master->pool_cap = n - 1;
            if (!pthread_getspecific(pool_key))
                pthread_setspecific(pool_key, master);
        }
        for (; next < n && next - 1 < master->pool_size; next++) {
            team->members[next] = master->pool[next - 1];
            assign(master->pool[next - 1], fn, data, team, next);
        }
        for (; next < n; next++) {
            team->members[next] = NULL; /* the worker publishes itself in the pool */
            create_worker(&master->pool[next - 1], fn, data, team, next);
        }
        master->pool_size = n - 1 > master->pool_size ? n - 1 : master->pool_size;
        return;
    }
    pthread_mutex_lock(&idle_lock);
    for (; next < n && idle_list; next++) {
        struct pv_thread *w = idle_list;
        idle_list = w->idle_next;
        team->members[next] = w;
        assign(w, fn, data, team, next);
    }
    pthread_mutex_unlock(&idle_lock);
    for (; next < n; next++) {
        team->members[next] = NULL;
        create_worker(NULL, fn, data, team, next);
    }
}

/* Tell a user thread's pooled workers to exit when that thread exits. */
static void pool_destructor(void *arg)
{
    struct pv_thread *master = arg;
    for (unsigned i = 0; i < master->pool_size; i++)
        if (master->pool[i])
            assign(master->pool[i], NULL, NULL, NULL, 0);
    free(master->pool);
    master->pool = NULL;
    master->pool_size = master->pool_cap = 0;
    retire_team_caches(master);
}

/* --------------------------------------------------------------- teams */

/* Team memory is never freed while the process runs: the thread that
 * releases a final barrier may still be reading the barrier's sleeper count
 * when the master has already left.  Teams that are replaced by larger ones,
 * or that were used beyond the per-level caches, wait here for reuse. */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pv_team *spare_teams;

static void team_retire(struct pv_team *team)
{
    pthread_mutex_lock(&spare_lock);
    team->spare_next = spare_teams;
    spare_teams = team;
    pthread_mutex_unlock(&spare_lock);
}

static struct pv_team *team_from_spares(unsigned n)
{
    struct pv_team *found = NULL;
    pthread_mutex_lock(&spare_lock);
    for (struct pv_team **p = &spare_teams; *p; p = &(*p)->spare_next) {
        if ((*p)->capacity >= n) {
            found = *p;
            *p = found->spare_next;
            break;
        }
    }
    pthread_mutex_unlock(&spare_lock);
    return found;
}

static struct pv_team *team_get(struct pv_thread *master, unsigned n)
{
    unsigned level = master->ts.level;
    struct pv_team **cache = level < PV_TEAM_CACHE_LEVELS ? &master->team_cache[level] : NULL;
    struct pv_team *team = cache ? *cache : NULL;
    if (team && team->capacity >= n)
        return team;
    if (team)
        team_retire(team);
    team = team_from_spares(n);
    if (team) {
        if (cache)
            *cache = team;
        return team;
    }
    team = pv_aligned_alloc(PV_CACHELINE, sizeof *team);
    memset(team, 0, sizeof *team);
    team->capacity = n;
    team->members = pv_calloc(n, sizeof *team->members);
    team->implicit = pv_calloc(n, sizeof *team->implicit);
    if (pv_num_places) {
        team->place = pv_calloc(3 * (size_t)n, sizeof *team->place);
        team->part_off = team->place + n;
        team->part_len = team->place + 2 * (size_t)n;
    }
    if (cache)
        *cache = team;
    return team;
}

/* The ICVs of the new implicit tasks: the encountering task's, with the
 * nthreads-var and bind-var lists advanced to the new level. */
static void init_implicit_tasks(struct pv_team *team, unsigned n, struct pv_task *parent,
                                const struct pv_icv *icv, unsigned bind)
{
    struct pv_icv child = *icv;
    unsigned level = team->level;
    if (pv_gicv.nthreads_list && level < pv_gicv.nthreads_list_len)
        child.nthreads_var = pv_gicv.nthreads_list[level];
    child.bind_var = bind;
    if (pv_gicv.bind_list && level < pv_gicv.bind_list_len)
        child.bind_var = pv_gicv.bind_list[level];
    for (unsigned i = 0; i < n; i++) {
        struct pv_task *t = &team->implicit[i];
        memset(t, 0, sizeof *t);
        t->icv = child;
        t->parent = parent;
    }
}

static unsigned bind_policy(const struct pv_icv *icv, unsigned flags)
{
    unsigned bind = icv->bind_var;
    if (bind != PV_BIND_FALSE && (flags & 7) != PV_BIND_FALSE)
        bind = flags & 7;
    return bind;
}

/* The primary becomes member 0, traced or observed by a tool: one flag
 * test for the parallel_begin record and the tool's parallel begin and the
 * primary's implicit task begin, parallel_begin's flag, in which an
 * attached tool sets a bit of its own (ompt/observe.c).  The primary's
 * implicit task begins before its teammates are released, as in libomp: a
 * tool sees it before any event of theirs. */
static __attribute__((noinline, cold)) void primary_begin_observed(struct pv_thread *thr,
                                                                   struct pv_team *team,
                                                                   void (*fn)(void *))
{
    /* Once per process, before its first region: the CPUs the team may
     * use (the process's mask at start, not the primary's binding since). */
    static atomic_bool cpus_told;
    if (!atomic_load_explicit(&cpus_told, memory_order_relaxed) &&
        !atomic_exchange_explicit(&cpus_told, true, memory_order_relaxed))
        trace_cpus((unsigned)sysconf(_SC_NPROCESSORS_ONLN), pv_num_procs);
    const void *body = thr->trace_body ? thr->trace_body : (const void *)fn;
    thr->trace_body = NULL;
    trace_parallel_begin(team, (void *)body, team->nthreads, team->level);
    bool tool = pv_ompt_tool();
    if (tool)
        pv_ompt_parallel_begin(team, fn);
    become_member(thr, team, 0);
    if (tool)
        pv_ompt_implicit_begin(team, 0, NULL);
}

/* OMP_DISPLAY_AFFINITY: does a member of the team about to start run on
 * another place than it does now?  The members are known before they are
 * launched: the primary's pool, or the head of the idle list for a nested
 * team (approximate when other nested teams start at the same moment; a
 * wrong guess costs or saves a line).  A thread still to be made shows its
 * line anyway (first region). */
static __attribute__((noinline, cold)) bool places_change(const struct pv_thread *thr,
                                                          const struct pv_team *team,
                                                          unsigned n, bool nested)
{
    if (!team->place)
        return false;
    /* The primary's pv_thr.ts is the encountering task's again after each
     * region: its own last line tells where it ran. */
    unsigned shown = pv_affinity_shown_place();
    bool changed = shown != UINT_MAX && shown != team->place[0];
    if (!nested) {
        for (unsigned i = 1; i < n && i - 1 < thr->pool_size; i++)
            changed |= thr->pool[i - 1] && thr->pool[i - 1]->ts.place != team->place[i];
        return changed;
    }
    pthread_mutex_lock(&idle_lock);
    const struct pv_thread *w = idle_list;
    for (unsigned i = 1; i < n && w; i++, w = w->idle_next)
        changed |= w->ts.place != team->place[i];
    pthread_mutex_unlock(&idle_lock);
    return changed;
}

void pv_team_fork_ws(void (*fn)(void *), void *data, unsigned n, unsigned flags,
                     pv_ws_preinit_fn preinit, void *arg)
{
    struct pv_thread *thr = &pv_thr;
    if (n == 0)
        n = 1;
    struct pv_icv *icv = pv_icv_get();
    unsigned bind = bind_policy(icv, flags);
    bool nested = thr->ts.team != NULL;
    if (!nested)
        pv_wait_thread_start(); /* a program's own thread starting a team */
    struct pv_team *team = team_get(thr, n);

    team->nthreads = n;
    team->level = thr->ts.level + 1;
    team->active_level = thr->ts.active_level + (n > 1);
    team->prev_ts = thr->ts;
    team->prev_task = thr->task;
    team->nested = nested;
    team->league = pv_league;
    team->cg_extra = nested ? thr->ts.team->cg_extra : &thr->cg_extra;
    team->cg_added = thr->cg_reserved;
    thr->cg_reserved = 0;
    atomic_store_explicit(&team->single_seq, 0, memory_order_relaxed);
    atomic_store_explicit(&team->cancelled, 0, memory_order_relaxed);
    atomic_store_explicit(&team->ws_cancelled, 0, memory_order_relaxed);
    pv_barrier_init(&team->barrier, n);
    pv_barrier_init(&team->final, n);
    pv_ws_reset(team);
    team->ws_seq0 = 0;
    if (preinit) {
        preinit(&team->ws[0], arg);
        atomic_store_explicit(&team->ws[0].state.word, PV_WS_READY, memory_order_relaxed);
        team->ws_seq0 = 1;
    }
    init_implicit_tasks(team, n, thr->task, icv, bind);
    pv_task_team_init(team);
    if (team->place) {
        unsigned cur = thr->ts.place == UINT_MAX ? 0 : thr->ts.place;
        unsigned off = thr->ts.place == UINT_MAX ? 0 : thr->ts.part_off;
        unsigned len = thr->ts.place == UINT_MAX ? pv_num_places : thr->ts.part_len;
        pv_affinity_assign(n, bind, cur, off, len, team->place, team->part_off, team->part_len);
    }

    team->members[0] = thr;
    if (pv_gicv.display_affinity)
        team->display_all = places_change(thr, team, n, nested);
    if (pv_trace_site_on(PV_TRACE_EV_parallel_begin))
        primary_begin_observed(thr, team, fn);
    else
        become_member(thr, team, 0);
    if (n > 1) /* The release stores in assign() publish everything above. */
        launch_members(thr, team, n, fn, data, nested);
    trace_implicit_task_begin(team, 0, n);
}

/* The primary is the encountering task again. */
static inline void primary_leave(struct pv_thread *thr, struct pv_team *team)
{
    if (team->cg_added)
        atomic_fetch_sub_explicit(team->cg_extra, team->cg_added, memory_order_relaxed);
    thr->ts = team->prev_ts;
    thr->task = team->prev_task;
}

/* The same, traced or observed by a tool (as primary_begin_observed, with
 * parallel_end's flag): the parallel_end record, right after the join's
 * (one clock read for both, trace.h), and the tool's parallel end. */
static __attribute__((noinline, cold)) void primary_end_observed(struct pv_thread *thr,
                                                                 struct pv_team *team)
{
    trace_parallel_end_after(barrier_leave, team);
    primary_leave(thr, team);
    if (pv_ompt_tool())
        pv_ompt_parallel_end(team);
}

/* A nested team's master puts its workers back on the idle list as soon as
 * all have arrived at the join, in member order (member 1 on top), before it
 * goes on: its next nested team takes the same threads again, as libomp's
 * does (a thread keeps its team view, which OMP_DISPLAY_AFFINITY reports only
 * when it changes).  A worker may be handed new work before it is back at
 * its dock: the dock counts bumps, so none is lost (see assign()). */
static __attribute__((noinline)) void dock_nested_workers(struct pv_team *team)
{
    pthread_mutex_lock(&idle_lock);
    for (unsigned i = team->nthreads - 1; i >= 1; i--) {
        struct pv_thread *w = team->members[i];
        w->idle_next = idle_list;
        idle_list = w;
    }
    pthread_mutex_unlock(&idle_lock);
}

void pv_team_end(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    if (!team)
        return;
    trace_implicit_task_end(team, thr->ts.team_id);
    pv_barrier_join(team);
    if (team->nested && team->nthreads > 1)
        dock_nested_workers(team);
    if (pv_trace_site_on(PV_TRACE_EV_parallel_end))
        primary_end_observed(thr, team);
    else
        primary_leave(thr, team);
    if (thr->ts.level >= PV_TEAM_CACHE_LEVELS)
        team_retire(team);
}

/* Fork, run the body as member 0, join; `told`: a tool is attached, and
 * the frame that calls the body is the primary's exit frame. */
static inline __attribute__((always_inline)) void team_run(bool told, void (*fn)(void *),
                                                           void *data, unsigned n, unsigned flags,
                                                           pv_ws_preinit_fn preinit, void *arg)
{
    pv_team_fork_ws(fn, data, n, flags, preinit, arg);
    if (told)
        pv_ompt_exit_frame(__builtin_frame_address(0));
    fn(data);
    pv_team_end();
}

void pv_team_run(void (*fn)(void *), void *data, unsigned n, unsigned flags,
                 pv_ws_preinit_fn preinit, void *arg)
{
    team_run(false, fn, data, n, flags, preinit, arg);
}

static __attribute__((noinline, cold)) void team_run_told(void (*fn)(void *), void *data,
                                                          unsigned n, unsigned flags,
                                                          pv_ws_preinit_fn preinit, void *arg)
{
    team_run(true, fn, data, n, flags, preinit, arg);
}

void pv_team_start_ws(void (*fn)(void *), void *data, unsigned n, unsigned flags,
                      pv_ws_preinit_fn preinit, void *arg)
{
    if (pv_ompt_tool())
        team_run_told(fn, data, n, flags, preinit, arg);
    else
        team_run(false, fn, data, n, flags, preinit, arg);
}

/* --------------------------------------------------- thread count (spec) */

static _Atomic unsigned *contention_group(struct pv_thread *thr)
{
    return thr->ts.team ? thr->ts.team->cg_extra : &thr->cg_extra;
}

unsigned pv_resolve_num_threads(unsigned requested, unsigned count)
{
    if (pv_ompt_tool())
        pv_ompt_thr.requested = requested ? requested : pv_icv_get()->nthreads_var;
    return pv_team_threads(requested, count);
}

unsigned pv_team_threads(unsigned requested, unsigned count)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_icv *icv = pv_icv_get();
    if (requested == 1)
        return 1;
    if (thr->ts.active_level >= icv->max_active_levels_var)
        return 1;
    unsigned n = requested ? requested : icv->nthreads_var;
    if (icv->dyn_var) {
        if (n > pv_num_procs)
            n = pv_num_procs;
        if (count && count < n)
            n = count;
    }
    if (n == 0)
        n = 1;
    /* thread-limit-var bounds the threads of the whole contention group,
     * sibling teams included: reserve our extra threads in its counter. */
    if (icv->thread_limit_var != UINT_MAX && n > 1) {
        _Atomic unsigned *cg = contention_group(thr);
        unsigned extra = atomic_load_explicit(cg, memory_order_relaxed), want;
        do {
            unsigned room = icv->thread_limit_var - 1 > extra ? icv->thread_limit_var - 1 - extra : 0;
            want = n - 1 < room ? n - 1 : room;
        } while (!atomic_compare_exchange_weak_explicit(cg, &extra, extra + want,
                                                        memory_order_relaxed, memory_order_relaxed));
        n = want + 1;
        thr->cg_reserved = want;
    }
    return n;
}

/* ------------------------------------------------------------------ init */

struct pv_icv *pv_icv_for_write(void)
{
    struct pv_thread *thr = &pv_thr;
    if (!thr->task) {
        /* The initial task of this thread gets its own data environment. */
        thr->initial_task.icv = pv_initial_icv;
        thr->task = &thr->initial_task;
    }
    return &thr->task->icv;
}

/* omp_pause_resource: outside any region, the calling thread's pooled
 * workers and the idle nested workers exit (a later region creates fresh
 * ones), and what the flight log holds is handed to its writer. */
void pv_runtime_pause(void)
{
    struct pv_thread *thr = &pv_thr;
    if (!thr->ts.team) {
        for (unsigned i = 0; i < thr->pool_size; i++)
            if (thr->pool[i])
                assign(thr->pool[i], NULL, NULL, NULL, 0);
        thr->pool_size = 0;
        pthread_mutex_lock(&idle_lock);
        struct pv_thread *idle = idle_list;
        idle_list = NULL;
        pthread_mutex_unlock(&idle_lock);
        while (idle) {
            struct pv_thread *next = idle->idle_next;
            assign(idle, NULL, NULL, NULL, 0);
            idle = next;
        }
    }
    pv_trace_flush_all();
}

/* In the child of fork() only the forking thread exists: the workers of its
 * pool and of the idle list stayed in the parent.  Outside a region (the
 * case libomp supports too) the child forgets them and its next region
 * creates fresh ones; the locks are made new (a parent thread may have held
 * one at the fork).  Inside a region the child's teammates are gone and its
 * region can never end: one message says so. */
static void team_fork_child(void)
{
    struct pv_thread *thr = &pv_thr;
    pthread_mutex_init(&idle_lock, NULL);
    pthread_mutex_init(&spare_lock, NULL);
    idle_list = NULL;
    thr->pool_size = 0; /* the array stays: new workers publish themselves in it */
    thr->tid = pv_gettid();
    thr->handle = pthread_self();
    pv_wait_fork_child();
    if (thr->ts.team && thr->ts.team->nthreads > 1)
        pv_warn("fork() in a parallel region of %u threads: the child has only the "
                "calling thread, so its region cannot end (fork outside parallel regions)",
                thr->ts.team->nthreads);
}

__attribute__((constructor(101))) static void pv_runtime_constructor(void)
{
    pv_runtime_init();
}

void pv_runtime_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    pv_thr.tid = pv_gettid();
    pv_thr.handle = pthread_self();
    pv_thr.ts.place = UINT_MAX;
    pv_env_init();
    pv_affinity_init();
    pthread_key_create(&pool_key, pool_destructor);
    pthread_atfork(NULL, NULL, team_fork_child);
    pthread_attr_init(&worker_attr);
    if (pv_gicv.stacksize) {
        int err = pthread_attr_setstacksize(&worker_attr, pv_gicv.stacksize);
        if (err)
            pv_warn("cannot use a stack size of %zu bytes: %s", pv_gicv.stacksize,
                    strerror(err));
    }
    pv_wait_thread_start();
}
