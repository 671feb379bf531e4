/* The trace clock: nanoseconds, monotonic and comparable across threads.
 *
 * Where the kernel itself keeps time with the TSC (clocksource "tsc", which
 * it only selects when the TSCs of all CPUs are synchronised and invariant),
 * the trace reads the TSC directly and scales it with a factor calibrated
 * against CLOCK_MONOTONIC at start-up: about 10 ns instead of about 23 ns for
 * clock_gettime() on the machine this was measured on (docs/trace.md).
 * Otherwise, or with PVOMP_TRACE_CLOCK=monotonic, it calls
 * clock_gettime(CLOCK_MONOTONIC) (vDSO, no system call). */
#ifndef PV_TRACE_CLOCK_H
#define PV_TRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "base/clock.h"
#include "base/compiler.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PV_TRACE_HAVE_TSC 1
#endif

struct pv_trace_clock {
    int use_tsc;
    uint64_t tsc0;             /* TSC at the calibration point */
    uint64_t ns0;              /* CLOCK_MONOTONIC at the same point */
    uint64_t mult;             /* ns per tick, 32.32 fixed point */
    uint64_t hz;               /* ticks per second (0 for clock_gettime) */
    const char *source;        /* "tsc" or "monotonic" */
};
extern struct pv_trace_clock pv_trace_clk PV_HIDDEN;

static inline uint64_t pv_trace_now(void)
{
#ifdef PV_TRACE_HAVE_TSC
    if (__builtin_expect(pv_trace_clk.use_tsc, 1)) {
        int64_t d = (int64_t)(__rdtsc() - pv_trace_clk.tsc0);
        return pv_trace_clk.ns0 + (uint64_t)(((__int128)d * (__int128)pv_trace_clk.mult) >> 32);
    }
#endif
    return pv_monotonic_ns();
}

/* Choose and calibrate the clock (PVOMP_TRACE_CLOCK=auto|tsc|monotonic). */
void pv_trace_clock_init(void) PV_HIDDEN;

#endif
