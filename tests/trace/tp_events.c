/* Emits the events of tests/trace/test-events in patterns that the driver
 * (trace_test.py) checks in the log:
 *
 *   tp_events basic  THREADS N   every thread: N x tp_seq, strings (one cut, one NULL)
 *   tp_events drops  THREADS N   N x tp_seq per thread as fast as possible
 *   tp_events kill   N M         N events, flush, M more, then SIGKILL itself
 *   tp_events pause  N MS M      N events, flush, a pause of MS ms, M more
 *   tp_events order  ROUNDS      ping-pong between two threads
 *   tp_events churn  THREADS N   THREADS short-lived threads, 4 at a time
 *   tp_events busy   THREADS     emit until killed
 *   tp_events select             one of each event (for PVOMP_TRACE_EVENTS)
 *   tp_events crash THREADS N HOW  every thread N x tp_seq, then main N more and dies:
 *                                HOW segv (a store through NULL), abort,
 *                                bus (raise), fpe (raise)
 *   tp_events exitrace THREADS MS FILE  THREADS threads record tp_seq
 *                                through pvomp_trace_begin/commit without
 *                                pause while main calls exit() after MS ms;
 *                                each counts its records begun and dropped
 *                                in FILE (two u64 per thread, shared mapping:
 *                                the counts outlive the process)
 *
 * It prints what it generated as "generated NAME COUNT" lines. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "pvomp_check.h"
#include "tp-trace.h"

static unsigned nthreads;
static uint64_t per_thread;
static _Atomic uint64_t gen_seq, gen_str;

static void *basic_thread(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    char longstr[2000];
    memset(longstr, 'x', sizeof longstr - 1);
    longstr[sizeof longstr - 1] = 0;
    for (uint64_t i = 0; i < per_thread; i++) {
        trace_tp_seq(id, i);
        if (i % 1000 == 0) {
            /* Short, over-long (cut at 512 and marked) and NULL strings. */
            const char *s = (i / 1000) % 3 == 0 ? "hello \"world\"" : (i / 1000) % 3 == 1 ? longstr : NULL;
            trace_tp_str(id, s, i);
            atomic_fetch_add(&gen_str, 1);
        }
    }
    atomic_fetch_add(&gen_seq, per_thread);
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t *t = calloc(nthreads, sizeof *t);
    CHECK(t);
    for (unsigned i = 0; i < nthreads; i++)
        CHECK(pthread_create(&t[i], NULL, fn, (void *)(uintptr_t)i) == 0);
    for (unsigned i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    free(t);
}

static void *drops_thread(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    for (uint64_t i = 0; i < per_thread; i++)
        trace_tp_seq(id, i);
    atomic_fetch_add(&gen_seq, per_thread);
    return NULL;
}

static _Atomic uint64_t token;
static uint64_t rounds;

static void *pong_thread(void *arg)
{
    (void)arg;
    for (uint64_t r = 0; r < rounds; r++) {
        while (atomic_load_explicit(&token, memory_order_acquire) != 2 * r + 1)
            ;
#if defined(__x86_64__)
        /* Keep the TSC read after the load that saw the token (rdtsc is not
         * ordered with loads; see docs/trace.md on cross-thread order). */
        _mm_lfence();
#endif
        trace_tp_pong(r);
        atomic_store_explicit(&token, 2 * r + 2, memory_order_release);
    }
    return NULL;
}

/* exitrace: per thread, records accepted by pvomp_trace_begin (counted
 * after their commit) and records refused while the log was open (dropped).
 * A refusal once the log is closing is not an event; the thread stops. */
static _Atomic uint64_t *exit_counts;

static void *exitrace_thread(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    _Atomic uint64_t *begun = &exit_counts[2 * id], *dropped = &exit_counts[2 * id + 1];
    for (uint64_t i = 0;; i++) {
        uint8_t *rec = pvomp_trace_begin(pvt_tp_catalog.base_id + 0, PVOMP_TRACE_EVENT_HDR + 16u, 0u);
        if (!rec) {
            if (!pvomp_trace_active())
                return NULL;
            atomic_fetch_add_explicit(dropped, 1, memory_order_relaxed);
            continue;
        }
        uint8_t *p = pvomp_trace_put_u64(rec + PVOMP_TRACE_EVENT_HDR, id);
        pvomp_trace_put_u64(p, i);
        pvomp_trace_commit();
        atomic_fetch_add_explicit(begun, 1, memory_order_relaxed);
    }
}

static void *busy_thread(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    for (uint64_t i = 0;; i++) {
        trace_tp_seq(id, i);
        if (i % 64 == 0)
            usleep(10);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "basic";
    CHECK(omp_get_max_threads() >= 1); /* libgomp.so.1 is pvomp (pvomp_check.h) */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(mode, "basic") || !strcmp(mode, "drops")) {
        CHECK(argc == 4);
        nthreads = (unsigned)atoi(argv[2]);
        per_thread = strtoull(argv[3], NULL, 10);
        run_threads(!strcmp(mode, "basic") ? basic_thread : drops_thread);
        printf("generated tp_seq %llu\n", (unsigned long long)gen_seq);
        printf("generated tp_str %llu\n", (unsigned long long)gen_str);
    } else if (!strcmp(mode, "kill")) {
        CHECK(argc == 4);
        uint64_t n = strtoull(argv[2], NULL, 10), m = strtoull(argv[3], NULL, 10);
        for (uint64_t i = 0; i < n; i++)
            trace_tp_seq(0, i);
        pvomp_trace_flush_if_available();
        printf("generated tp_seq %llu\n", (unsigned long long)n);
        printf("unflushed tp_seq %llu\n", (unsigned long long)m);
        for (uint64_t i = 0; i < m; i++)
            trace_tp_seq(0, n + i);
        raise(SIGKILL);
    } else if (!strcmp(mode, "pause")) {
        CHECK(argc == 5);
        uint64_t n = strtoull(argv[2], NULL, 10), m = strtoull(argv[4], NULL, 10);
        for (uint64_t i = 0; i < n; i++)
            trace_tp_seq(0, i);
        pvomp_trace_flush_if_available(); /* the first part leaves the ring now */
        usleep((useconds_t)atoi(argv[3]) * 1000);
        for (uint64_t i = 0; i < m; i++)
            trace_tp_seq(0, n + i);
        printf("generated tp_seq %llu\n", (unsigned long long)(n + m));
    } else if (!strcmp(mode, "order")) {
        CHECK(argc == 3);
        rounds = strtoull(argv[2], NULL, 10);
        pthread_t t;
        CHECK(pthread_create(&t, NULL, pong_thread, NULL) == 0);
        for (uint64_t r = 0; r < rounds; r++) {
            while (atomic_load_explicit(&token, memory_order_acquire) != 2 * r)
                ;
#if defined(__x86_64__)
            _mm_lfence();
#endif
            trace_tp_ping(r);
            atomic_store_explicit(&token, 2 * r + 1, memory_order_release);
        }
        pthread_join(t, NULL);
        printf("generated tp_ping %llu\ngenerated tp_pong %llu\n", (unsigned long long)rounds,
               (unsigned long long)rounds);
    } else if (!strcmp(mode, "churn")) {
        CHECK(argc == 4);
        unsigned total = (unsigned)atoi(argv[2]);
        per_thread = strtoull(argv[3], NULL, 10);
        nthreads = 4;
        for (unsigned done = 0; done < total; done += nthreads)
            run_threads(drops_thread);
        printf("generated tp_seq %llu\n", (unsigned long long)gen_seq);
    } else if (!strcmp(mode, "busy")) {
        CHECK(argc == 3);
        nthreads = (unsigned)atoi(argv[2]);
        pthread_t t;
        for (unsigned i = 0; i < nthreads; i++)
            CHECK(pthread_create(&t, NULL, busy_thread, (void *)(uintptr_t)i) == 0);
        printf("started\n");
        for (;;)
            pause();
    } else if (!strcmp(mode, "exitrace")) {
        CHECK(argc == 5);
        nthreads = (unsigned)atoi(argv[2]);
        size_t bytes = 2 * sizeof(uint64_t) * nthreads;
        int fd = open(argv[4], O_RDWR | O_CREAT | O_TRUNC, 0644);
        CHECK(fd >= 0 && ftruncate(fd, (off_t)bytes) == 0);
        exit_counts = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        CHECK(exit_counts != MAP_FAILED);
        pthread_t t;
        for (unsigned i = 0; i < nthreads; i++)
            CHECK(pthread_create(&t, NULL, exitrace_thread, (void *)(uintptr_t)i) == 0);
        usleep((useconds_t)atoi(argv[3]) * 1000);
        exit(0); /* the threads go on recording while the log closes */
    } else if (!strcmp(mode, "crash")) {
        CHECK(argc == 5);
        nthreads = (unsigned)atoi(argv[2]);
        per_thread = strtoull(argv[3], NULL, 10);
        run_threads(drops_thread);
        /* And the main thread's last records, still in its ring (the
         * writer drains it only on a kick, a period or at exit). */
        drops_thread((void *)(uintptr_t)nthreads);
        printf("generated tp_seq %llu\n", (unsigned long long)gen_seq);
        if (!strcmp(argv[4], "segv"))
            *(volatile int *)(uintptr_t)atoi("0") = 1;
        else if (!strcmp(argv[4], "abort"))
            abort();
        else
            raise(!strcmp(argv[4], "bus") ? SIGBUS : SIGFPE);
        return 3; /* not reached */
    } else if (!strcmp(mode, "select")) {
        trace_tp_seq(0, 0);
        trace_tp_str(0, "s", 0);
        trace_tp_ping(0);
        trace_tp_pong(0);
        trace_tp_noisy(-1);
        trace_tp_void();
        trace_tp_many(-1, 2, -3, -4, 5, -6, true, (void *)0x1234, 9, "ten");
        trace_tp_disabled(1);
        printf("generated tp_seq 1\ngenerated tp_str 1\ngenerated tp_ping 1\n"
               "generated tp_pong 1\ngenerated tp_noisy 1\ngenerated tp_void 1\n"
               "generated tp_many 1\n");
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
