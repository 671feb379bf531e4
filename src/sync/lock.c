/* OpenMP locks in the layouts of gcc 12's omp.h, waiting through src/wait.
 *
 * omp_lock_t (4 bytes) is one futex word: 0 free, 1 locked, 2 locked and
 * somebody may sleep on it.  An unlock only makes a system call when the word
 * said 2.  A waiter first spins (as the wait policy allows) while the word is
 * 1, trying to take it whenever it drops to 0; then it announces itself by
 * swapping in 2 and sleeps until the swap returns 0.
 *
 * omp_nest_lock_t (16 bytes) = { lock word, nesting count, owner }; the owner
 * is the owning task (spec: nestable locks are owned by tasks), identified by
 * its ICV block, which pv_icv_for_write() gives every task.
 *
 * The OpenMP 2.5 layouts that GCC < 4.4 compiled against are kept as the
 * non-default symbol versions @OMP_1.0: the simple lock is the same word; the
 * nestable lock is { owner thread id, count } (8 bytes). */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "base/linux.h"
#include "ompt/ompt.h"
#include "runtime/thread.h"
#include "sync/lock.h"
#include "trace/held.h"

struct pv_nest_lock {
    pv_lock_word lock;
    int count;
    void *_Atomic owner;
};
_Static_assert(sizeof(struct pv_nest_lock) == 16, "omp_nest_lock_t is 16 bytes");
_Static_assert(_Alignof(struct pv_nest_lock) == 8, "omp_nest_lock_t is 8-byte aligned");

struct pv_nest_lock_25 {
    _Atomic int owner; /* thread id, 0 when free */
    int count;
};
_Static_assert(sizeof(struct pv_nest_lock_25) == 8, "the 2.5 omp_nest_lock_t is 8 bytes");

/* Exports a function as the default version NAME@@OMP_3.0 (impl _30) and the
 * compat one NAME@OMP_1.0 (impl _25).  The names must be listed in node
 * OMP_1.0 of the version script as well. */
#define PV_LOCK_SYMVER(impl, name)                                   \
    __asm__(".symver " #impl "_30, " #name "@@OMP_3.0");             \
    __asm__(".symver " #impl "_25, " #name "@OMP_1.0")

/* ------------------------------------------------------- the lock word */

static inline bool word_try(pv_lock_word *w)
{
    uint32_t expect = 0;
    /* acquire: the holder's critical section happens after the take */
    return atomic_compare_exchange_strong_explicit(w, &expect, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

static __attribute__((noinline)) void word_lock_slow(pv_lock_word *w)
{
    /* Spin while held by a running holder, grabbing it when it frees. */
    while (pv_spin_while_eq(w, ~0u, 1)) {
        uint32_t expect = 0;
        if (atomic_compare_exchange_strong_explicit(w, &expect, 1, memory_order_acquire,
                                                    memory_order_relaxed))
            return;
        if (expect == 2)
            break; /* somebody sleeps already: queue up behind them */
    }
    /* Sleep.  Swapping in 2 (not 1) keeps the next unlock waking a sleeper,
     * since we cannot know whether we were the last one. */
    while (atomic_exchange_explicit(w, 2, memory_order_acquire) != 0)
        pv_wait_word(w, 2);
}

static inline void word_unlock(pv_lock_word *w)
{
    /* release: publishes the critical section to the next holder */
    if (atomic_exchange_explicit(w, 0, memory_order_release) == 2)
        pv_wake_word(w, 1);
}

/* ------------------------------------------------------- simple locks */

PV_EXPORT void pv_init_lock_30(pv_lock_word *w)
{
    atomic_store_explicit(w, 0, memory_order_relaxed);
    if (pv_ompt_tool())
        pv_ompt_lock_init(ompt_mutex_lock, 0, w, __builtin_return_address(0));
}

PV_EXPORT void pv_destroy_lock_30(pv_lock_word *w)
{
    (void)w;
    if (pv_ompt_tool())
        pv_ompt_lock_destroy(ompt_mutex_lock, w, __builtin_return_address(0));
}

/* omp_set_lock and omp_unset_lock: one flag test per site, shared by the
 * trace points and OMPT (as gomp_critical.c): the lock group's trace flags, in
 * which an attached tool sets a bit of its own (ompt/observe.c).  Untraced
 * and without a tool they are the bare lock word, with no stack frame;
 * otherwise out of line, with the caller's return address read in the
 * branch.  Nothing is recorded while the lock is held (trace/held.h). */
static __attribute__((noinline)) void set_lock_observed(pv_lock_word *w, const void *ra)
{
    bool tool = pv_ompt_tool();
    if (tool)
        pv_ompt_mutex_acquire(ompt_mutex_lock, w, ra);
    if (pv_trace_held_traced(PV_TRACE_HELD_LOCK))
        pv_trace_held_take(PV_TRACE_HELD_LOCK, w, word_try(w), word_lock_slow(w));
    else if (!word_try(w))
        word_lock_slow(w);
    if (tool)
        pv_ompt_mutex_acquired(ompt_mutex_lock, w, ra);
}

static __attribute__((noinline)) void unset_lock_observed(pv_lock_word *w, const void *ra)
{
    pv_trace_held_release(PV_TRACE_HELD_LOCK, w);
    if (pv_ompt_tool())
        pv_ompt_mutex_released(ompt_mutex_lock, w, ra);
}

PV_EXPORT void pv_set_lock_30(pv_lock_word *w)
{
    if (pv_trace_held_on(PV_TRACE_HELD_LOCK))
        set_lock_observed(w, pv_ompt_entry_ra());
    else if (!word_try(w))
        word_lock_slow(w);
}

PV_EXPORT void pv_unset_lock_30(pv_lock_word *w)
{
    word_unlock(w);
    if (pv_trace_held_on(PV_TRACE_HELD_LOCK))
        unset_lock_observed(w, pv_ompt_entry_ra());
}

/* omp_test_lock and omp_test_nest_lock (kind: the OMPT mutex kind) try
 * once, between these two: the clock is read before the try, a success is
 * an acquisition without waiting, a failure is lock_busy. */
static inline uint64_t test_begin(int kind, const void *l, const void *ra)
{
    if (pv_ompt_tool())
        pv_ompt_mutex_acquire(kind, l, ra);
    return pv_trace_held_ask(PV_TRACE_HELD_LOCK);
}

static inline int test_end(int kind, const void *l, uint64_t t, bool got, const void *ra)
{
    if (!got) {
        trace_lock_busy((void *)l);
        if (pv_ompt_tool())
            pv_ompt_mutex_failed();
        return 0;
    }
    if (t)
        pv_trace_held_got(PV_TRACE_HELD_LOCK, t, l);
    if (pv_ompt_tool())
        pv_ompt_mutex_acquired(kind, l, ra);
    return 1;
}

PV_EXPORT int pv_test_lock_30(pv_lock_word *w)
{
    const void *ra = __builtin_return_address(0);
    uint64_t t = test_begin(ompt_mutex_test_lock, w, ra);
    return test_end(ompt_mutex_test_lock, w, t, word_try(w), ra);
}

/* The 2.5 simple lock has the same layout and semantics. */
PV_EXPORT __attribute__((alias("pv_init_lock_30"))) void pv_init_lock_25(pv_lock_word *);
PV_EXPORT __attribute__((alias("pv_destroy_lock_30"))) void pv_destroy_lock_25(pv_lock_word *);
PV_EXPORT __attribute__((alias("pv_set_lock_30"))) void pv_set_lock_25(pv_lock_word *);
PV_EXPORT __attribute__((alias("pv_unset_lock_30"))) void pv_unset_lock_25(pv_lock_word *);
PV_EXPORT __attribute__((alias("pv_test_lock_30"))) int pv_test_lock_25(pv_lock_word *);

/* ------------------------------------------------------- nestable locks */

/* The owning task. */
static inline void *owner_id(void)
{
    return pv_icv_for_write();
}

PV_EXPORT void pv_init_nest_lock_30(struct pv_nest_lock *l)
{
    memset(l, 0, sizeof *l);
    if (pv_ompt_tool())
        pv_ompt_lock_init(ompt_mutex_nest_lock, 0, l, __builtin_return_address(0));
}

PV_EXPORT void pv_destroy_nest_lock_30(struct pv_nest_lock *l)
{
    (void)l;
    if (pv_ompt_tool())
        pv_ompt_lock_destroy(ompt_mutex_nest_lock, l, __builtin_return_address(0));
}

PV_EXPORT void pv_set_nest_lock_30(struct pv_nest_lock *l)
{
    void *me = owner_id();
    /* Relaxed: only the owner itself ever stores `me`, so seeing it means we
     * hold the lock; any other value means we do not. */
    bool owned = atomic_load_explicit(&l->owner, memory_order_relaxed) == me;
    /* Every call is a lock-acquire event, the owner's too (OpenMP 5.1, 3.9.4). */
    if (pv_ompt_tool())
        pv_ompt_mutex_acquire(ompt_mutex_nest_lock, l, __builtin_return_address(0));
    if (!owned) {
        pv_trace_held_take(PV_TRACE_HELD_LOCK, l, word_try(&l->lock), word_lock_slow(&l->lock));
        atomic_store_explicit(&l->owner, me, memory_order_relaxed);
    } else {
        pv_trace_held_got_now(PV_TRACE_HELD_LOCK, l); /* every level is an acquisition */
    }
    l->count++;
    if (pv_ompt_tool()) {
        if (owned)
            pv_ompt_nest_lock(ompt_scope_begin, l, __builtin_return_address(0));
        else
            pv_ompt_mutex_acquired(ompt_mutex_nest_lock, l, __builtin_return_address(0));
    }
}

/* omp_unset_nest_lock, both layouts, after one level was let go (`last`:
 * the lock itself was released). */
static inline void nest_unset_events(const void *l, bool last, const void *ra)
{
    pv_trace_held_release(PV_TRACE_HELD_LOCK, l);
    if (pv_ompt_tool()) {
        if (last)
            pv_ompt_mutex_released(ompt_mutex_nest_lock, l, ra);
        else
            pv_ompt_nest_lock(ompt_scope_end, l, ra);
    }
}

PV_EXPORT void pv_unset_nest_lock_30(struct pv_nest_lock *l)
{
    bool last = --l->count == 0;
    if (last) {
        atomic_store_explicit(&l->owner, NULL, memory_order_relaxed);
        word_unlock(&l->lock);
    }
    nest_unset_events(l, last, __builtin_return_address(0));
}

/* omp_test_nest_lock, both layouts.  The owner testing again adds a level
 * (count already raised by the caller): */
static inline int nest_test_again(const void *l, int count, const void *ra)
{
    pv_trace_held_got_now(PV_TRACE_HELD_LOCK, l);
    if (pv_ompt_tool()) {
        pv_ompt_mutex_acquire(ompt_mutex_test_nest_lock, l, ra);
        pv_ompt_nest_lock(ompt_scope_begin, l, ra);
    }
    return count;
}

/* Anybody else tries once, through test_begin/test_end. */

PV_EXPORT int pv_test_nest_lock_30(struct pv_nest_lock *l)
{
    const void *ra = __builtin_return_address(0);
    void *me = owner_id();
    if (atomic_load_explicit(&l->owner, memory_order_relaxed) == me)
        return nest_test_again(l, ++l->count, ra);
    uint64_t t = test_begin(ompt_mutex_test_nest_lock, l, ra);
    bool got = word_try(&l->lock);
    if (got) {
        atomic_store_explicit(&l->owner, me, memory_order_relaxed);
        l->count = 1;
    }
    return test_end(ompt_mutex_test_nest_lock, l, t, got, ra);
}

/* ------------------------------------------- 2.5 nestable locks (compat) */

/* OpenMP 2.5 locks were owned by threads: the owner field is the thread id. */
static __thread int my_tid;

static inline int tid(void)
{
    if (pv_unlikely(my_tid == 0))
        my_tid = (int)pv_gettid();
    return my_tid;
}

/* OMPT and trace events as for the 3.0 nest locks, with the same wait id
 * (the lock's address). */
PV_EXPORT void pv_init_nest_lock_25(struct pv_nest_lock_25 *l)
{
    memset(l, 0, sizeof *l);
    if (pv_ompt_tool())
        pv_ompt_lock_init(ompt_mutex_nest_lock, 0, l, __builtin_return_address(0));
}

PV_EXPORT void pv_destroy_nest_lock_25(struct pv_nest_lock_25 *l)
{
    (void)l;
    if (pv_ompt_tool())
        pv_ompt_lock_destroy(ompt_mutex_nest_lock, l, __builtin_return_address(0));
}

static bool nest25_try(struct pv_nest_lock_25 *l, int me, int *seen)
{
    int expect = 0;
    if (atomic_compare_exchange_strong_explicit(&l->owner, &expect, me, memory_order_acquire,
                                                memory_order_relaxed)) {
        l->count = 1;
        return true;
    }
    *seen = expect;
    return false;
}

PV_EXPORT void pv_set_nest_lock_25(struct pv_nest_lock_25 *l)
{
    int me = tid(), seen;
    /* Relaxed: only this thread ever stores `me`, so seeing it means we hold
     * the lock; any other value means we do not. */
    if (atomic_load_explicit(&l->owner, memory_order_relaxed) == me) {
        pv_trace_held_got_now(PV_TRACE_HELD_LOCK, l); /* every level is an acquisition */
        l->count++;
        if (pv_ompt_tool()) {
            pv_ompt_mutex_acquire(ompt_mutex_nest_lock, l, __builtin_return_address(0));
            pv_ompt_nest_lock(ompt_scope_begin, l, __builtin_return_address(0));
        }
        return;
    }
    if (pv_ompt_tool())
        pv_ompt_mutex_acquire(ompt_mutex_nest_lock, l, __builtin_return_address(0));
    /* The owner word holds a thread id, with no room for a sleeper mark:
     * every unlock wakes one waiter. */
    pv_trace_held_take(PV_TRACE_HELD_LOCK, l, nest25_try(l, me, &seen),
                       do pv_wait_word((_Atomic uint32_t *)&l->owner, (uint32_t)seen);
                       while (!nest25_try(l, me, &seen)));
    if (pv_ompt_tool())
        pv_ompt_mutex_acquired(ompt_mutex_nest_lock, l, __builtin_return_address(0));
}

PV_EXPORT void pv_unset_nest_lock_25(struct pv_nest_lock_25 *l)
{
    bool last = --l->count == 0;
    if (last) {
        atomic_store_explicit(&l->owner, 0, memory_order_release);
        pv_wake_word((_Atomic uint32_t *)&l->owner, 1);
    }
    nest_unset_events(l, last, __builtin_return_address(0));
}

PV_EXPORT int pv_test_nest_lock_25(struct pv_nest_lock_25 *l)
{
    const void *ra = __builtin_return_address(0);
    int me = tid(), seen;
    if (atomic_load_explicit(&l->owner, memory_order_relaxed) == me)
        return nest_test_again(l, ++l->count, ra);
    uint64_t t = test_begin(ompt_mutex_test_nest_lock, l, ra);
    return test_end(ompt_mutex_test_nest_lock, l, t, nest25_try(l, me, &seen), ra);
}

PV_LOCK_SYMVER(pv_init_lock, omp_init_lock);
PV_LOCK_SYMVER(pv_destroy_lock, omp_destroy_lock);
PV_LOCK_SYMVER(pv_set_lock, omp_set_lock);
PV_LOCK_SYMVER(pv_unset_lock, omp_unset_lock);
PV_LOCK_SYMVER(pv_test_lock, omp_test_lock);
PV_LOCK_SYMVER(pv_init_nest_lock, omp_init_nest_lock);
PV_LOCK_SYMVER(pv_destroy_nest_lock, omp_destroy_nest_lock);
PV_LOCK_SYMVER(pv_set_nest_lock, omp_set_nest_lock);
PV_LOCK_SYMVER(pv_unset_nest_lock, omp_unset_nest_lock);
PV_LOCK_SYMVER(pv_test_nest_lock, omp_test_nest_lock);
