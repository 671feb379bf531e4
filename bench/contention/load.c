/* The load of bench/contention's scenarios (not an OpenMP program):
 *
 *   load count               a busy co-runner: counts loop iterations until
 *                            SIGTERM, then prints "COUNT <iterations> <seconds>"
 *   load inject CPU BUSY_US PERIOD_US
 *                            a SCHED_FIFO injector on CPU: busy BUSY_US of
 *                            every PERIOD_US (absolute periods) until SIGTERM
 *
 * Pinning of the co-runner is done from outside (taskset). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int count(void)
{
    uint64_t t0 = now_ns(), n = 0;
    while (!stop) {
        for (int i = 0; i < 1000; i++)
            __asm__ volatile("" ::: "memory");
        n += 1000;
    }
    printf("COUNT %llu %.6f\n", (unsigned long long)n, (double)(now_ns() - t0) / 1e9);
    return 0;
}

static int inject(int cpu, long busy_us, long period_us)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    struct sched_param sp = { .sched_priority = 20 };
    if (sched_setaffinity(0, sizeof(s), &s) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
        perror("load inject: CPU affinity or SCHED_FIFO (needs root)");
        return 1;
    }
    uint64_t next = now_ns();
    while (!stop) {
        uint64_t end = next + (uint64_t)busy_us * 1000;
        while (now_ns() < end && !stop)
            ;
        next += (uint64_t)period_us * 1000;
        struct timespec ts = { (time_t)(next / 1000000000ull), (long)(next % 1000000000ull) };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct sigaction sa = { .sa_handler = on_term };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (argc == 2 && strcmp(argv[1], "count") == 0)
        return count();
    if (argc == 5 && strcmp(argv[1], "inject") == 0)
        return inject(atoi(argv[2]), atol(argv[3]), atol(argv[4]));
    fprintf(stderr, "usage: load count | load inject CPU BUSY_US PERIOD_US\n");
    return 2;
}
