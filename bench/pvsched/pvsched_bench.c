/* pvsched benchmark: a barrier-heavy loop, measured as wall time per barrier
 * (total time / barriers, so that stalls count), with optional load:
 *
 *   pvsched_bench [--threads N] [--pin] [--seconds S]
 *                 [--inject CPU --busy-us B --period-us P]   SCHED_FIFO injector
 *                 [--phase-us F]    bursts start F us after a multiple of P
 *                                   of CLOCK_MONOTONIC (default: when started)
 *                 [--corun CPU]                              counting co-runner
 *                 [--expect-pvsched]                         fail unless pvsched is live
 *
 * Built like any gcc -fopenmp program; bench/pvsched/run.py runs it on pvomp,
 * on the system libgomp and on LLVM's libomp as libgomp.so.1.  Prints one line:
 *   RESULT runtime=<pvomp|libgomp|libomp> barriers=<n> seconds=<s> ns_per_barrier=<x>
 *          corun_per_s=<iterations per second or 0> */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <getopt.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phantom/connect.h"
#include "pvomp/phantom.h"

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof(s), &s)) {
        perror("sched_setaffinity");
        exit(1);
    }
}

struct load {
    int cpu;
    long busy_us, period_us, phase_us; /* phase_us < 0: start at once */
    _Atomic int stop;
    _Atomic uint64_t count; /* co-runner iterations */
};

/* Busy `busy_us` of every `period_us` (absolute periods, SCHED_FIFO). */
static void *injector(void *arg)
{
    struct load *l = arg;
    pin(l->cpu);
    struct sched_param sp = { .sched_priority = 20 };
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
        fprintf(stderr, "pvsched_bench: SCHED_FIFO needs root\n");
        exit(1);
    }
    uint64_t next = now_ns();
    if (l->phase_us >= 0) {
        /* The kernel's tick is a fixed grid of CLOCK_MONOTONIC too: a burst
         * grid at a chosen offset from it makes the scenario repeatable. */
        uint64_t period = (uint64_t)l->period_us * 1000;
        next = (next / period + 1) * period + (uint64_t)l->phase_us * 1000 % period;
        struct timespec ts = { (time_t)(next / 1000000000ull), (long)(next % 1000000000ull) };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    while (!atomic_load_explicit(&l->stop, memory_order_relaxed)) {
        uint64_t end = next + (uint64_t)l->busy_us * 1000;
        while (now_ns() < end)
            ;
        next += (uint64_t)l->period_us * 1000;
        struct timespec ts = { (time_t)(next / 1000000000ull), (long)(next % 1000000000ull) };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    return NULL;
}

static void *corunner(void *arg)
{
    struct load *l = arg;
    pin(l->cpu);
    uint64_t n = 0;
    while (!atomic_load_explicit(&l->stop, memory_order_relaxed)) {
        for (int i = 0; i < 1024; i++)
            __asm__ volatile("" ::: "memory");
        n += 1024;
        atomic_store_explicit(&l->count, n, memory_order_relaxed);
    }
    return NULL;
}

static bool pvsched_live(void)
{
    char why[300];
    uint32_t n;
    int fd = pv_phantomd_request(pv_phantomd_socket_path(), PVOMP_PHANTOMD_OP_MAP, NULL, &n, why,
                                 sizeof(why));
    if (fd < 0) {
        fprintf(stderr, "pvsched_bench: %s\n", why);
        return false;
    }
    const volatile struct pvomp_phantom_page *pg = pv_phantom_map_pages(fd, n);
    close(fd);
    if (!pg)
        return false;
    for (uint32_t i = 1; i < n; i++) {
        if (pg[i].p.pid == (uint32_t)getpid())
            return true;
    }
    fprintf(stderr, "pvsched_bench: this process has no phantom page (pvsched not live)\n");
    return false;
}

int main(int argc, char **argv)
{
    int threads = 2, inject_cpu = -1, corun_cpu = -1;
    bool do_pin = false, expect_pvsched = false;
    double seconds = 2.0;
    long busy_us = 4000, period_us = 8000, phase_us = -1;
    static const struct option opts[] = {
        { "threads", required_argument, NULL, 't' }, { "pin", no_argument, NULL, 'p' },
        { "seconds", required_argument, NULL, 's' }, { "inject", required_argument, NULL, 'i' },
        { "busy-us", required_argument, NULL, 'b' }, { "period-us", required_argument, NULL, 'P' },
        { "corun", required_argument, NULL, 'c' }, { "phase-us", required_argument, NULL, 'f' },
        { "expect-pvsched", no_argument, NULL, 'e' }, { 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 't': threads = atoi(optarg); break;
        case 'p': do_pin = true; break;
        case 's': seconds = atof(optarg); break;
        case 'i': inject_cpu = atoi(optarg); break;
        case 'b': busy_us = atol(optarg); break;
        case 'P': period_us = atol(optarg); break;
        case 'c': corun_cpu = atoi(optarg); break;
        case 'f': phase_us = atol(optarg); break;
        case 'e': expect_pvsched = true; break;
        default: return 2;
        }
    }
    const char *runtime = dlsym(RTLD_DEFAULT, "pvomp_version")     ? "pvomp"
                          : dlsym(RTLD_DEFAULT, "__kmpc_fork_call") ? "libomp"
                                                                    : "libgomp";
    if (expect_pvsched && !pvsched_live())
        return 1;
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

    /* Warm up the team (pool threads created and registered). */
#pragma omp parallel num_threads(threads)
    {
        if (do_pin)
            pin(omp_get_thread_num() % ncpu);
#pragma omp barrier
    }

    static struct load inj, cor;
    pthread_t ti, tc;
    if (inject_cpu >= 0) {
        inj = (struct load){ .cpu = inject_cpu, .busy_us = busy_us, .period_us = period_us,
                             .phase_us = phase_us };
        pthread_create(&ti, NULL, injector, &inj);
    }
    if (corun_cpu >= 0) {
        cor = (struct load){ .cpu = corun_cpu };
        pthread_create(&tc, NULL, corunner, &cor);
    }
    usleep(100000); /* let the load settle */

    static _Atomic int stop;
    long iterations = 0;
    uint64_t c0 = atomic_load(&cor.count), t0 = now_ns();
    uint64_t end = t0 + (uint64_t)(seconds * 1e9);
#pragma omp parallel num_threads(threads)
    {
        bool master = omp_get_thread_num() == 0;
        for (long i = 0;; i++) {
            if (master && (i & 63) == 0 && now_ns() > end)
                atomic_store_explicit(&stop, 1, memory_order_relaxed);
#pragma omp barrier
            if (atomic_load_explicit(&stop, memory_order_relaxed))
                break;
#pragma omp barrier
            if (master)
                iterations = i + 1;
        }
    }
    uint64_t t1 = now_ns(), c1 = atomic_load(&cor.count);
    atomic_store(&inj.stop, 1);
    atomic_store(&cor.stop, 1);
    if (inject_cpu >= 0)
        pthread_join(ti, NULL);
    if (corun_cpu >= 0)
        pthread_join(tc, NULL);

    long barriers = 2 * iterations + 1;
    double secs = (double)(t1 - t0) / 1e9;
    printf("RESULT runtime=%s barriers=%ld seconds=%.3f ns_per_barrier=%.1f corun_per_s=%.0f\n",
           runtime, barriers, secs, (double)(t1 - t0) / (double)barriers,
           corun_cpu >= 0 ? (double)(c1 - c0) / secs : 0.0);
    return 0;
}
