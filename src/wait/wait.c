/* Spin-then-futex waiting.  See wait.h for the protocol. */
#include <limits.h>
#include <sched.h>

#include "base/clock.h"
#include "base/linux.h"
#include "phantom/phantom.h"
#include "trace/trace.h"
#include "wait/late.h"
#include "wait/observe.h"
#include "wait/peers.h"
#include "wait/slice.h"
#include "wait/wait.h"

/* The trace records the policy as is: the catalog's wait_policy names it. */
_Static_assert((int)PV_WAIT_DEFAULT == (int)PVTRACE_WAIT_POLICY_DEFAULT &&
                   (int)PV_WAIT_ACTIVE == (int)PVTRACE_WAIT_POLICY_ACTIVE &&
                   (int)PV_WAIT_PASSIVE == (int)PVTRACE_WAIT_POLICY_PASSIVE &&
                   (int)PV_WAIT_PVSCHED == (int)PVTRACE_WAIT_POLICY_PVSCHED,
               "enum pv_wait_policy numbers its policies as #enum wait_policy (trace-events)");
_Static_assert((int)PV_LATE_STALLED == (int)PVTRACE_WAIT_LATE_WHY_STALLED &&
                   (int)PV_LATE_CROWDED == (int)PVTRACE_WAIT_LATE_WHY_CROWDED,
               "enum pv_late_why numbers its reasons as #enum wait_late_why (trace-events)");

/* pvsched's spins, counted across waits, so that the slice rule is checked
 * every 64 spins however short each wait is (a barrier wait is often fewer
 * than 64 spins, and a thread may hold its CPU through thousands of them). */
static __thread unsigned pvsched_spins __attribute__((tls_model("initial-exec")));

/* pv_spin_while_eq, also telling how many times it spun (for the trace). */
static inline bool spin_counted(_Atomic uint32_t *word, uint32_t mask, uint32_t val,
                                unsigned long long *spun)
{
    bool yield;
    unsigned long long limit = pv_wait_spin_count(&yield);
    /* Oversubscribed, pvsched yields like the active policy (policy.c).
     * The default policy waits as pvsched does when a phantom tracker runs,
     * else by the late-waiter rules (late.c), checked every 64th spin. */
    bool pvsched = pv_wait_phantom_rules() && !yield;
    bool late = !pvsched && pv_wait_policy() == PV_WAIT_DEFAULT && !yield && pv_late_on;
    struct pv_late state;
    pv_late_init(&state);
    unsigned long long i;
    for (i = 0; i < limit; i++) {
        if ((atomic_load_explicit(word, memory_order_acquire) & mask) != val) {
            *spun = i;
            return true;
        }
        /* pvsched: a phantom teammate cannot make progress for a while;
         * spinning would only take CPU from it, so block now. */
        if (pvsched && pv_phantom_now() != 0) {
            *spun = i;
            return false;
        }
        /* pvsched: no longer than a slice while another task waits for this
         * CPU (src/wait/slice.c); checked every 64th spin. */
        uint64_t held;
        if (pvsched && (++pvsched_spins & 63) == 0 && (held = pv_slice_over()) != 0) {
            trace_wait_slice_yield(i, held, pv_slice_ns());
            sched_yield();
        }
        enum pv_late_why why;
        if (late && (i & 63) == 63 && (why = pv_late_check(&state)) != PV_LATE_SPIN) {
            trace_wait_late(why, i, pv_monotonic_ns() - state.begin_ns);
            *spun = i;
            return false;
        }
        if (yield)
            sched_yield(); /* to a teammate queued on this CPU, if any */
        else
            pv_cpu_relax();
    }
    *spun = i;
    return (atomic_load_explicit(word, memory_order_acquire) & mask) != val;
}

bool pv_spin_while_eq(_Atomic uint32_t *word, uint32_t mask, uint32_t val)
{
    unsigned long long spun;
    pv_peer_set_waiting(1);
    bool changed = spin_counted(word, mask, val, &spun);
    pv_peer_set_waiting(0);
    return changed;
}

/* The spinning part of a wait on `word` (the futex word itself; for a
 * pv_futex_t its address is the struct's), traced: true when the value
 * changed, false when the caller must block (`spun` tells how long it spun). */
static inline bool spin_traced(_Atomic uint32_t *word, uint32_t val, unsigned long long *spun)
{
    trace_wait_begin(word, pv_wait_policy());
    pv_peer_set_waiting(1); /* until the wait ends (woke_traced, or here) */
    if (spin_counted(word, ~0u, val, spun)) {
        pv_peer_set_waiting(0);
        trace_wait_end(*spun, 0);
        return true;
    }
    trace_wait_block(pv_wait_policy(), *spun, pv_phantom_now());
    pv_wait_report_phantoms(pv_phantom_now());
    return false;
}

/* After the blocking part. */
static inline void woke_traced(unsigned long long spun)
{
    pv_peer_set_waiting(0);
    trace_wait_wake(pv_wait_policy(), spun, pv_phantom_now());
    pv_wait_report_phantoms(pv_phantom_now());
    trace_wait_end_after(wait_wake, spun, 1); /* one clock read (trace.h) */
}

void pv_wait_while_eq(pv_futex_t *f, uint32_t val)
{
    unsigned long long spun;
    if (spin_traced(&f->word, val, &spun))
        return;
    /* seq_cst increment pairs with pv_wake's seq_cst load of `sleepers`. */
    atomic_fetch_add_explicit(&f->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&f->word, memory_order_acquire) == val)
        pv_futex_wait(&f->word, val);
    atomic_fetch_sub_explicit(&f->sleepers, 1, memory_order_relaxed);
    woke_traced(spun);
}

void pv_wake_sleepers(pv_futex_t *f)
{
    pv_futex_wake(&f->word, INT_MAX);
}

void pv_wait_word(_Atomic uint32_t *word, uint32_t val)
{
    unsigned long long spun;
    if (spin_traced(word, val, &spun))
        return;
    pv_futex_wait(word, val);
    woke_traced(spun);
}

void pv_wake_word(_Atomic uint32_t *word, int count)
{
    pv_futex_wake(word, count);
}
