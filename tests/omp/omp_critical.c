/* Critical sections: unnamed and named critical constructs are mutually
 * exclusive (an "inside" flag is never found set on entry) and plain,
 * non-atomic counter updates inside them are exact.  Differently named
 * sections protect different data and may nest. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define ITERS 20000

static long counter, counter_a, counter_b;
static int inside, inside_a, inside_b, overlap;

static void enter(int *flag)
{
    if (__atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL) != 0)
        TEST_INC(&overlap);
}

static void leave(int *flag)
{
    __atomic_store_n(flag, 0, __ATOMIC_RELEASE);
}

/* Called from inside a parallel region: an orphaned named critical. */
static void orphan_b(void)
{
#pragma omp critical(beta)
    {
        enter(&inside_b);
        counter_b++;
        leave(&inside_b);
    }
}

int main(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        counter = counter_a = counter_b = 0;
        overlap = 0;
#pragma omp parallel num_threads(nt)
        {
            for (int i = 0; i < ITERS; i++) {
#pragma omp critical
                {
                    enter(&inside);
                    long v = counter;
                    if (i % 1000 == 0)
                        test_delay(200);
                    counter = v + 1;
                    leave(&inside);
                }
#pragma omp critical(alpha)
                {
                    enter(&inside_a);
                    counter_a += 2;
                    /* a different name nests inside */
                    if (i % 100 == 0)
                        orphan_b();
                    leave(&inside_a);
                }
                if (i % 100 != 0)
                    orphan_b();
#pragma omp critical(alpha) hint(omp_sync_hint_contended)
                {
                    enter(&inside_a);
                    counter_a -= 1;
                    leave(&inside_a);
                }
            }
        }
        CHECK(overlap == 0);
        CHECK(counter == (long)nt * ITERS);
        CHECK(counter_a == (long)nt * ITERS);
        CHECK(counter_b == (long)nt * ITERS);
    }

    /* Nested parallel regions share one unnamed critical lock. */
    omp_set_max_active_levels(2);
    counter = 0;
    overlap = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
    for (int i = 0; i < ITERS; i++) {
#pragma omp critical
        {
            enter(&inside);
            counter++;
            leave(&inside);
        }
    }
    CHECK(overlap == 0 && counter == 4L * ITERS);
    printf("omp_critical: ok\n");
    return 0;
}
