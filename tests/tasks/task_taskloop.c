/* taskloop: every iteration exactly once for long and unsigned long long
 * loops counting up and down with various steps; the task shapes of
 * num_tasks, grainsize and grainsize(strict); nogroup; if(0) and final;
 * collapse; lastprivate; reduction and in_reduction. */
#include <omp.h>
#include <string.h>

#include "pvomp_check.h"
#include "task_test.h"

#define N 1000
static int hits[N];
static int start_of[N];

/* Chunk shapes: start_of[i] is the first iteration of i's task. */
static int count_tasks(int n, int *minsz, int *maxsz, int *lastsz)
{
    int tasks = 0, mn = N + 1, mx = 0, cur = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || start_of[i] != start_of[i - 1]) {
            if (i) {
                mn = cur < mn ? cur : mn;
                mx = cur > mx ? cur : mx;
            }
            tasks++;
            cur = 0;
        }
        cur++;
    }
    mn = cur < mn ? cur : mn;
    mx = cur > mx ? cur : mx;
    *minsz = mn;
    *maxsz = mx;
    *lastsz = cur;
    return tasks;
}

static void test_coverage_long(void)
{
    static const long steps[] = {1, 2, 3, 7, 100, -1, -2, -5, -333};
    for (unsigned s = 0; s < sizeof steps / sizeof *steps; s++) {
        long step = steps[s];
        long lo = -37, hi = 963; /* 1000 values */
        memset(hits, 0, sizeof hits);
        long expect = 0;
#pragma omp parallel
#pragma omp single
        {
            if (step > 0) {
#pragma omp taskloop
                for (long i = lo; i < hi; i += step)
                    T_INC(&hits[i - lo]);
            } else {
#pragma omp taskloop
                for (long i = hi - 1; i >= lo; i += step)
                    T_INC(&hits[i - lo]);
            }
        }
        for (long i = 0; i < N; i++) {
            long v = step > 0 ? i : (N - 1) - i;
            int want = (v % (step > 0 ? step : -step)) == 0;
            CHECK(hits[i] == want);
            expect += want;
        }
        CHECK(expect > 0);
    }
}

static void test_coverage_ull(void)
{
    unsigned long long base = ~0ULL - 5000;
    static const unsigned long long steps[] = {1, 3, 64};
    for (unsigned s = 0; s < 3; s++) {
        unsigned long long step = steps[s];
        memset(hits, 0, sizeof hits);
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop grainsize(10)
            for (unsigned long long i = base; i < base + N; i += step)
                T_INC(&hits[i - base]);
#pragma omp taskloop num_tasks(7)
            for (unsigned long long i = base + N; i > base; i -= step)
                T_INC(&hits[i - base - 1]);
        }
        for (unsigned long long i = 0; i < N; i++) {
            int up = i % step == 0;
            int down = (N - 1 - i) % step == 0;
            CHECK(hits[i] == up + down);
        }
    }
}

static void test_shapes(void)
{
    int mn, mx, last;
    /* Observe each task's first iteration through a firstprivate marker. */
    for (int k = 1; k <= 64; k += 9) {
#pragma omp parallel
#pragma omp single
        {
            int first = -1;
#pragma omp taskloop num_tasks(k) firstprivate(first)
            for (int i = 0; i < N; i++) {
                if (first < 0)
                    first = i;
                start_of[i] = first;
            }
        }
        int t = count_tasks(N, &mn, &mx, &last);
        CHECK(t == k && mx - mn <= 1);
    }
    for (int g = 1; g <= 300; g = g * 3 + 1) {
#pragma omp parallel
#pragma omp single
        {
            int first = -1;
#pragma omp taskloop grainsize(g) firstprivate(first)
            for (int i = 0; i < N; i++) {
                if (first < 0)
                    first = i;
                start_of[i] = first;
            }
        }
        int t = count_tasks(N, &mn, &mx, &last);
        int want = N / g > 1 ? N / g : 1;
        CHECK(t == want && (t == 1 || (mn >= g && mx < 2 * g)));
    }
    for (int g = 3; g <= 300; g = g * 3 + 1) {
#pragma omp parallel
#pragma omp single
        {
            int first = -1;
#pragma omp taskloop grainsize(strict : g) firstprivate(first)
            for (int i = 0; i < N; i++) {
                if (first < 0)
                    first = i;
                start_of[i] = first;
            }
        }
        int t = count_tasks(N, &mn, &mx, &last);
        CHECK(t == (N + g - 1) / g && mx == g && last == (N % g ? N % g : g));
    }
}

static void test_nogroup_if_final(void)
{
#pragma omp parallel
#pragma omp single
    {
        memset(hits, 0, sizeof hits);
#pragma omp taskloop nogroup grainsize(5)
        for (int i = 0; i < N; i++)
            T_INC(&hits[i]);
#pragma omp taskwait
        for (int i = 0; i < N; i++)
            CHECK(hits[i] == 1);

        int in_final = 0;
#pragma omp taskloop if (0) shared(in_final)
        for (int i = 0; i < N; i++)
            T_INC(&hits[i]);
#pragma omp taskloop final(1) num_tasks(4) shared(in_final)
        for (int i = 0; i < N; i++) {
            T_INC(&hits[i]);
            if (omp_in_final())
                T_INC(&in_final);
        }
        for (int i = 0; i < N; i++)
            CHECK(hits[i] == 3);
        CHECK(in_final == N);
    }
}

static void test_collapse_lastprivate(void)
{
    static int m[30][40];
    memset(m, 0, sizeof m);
    int lp = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop collapse(2) grainsize(7)
        for (int i = 0; i < 30; i++)
            for (int j = 0; j < 40; j++)
                T_INC(&m[i][j]);
#pragma omp taskloop lastprivate(lp) num_tasks(9)
        for (int i = 0; i < 100; i++)
            lp = i;
    }
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 40; j++)
            CHECK(m[i][j] == 1);
    CHECK(lp == 99);
}

static void test_reductions(void)
{
    long sum = 0, prod = 1, sum2 = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop reduction(+ : sum) reduction(* : prod) grainsize(10)
        for (int i = 1; i <= N; i++) {
            sum += i;
            if (i % 100 == 0)
                prod *= 2;
        }
#pragma omp taskgroup task_reduction(+ : sum2)
        {
#pragma omp taskloop in_reduction(+ : sum2) num_tasks(13)
            for (int i = 1; i <= N; i++)
                sum2 += i;
#pragma omp task in_reduction(+ : sum2)
            sum2 += 1;
        }
    }
    CHECK(sum == N * (N + 1) / 2);
    CHECK(prod == 1024);
    CHECK(sum2 == N * (N + 1) / 2 + 1);

    /* From every thread, nested in tasks. */
    long total = 0;
#pragma omp parallel reduction(+ : total)
    {
        long s = 0;
#pragma omp taskloop reduction(+ : s)
        for (int i = 0; i < 100; i++)
            s += i;
        total += s;
    }
    CHECK(total == 4950L * omp_get_max_threads());
}

int main(void)
{
    test_coverage_long();
    test_coverage_ull();
    test_shapes();
    test_nogroup_if_final();
    test_collapse_lastprivate();
    test_reductions();
    printf("task_taskloop: ok\n");
    return 0;
}
