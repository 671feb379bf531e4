/* Small helpers shared by the tests in tests/omp and tests/stress.
 * Include after pvomp_check.h (which provides CHECK). */
#ifndef PVOMP_OMP_TEST_H
#define PVOMP_OMP_TEST_H

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's id of the calling thread. */
static inline long test_gettid(void)
{
    return syscall(SYS_gettid);
}

/* The calling thread's voluntary context switches so far: its futex sleeps
 * (a sched_yield that hands the CPU over counts as an involuntary one). */
static inline long test_switches(const char *field)
{
    char line[256];
    long n = -1, v;
    size_t len = strlen(field);
    FILE *f = fopen("/proc/thread-self/status", "r");
    CHECK(f != NULL);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, len) && sscanf(line + len, ": %ld", &v) == 1) {
            n = v;
            break;
        }
    fclose(f);
    CHECK(n >= 0);
    return n;
}

static inline long test_voluntary_switches(void)
{
    return test_switches("voluntary_ctxt_switches");
}

/* ... and its involuntary ones: preemptions, and yields that handed the CPU over. */
static inline long test_involuntary_switches(void)
{
    return test_switches("nonvoluntary_ctxt_switches");
}

/* A short busy delay that the compiler cannot remove; used to make threads
 * run out of step so that races have a chance to show. */
static inline void test_delay(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++) {
    }
}

#define TEST_INC(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
#define TEST_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define TEST_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define TEST_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Keep the maximum of *p and v in *p. */
#define TEST_MAX(p, v)                                                              \
    do {                                                                            \
        __typeof__(*(p)) old_ = __atomic_load_n((p), __ATOMIC_RELAXED);             \
        while (old_ < (v) && !__atomic_compare_exchange_n((p), &old_, (v), 1,       \
                                                          __ATOMIC_RELAXED,         \
                                                          __ATOMIC_RELAXED)) {      \
        }                                                                           \
    } while (0)

#endif
