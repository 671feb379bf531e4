/* The log closes while other threads hold locks (trace_test.py heldexit):
 * thread 1 holds an omp lock, thread 2 is inside a named critical section,
 * and thread 0 calls exit() once both are there.  Their acquisitions are
 * only remembered in the rings (src/trace/held.h) when the log closes; the
 * log must still have them.  Prints "holder KIND TID ADDRESS" for each.
 *
 * With an argument "hold-and-exit", thread 0 calls exit() holding a lock
 * itself as well.  With "churn", threads 1 and 2 take and release the lock
 * and the critical section without pause, and thread 0 calls exit() once
 * each has done 500 sections: the log must pair every acquisition with its
 * release except, per thread, the one it may hold at the end. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvomp_check.h"

static omp_lock_t lock, own;
static int there;
static unsigned long sections[3];

static void arrived(const char *kind, const void *addr)
{
    printf("holder %s %d %p\n", kind, (int)gettid(), addr);
    fflush(stdout);
#pragma omp atomic
    there++;
}

int main(int argc, char **argv)
{
    int own_too = argc > 1 && !strcmp(argv[1], "hold-and-exit");
    int churn = argc > 1 && !strcmp(argv[1], "churn");
    omp_init_lock(&lock);
    omp_init_lock(&own);
#pragma omp parallel num_threads(3)
    {
        int me = omp_get_thread_num();
        CHECK(omp_get_num_threads() == 3);
        if (churn && me != 0) {
            /* A pause in every 16th section keeps the writer ahead (no
             * drops) and makes the close likely to find the section held. */
            for (volatile unsigned long n = 0;; n++) {
                if (me == 1) {
                    omp_set_lock(&lock);
                    if (n % 16 == 0)
                        usleep(1);
                    omp_unset_lock(&lock);
                } else {
#pragma omp critical(held_at_exit)
                    if (n % 16 == 0)
                        usleep(1);
                }
                __atomic_store_n(&sections[me], n + 1, __ATOMIC_RELAXED);
            }
        } else if (churn) {
            /* Wait for both, however loaded the machine is. */
            while (__atomic_load_n(&sections[1], __ATOMIC_RELAXED) < 500 ||
                   __atomic_load_n(&sections[2], __ATOMIC_RELAXED) < 500)
                usleep(1000);
            exit(0);
        } else if (me == 1) {
            omp_set_lock(&lock);
            arrived("lock", &lock);
            for (;;)
                pause();
        } else if (me == 2) {
#pragma omp critical(held_at_exit)
            {
                arrived("critical", NULL);
                for (;;)
                    pause();
            }
        } else {
            for (;;) {
                int n;
#pragma omp atomic read
                n = there;
                if (n == 2)
                    break;
                usleep(1000);
            }
            if (own_too) {
                omp_set_lock(&own);
                arrived("own", &own);
            }
            exit(0);
        }
    }
    return 1;
}
