/* libomp's hidden helper tasks: __kmpc_omp_target_task_alloc.
 *
 * clang allocates the task of `target nowait` (and of libomptarget's
 * asynchronous operations) here.  As in libomp, a target task is an untied
 * explicit task whose routine runs on one of N hidden helper threads
 * (LIBOMP_NUM_HIDDEN_HELPER_THREADS, 8 by default), never on a thread of
 * the team, and whose libomp thread numbers are 1..N (kmpc_fork.c keeps
 * them free).  With N = 0 (or LIBOMP_USE_HIDDEN_HELPER_TASK=false) a target
 * task is a plain task, as in libomp.
 *
 * The task is still an ordinary pvomp task (dependences, taskwait,
 * taskgroup, the parent's child count): its body only queues it here, and
 * it is detached, completing when the helper fulfils its event after the
 * routine (kmpc_task.c, run_hidden).  One difference from libomp: a target
 * task whose dependences are met still goes through a thread of the team
 * (at its next task scheduling point) on its way to the helpers.
 *
 * The helpers start at the first target task and wait for work through the
 * wait primitive (src/wait); they count as managed threads. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "base/linux.h"
#include "base/message.h"
#include "runtime/icv.h"
#include "runtime/thread.h"
#include "tasks/kmpc_task.h"
#include "wait/wait.h"

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static unsigned helpers_started;

/* The queue: FIFO under a lock; `posted` counts posts, for the sleepers. */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pv_kmpc_task_block *queue_head, *queue_tail;
static pv_futex_t posted;

static __thread bool on_helper;

static struct pv_kmpc_task_block *next_task(void)
{
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        struct pv_kmpc_task_block *b = queue_head;
        if (b) {
            queue_head = b->helper_next;
            if (!queue_head)
                queue_tail = NULL;
        }
        /* Read under the lock: a post after this unlock changes the word. */
        uint32_t seen = atomic_load_explicit(&posted.word, memory_order_relaxed);
        pthread_mutex_unlock(&queue_lock);
        if (b)
            return b;
        pv_wait_while_eq(&posted, seen);
    }
}

static void *helper_main(void *arg)
{
    struct pv_thread *thr = &pv_thr;
    thr->tid = pv_gettid();
    thr->handle = pthread_self();
    thr->ts.place = UINT_MAX;
    on_helper = true;
    pv_kmpc_gtid_set_helper((kmp_int32)(uintptr_t)arg);
    for (;;) {
        struct pv_kmpc_task_block *b = next_task();
        kmp_task_t *t = &b->task;
        struct pv_kmpc_event *ev = b->event;
        if (t->routine)
            t->routine(pv_kmpc_gtid(), t);
        pv_kmpc_task_ended(t);        /* destructors; the block stays until ... */
        pv_kmp_omp_fulfill_event(ev); /* ... the task completes here, which frees it */
    }
    return NULL;
}

static void start_helpers(void)
{
    unsigned n = pv_gicv.hidden_helpers;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pv_gicv.stacksize)
        pthread_attr_setstacksize(&attr, pv_gicv.stacksize);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (unsigned i = 0; i < n; i++) {
        pthread_t h;
        int err = pthread_create(&h, &attr, helper_main, (void *)(uintptr_t)(i + 1));
        if (err) {
            pv_warn("cannot create hidden helper thread %u of %u: %s", i + 1, n, strerror(err));
            break;
        }
        helpers_started++;
    }
    pthread_attr_destroy(&attr);
    pv_wait_managed_threads_add((int)helpers_started);
    if (n && !helpers_started)
        pv_warn("target tasks run as plain tasks");
}

/* A fork() child has no helper threads: it starts its own at its first
 * target task.  Tasks the parent had queued stay the parent's. */
static void hidden_fork_child(void)
{
    start_once = (pthread_once_t)PTHREAD_ONCE_INIT;
    helpers_started = 0;
    pthread_mutex_init(&queue_lock, NULL);
    queue_head = queue_tail = NULL;
}

__attribute__((constructor)) static void hidden_register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, hidden_fork_child);
}

void pv_kmpc_hidden_post(struct pv_kmpc_task_block *b)
{
    b->helper_next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (queue_tail)
        queue_tail->helper_next = b;
    else
        queue_head = b;
    queue_tail = b;
    /* seq_cst: pairs with the sleeper count (pv_wake_one). */
    atomic_fetch_add_explicit(&posted.word, 1, memory_order_seq_cst);
    pthread_mutex_unlock(&queue_lock);
    pv_wake_one(&posted);
}

PV_EXPORT kmp_task_t *__kmpc_omp_target_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                                   size_t sizeof_kmp_task_t,
                                                   size_t sizeof_shareds,
                                                   kmp_routine_entry_t task_entry,
                                                   kmp_int64 device_id)
{
    (void)device_id; /* every target task runs on the host here */
    flags &= ~KMP_TASK_TIED; /* a target task is untied (OpenMP 5.1, 2.14.5) */
    kmp_task_t *t = __kmpc_omp_task_alloc(loc, gtid, flags, sizeof_kmp_task_t, sizeof_shareds,
                                          task_entry);
    if (pv_gicv.hidden_helpers && !on_helper) {
        /* On a helper, the task is one of the helpers' own: a plain task. */
        pthread_once(&start_once, start_helpers);
        pv_kmpc_block_of(t)->hidden_helper = helpers_started != 0;
    }
    return t;
}
