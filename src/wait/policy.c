/* The wait policy: how long a waiter spins before it sleeps.  Decided here and
 * nowhere else.  The numbers follow libgomp's observable behaviour: about
 * 300000 relax iterations by default, effectively forever when active, none
 * when passive; when more threads are managed than CPUs exist, 100 by default
 * and 1000 when active (a preempted teammate cannot release us anyway).
 * pvsched spins while no teammate is a phantom, and is throttled like the
 * default policy when oversubscribed (phantoms are then structural). */
#include <stdatomic.h>
#include <stdio.h>

#include "phantom/phantom.h"
#include "wait/wait.h"

#define SPIN_DEFAULT 300000ULL
#define SPIN_ACTIVE 30000000000ULL
#define SPIN_THROTTLED_DEFAULT 100ULL
#define SPIN_THROTTLED_ACTIVE 1000ULL

static enum pv_wait_policy policy_now = PV_WAIT_DEFAULT;
static unsigned long long spin_count = SPIN_DEFAULT;
static unsigned long long throttled_count = SPIN_THROTTLED_DEFAULT;
static _Atomic int managed_threads = 1;
static unsigned available_cpus = 1;

void pv_wait_configure(enum pv_wait_policy policy, unsigned long long count, bool count_given)
{
    if (policy == PV_WAIT_PVSCHED) {
        const char *why = NULL;
        if (!pv_phantom_open(&why)) {
            fprintf(stderr, "pvomp: GOMP_WAIT_POLICY=pvsched: %s; using the default policy\n", why);
            policy = PV_WAIT_DEFAULT;
        }
    }
    policy_now = policy;
    switch (policy) {
    case PV_WAIT_ACTIVE:
        spin_count = SPIN_ACTIVE;
        throttled_count = SPIN_THROTTLED_ACTIVE;
        break;
    case PV_WAIT_PVSCHED:
        /* More threads than CPUs means phantoms all the time (structural):
         * then spin no longer than the default policy does. */
        spin_count = SPIN_ACTIVE;
        throttled_count = SPIN_THROTTLED_DEFAULT;
        break;
    case PV_WAIT_PASSIVE:
        spin_count = 0;
        throttled_count = 0;
        break;
    default:
        spin_count = SPIN_DEFAULT;
        throttled_count = SPIN_THROTTLED_DEFAULT;
        break;
    }
    if (count_given) {
        spin_count = count;
        if (throttled_count > count)
            throttled_count = count;
    }
}

enum pv_wait_policy pv_wait_policy(void)
{
    return policy_now;
}

const char *pv_wait_policy_name(enum pv_wait_policy p)
{
    switch (p) {
    case PV_WAIT_ACTIVE: return "active";
    case PV_WAIT_PASSIVE: return "passive";
    case PV_WAIT_PVSCHED: return "pvsched";
    default: return "default";
    }
}

unsigned long long pv_wait_spin_count(void)
{
    /* Relaxed: an approximate thread count is all the throttle needs. */
    if ((unsigned)atomic_load_explicit(&managed_threads, memory_order_relaxed) > available_cpus)
        return throttled_count;
    return spin_count;
}

void pv_wait_managed_threads_add(int delta)
{
    atomic_fetch_add_explicit(&managed_threads, delta, memory_order_relaxed);
}

void pv_wait_set_available_cpus(unsigned ncpus)
{
    available_cpus = ncpus ? ncpus : 1;
}
