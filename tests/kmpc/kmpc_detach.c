/* detach as clang compiles it: __kmpc_task_allow_completion_event and
 * omp_fulfill_event@VERSION, for a deferred task fulfilled by another task
 * and for an undeferred (if(0)) one fulfilled by its own body. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

int main(void)
{
    /* detach: the taskwait waits for the fulfilment, not the body. */
    int body = 0, after = 0, undeferred = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        omp_event_handle_t ev;
#pragma omp task detach(ev) shared(body)
        TEST_STORE(&body, 1);
#pragma omp task shared(body, after) firstprivate(ev)
        {
            while (!TEST_LOAD(&body))
                ;
            TEST_STORE(&after, 1);
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
        CHECK(TEST_LOAD(&after) == 1);
    }
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        omp_event_handle_t ev2;
        volatile int no = 0;
#pragma omp task detach(ev2) if (no) shared(undeferred)
        {
            undeferred = 1;
            omp_fulfill_event(ev2);
        }
        CHECK(undeferred == 1);
    }
    printf("kmpc_detach: ok\n");
    return 0;
}
