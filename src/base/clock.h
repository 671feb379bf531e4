/* The monotonic clock in nanoseconds (CLOCK_MONOTONIC through the vDSO, no
 * system call; the clock of bpf_ktime_get_ns, so times on the phantom page
 * compare with it). */
#ifndef PV_BASE_CLOCK_H
#define PV_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t pv_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
