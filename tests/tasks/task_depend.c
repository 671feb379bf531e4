/* Task dependences: chains, diamonds and reader groups with order checks,
 * mutexinoutset exclusion, depobj, taskwait with depend, undeferred tasks
 * waiting for their dependences, dependences in nested task generations,
 * and memory that follows the live tasks (a million dependent tasks). */
#include <omp.h>

#include "pvomp_check.h"
#include "task_test.h"

/* A chain: each task must see the previous one's write. */
static void test_chain(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 20; rep++) {
        int x = 0, bad = 0;
        for (int i = 0; i < 500; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
            {
                if (x != i)
                    bad++;
                if (i % 50 == 0)
                    t_delay(3000);
                x = i + 1;
            }
        }
#pragma omp taskwait
        CHECK(x == 500 && bad == 0);
    }
}

/* Diamonds: A -> {B, C} -> D, with event numbers. */
static void test_diamond(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 300; rep++) {
        long ta = 0, tb0 = 0, tb1 = 0, tc0 = 0, tc1 = 0, td = 0;
        int a, b, c;
#pragma omp task depend(out : a) shared(ta)
        {
            t_delay(500);
            ta = T_TICK();
        }
#pragma omp task depend(in : a) depend(out : b) shared(tb0, tb1)
        {
            tb0 = T_TICK();
            t_delay(300);
            tb1 = T_TICK();
        }
#pragma omp task depend(in : a) depend(out : c) shared(tc0, tc1)
        {
            tc0 = T_TICK();
            t_delay(300);
            tc1 = T_TICK();
        }
#pragma omp task depend(in : b, c) shared(td)
        td = T_TICK();
#pragma omp taskwait
        CHECK(ta && ta < tb0 && ta < tc0 && tb1 < td && tc1 < td);
        (void)a, (void)b, (void)c;
    }
}

/* Readers between writers: every reader after W1 and before W2. */
static void test_readers(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 100; rep++) {
        int x = 0;
        long w1 = 0, w2 = 0, r0[6] = {0}, r1[6] = {0};
#pragma omp task depend(out : x) shared(w1, x)
        {
            t_delay(500);
            x = 1;
            w1 = T_TICK();
        }
        for (int i = 0; i < 6; i++) {
#pragma omp task depend(in : x) shared(r0, r1, x) firstprivate(i)
            {
                r0[i] = T_TICK();
                CHECK(x == 1);
                t_delay(200);
                r1[i] = T_TICK();
            }
        }
#pragma omp task depend(inout : x) shared(w2, x)
        {
            w2 = T_TICK();
            x = 2;
        }
#pragma omp taskwait
        for (int i = 0; i < 6; i++)
            CHECK(w1 < r0[i] && r1[i] < w2);
        CHECK(x == 2);
    }
}

/* mutexinoutset: members never overlap, and come after the writer before
 * them and before the reader after them. */
static void test_mutexinoutset(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 100; rep++) {
        int x = 0, inside = 0, overlap = 0;
        long w = 0, m0[5] = {0}, m1[5] = {0}, r = 0;
#pragma omp task depend(out : x) shared(w)
        w = T_TICK();
        for (int i = 0; i < 5; i++) {
#pragma omp task depend(mutexinoutset : x) shared(inside, overlap, m0, m1, x) firstprivate(i)
            {
                m0[i] = T_TICK();
                if (T_INC(&inside) != 0)
                    T_INC(&overlap);
                x++;
                t_delay(300);
                T_DEC(&inside);
                m1[i] = T_TICK();
            }
        }
#pragma omp task depend(in : x) shared(r)
        r = T_TICK();
#pragma omp taskwait
        CHECK(overlap == 0 && x == 5);
        for (int i = 0; i < 5; i++)
            CHECK(w < m0[i] && m1[i] < r);
    }
}

static void test_depobj(void)
{
#pragma omp parallel
#pragma omp single
    {
        int x = 0;
        omp_depend_t wr, rd;
#pragma omp depobj(wr) depend(inout : x)
#pragma omp depobj(rd) depend(in : x)
        for (int rep = 0; rep < 200; rep++) {
            long tw = 0, tr = 0;
#pragma omp task depend(depobj : wr) shared(x, tw)
            {
                t_delay(300);
                x++;
                tw = T_TICK();
            }
#pragma omp task depend(depobj : rd) shared(x, tr) firstprivate(rep)
            {
                CHECK(x == rep + 1);
                tr = T_TICK();
            }
#pragma omp taskwait
            CHECK(tw < tr);
        }
#pragma omp depobj(wr) update(in)
#pragma omp depobj(wr) destroy
#pragma omp depobj(rd) destroy
    }
}

static void test_taskwait_depend(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 200; rep++) {
        int a = 0, b = 0;
#pragma omp task depend(out : a) shared(a)
        {
            t_delay(1000);
            T_STORE(&a, 1);
        }
#pragma omp task depend(out : b) shared(b)
        {
            t_delay(20000);
            T_STORE(&b, 1);
        }
#pragma omp taskwait depend(in : a)
        CHECK(T_LOAD(&a) == 1);
#pragma omp taskwait
        CHECK(T_LOAD(&b) == 1);
    }
}

/* if(0) with dependences: the undeferred task still waits for them. */
static void test_undeferred_depend(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 200; rep++) {
        int x = 0, seen = -1;
#pragma omp task depend(out : x) shared(x)
        {
            t_delay(2000);
            x = 42;
        }
#pragma omp task if (0) depend(in : x) shared(x, seen)
        seen = x;
        CHECK(seen == 42);
#pragma omp taskwait
    }
}

/* Each generation orders its own children. */
static void test_generations(void)
{
    long ok = 0;
#pragma omp parallel
#pragma omp single
    for (int p = 0; p < 8; p++) {
#pragma omp task shared(ok)
        {
            int x = 0, bad = 0;
            for (int i = 0; i < 100; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
                {
                    int y = 0;
                    /* grandchildren: their own chain */
                    for (int k = 0; k < 5; k++) {
#pragma omp task depend(inout : y) shared(y, bad) firstprivate(k)
                        {
                            if (y != k)
                                bad++;
                            y++;
                        }
                    }
#pragma omp taskwait
                    if (x != i || y != 5)
                        bad++;
                    x++;
                }
            }
#pragma omp taskwait
            if (!bad && x == 100)
                T_INC(&ok);
        }
    }
    CHECK(ok == 8);
}

/* A million tasks in chains over 64 addresses: finished tasks must not
 * leave memory behind (the table follows the live tasks). */
static void test_memory(void)
{
    static int cell[64];
    long before = t_rss_kb();
    long sum = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 1000000; i++) {
        int *c = &cell[i % 64];
#pragma omp task depend(inout : c[0]) shared(sum) firstprivate(c)
        {
            (*c)++;
            T_INC(&sum);
        }
    }
    long after = t_rss_kb();
    CHECK(sum == 1000000);
    for (int i = 0; i < 64; i++)
        CHECK(cell[i] == 1000000 / 64 + (i < 1000000 % 64));
    printf("task_depend: rss %ld kB -> %ld kB\n", before, after);
    CHECK(after - before < 64 * 1024);
}

int main(void)
{
    test_chain();
    test_diamond();
    test_readers();
    test_mutexinoutset();
    test_depobj();
    test_taskwait_depend();
    test_undeferred_depend();
    test_generations();
    test_memory();
    printf("task_depend: ok\n");
    return 0;
}
