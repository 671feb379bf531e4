/* Helpers shared by the tasking tests (include after pvomp_check.h). */
#ifndef PVOMP_TASK_TEST_H
#define PVOMP_TASK_TEST_H

#include <stdio.h>

#define T_INC(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
#define T_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define T_DEC(p) __atomic_fetch_sub((p), 1, __ATOMIC_RELAXED)
#define T_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define T_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* A global, increasing event number: lets a test check happens-before. */
static long t_clock __attribute__((unused));
#define T_TICK() __atomic_add_fetch(&t_clock, 1, __ATOMIC_SEQ_CST)

/* A short delay the compiler cannot remove. */
static inline void t_delay(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++) {
    }
}

/* Resident set size in kB (from /proc/self/statm). */
static inline long t_rss_kb(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * 4;
}

#endif
