/* Atomics: update, capture, read, write and compare forms on int, long,
 * float and double (which gcc turns into lock-free instructions), and on
 * long double and __int128, which gcc lowers to GOMP_atomic_start and
 * GOMP_atomic_end on x86-64.  Results must be exact. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define ITERS 20000

static int ci;
static long cl;
static float cf;
static double cd;
static long double cld;
static __int128 cq;
static int maxv;
static long double ld_max;

static void test_updates(int nt)
{
    ci = 0, cl = 0, cf = 0, cd = 0, cld = 0, cq = 0;
#pragma omp parallel num_threads(nt)
    for (int i = 0; i < ITERS; i++) {
#pragma omp atomic
        ci++;
#pragma omp atomic update
        cl += 3;
#pragma omp atomic
        cf += 1.0f;
#pragma omp atomic
        cd += 0.5;
#pragma omp atomic
        cld += 0.25L;
#pragma omp atomic
        cq += (__int128)1 << 70;
    }
    long n = (long)nt * ITERS;
    CHECK(ci == n);
    CHECK(cl == 3 * n);
    CHECK(cf == (float)n); /* exact: n < 2^24 */
    CHECK(cd == 0.5 * n);
    CHECK(cld == 0.25L * n);
    CHECK(cq == ((__int128)n << 70));
}

/* Capture: every thread gets a distinct old value; together they are
 * exactly 0..n-1. */
static void test_capture(int nt)
{
    static char seen_i[4 * ITERS], seen_q[4 * ITERS], seen_ld[4 * ITERS];
    long n = (long)nt * ITERS;
    memset(seen_i, 0, sizeof seen_i);
    memset(seen_q, 0, sizeof seen_q);
    memset(seen_ld, 0, sizeof seen_ld);
    ci = 0, cq = 0, cld = 0;
    int bad = 0;
#pragma omp parallel num_threads(nt)
    for (int i = 0; i < ITERS; i++) {
        int oi;
        __int128 oq;
        long double old;
#pragma omp atomic capture
        oi = ci++;
#pragma omp atomic capture
        {
            oq = cq;
            cq += 1;
        }
#pragma omp atomic capture
        {
            cld += 1.0L;
            old = cld;
        }
        if (oi < 0 || oi >= n || oq < 0 || oq >= n || old < 1 || old > n)
            TEST_INC(&bad);
        else {
            TEST_INC(&seen_i[oi]);
            TEST_INC(&seen_q[(long)oq]);
            TEST_INC(&seen_ld[(long)old - 1]);
        }
    }
    CHECK(bad == 0);
    for (long k = 0; k < n; k++)
        CHECK(seen_i[k] == 1 && seen_q[k] == 1 && seen_ld[k] == 1);
}

/* Read and write of a 16-byte long double are never torn: a reader sees
 * one of the values written, never a mix. */
static void test_read_write(void)
{
    static const long double vals[2] = {1.0L / 3.0L, -12345.678901234567L};
    long double shared = vals[0];
    int torn = 0;
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        for (int i = 0; i < ITERS; i++) {
            if (me % 2 == 0) {
#pragma omp atomic write
                shared = vals[(i + me / 2) % 2];
            } else {
                long double v;
#pragma omp atomic read
                v = shared;
                if (memcmp(&v, &vals[0], 10) != 0 && memcmp(&v, &vals[1], 10) != 0)
                    TEST_INC(&torn);
            }
        }
    }
    CHECK(torn == 0);
}

/* OpenMP 5.1 atomic compare: a running maximum. */
static void test_compare(void)
{
    maxv = -1;
    ld_max = -1;
#pragma omp parallel for num_threads(4)
    for (int i = 0; i < 50000; i++) {
        int v = (i * 7919) % 50000;
        long double lv = v;
#pragma omp atomic compare
        if (maxv < v) {
            maxv = v;
        }
#pragma omp atomic compare
        if (ld_max < lv) {
            ld_max = lv;
        }
    }
    CHECK(maxv == 49999);
    CHECK(ld_max == 49999.0L);
}

int main(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        test_updates(nt);
        test_capture(nt);
    }
    test_read_write();
    test_compare();
    printf("omp_atomic: ok\n");
    return 0;
}
