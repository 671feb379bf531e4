/* pvsched's slice rule.  The kernel ends a fair task's slice only at a tick
 * unless its HRTICK feature is on (off by default; 4 ms ticks here), so a
 * waiter that spins while its teammate runs can hold its CPU for a whole
 * tick period while another task waits for that CPU.  A pvsched waiter that
 * has run longer than one scheduler slice, with another task queued on its
 * CPU (the tracker publishes when: queued_since_ns in the process page),
 * yields: what HRTICK would do at the end of its slice, done at a point
 * where the thread holds nothing.  At most one yield per slice. */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/message.h"
#include "phantom/phantom.h"
#include "pvomp/phantom.h"
#include "wait/slice.h"

static uint64_t slice_ns;
static __thread uint64_t not_before_ns; /* spacing of the yields of one thread */

/* The kernel's default base slice: 0.75 ms times 1 + log2(CPUs), CPUs
 * counted up to 8 (sysctl_sched_base_slice, logarithmic tunable scaling). */
static uint64_t kernel_slice_ns(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned factor = 1;
    for (long c = n > 8 ? 8 : n; c > 1; c >>= 1)
        factor++;
    return 750000ULL * factor;
}

/* PVOMP_PVSCHED_SLICE_US: the slice in microseconds; 0 turns the rule off. */
void pv_slice_configure(void)
{
    slice_ns = kernel_slice_ns();
    const char *v = getenv("PVOMP_PVSCHED_SLICE_US");
    if (!v)
        return;
    char *end;
    unsigned long long us = strtoull(v, &end, 10);
    if (end == v || *end || us > 1000000ULL) {
        pv_warn("PVOMP_PVSCHED_SLICE_US='%s' is not a number of microseconds up to 1000000; "
                "using the kernel's slice, %llu us", v, (unsigned long long)slice_ns / 1000);
        return;
    }
    slice_ns = us * 1000ULL;
}

uint64_t pv_slice_ns(void)
{
    return slice_ns;
}

uint64_t pv_slice_over(void)
{
    int cpu = sched_getcpu(); /* glibc reads it from rseq: no system call */
    if (cpu < 0 || cpu >= (int)PVOMP_PHANTOM_MAX_CPUS || !slice_ns)
        return 0;
    uint64_t since = pv_phantom_queued_ptr[cpu];
    if (!since)
        return 0;
    uint64_t now = pv_monotonic_ns(); /* the clock of bpf_ktime_get_ns */
    if (now - since < slice_ns || now < not_before_ns)
        return 0;
    /* One yield per slice, as HRTICK would reschedule once at the end of
     * each slice: the kernel hands the CPU over only when the queued task
     * is eligible (EEVDF: it has not run ahead of its share), else this
     * thread runs another slice.  (Retrying every 1/16 slice instead gave
     * the co-runner of bench/pvsched (c) 97% of the CPU it gets under
     * passive, and the team 1.2-1.7x the best time per barrier.) */
    not_before_ns = now + slice_ns;
    return now - since;
}
