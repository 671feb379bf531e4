/* Threads as the tool sees them.
 *
 * A thread becomes known to the tool when it first uses OpenMP: pvomp's
 * pool workers at their first implicit task (ompt_thread_worker); any other
 * native thread -- the program's initial thread included -- at its first
 * event or its first omp_* routine that reads or sets its state
 * (pv_ompt_thread_ensure), as ompt_thread_initial: it is the initial thread of
 * its own contention group.  Not when the tool is initialized: libomp
 * registers a thread at that first call, and OpenMP 5.2 (12.8) only asks
 * for the initial-thread-begin event after the tool's initializer and
 * before the thread's first region; a thread that never uses OpenMP never
 * begins (misc/interoperability.cpp).  An initial thread also begins its
 * initial task, with the implicit parallel region around it.  At the end:
 * initial task end, then thread_end (OpenMP 5.1, 2.14/12.8). */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "ompt/events.h"
#include "ompt/tool.h"

__thread struct pv_ompt_thread pv_ompt_thr __attribute__((tls_model("initial-exec")));

/* Workers that had thread_begin and not yet thread_end: the tool is
 * finalized after their thread_end (pv_ompt_end_workers). */
static atomic_uint workers_live;

/* A native thread other than the program's initial thread ends (initial
 * task end, thread_end) when it exits: a key destructor, set when it
 * begins (as libomp; misc/interoperability.cpp).  The program's initial
 * thread ends at the program's end (pv_ompt_shutdown). */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void at_thread_exit(void *arg)
{
    (void)arg;
    pv_ompt_thread_end();
}

static void exit_key_create(void)
{
    if (pthread_key_create(&exit_key, at_thread_exit) != 0)
        exit_key = (pthread_key_t)-1;
}

static void end_at_exit(void)
{
    pthread_once(&exit_key_once, exit_key_create);
    if (exit_key != (pthread_key_t)-1)
        pthread_setspecific(exit_key, &exit_key);
}

void pv_ompt_thread_begin(void)
{
    struct pv_ompt_thread *t = &pv_ompt_thr;
    if (t->begun || !pv_ompt_tool())
        return;
    t->begun = 1;
    bool worker = pv_thr_is_worker() || t->begin_as_worker;
    t->type = worker ? ompt_thread_worker : ompt_thread_initial;
    t->state = worker ? ompt_state_idle : ompt_state_work_serial;
    if (pv_thr_is_worker())   /* a pool worker: it ends when the pool docks */
        atomic_fetch_add_explicit(&workers_live, 1, memory_order_relaxed);
    if (pv_ompt_on(thread_begin))
        pv_ompt_call(thread_begin, (ompt_thread_t)t->type, &t->data);
    if (worker)
        return;
    end_at_exit();
    struct pv_ompt_task *initial = pv_task_ompt(NULL);
    initial->flags = ompt_task_initial;
    initial->parallel = &t->initial_parallel.data;
    initial->thread_num = 0;
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_begin, &t->initial_parallel.data, &initial->data, 1,
                     1, ompt_task_initial);
}

void pv_ompt_thread_end(void)
{
    struct pv_ompt_thread *t = &pv_ompt_thr;
    if (!t->begun || t->ended)
        return;
    t->ended = 1;
    if (t->type == ompt_thread_initial && pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, &t->initial_parallel.data,
                     &pv_task_ompt(NULL)->data, 0, 1, ompt_task_initial);
    t->state = ompt_state_undefined;
    if (pv_ompt_on(thread_end))
        pv_ompt_call(thread_end, &t->data);
    /* Release: the callback above is done before the finalizer goes on. */
    if (pv_thr_is_worker())
        atomic_fetch_sub_explicit(&workers_live, 1, memory_order_release);
}

static bool workers_gone(void)
{
    return atomic_load_explicit(&workers_live, memory_order_acquire) == 0;
}

/* At the program's end, before the finalizer: the docked workers exit (as
 * at omp_pause_resource), each with its thread_end, which tools use to
 * flush per-thread data.  Waits a bounded time; a
 * worker still busy in another thread's region is not waited for. */
void pv_ompt_end_workers(void)
{
    if (pv_thr_ts()->team || pv_thr_is_worker())
        return;   /* exit from inside a region: its workers are not docked */
    /* A worker still on its way back from a nested region docks after a
     * sweep: sweep again each millisecond, for about a second at most. */
    struct timespec ms = { 0, 1000000 };
    for (int i = 0; i < 1000 && !workers_gone(); i++) {
        pv_runtime_pause();
        nanosleep(&ms, NULL);
    }
}
