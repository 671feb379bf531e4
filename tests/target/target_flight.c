/* Target constructs in the flight log (src/trace: target_begin, target_end,
 * target_data).  Runs a known series of constructs and device memory
 * operations and prints, for each, the records the log must hold on this
 * thread, in order:
 *     expect NAME KIND DEVICE [BYTES]
 * then runs target tasks on a team and prints "expect_tasks N BYTES" (each
 * one, on whichever thread ran it: begin 0, alloc, to, from, free, end 0).
 * target_flight.py runs it with PVOMP_TRACE and compares with the log. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "pvomp_check.h"

enum { REGION = 0, DATA = 1, ENTER = 2, EXIT = 3, UPDATE = 4, TO = 5, FROM = 6, ALLOC = 7,
       FREE = 8 };
#define N 100
#define TASKS 4

static void expect(const char *name, int kind, int device)
{
    printf("expect %s %d %d\n", name, kind, device);
}

static void expect_data(int kind, int device, size_t bytes)
{
    printf("expect target_data %d %d %zu\n", kind, device, bytes);
}

int main(void)
{
    static int a[N], b[N], c[N];
    int host = omp_get_initial_device();
    CHECK(omp_get_num_devices() == 1 && omp_get_default_device() == 0 && host == 1);
    for (int i = 0; i < N; i++)
        a[i] = b[i] = c[i] = i;

    /* A target region: map (alloc + copy in), kernel, copy out + free. */
#pragma omp target map(tofrom : a[0:N])
    for (int i = 0; i < N; i++)
        a[i] += 1;
    CHECK(a[N - 1] == N);
    expect("target_begin", REGION, 0);
    expect_data(ALLOC, 0, sizeof a);
    expect_data(TO, 0, sizeof a);
    expect_data(FROM, 0, sizeof a);
    expect_data(FREE, 0, sizeof a);
    expect("target_end", REGION, 0);

    /* A data region around an update and a target region that finds b
     * present (no copies of its own). */
#pragma omp target data map(to : b[0:N])
    {
#pragma omp target map(tofrom : b[0:N])
        b[0] = -1;
#pragma omp target update from(b[0:N / 2])
    }
    CHECK(b[0] == -1);
    expect("target_begin", DATA, 0);
    expect_data(ALLOC, 0, sizeof b);
    expect_data(TO, 0, sizeof b);
    expect("target_begin", REGION, 0);
    expect("target_end", REGION, 0);
    expect("target_begin", UPDATE, 0);
    expect_data(FROM, 0, sizeof b / 2);
    expect("target_end", UPDATE, 0);
    expect_data(FREE, 0, sizeof b);
    expect("target_end", DATA, 0);

    /* enter data / exit data. */
#pragma omp target enter data map(to : c[0:N])
#pragma omp target exit data map(from : c[0:N])
    expect("target_begin", ENTER, 0);
    expect_data(ALLOC, 0, sizeof c);
    expect_data(TO, 0, sizeof c);
    expect("target_end", ENTER, 0);
    expect("target_begin", EXIT, 0);
    expect_data(FROM, 0, sizeof c);
    expect_data(FREE, 0, sizeof c);
    expect("target_end", EXIT, 0);

    /* Host fallback: the construct, on the initial device, no data. */
    int on_host = 0;
#pragma omp target if (0) map(from : on_host)
    on_host = omp_is_initial_device();
    CHECK(on_host);
    expect("target_begin", REGION, host);
    expect("target_end", REGION, host);

    /* The device memory routines. */
    int *p = omp_target_alloc(sizeof a, 0);
    CHECK(p != NULL);
    CHECK(omp_target_memcpy(p, a, sizeof a, 0, 0, 0, host) == 0);
    CHECK(omp_target_memcpy(b, p, sizeof b, 0, 0, host, 0) == 0);
    omp_target_free(p, 0);
    CHECK(memcmp(a, b, sizeof a) == 0);
    expect_data(ALLOC, 0, sizeof a);
    expect_data(TO, 0, sizeof a);
    expect_data(FROM, 0, sizeof b);
    expect_data(FREE, 0, 0);
    fflush(stdout);

    /* Target tasks on a team (nowait): each one on the thread that runs it. */
    static int t[TASKS][N];
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int k = 0; k < TASKS; k++) {
#pragma omp target nowait map(tofrom : t[k][0:N]) firstprivate(k)
        t[k][0] = k + 1;
    }
    for (int k = 0; k < TASKS; k++)
        CHECK(t[k][0] == k + 1);
    printf("expect_tasks %d %zu\n", TASKS, sizeof t[0]);
    return 0;
}
