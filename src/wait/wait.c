/* Spin-then-futex waiting.  See wait.h for the protocol. */
#include <limits.h>

#include "phantom/phantom.h"
#include "trace/trace.h"
#include "wait/futex.h"
#include "wait/wait.h"

bool pv_spin_while_eq(_Atomic uint32_t *word, uint32_t mask, uint32_t val)
{
    unsigned long long limit = pv_wait_spin_count();
    bool pvsched = pv_wait_policy() == PV_WAIT_PVSCHED;
    for (unsigned long long i = 0; i < limit; i++) {
        if ((atomic_load_explicit(word, memory_order_acquire) & mask) != val)
            return true;
        /* pvsched: a phantom teammate cannot make progress for a while;
         * spinning would only take CPU from it, so block now. */
        if (pvsched && pv_phantom_now() != 0)
            return false;
        pv_cpu_relax();
    }
    return (atomic_load_explicit(word, memory_order_acquire) & mask) != val;
}

void pv_wait_while_eq(pv_futex_t *f, uint32_t val)
{
    trace_wait_begin(f, pv_wait_policy());
    if (pv_spin_while_eq(&f->word, ~0u, val)) {
        trace_wait_end(pv_wait_spin_count(), 0);
        return;
    }
    trace_wait_block(pv_wait_policy(), pv_wait_spin_count(), pv_phantom_now());
    pv_trace_phantom_observe(pv_phantom_now());
    /* seq_cst increment pairs with pv_wake's seq_cst load of `sleepers`. */
    atomic_fetch_add_explicit(&f->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&f->word, memory_order_acquire) == val)
        pv_futex_wait(&f->word, val);
    atomic_fetch_sub_explicit(&f->sleepers, 1, memory_order_relaxed);
    trace_wait_wake(pv_wait_policy(), pv_wait_spin_count(), pv_phantom_now());
    pv_trace_phantom_observe(pv_phantom_now());
    trace_wait_end_after(wait_wake, pv_wait_spin_count(), 1); /* one clock read (trace.h) */
}

void pv_wake_sleepers(pv_futex_t *f)
{
    pv_futex_wake(&f->word, INT_MAX);
}

void pv_wait_word(_Atomic uint32_t *word, uint32_t val)
{
    trace_wait_begin(word, pv_wait_policy());
    if (pv_spin_while_eq(word, ~0u, val)) {
        trace_wait_end(pv_wait_spin_count(), 0);
        return;
    }
    trace_wait_block(pv_wait_policy(), pv_wait_spin_count(), pv_phantom_now());
    pv_trace_phantom_observe(pv_phantom_now());
    pv_futex_wait(word, val);
    trace_wait_wake(pv_wait_policy(), pv_wait_spin_count(), pv_phantom_now());
    pv_trace_phantom_observe(pv_phantom_now());
    trace_wait_end_after(wait_wake, pv_wait_spin_count(), 1); /* one clock read (trace.h) */
}

void pv_wake_word(_Atomic uint32_t *word, int count)
{
    pv_futex_wake(word, count);
}
