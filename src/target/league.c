/* Device threads: where kernels run, and the teams of a host teams region
 * beside the encountering thread (pv_league_host).
 *
 * A kernel with a teams construct (gcc passes its num_teams in the target
 * arguments) is run by W device threads at once, W = min(teams, width cap);
 * device thread i runs teams i, i + W, i + 2W, ... -- GOMP_teams4 inside the
 * kernel hands each thread its next team.  A kernel without teams runs on
 * one device thread.  Each device thread is the initial thread of its own
 * contention group: no enclosing team, level 0, its own pool of workers for
 * the parallel regions inside, the device's initial ICVs plus the kernel's
 * thread limit, and pv_league.device set (inherited by the workers of its
 * parallel regions) so that omp_is_initial_device() knows where it runs.
 *
 * The encountering thread hands the kernel over and waits.  Idle device
 * threads wait for their next kernel through the wait primitive (src/wait:
 * the policy decides how long they spin before sleeping), and count as
 * managed threads for its oversubscription throttle. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/linux.h"
#include "base/message.h"
#include "ompt/ompt.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/thread.h"
#include "target/target.h"

struct launch {
    void (*fn)(void *);
    void *args;
    unsigned device_plus1;      /* 0: the initial device */
    unsigned num_teams;         /* N */
    unsigned width;             /* W device threads */
    unsigned thread_limit;      /* 0: none */
    bool teams;                 /* run as a league (the kernel is a teams construct) */
    void (*host_run)(void *, unsigned, unsigned); /* a host teams region:
                                                     host_run(args, index, width) */
    struct lthread **lts;       /* [width]: the device thread of each index */
    uint32_t *expect;           /* [width]: its finished count once it is done */
};

struct lthread {
    pv_futex_t dock;            /* assignments made */
    pv_futex_t fin;             /* assignments finished */
    uint32_t assigned;          /* launcher's count of assignments */
    struct launch *job;
    unsigned index;
    struct lthread *next;       /* idle list */
};

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lthread *idle_list;

/* The device thread's view of the kernel it runs. */
static PV_TLS struct {
    struct launch *job;
    unsigned index;
    bool in_teams;
} kst;

static void run_job(struct launch *job, unsigned index)
{
    if (job->host_run) {
        job->host_run(job->args, index, job->width);   /* sets up the thread itself */
        return;
    }
    struct pv_icv *icv = pv_icv_for_write();
    *icv = pv_initial_icv;
    if (job->thread_limit)
        icv->thread_limit_var = job->thread_limit;
    pv_league = (struct pv_league){1, 0, job->device_plus1};
    kst.job = job;
    kst.index = index;
    kst.in_teams = false;
    job->fn(job->args);
    kst.job = NULL;
    pv_league = (struct pv_league){1, 0, 0};
}

static void *league_main(void *arg)
{
    struct lthread *lt = arg;
    struct pv_thread *thr = &pv_thr;
    thr->tid = pv_gettid();
    thr->handle = pthread_self();
    thr->ts.place = UINT_MAX;
    uint32_t seen = 0;
    for (;;) {
        pv_wait_while_eq(&lt->dock, seen);   /* acquire */
        seen = atomic_load_explicit(&lt->dock.word, memory_order_acquire);
        run_job(lt->job, lt->index);
        lt->job = NULL;
        pthread_mutex_lock(&idle_lock);
        lt->next = idle_list;
        idle_list = lt;
        pthread_mutex_unlock(&idle_lock);
        /* seq_cst: pairs with the launcher's sleeper count (pv_wake). */
        atomic_fetch_add_explicit(&lt->fin.word, 1, memory_order_seq_cst);
        pv_wake(&lt->fin);
    }
    return NULL;
}

/* A fork() child has none of the parent's device threads: it forgets them
 * (they stay allocated) and makes its own at its first league. */
static void league_fork_child(void)
{
    pthread_mutex_init(&idle_lock, NULL);
    idle_list = NULL;
}

__attribute__((constructor)) static void league_register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, league_fork_child);
}

static struct lthread *get_thread(void)
{
    pthread_mutex_lock(&idle_lock);
    struct lthread *lt = idle_list;
    if (lt)
        idle_list = lt->next;
    pthread_mutex_unlock(&idle_lock);
    if (lt)
        return lt;
    lt = pv_calloc(1, sizeof *lt);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pv_gicv.stacksize)
        pthread_attr_setstacksize(&attr, pv_gicv.stacksize);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t h;
    int err = pthread_create(&h, &attr, league_main, lt);
    pthread_attr_destroy(&attr);
    if (err)
        pv_fatal("cannot create a device thread: %s", strerror(err));
    pv_wait_managed_threads_add(1);
    return lt;
}

static unsigned width_cap(void)
{
    return pv_num_procs > 4 ? pv_num_procs : 4;
}

static void join_width(struct launch *job, unsigned first)
{
    for (unsigned i = first; i < job->width; i++) {
        uint32_t v;
        while ((int32_t)((v = atomic_load_explicit(&job->lts[i]->fin.word,
                                                   memory_order_acquire)) -
                         job->expect[i]) < 0)
            pv_wait_while_eq(&job->lts[i]->fin, v);
    }
}

/* Hands job to the device thread in job->lts[i] for each index
 * first..width-1 (each one's finished count kept in the job); join_width
 * waits for them. */
static void start_width(struct launch *job, unsigned first)
{
    for (unsigned i = first; i < job->width; i++) {
        struct lthread *lt = job->lts[i];
        lt->job = job;
        lt->index = i;
        job->expect[i] = ++lt->assigned;
        /* seq_cst RMW: publishes job/index (release); pairs with pv_wake. */
        atomic_fetch_add_explicit(&lt->dock.word, 1, memory_order_seq_cst);
        pv_wake(&lt->dock);
    }
}

/* Every thread is taken off the idle list before any is started: a thread
 * that finished its index while the launcher was still handing out the
 * others would be back on the list and would be given a second index,
 * running two teams one after the other on one thread. */
static void run_width(struct launch *job, unsigned first)
{
    for (unsigned i = first; i < job->width; i++)
        job->lts[i] = get_thread();
    start_width(job, first);
}

unsigned pv_league_run(struct pv_device *d, void (*fn)(void *), void *args, int num_teams,
                       int thread_limit)
{
    struct launch job = {
        .fn = fn,
        .args = args,
        .device_plus1 = d ? (unsigned)d->num + 1 : 0,
        .thread_limit = thread_limit > 0 ? (unsigned)thread_limit : 0,
    };
    if (num_teams == 0 || num_teams > 1) {
        job.teams = true;
        job.num_teams = num_teams ? (unsigned)num_teams
                        : pv_gicv.num_teams_var ? pv_gicv.num_teams_var : pv_num_procs;
        if (job.num_teams == 0)
            job.num_teams = 1;
    } else {
        job.num_teams = 1;
    }
    unsigned cap = width_cap();
    job.width = job.num_teams < cap ? job.num_teams : cap;
    struct lthread *lts[job.width];
    uint32_t expect[job.width];
    job.lts = lts;
    job.expect = expect;
    run_width(&job, 0);
    join_width(&job, 0);
    return job.num_teams;
}

/* A host teams region: the caller runs index 0 while device threads run
 * the others at once (each one sets itself up as its teams' initial thread). */
void pv_league_host(void (*run)(void *, unsigned, unsigned), void *ctx, unsigned num_teams)
{
    unsigned cap = width_cap();
    struct launch job = {
        .args = ctx,
        .num_teams = num_teams,
        .width = num_teams < cap ? num_teams : cap,
        .host_run = run,
    };
    struct lthread *lts[job.width];
    uint32_t expect[job.width];
    job.lts = lts;
    job.expect = expect;
    if (job.width > 1)
        run_width(&job, 1);
    run(ctx, 0, job.width);
    if (job.width > 1)
        join_width(&job, 1);
}

bool pv_target_teams4(unsigned low, unsigned high, unsigned thread_limit, bool first, bool *ret)
{
    struct launch *job = kst.job;
    if (!job || !job->teams)
        return false;   /* the encountering thread runs the teams one by one */
    if (first) {
        unsigned n = job->num_teams;
        if ((low && n < low) || (high && n > high) || kst.in_teams) {
            /* Not the league we started: thread 0 runs the teams itself. */
            if (kst.index == 0)
                return false;
            *ret = false;
            return true;
        }
        if (thread_limit) {
            struct pv_icv *icv = pv_icv_for_write();
            icv->thread_limit_var = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
        }
        kst.in_teams = true;
        pv_league.num_teams = n;
        pv_league.team_num = kst.index;
        *ret = true;
        return true;
    }
    if (!kst.in_teams)
        return false;
    unsigned next = pv_league.team_num + job->width;
    if (next < job->num_teams) {
        pv_league.team_num = next;
        *ret = true;
    } else {
        pv_league.num_teams = 1;
        pv_league.team_num = 0;
        *ret = false;
    }
    return true;
}

static void end_thread(void *ctx, unsigned index, unsigned width)
{
    (void)ctx, (void)index, (void)width;
    pv_runtime_pause();     /* the workers of its own pool exit, with their thread_end */
    pv_ompt_thread_exit();
}

/* The tool is being finalized (at the program's end or by
 * ompt_finalize_tool; src/ompt calls this before it waits for the pool
 * workers' ends): each idle device thread sends the workers of its own
 * pool away, as the finalizing thread does with its own, ends on itself
 * (thread_end, when it began as an OpenMP thread) and goes back to its idle
 * wait, where it stays for a later league; one still running a league is
 * not waited for. */
void pv_league_end_threads(void)
{
    pthread_mutex_lock(&idle_lock);
    struct lthread *idle = idle_list;
    idle_list = NULL;
    pthread_mutex_unlock(&idle_lock);
    unsigned n = 0;
    for (struct lthread *lt = idle; lt; lt = lt->next)
        n++;
    if (!n)
        return;
    struct launch job = {.width = n, .host_run = end_thread};
    struct lthread *lts[n];
    uint32_t expect[n];
    job.lts = lts;
    job.expect = expect;
    for (unsigned i = 0; i < n; i++, idle = idle->next)
        lts[i] = idle;   /* read before start_width: each thread relinks itself */
    start_width(&job, 0);
    join_width(&job, 0);
}
