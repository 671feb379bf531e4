/* Explicit tasks: fib(30), a million tiny tasks counted, taskwait, if(0),
 * final / omp_in_final, mergeable and untied, firstprivate capture (plain,
 * over-aligned and variable-length, which makes gcc pass a copy function),
 * ICV inheritance, nested parallel regions inside tasks, orphaned tasks. */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "pvomp_check.h"
#include "task_test.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

static void test_fib(void)
{
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(30);
    CHECK(r == 832040);

    /* Every thread computes its own, all at once. */
    long each[64] = {0};
    int nt = 0;
#pragma omp parallel
    {
#pragma omp single
        nt = omp_get_num_threads();
        if (omp_get_thread_num() < 64)
            each[omp_get_thread_num()] = fib(20);
    }
    for (int i = 0; i < nt && i < 64; i++)
        CHECK(each[i] == 6765);
}

static void test_million(void)
{
    long count = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 1000000; i++) {
#pragma omp task shared(count)
        T_INC(&count);
    }
    CHECK(count == 1000000);

    /* Every thread creates tasks; the implicit barrier waits for all. */
    long count2 = 0;
    int nt = 0;
#pragma omp parallel shared(count2)
    {
#pragma omp single
        nt = omp_get_num_threads();
        for (int i = 0; i < 250000; i++) {
#pragma omp task shared(count2)
            T_INC(&count2);
        }
    }
    CHECK(count2 == 250000L * nt);
}

static void test_taskwait(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 200; rep++) {
        int done[8] = {0};
        for (int i = 0; i < 8; i++) {
#pragma omp task shared(done) firstprivate(i)
            {
                t_delay(1000 * (i + 1));
                T_STORE(&done[i], 1);
            }
        }
#pragma omp taskwait
        for (int i = 0; i < 8; i++)
            CHECK(T_LOAD(&done[i]) == 1);
    }
}

static void test_if0_final(void)
{
#pragma omp parallel
#pragma omp single
    {
        int ran = 0;
#pragma omp task if (0) shared(ran)
        ran = 1;
        CHECK(ran == 1); /* undeferred: done before the construct ends */

        int in_final = -1, child_final = -1, child_ran_inline = 0;
#pragma omp task final(1) shared(in_final, child_final, child_ran_inline)
        {
            in_final = omp_in_final();
            int c = 0;
#pragma omp task shared(c, child_final)
            {
                child_final = omp_in_final();
                c = 1;
            }
            child_ran_inline = c; /* included task: already ran */
        }
#pragma omp taskwait
        CHECK(in_final == 1 && child_final == 1 && child_ran_inline == 1);

        int nf = -1;
#pragma omp task final(0) shared(nf)
        nf = omp_in_final();
#pragma omp taskwait
        CHECK(nf == 0);
        CHECK(omp_in_final() == 0);

        long m = 0;
        for (int i = 0; i < 1000; i++) {
#pragma omp task mergeable shared(m)
            T_INC(&m);
#pragma omp task untied shared(m)
            T_INC(&m);
        }
#pragma omp taskwait
        CHECK(m == 2000);
    }
}

struct big {
    _Alignas(64) double v[4];
};

static void test_firstprivate(void)
{
#pragma omp parallel
#pragma omp single
    {
        int errors = 0;
        for (int n = 1; n < 40; n += 7) {
            int x = n;
            struct big b = {{n, n + 1, n + 2, n + 3}};
            int vla[n];
            for (int i = 0; i < n; i++)
                vla[i] = i * n;
#pragma omp task firstprivate(x, b, vla) shared(errors)
            {
                t_delay(2000);
                if (x != n || ((uintptr_t)&b % 64) != 0 || b.v[3] != n + 3)
                    T_INC(&errors);
                for (int i = 0; i < n; i++)
                    if (vla[i] != i * n)
                        T_INC(&errors);
            }
            /* The task captured the values at its creation. */
            x = -1;
            b.v[3] = -1;
            for (int i = 0; i < n; i++)
                vla[i] = -1;
        }
#pragma omp taskwait
        CHECK(errors == 0);
    }
}

static void test_icv(void)
{
    omp_set_num_threads(3);
    int seen = 0, after = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        omp_set_num_threads(5);
#pragma omp task shared(seen)
        {
            seen = omp_get_max_threads(); /* inherited from the creator */
            omp_set_num_threads(7);       /* stays in this task */
        }
#pragma omp taskwait
        after = omp_get_max_threads();
    }
    CHECK(seen == 5 && after == 5);
    CHECK(omp_get_max_threads() == 3);
    omp_set_num_threads(omp_get_num_procs());
}

static void test_nested_parallel(void)
{
    omp_set_max_active_levels(2);
    long total = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < 4; i++) {
#pragma omp task shared(total)
        {
#pragma omp parallel num_threads(2) shared(total)
            {
                for (int k = 0; k < 100; k++) {
#pragma omp task shared(total)
                    T_INC(&total);
                }
            }
        }
    }
    CHECK(total == 4 * 2 * 100);
    omp_set_max_active_levels(1);
}

static void test_orphaned(void)
{
    /* Outside any parallel region tasks run at once. */
    int ran = 0;
#pragma omp task shared(ran)
    ran = 1;
    CHECK(ran == 1);
#pragma omp taskwait
    CHECK(fib(15) == 610);
    long c = 0;
#pragma omp taskgroup
    for (int i = 0; i < 10; i++) {
#pragma omp task shared(c)
        c++;
    }
    CHECK(c == 10);
}

int main(void)
{
    test_fib();
    test_million();
    test_taskwait();
    test_if0_final();
    test_firstprivate();
    test_icv();
    test_nested_parallel();
    test_orphaned();
    printf("task_basic: ok\n");
    return 0;
}
