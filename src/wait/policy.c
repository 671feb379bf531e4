/* The wait policy: how long a waiter spins before it sleeps.  Decided here and
 * nowhere else.  The numbers follow libgomp's observable behaviour: about
 * 300000 relax iterations by default, effectively forever when active, none
 * when passive.  When the runtime manages more threads than there are CPUs,
 * a waiter yields instead of pausing, 100 times by default and 1000 when
 * active, then sleeps: the teammate it waits for is then often runnable on
 * the waiter's own CPU, and sched_yield hands the CPU to it at once, where
 * libgomp spins 100 pauses and sleeps (a futex sleep and wake-up per waiter
 * and barrier; 10x slower with 4 threads on 2 CPUs, bench/pvsched (b)).
 * pvsched spins while no teammate is a phantom; oversubscribed it yields
 * like the active policy (phantoms are then structural, and a yield gives
 * the CPU straight to the one queued behind the waiter). */
#include <stdatomic.h>
#include <stdio.h>

#include "base/message.h"
#include "phantom/phantom.h"
#include "wait/late.h"
#include "wait/peers.h"
#include "wait/slice.h"
#include "wait/wait.h"

#define SPIN_DEFAULT 300000ULL
#define SPIN_ACTIVE 30000000000ULL
#define YIELDS_DEFAULT 100ULL
#define YIELDS_ACTIVE 1000ULL

static enum pv_wait_policy policy_now = PV_WAIT_DEFAULT;
static bool phantom_rules; /* pvsched's, or the default's with a tracker */
static unsigned long long spin_count = SPIN_DEFAULT;
static unsigned long long yield_count = YIELDS_DEFAULT; /* when oversubscribed */
static _Atomic int managed_threads = 1;
static unsigned available_cpus = 1;

void pv_wait_configure(enum pv_wait_policy policy, unsigned long long count, bool count_given)
{
    if (policy == PV_WAIT_PVSCHED) {
        const char *why = NULL;
#ifdef PVOMP_NO_PHANTOM_TRACKER
        /* The runtime can still talk to a tracker another build installed. */
        if (!pv_phantom_open(&why))
            why = "this pvomp was built without the eBPF phantom tracker (PVOMP_PHANTOM=OFF, or "
                  "no clang, bpftool, libbpf or kernel BTF at build time)";
        if (why) {
#else
        if (!pv_phantom_open(&why)) {
#endif
            pv_warn("GOMP_WAIT_POLICY=pvsched: %s; using the default policy", why);
            policy = PV_WAIT_DEFAULT;
        }
    }
    phantom_rules = policy == PV_WAIT_PVSCHED;
    if (policy == PV_WAIT_DEFAULT) {
        /* With a phantom tracker running the default waits as pvsched does,
         * without being asked to (no message when there is none); without
         * one, by the late-waiter rules (late.c).  PVOMP_WAIT_ADAPT=0: neither. */
        const char *why = NULL;
        pv_late_configure();
        if (pv_late_on && pv_phantom_open(&why)) {
            phantom_rules = true;
            pv_slice_configure();
        }
    }
    policy_now = policy;
    switch (policy) {
    case PV_WAIT_ACTIVE:
        spin_count = SPIN_ACTIVE;
        yield_count = YIELDS_ACTIVE;
        break;
    case PV_WAIT_PVSCHED:
        pv_slice_configure();
        /* More threads than CPUs means phantoms all the time (structural):
         * then yield, as long as active does (a yield gives the CPU to the
         * phantom queued behind the waiter, when there is one). */
        spin_count = SPIN_ACTIVE;
        yield_count = YIELDS_ACTIVE;
        break;
    case PV_WAIT_PASSIVE:
        spin_count = 0;
        yield_count = 0;
        break;
    default:
        spin_count = SPIN_DEFAULT;
        yield_count = YIELDS_DEFAULT;
        break;
    }
    if (count_given) {
        spin_count = count;
        if (yield_count > count)
            yield_count = count;
    }
}

enum pv_wait_policy pv_wait_policy(void)
{
    return policy_now;
}

bool pv_wait_phantom_rules(void)
{
    return phantom_rules;
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

unsigned long long pv_wait_spin_count(bool *yield)
{
    /* Relaxed: an approximate thread count is all this needs. */
    *yield = (unsigned)atomic_load_explicit(&managed_threads, memory_order_relaxed) > available_cpus;
    return *yield ? yield_count : spin_count;
}

void pv_wait_managed_threads_add(int delta)
{
    atomic_fetch_add_explicit(&managed_threads, delta, memory_order_relaxed);
}

void pv_wait_managed_threads_set(int n)
{
    atomic_store_explicit(&managed_threads, n, memory_order_relaxed);
}

void pv_wait_thread_start(void)
{
    pv_phantom_thread_start();
    pv_peer_thread_start();
}

void pv_wait_thread_end(void)
{
    pv_peer_thread_end();
}

void pv_wait_fork_child(void)
{
    pv_wait_managed_threads_set(1);
    pv_peers_fork_child();
}

void pv_wait_set_available_cpus(unsigned ncpus)
{
    available_cpus = ncpus ? ncpus : 1;
}
