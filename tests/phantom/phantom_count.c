/* The tracker counts thread phantoms right (plain pthreads that call
 * pvomp_phantom_register directly):
 *   A. registered threads that merely sleep are never phantoms;
 *   B. two busy registered threads pinned to one CPU: exactly one of them
 *      waits at any time, so the count never leaves 1..2 and the average
 *      settles near 1;
 *   C. a SCHED_FIFO "phantom injector" busy on a registered thread's CPU
 *      makes that thread a phantom for exactly as long as it runs;
 *   D. at a 50% injection duty cycle the smoothed average is fractional
 *      (fixed point: 0.5 does not read as 0).
 * Where a figure depends on what else the machine runs, it is compared with
 * the scheduler's own account of the threads (schedstat). */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "phtest.h"

static void (*reg)(void);
static ph_proc_t *page;
static _Atomic int stop, started;
static _Atomic uint32_t sleep_word;
static _Atomic long spins;
static _Atomic pid_t busy_tid[2]; /* part B's two threads, in start order */

static void *sleeper(void *arg)
{
    pid_t *tid = arg;
    *tid = ph_gettid();
    reg();
    atomic_fetch_add(&started, 1);
    while (atomic_load(&sleep_word) == 0)
        syscall(SYS_futex, &sleep_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    return NULL;
}

static void part_a(void)
{
    enum { N = 4 };
    pthread_t th[N];
    pid_t tid[N];
    atomic_store(&started, 0);
    for (int i = 0; i < N; i++)
        PH_CHECK(pthread_create(&th[i], NULL, sleeper, &tid[i]) == 0);
    while (atomic_load(&started) < N)
        usleep(1000);
    page = ph_find(getpid());
    PH_CHECK(page != NULL);
    PH_CHECK(page->threads == N);
    for (int i = 0; i < N; i++) { /* every sleeper blocked in the kernel */
        while (ph_thread_state(tid[i]) != 'S')
            usleep(1000);
    }
    uint64_t events0 = page->phantom_events, seq0 = page->seq;
    long nonzero = 0;
    for (int round = 0; round < 50; round++) {
        for (int k = 0; k < 100000; k++)
            nonzero += page->phantoms != 0;
        usleep(2000);
    }
    printf("A: %d sleeping threads: %ld nonzero samples, %llu phantom events, seq %llu -> %llu\n",
           N, nonzero, (unsigned long long)(page->phantom_events - events0),
           (unsigned long long)seq0, (unsigned long long)page->seq);
    PH_CHECK(nonzero == 0);
    PH_CHECK(page->phantom_events == events0);
    PH_CHECK(page->seq > seq0); /* the timer keeps publishing */
    atomic_store(&sleep_word, 1);
    syscall(SYS_futex, &sleep_word, FUTEX_WAKE_PRIVATE, N, NULL, NULL, 0);
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        ph_wait_thread_gone(tid[i]);
    }
    PH_CHECK(page->threads == 0);
    PH_CHECK(page->phantoms == 0);
}

static void *busy_cpu0(void *arg)
{
    (void)arg;
    ph_pin_cpu(0);
    reg();
    int nth = atomic_fetch_add(&started, 1);
    if (nth < 2)
        atomic_store(&busy_tid[nth], ph_gettid());
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        atomic_fetch_add_explicit(&spins, 1, memory_order_relaxed);
    return NULL;
}

/* One window of part B: samples the count, then compares it with the
 * scheduler's account of the two threads. */
static bool part_b_window(int attempt, uint64_t events0)
{
    long samples = 0, ones = 0;
    uint32_t lo = ~0u, hi = 0;
    uint64_t cpu0[2], cpu1[2], sw;
    bool sched_ok = true;
    for (int i = 0; i < 2; i++)
        sched_ok = ph_thread_sched(atomic_load(&busy_tid[i]), &cpu0[i], &sw) && sched_ok;
    uint64_t t0 = ph_now_ns();
    for (int round = 0; round < 40; round++) {
        for (int k = 0; k < 50000; k++) {
            uint32_t v = page->phantoms;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            ones += v == 1;
            samples++;
        }
        usleep(5000);
    }
    double avg = ph_avg(page);
    double window_ns = (double)(ph_now_ns() - t0);
    for (int i = 0; i < 2; i++)
        sched_ok = ph_thread_sched(atomic_load(&busy_tid[i]), &cpu1[i], &sw) && sched_ok;
    /* The share of the window one of the two ran, as the scheduler saw it:
     * about 1 on an idle machine; while another process holds CPU 0 both
     * wait and the count is 2. */
    double ran = sched_ok ? (double)(cpu1[0] - cpu0[0] + cpu1[1] - cpu0[1]) / window_ns : 1;
    printf("B (window %d of 3): 2 busy threads on CPU 0: phantoms in [%u, %u], %.1f%% of %ld "
           "samples at 1, average %.3f, %llu phantom events; the scheduler ran one of them "
           "%.1f%% of the time\n",
           attempt, lo, hi, 100.0 * ones / samples, samples, avg,
           (unsigned long long)(page->phantom_events - events0), 100 * ran);
    PH_CHECK(lo >= 1 && hi <= 2); /* in every window: one of two always waits */
    return (double)ones / samples > ran / 2 - 0.05 && avg > 0.75 && avg < 2.5 - ran;
}

static void part_b(void)
{
    pthread_t th[2];
    atomic_store(&stop, 0);
    atomic_store(&started, 0);
    uint64_t events0 = page->phantom_events;
    for (int i = 0; i < 2; i++)
        PH_CHECK(pthread_create(&th[i], NULL, busy_cpu0, NULL) == 0);
    while (atomic_load(&started) < 2 || page->phantom_events == events0)
        usleep(1000);
    /* How often the count is 1 depends on what else the machine runs: up
     * to three windows, one where every claim holds passes (a broken
     * tracker fails all three). */
    bool ok = false;
    for (int attempt = 1; attempt <= 3 && !ok; attempt++)
        ok = part_b_window(attempt, events0);
    PH_CHECK(ok);
    atomic_store(&stop, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
}

/* The injector: SCHED_FIFO on CPU 0, busy `busy_ns` then asleep `idle_ns`. */
struct inject {
    int cycles;
    uint64_t busy_ns, idle_ns;
    _Atomic int busy, done;
};

static void *injector(void *arg)
{
    struct inject *in = arg;
    ph_pin_cpu(0);
    struct sched_param sp = { .sched_priority = 10 };
    PH_CHECK(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0);
    for (int c = 0; c < in->cycles; c++) {
        /* Running now, so the registered thread of CPU 0 is switched out. */
        atomic_store_explicit(&in->busy, 1, memory_order_release);
        ph_busy_ns(in->busy_ns);
        atomic_store_explicit(&in->busy, 0, memory_order_release);
        struct timespec ts = { 0, (long)in->idle_ns };
        nanosleep(&ts, NULL);
    }
    atomic_store(&in->done, 1);
    return NULL;
}

static void part_c(void)
{
    pthread_t t, inj;
    atomic_store(&stop, 0);
    atomic_store(&started, 0);
    PH_CHECK(pthread_create(&t, NULL, busy_cpu0, NULL) == 0);
    while (atomic_load(&started) < 1)
        usleep(1000);
    uint64_t events0 = page->phantom_events;
    static struct inject in = { .cycles = 10, .busy_ns = 20000000, .idle_ns = 20000000 };
    PH_CHECK(pthread_create(&inj, NULL, injector, &in) == 0);
    long busy_samples = 0, bad = 0, idle_samples = 0, idle_zero = 0;
    while (!atomic_load(&in.done)) {
        int b1 = atomic_load_explicit(&in.busy, memory_order_acquire);
        uint32_t v = page->phantoms;
        atomic_thread_fence(memory_order_acquire); /* the load of v before the next */
        int b2 = atomic_load_explicit(&in.busy, memory_order_acquire);
        if (b1 && b2) {
            busy_samples++;
            bad += v == 0;
        } else if (!b1 && !b2) {
            idle_samples++;
            idle_zero += v == 0;
        }
    }
    uint64_t events = page->phantom_events - events0;
    printf("C: injector 10 x 20 ms: %ld samples while it ran (%ld without a phantom), "
           "%ld while it slept (%ld without a phantom), %llu phantom events\n",
           busy_samples, bad, idle_samples, idle_zero, (unsigned long long)events);
    PH_CHECK(busy_samples > 0 && bad == 0);
    PH_CHECK(idle_zero > 0);
    PH_CHECK(events >= (uint64_t)in.cycles);
    pthread_join(inj, NULL);
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
}

static void part_d(void)
{
    pthread_t t, inj;
    atomic_store(&stop, 0);
    atomic_store(&started, 0);
    PH_CHECK(pthread_create(&t, NULL, busy_cpu0, NULL) == 0);
    while (atomic_load(&started) < 1)
        usleep(1000);
    static struct inject in = { .cycles = 150, .busy_ns = 4000000, .idle_ns = 4000000 };
    PH_CHECK(pthread_create(&inj, NULL, injector, &in) == 0);
    usleep(300000); /* let the average settle */
    double sum = 0;
    int n = 0, fractional = 0;
    uint64_t cpu0, cpu1, sw, t0 = ph_now_ns();
    bool sched_ok = ph_thread_sched(atomic_load(&busy_tid[0]), &cpu0, &sw);
    while (!atomic_load(&in.done)) {
        double a = ph_avg(page);
        sum += a;
        n++;
        fractional += a > 0.05 && a < 0.95;
        usleep(1000);
    }
    double window_ns = (double)(ph_now_ns() - t0);
    sched_ok = sched_ok && ph_thread_sched(atomic_load(&busy_tid[0]), &cpu1, &sw);
    /* The thread is a phantom whenever it does not run: about half the time
     * on an idle machine (the injector's duty cycle), more when other
     * processes share CPU 0, as the scheduler's account says. */
    double expected = sched_ok ? 1 - (double)(cpu1 - cpu0) / window_ns : 0.5;
    printf("D: injector 4 ms of every 8 ms: mean smoothed average %.3f over %d samples, "
           "%d strictly between 0 and 1; the scheduler ran the thread %.1f%% of the time\n",
           n ? sum / n : 0, n, fractional, 100 * (1 - expected));
    PH_CHECK(n > 0);
    PH_CHECK(sum / n > expected - 0.3 && sum / n < expected + 0.3);
    PH_CHECK(fractional * 2 > n);
    pthread_join(inj, NULL);
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
}

int main(void)
{
    PH_CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
    ph_start_daemon();
    reg = ph_load_pvomp();
    ph_pin_cpu(1); /* the observer (not registered) stays off CPU 0 */
    part_a();
    part_b();
    part_c();
    part_d();
    printf("PASS\n");
    return 0;
}
