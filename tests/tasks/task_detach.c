/* detach: a task completes when its body returned and its event was
 * fulfilled, in either order; fulfilled by another task, by another thread,
 * from the task itself; successors, taskwait, taskgroup and the barrier wait
 * for the event; an undeferred (if(0)) detached task blocks its creator
 * until the event is fulfilled by one of its own children. */
#include <omp.h>
#include <pthread.h>

#include "pvomp_check.h"
#include "task_test.h"

static void test_fulfill_by_other_task(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 200; rep++) {
        omp_event_handle_t ev = (omp_event_handle_t)0;
        int body = 0, fulfilled = 0, after = 0;
        int x;
#pragma omp task detach(ev) depend(out : x) shared(body)
        T_STORE(&body, 1);
#pragma omp task depend(in : x) shared(after, fulfilled)
        {
            /* runs only once the event of the first task is fulfilled */
            after = T_LOAD(&fulfilled);
        }
#pragma omp task firstprivate(ev) shared(fulfilled)
        {
            t_delay(rep % 2 ? 5000 : 0);
            T_STORE(&fulfilled, 1);
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
        CHECK(body == 1 && after == 1);
        (void)x;
    }
}

static void test_fulfill_in_body(void)
{
    long n = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < 1000; i++) {
            omp_event_handle_t ev;
#pragma omp task detach(ev) shared(n)
            {
                T_INC(&n);
                omp_fulfill_event(ev);
            }
        }
    }
    CHECK(n == 1000);
}

/* The barrier at the end of the region waits for unfulfilled events, and
 * for the tasks that depend on them; the events are fulfilled by another
 * thread after the tasks' bodies ran. */
static void test_barrier_waits(void)
{
    enum { K = 64 };
    static omp_event_handle_t evs[K];
    static int cells[K];
    (void)cells;
    int done = 0, ready = 0, after = 0, fulfilled = 0;
#pragma omp parallel shared(done, ready, after, fulfilled)
    {
#pragma omp masked
        {
            for (int i = 0; i < K; i++) {
                omp_event_handle_t e;
#pragma omp task detach(e) depend(out : cells[i]) shared(done)
                T_INC(&done);
                evs[i] = e;
#pragma omp task depend(in : cells[i]) shared(after, fulfilled)
                {
                    if (T_LOAD(&fulfilled) > 0)
                        T_INC(&after);
                }
            }
            T_STORE(&ready, 1);
        }
        if (omp_get_thread_num() == omp_get_num_threads() - 1) {
            while (!T_LOAD(&ready)) {
            }
            t_delay(10000);
            for (int i = 0; i < K; i++) {
                T_INC(&fulfilled);
                omp_fulfill_event(evs[i]);
            }
        }
    }
    CHECK(done == K && after == K);
}

static void test_taskgroup_waits(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 100; rep++) {
        int fulfilled = 0;
        omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp taskgroup
        {
            int body = 0;
#pragma omp task detach(ev) shared(body)
            T_STORE(&body, 1); /* gcc drops a detached task with an empty body */
#pragma omp task firstprivate(ev) shared(fulfilled)
            {
                t_delay(2000);
                T_STORE(&fulfilled, 1);
                omp_fulfill_event(ev);
            }
        }
        CHECK(T_LOAD(&fulfilled) == 1);
    }
}

static void test_undeferred(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 100; rep++) {
        int fulfilled = 0;
        omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp task if (0) detach(ev) shared(fulfilled)
        {
#pragma omp task firstprivate(ev) shared(fulfilled)
            {
                t_delay(1000);
                T_STORE(&fulfilled, 1);
                omp_fulfill_event(ev);
            }
        }
        CHECK(T_LOAD(&fulfilled) == 1);
    }
    /* Outside any parallel region: fulfilled from inside. */
    omp_event_handle_t ev2;
    int r = 0;
#pragma omp task detach(ev2) shared(r)
    {
        r = 1;
        omp_fulfill_event(ev2);
    }
    CHECK(r == 1);
}

/* Events fulfilled by a thread that is not in the team: the successors
 * become ready from outside and go through the team's shared queue. */
static omp_event_handle_t ext_evs[32];
static int ext_ready;

static void *ext_fulfiller(void *arg)
{
    (void)arg;
    while (!T_LOAD(&ext_ready)) {
    }
    for (int i = 0; i < 32; i++)
        omp_fulfill_event(ext_evs[i]);
    return NULL;
}

static void test_foreign_thread(void)
{
    for (int rep = 0; rep < 50; rep++) {
        pthread_t th;
        T_STORE(&ext_ready, 0);
        CHECK(pthread_create(&th, NULL, ext_fulfiller, NULL) == 0);
        int cells[32], after = 0, body = 0;
        (void)cells;
#pragma omp parallel shared(after, body)
#pragma omp single
        {
            for (int i = 0; i < 32; i++) {
                omp_event_handle_t e;
#pragma omp task detach(e) depend(out : cells[i]) shared(body)
                T_INC(&body);
                ext_evs[i] = e;
#pragma omp task depend(in : cells[i]) shared(after)
                T_INC(&after);
            }
            T_STORE(&ext_ready, 1);
        }
        CHECK(pthread_join(th, NULL) == 0);
        CHECK(body == 32 && after == 32);
    }
}

int main(void)
{
    test_fulfill_by_other_task();
    test_fulfill_in_body();
    test_barrier_waits();
    test_taskgroup_waits();
    test_undeferred();
    test_foreign_thread();
    printf("task_detach: ok\n");
    return 0;
}
