/* Reductions: +, *, -, min, max, &, |, ^, &&, || over int and (where the
 * language allows) double, on parallel, for, sections and combined
 * constructs, over array sections, and with user-declared reductions.
 * Values are chosen so that every result is exact. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <float.h>
#include <limits.h>
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 10000

struct mm {
    long min, max, n;
};

static struct mm mm_merge(struct mm a, struct mm b)
{
    struct mm r = {a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max, a.n + b.n};
    return r;
}

#pragma omp declare reduction(minmax : struct mm : omp_out = mm_merge(omp_out, omp_in)) \
    initializer(omp_priv = (struct mm){LONG_MAX, LONG_MIN, 0})

/* A reduction over strings of bits, with a combiner that is not
 * commutative-looking but is associative and commutative (bitwise or). */
#pragma omp declare reduction(bits : unsigned long long : omp_out |= omp_in) initializer(omp_priv = 0)

static void test_for(int nt)
{
    long sum = 0, diff = 0, prod = 1, mn = LONG_MAX, mx = LONG_MIN;
    int band = ~0, bor = 0, bxor = 0, land = 1, lor = 0, land0 = 1, lor1 = 0;
    double dsum = 0, dprod = 1, dmin = DBL_MAX, dmax = -DBL_MAX;
    double dland = 1, dlor = 0;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 17)                                 \
    reduction(+ : sum, dsum) reduction(- : diff) reduction(* : prod, dprod)                    \
    reduction(min : mn, dmin) reduction(max : mx, dmax) reduction(& : band) reduction(| : bor)  \
    reduction(^ : bxor) reduction(&& : land, land0, dland) reduction(|| : lor, lor1, dlor)
    for (int i = 0; i < N; i++) {
        sum += i;
        diff -= i;
        prod *= (i % 1000 == 0) ? 2 : 1; /* 2^10 */
        mn = i - 5000 < mn ? i - 5000 : mn;
        mx = 3 * i > mx ? 3 * i : mx;
        band &= ~(1 << (i % 20)) | (i < 20 ? 0 : ~0); /* clears bits 0..19 */
        bor |= 1 << (i % 25);
        bxor ^= i;
        land = land && (i >= 0);
        land0 = land0 && (i != 4321);
        lor = lor || (i < 0);
        lor1 = lor1 || (i == 9876);
        dsum += 0.5;
        dprod *= (i % 2000 == 0) ? 0.5 : 1.0; /* 2^-5 */
        dmin = i * 0.25 < dmin ? i * 0.25 : dmin;
        dmax = i * 0.25 > dmax ? i * 0.25 : dmax;
        dland = dland && (i < N);
        dlor = dlor || (i > N);
    }
    int xr = 0;
    for (int i = 0; i < N; i++)
        xr ^= i;
    CHECK(sum == (long)N * (N - 1) / 2);
    CHECK(diff == -(long)N * (N - 1) / 2);
    CHECK(prod == 1024);
    CHECK(mn == -5000 && mx == 3 * (N - 1));
    CHECK(band == ~((1 << 20) - 1));
    CHECK(bor == (1 << 25) - 1);
    CHECK(bxor == xr);
    CHECK(land == 1 && land0 == 0 && lor == 0 && lor1 == 1);
    CHECK(dsum == 0.5 * N && dprod == 1.0 / 32);
    CHECK(dmin == 0.0 && dmax == (N - 1) * 0.25);
    CHECK(dland == 1.0 && dlor == 0.0);
}

static void test_parallel_and_sections(int nt)
{
    int s = 0, p = 1, m = 0;
#pragma omp parallel num_threads(nt) reduction(+ : s) reduction(* : p) reduction(max : m)
    {
        s += omp_get_thread_num() + 1;
        p *= 2;
        m = omp_get_thread_num();
    }
    CHECK(s == nt * (nt + 1) / 2 && p == 1 << nt && m == nt - 1);

    int sec = 0;
#pragma omp parallel num_threads(nt)
#pragma omp sections reduction(+ : sec)
    {
#pragma omp section
        sec += 1;
#pragma omp section
        sec += 10;
#pragma omp section
        sec += 100;
    }
    CHECK(sec == 111);

    /* Reduction on an orphaned for with nowait, then a barrier. */
    long total = 0;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for reduction(+ : total) nowait
        for (int i = 1; i <= 100; i++)
            total += i;
#pragma omp barrier
    }
    CHECK(total == 5050);
}

static void test_arrays_and_udr(int nt)
{
    long hist[10] = {0};
    double dh[4] = {0};
#pragma omp parallel for num_threads(nt) reduction(+ : hist[0:10], dh)
    for (int i = 0; i < N; i++) {
        hist[i % 10]++;
        dh[i % 4] += 1.0;
    }
    for (int k = 0; k < 10; k++)
        CHECK(hist[k] == N / 10);
    for (int k = 0; k < 4; k++)
        CHECK(dh[k] == N / 4);

    struct mm r = {LONG_MAX, LONG_MIN, 0};
    unsigned long long bits = 0;
#pragma omp parallel for num_threads(nt) reduction(minmax : r) reduction(bits : bits)
    for (int i = 0; i < N; i++) {
        long v = (long)((i * 7919L) % N) - 100;
        struct mm one = {v, v, 1};
        r = mm_merge(r, one);
        bits |= 1ULL << (i % 64);
    }
    CHECK(r.min == -100 && r.max == N - 101 && r.n == N);
    CHECK(bits == ~0ULL);
}

int main(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        test_for(nt);
        test_parallel_and_sections(nt);
        test_arrays_and_udr(nt);
    }
    printf("omp_reduction: ok\n");
    return 0;
}
