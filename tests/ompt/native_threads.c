/* Parallel regions started from plain pthreads while the program's own
 * initial thread never uses OpenMP (as LLVM's misc/interoperability.cpp):
 * a native thread becomes an OpenMP thread (thread_begin with
 * ompt_thread_initial, then its initial task) at its first omp_* routine
 * that needs its state, here omp_get_num_threads, and ends (initial task
 * end, thread_end) when it exits; the initial thread of the program, which
 * makes no OpenMP call, never begins and so never ends.  The recording
 * tool's counts at finalization (checked by the ctest) include the pool
 * workers: 2 pthreads + 2 workers. */
#include <pthread.h>
#include <stdatomic.h>

#include "ttq.h"

static atomic_int arrived;
static uint64_t initial_task[2];
static long pthread_tid[2];

static void wait_for(int n)
{
    while (atomic_load(&arrived) < n)
        sched_yield();
}

static void *native(void *arg)
{
    int k = (int)(intptr_t)arg;
    pthread_tid[k] = syscall(SYS_gettid);
    /* One thread at a time: the check reads the tool's log, which another
     * thread must not grow meanwhile (the log is not read-safe under append). */
    wait_for(k);
    initial_task[k] = ttq_begin_initial_thread();
    atomic_fetch_add(&arrived, 1);
    wait_for(2);
#pragma omp parallel num_threads(2)
    {
        /* Both regions are open at once: no worker serves both. */
        atomic_fetch_add(&arrived, 1);
        wait_for(6);
        TCHECK(ttq_task_id(1) == initial_task[k]);
    }
    return NULL;
}

int main(void)
{
    CHECK(tt_initialized());
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        CHECK(pthread_create(&t[k], NULL, native, (void *)(intptr_t)k) == 0);
    for (int k = 0; k < 2; k++)
        CHECK(pthread_join(t[k], NULL) == 0);
    TCHECK(initial_task[0] != 0 && initial_task[1] != 0 && initial_task[0] != initial_task[1]);
    long me = syscall(SYS_gettid);
    /* Each pthread: begun once, its initial task ended before its thread
     * ended (at its exit); both before the join returned.  Main: nothing. */
    for (int k = 0; k < 2; k++) {
        const struct tt_event *tb = NULL, *te = NULL, *ie = NULL;
        int begins = 0;
        for (size_t i = 0; i < tt_count(); i++) {
            const struct tt_event *e = tt_get(i);
            TCHECK(e->tid != me);
            if (e->tid != pthread_tid[k])
                continue;
            if (e->type == ompt_callback_thread_begin)
                tb = e, begins++;
            if (e->type == ompt_callback_thread_end)
                te = e;
            if (ttq_is(e, ompt_callback_implicit_task, ompt_scope_end, ANY) &&
                e->task == initial_task[k])
                ie = e;
        }
        TCHECK(begins == 1 && tb->kind == ompt_thread_initial);
        TCHECK(ie && te && tb->seq < ie->seq && ie->seq < te->seq);
        TCHECK(ie->flags == ompt_task_initial && te->thread == tb->thread);
    }
    TCHECK(ttq_count(ompt_callback_parallel_begin, ANY, ANY) == 2);
    TCHECK(ttq_count(ompt_callback_thread_begin, ANY, ompt_thread_worker) == 2);
    /* An omp_* routine that does not need the thread's state does not make
     * main an OpenMP thread either (as libomp's omp_get_thread_num). */
    TCHECK(omp_get_thread_num() == 0);
    for (size_t i = 0; i < tt_count(); i++)
        TCHECK(tt_get(i)->tid != me);
    printf("native_threads: ok\n");
    return 0;
}
