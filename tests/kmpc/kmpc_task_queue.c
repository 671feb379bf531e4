/* KMP_ENABLE_TASK_THROTTLING=0 (libomp's setting, run with it): a team
 * queues every task its primary creates, however many; none runs at once
 * in the creating thread (pvomp's throttle, 64 tasks per thread, is off). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

enum { NUM_TASKS = 3000 };

int main(void)
{
    int created = 0, released = 0, early = 0, ran = 0;
#pragma omp parallel num_threads(2)
#pragma omp masked
    {
        for (int i = 0; i < NUM_TASKS; i++) {
            TEST_STORE(&created, i + 1);
#pragma omp task shared(created, released, early, ran)
            {
                /* On the primary before the last task was created: run at
                 * once by a throttle.  Elsewhere: hold the worker here, so
                 * that the queue only fills. */
                if (omp_get_thread_num() == 0 && TEST_LOAD(&created) < NUM_TASKS)
                    TEST_INC(&early);
                while (omp_get_thread_num() != 0 && !TEST_LOAD(&released))
                    ;
                TEST_INC(&ran);
            }
        }
        TEST_STORE(&released, 1);
    }
    CHECK(early == 0);
    CHECK(ran == NUM_TASKS);
    printf("kmpc_task_queue: ok\n");
    return 0;
}
