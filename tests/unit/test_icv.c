/* The ICV routines with libgomp 12's edge cases, ICVs per task, the timer,
 * host-only device answers and omp_pause_resource. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <time.h>

#include "pvomp_check.h"

static void threads_dynamic_nested(void)
{
    omp_set_num_threads(4);
    CHECK(omp_get_max_threads() == 4);
    omp_set_num_threads(0); /* below 1 means 1 */
    CHECK(omp_get_max_threads() == 1);
    omp_set_num_threads(-5);
    CHECK(omp_get_max_threads() == 1);
    omp_set_num_threads(2);

    omp_set_dynamic(5);
    CHECK(omp_get_dynamic() == 1);
    omp_set_dynamic(0);
    CHECK(omp_get_dynamic() == 0);

    CHECK(omp_get_max_active_levels() == 1);
    CHECK(omp_get_nested() == 0);
    omp_set_nested(1);
    CHECK(omp_get_max_active_levels() == 255 && omp_get_nested() == 1);
    omp_set_nested(0);
    CHECK(omp_get_max_active_levels() == 1 && omp_get_nested() == 0);
    omp_set_max_active_levels(-1); /* ignored */
    CHECK(omp_get_max_active_levels() == 1);
    omp_set_max_active_levels(1000);
    CHECK(omp_get_max_active_levels() == 255);
    omp_set_max_active_levels(0);
    CHECK(omp_get_max_active_levels() == 0);
    omp_set_nested(0); /* does not raise 0 */
    CHECK(omp_get_max_active_levels() == 0);
    omp_set_max_active_levels(3);
    CHECK(omp_get_supported_active_levels() == 255);
    /* omp_get_nested: only while another active level is allowed */
    omp_set_max_active_levels(2);
    int inner = -1, outer = -1;
#pragma omp parallel num_threads(2)
    {
#pragma omp master
        {
            outer = omp_get_nested();
#pragma omp parallel num_threads(2)
#pragma omp master
            inner = omp_get_nested();
        }
    }
    CHECK(outer == 1 && inner == 0);
    omp_set_max_active_levels(1);
}

static void schedule(void)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_dynamic && c == 1);
    omp_set_schedule(omp_sched_static, 0);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_static && c == 0);
    omp_set_schedule(omp_sched_static, -5);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_static && c == 0);
    omp_set_schedule(omp_sched_dynamic, 0);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_dynamic && c == 1);
    omp_set_schedule(omp_sched_guided, 9);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_guided && c == 9);
    omp_set_schedule(omp_sched_auto, 7); /* auto keeps the chunk */
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_auto && c == 9);
    omp_set_schedule((omp_sched_t)9, 3); /* unknown kind: ignored */
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_auto && c == 9);
    omp_set_schedule((omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 3);
    omp_get_schedule(&k, &c);
    CHECK((unsigned)k == (0x80000000u | 2) && c == 3);
    omp_set_schedule(omp_sched_dynamic, 1);
}

static void limits_devices_teams(void)
{
    CHECK(omp_get_thread_limit() == 2147483647);
    CHECK(omp_get_cancellation() == 0);
    CHECK(omp_get_max_task_priority() == 0);
    CHECK(omp_get_num_devices() == 1);   /* device 0: src/target's host device */
    CHECK(omp_get_initial_device() == 1);
    CHECK(omp_get_device_num() == 1);
    CHECK(omp_is_initial_device() == 1);
    CHECK(omp_get_default_device() == 0);
    omp_set_default_device(2);
    CHECK(omp_get_default_device() == 2);
    omp_set_default_device(-3);
    CHECK(omp_get_default_device() == 0);
    CHECK(omp_get_max_teams() == 0 && omp_get_teams_thread_limit() == 0);
    omp_set_num_teams(5);
    omp_set_num_teams(-1); /* ignored */
    CHECK(omp_get_max_teams() == 5);
    omp_set_teams_thread_limit(3);
    omp_set_teams_thread_limit(-2);
    CHECK(omp_get_teams_thread_limit() == 3);
    omp_set_num_teams(0);
    omp_set_teams_thread_limit(0);

    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
    CHECK(omp_get_num_procs() == CPU_COUNT(&mask));
}

/* ICVs belong to the data environment of a task. */
static void per_task(void)
{
    omp_set_num_threads(3);
    int seen[2] = {0, 0};
    int dyn[2] = {-1, -1};
#pragma omp parallel num_threads(2)
    {
        int id = omp_get_thread_num();
        if (id == 1) {
            omp_set_num_threads(7);
            omp_set_dynamic(1);
        }
#pragma omp barrier
        seen[id] = omp_get_max_threads();
        dyn[id] = omp_get_dynamic();
    }
    CHECK(seen[0] == 3 && seen[1] == 7);
    CHECK(dyn[0] == 0 && dyn[1] == 1);
    CHECK(omp_get_max_threads() == 3 && omp_get_dynamic() == 0);
}

static void timer(void)
{
    double t0 = omp_get_wtime(), tick = omp_get_wtick();
    CHECK(tick > 0 && tick < 0.01);
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    double t1 = omp_get_wtime();
    CHECK(t1 - t0 >= 0.0019);
}

static void pause_resource(void)
{
    CHECK(omp_pause_resource((omp_pause_resource_t)0, omp_get_initial_device()) != 0);
    CHECK(omp_pause_resource((omp_pause_resource_t)3, omp_get_initial_device()) != 0);
    CHECK(omp_pause_resource_all((omp_pause_resource_t)7) != 0);
    CHECK(omp_pause_resource(omp_pause_soft, 2) != 0); /* no such device */
    CHECK(omp_pause_resource(omp_pause_soft, -1) != 0);
    int inside = 0;
#pragma omp parallel num_threads(2)
#pragma omp master
    inside = omp_pause_resource(omp_pause_soft, omp_get_initial_device());
    CHECK(inside != 0); /* not from inside a parallel region */
    CHECK(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0);
    CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n++;
    CHECK(n == 2); /* regions still run after a pause */
}

int main(void)
{
    threads_dynamic_nested();
    schedule();
    limits_devices_teams();
    per_task();
    timer();
    pause_resource();
    printf("ICV routines: all checks passed\n");
    return 0;
}
