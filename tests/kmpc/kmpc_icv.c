/* libomp's implementation-defined answers for a clang program
 * (src/api/kmpc_answers.c): no offload device, run-sched-var as libomp shows
 * it and schedule(runtime) running that schedule, OMP_SCHEDULE set by
 * setenv before the first OpenMP call, libomp's default affinity format.
 * Runs on pvomp (pvomp_check.h proves it).  PVOMP_TEST_SCHED: the kind and
 * chunk omp_get_schedule must report first ("1,0"); PVOMP_TEST_SETENV: a
 * value main puts in OMP_SCHEDULE first. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pvomp_check.h"

#define N 120

/* Which thread ran each iteration of a schedule(runtime) loop, 2 threads. */
static int owner[N];

static void run_loop(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++)
            owner[i] = omp_get_thread_num();
    }
}

/* Runs of one owner: with static unchunked, one per thread. */
static int runs(void)
{
    int r = 1;
    for (int i = 1; i < N; i++)
        r += owner[i] != owner[i - 1];
    return r;
}

int main(void)
{
    const char *set = getenv("PVOMP_TEST_SETENV");
    if (set)
        setenv("OMP_SCHEDULE", set, 1);
    const char *want = getenv("PVOMP_TEST_SCHED");
    CHECK(want != NULL);
    int want_kind = 0, want_chunk = 0;
    CHECK(sscanf(want, "%d,%d", &want_kind, &want_chunk) == 2);

    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    printf("omp_get_schedule: %d,%d (expected %d,%d)\n", (int)kind, chunk, want_kind, want_chunk);
    CHECK((int)kind == want_kind && chunk == want_chunk);
    run_loop();
    if (want_kind == omp_sched_static && want_chunk == 0) {
        printf("static: %d runs of one thread (expected 2)\n", runs());
        CHECK(runs() == 2 && owner[0] == 0 && owner[N - 1] == 1);
    } else if (want_kind == omp_sched_static) {
        for (int i = 0; i < N; i++)
            CHECK(owner[i] == (i / want_chunk) % 2);
    }

    /* A value set is reported as set, the monotonic modifier too. */
    omp_set_schedule((omp_sched_t)(omp_sched_static | omp_sched_monotonic), 0);
    omp_get_schedule(&kind, &chunk);
    CHECK((unsigned)kind == (omp_sched_static | omp_sched_monotonic) && chunk == 0);
    omp_set_schedule(omp_sched_static, 5);
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == omp_sched_static && chunk == 5);
    run_loop();
    for (int i = 0; i < N; i++)
        CHECK(owner[i] == (i / 5) % 2);

    /* libomp's own kinds: 101 (trapezoidal) is shown as set, the modifier
     * too, and its loops run (guided); 102 (static_steal) runs, and is
     * shown, as dynamic, as OMP_SCHEDULE=static_steal (libomp 14 takes 102,
     * then its omp_get_schedule stops the program). */
    omp_set_schedule((omp_sched_t)101, 4);
    omp_get_schedule(&kind, &chunk);
    printf("set 101,4: %d,%d (expected 101,4)\n", (int)kind, chunk);
    CHECK((int)kind == 101 && chunk == 4);
    for (int i = 0; i < N; i++)
        owner[i] = -1;
    run_loop();
    for (int i = 0; i < N; i++)
        CHECK(owner[i] == 0 || owner[i] == 1);
    omp_set_schedule((omp_sched_t)(101 | omp_sched_monotonic), 0);
    omp_get_schedule(&kind, &chunk);
    printf("set 101|monotonic,0: %#x,%d (expected 0x80000065,1)\n", (unsigned)kind, chunk);
    CHECK((unsigned)kind == (101 | omp_sched_monotonic) && chunk == 1);
    omp_set_schedule((omp_sched_t)102, 3);
    omp_get_schedule(&kind, &chunk);
    printf("set 102,3: %d,%d (expected 2,3)\n", (int)kind, chunk);
    CHECK(kind == omp_sched_dynamic && chunk == 3);
    for (int i = 0; i < N; i++)
        owner[i] = -1;
    run_loop();
    for (int i = 0; i < N; i++)
        CHECK(owner[i] == 0 || owner[i] == 1);
    omp_set_schedule((omp_sched_t)103, 7); /* unknown: ignored */
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == omp_sched_dynamic && chunk == 3);

    /* No offload device: the host is the initial device, number 0. */
    printf("devices %d, initial %d, device_num %d\n", omp_get_num_devices(),
           omp_get_initial_device(), omp_get_device_num());
    CHECK(omp_get_num_devices() == 0);
    CHECK(omp_get_initial_device() == 0 && omp_get_device_num() == 0);
    CHECK(omp_pause_resource(omp_pause_soft, 0) == 0);
    CHECK(omp_pause_resource(omp_pause_soft, 1) != 0);

    /* libomp's default affinity format; %i the thread's kernel id. */
    char buf[256];
    omp_get_affinity_format(buf, sizeof buf);
    printf("default affinity format: %s\n", buf);
    CHECK(strcmp(buf, "OMP: pid %P tid %i thread %n bound to OS proc set {%A}") == 0);
    omp_capture_affinity(buf, sizeof buf, "%i");
    CHECK(atol(buf) == (long)syscall(SYS_gettid));
    printf("PASS\n");
    return 0;
}
