/* Liveness: at least 10^6 barriers under pvsched while a SCHED_FIFO injector
 * makes team threads phantoms at random (random CPU, random burst, random
 * pause), so waiters keep switching between spinning and blocking.  The
 * barriers go on until the injector has made INJECTIONS phantoms (10^6
 * barriers alone take a fraction of a second, a few dozen injections), so
 * that the whole run is under injection.  A lost wake-up would hang the
 * test; a broken barrier shows in the arrival counts. */
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "phtest.h"
#include "pvomp_check.h"

#define BARRIERS 1000000L
#define INJECTIONS 1000L

static _Atomic int inj_stop;
static _Atomic long injections;

static void *injector(void *arg)
{
    (void)arg;
    unsigned seed = 12345;
    struct sched_param sp = { .sched_priority = 10 };
    CHECK(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0);
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    while (!atomic_load(&inj_stop)) {
        ph_pin_cpu(rand_r(&seed) % ncpu);
        ph_busy_ns(20000 + (uint64_t)(rand_r(&seed) % 2000) * 1000); /* 20 us .. 2 ms */
        atomic_fetch_add(&injections, 1);
        struct timespec ts = { 0, 50000 + (long)(rand_r(&seed) % 3000) * 1000 };
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static int child(void)
{
    ph_proc_t *p = ph_find(getpid());
    CHECK(p != NULL); /* pvsched is really on */
    uint64_t ev0 = p->phantom_events;
    pthread_t inj;
    CHECK(pthread_create(&inj, NULL, injector, NULL) == 0);

    static _Atomic long arrived, stop;
    long bad = 0, rounds = 0;
    uint64_t t0 = ph_now_ns();
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        long n = omp_get_num_threads();
        for (long i = 0;; i++) {
            atomic_fetch_add_explicit(&arrived, 1, memory_order_relaxed);
#pragma omp barrier
            /* Everybody has arrived i+1 times; nobody more than i+2 times. */
            long a = atomic_load_explicit(&arrived, memory_order_relaxed);
            if (a < n * (i + 1) || a > n * (i + 2))
                bad++;
            /* Thread 0 names the last round, i+1, before it arrives at
             * barrier i+1: after that barrier every thread sees it, and a
             * thread that sees it early (after barrier i) goes on to i+1. */
            if (omp_get_thread_num() == 0 && !atomic_load(&stop) && i + 1 >= BARRIERS &&
                atomic_load(&injections) >= INJECTIONS)
                atomic_store(&stop, i + 2);
            long s = atomic_load(&stop);
            if (s && i + 1 >= s) {
                rounds = s;
                break;
            }
        }
    }
    double secs = (double)(ph_now_ns() - t0) / 1e9;
    atomic_store(&inj_stop, 1);
    pthread_join(inj, NULL);
    printf("%ld barriers in %.1f s with %ld random injections (%llu phantom events): "
           "%ld inconsistent arrivals\n",
           rounds, secs, atomic_load(&injections),
           (unsigned long long)(p->phantom_events - ev0), bad);
    CHECK(bad == 0);
    CHECK(rounds >= BARRIERS);
    CHECK(atomic_load(&arrived) == 2 * rounds);
    CHECK(atomic_load(&injections) >= INJECTIONS);
    CHECK(p->phantom_events > ev0);
    return 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (ph_is_child())
        return child();
    ph_start_daemon();
    const char *args[] = { "run", NULL };
    char *out = ph_run_child("pvsched", args);
    printf("%s", out);
    free(out);
    printf("PASS\n");
    return 0;
}
