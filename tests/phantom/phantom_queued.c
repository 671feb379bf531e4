/* The tracker's "another task waits for this CPU" word (queued_since_ns in
 * the process page, read by pvsched's slice rule), with plain pthreads that
 * call pvomp_phantom_register directly, on CPU 0 (the observer runs on 1):
 *   A. a registered thread busy alone on its CPU: the word stays 0;
 *   B. with an unregistered busy thread on the same CPU the two take turns:
 *      while the registered one runs the word holds its switch-in time
 *      (nonzero, in the past, new at every turn), else 0;
 *   C. once the registered thread has exited, the word is 0. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "phtest.h"

static void (*reg)(void);
static _Atomic int stop, started;

static void *busy_cpu0(void *arg)
{
    bool registered = arg != NULL;
    ph_pin_cpu(0);
    if (registered)
        reg();
    atomic_fetch_add(&started, 1);
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        ;
    return NULL;
}

struct sample {
    long samples, nonzero, distinct, bad;
};

/* Samples the word of CPU 0 for `ms` milliseconds. */
static struct sample watch(ph_proc_t *page, int ms)
{
    struct sample s = { 0 };
    uint64_t last = 0, end = ph_now_ns() + (uint64_t)ms * 1000000ull;
    while (ph_now_ns() < end) {
        uint64_t v = page->queued_since_ns[0];
        uint64_t now = ph_now_ns();
        s.samples++;
        if (v) {
            s.nonzero++;
            s.bad += v > now || now - v > 1000000000ull; /* not a recent switch-in */
            s.distinct += v != last;
            last = v;
        }
    }
    return s;
}

int main(void)
{
    PH_CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
    ph_start_daemon();
    reg = ph_load_pvomp();
    ph_pin_cpu(1);

    pthread_t t, other;
    PH_CHECK(pthread_create(&t, NULL, busy_cpu0, (void *)1) == 0);
    while (atomic_load(&started) < 1)
        usleep(1000);
    ph_proc_t *page = ph_find(getpid());
    PH_CHECK(page != NULL);
    usleep(20000);
    struct sample a = watch(page, 200);
    printf("A: registered thread alone on CPU 0: word nonzero in %ld of %ld samples\n",
           a.nonzero, a.samples);
    /* A stray kernel thread may queue behind it for a moment. */
    PH_CHECK(a.samples > 1000 && a.nonzero * 20 < a.samples);

    PH_CHECK(pthread_create(&other, NULL, busy_cpu0, NULL) == 0);
    while (atomic_load(&started) < 2)
        usleep(1000);
    usleep(20000);
    struct sample b = watch(page, 400);
    printf("B: with an unregistered busy thread: word nonzero in %ld of %ld samples, "
           "%ld distinct switch-in times, %ld implausible\n",
           b.nonzero, b.samples, b.distinct, b.bad);
    PH_CHECK(b.bad == 0);
    PH_CHECK(b.nonzero * 5 > b.samples && b.nonzero < b.samples); /* turns: ~1/2 */
    PH_CHECK(b.distinct >= 10); /* a turn is a few ms: ~100 in 400 ms */

    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    pthread_join(other, NULL);
    struct sample c = watch(page, 50);
    printf("C: both gone: word nonzero in %ld of %ld samples\n", c.nonzero, c.samples);
    PH_CHECK(c.nonzero == 0);
    printf("PASS\n");
    return 0;
}
