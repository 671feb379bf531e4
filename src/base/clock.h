/* The clocks in nanoseconds, read through the vDSO (no system call).  The
 * monotonic one is the clock of bpf_ktime_get_ns, so times on the phantom
 * page compare with it. */
#ifndef PV_BASE_CLOCK_H
#define PV_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t pv_clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC: for intervals and deadlines. */
static inline uint64_t pv_monotonic_ns(void)
{
    return pv_clock_ns(CLOCK_MONOTONIC);
}

/* CLOCK_REALTIME: nanoseconds since the epoch, for dating a log. */
static inline uint64_t pv_realtime_ns(void)
{
    return pv_clock_ns(CLOCK_REALTIME);
}

/* A time in nanoseconds as a timespec (a deadline for a timed wait). */
static inline struct timespec pv_timespec_of_ns(uint64_t ns)
{
    return (struct timespec){ (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
}

#endif
