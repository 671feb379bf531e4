/* The one wait primitive of pvomp: spin (as the policy says), then sleep on a
 * futex.  Barriers, the idle pool, locks, ordered, doacross and task waits all
 * wait through here, so a wait policy is decided in one place (policy.c). */
#ifndef PV_WAIT_WAIT_H
#define PV_WAIT_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum pv_wait_policy {
    PV_WAIT_DEFAULT = 0, /* spin about as long as libgomp unless late (late.c); yield when oversubscribed */
    PV_WAIT_ACTIVE,      /* spin (practically) forever */
    PV_WAIT_PASSIVE,     /* block at once */
    PV_WAIT_PVSCHED,     /* spin while no teammate is a phantom; block at once otherwise */
};

/* A futex word plus a count of sleepers, so that a waker only makes a system
 * call when somebody really sleeps. */
typedef struct {
    _Atomic uint32_t word;
    _Atomic uint32_t sleepers;
} pv_futex_t;

static inline void pv_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#else
    __asm__ volatile("" ::: "memory");
#endif
}

/* Spin while (*word & mask) == val, for as long as the policy allows.
 * Returns true when the value changed while spinning (acquire ordering),
 * false when the caller should block. */
bool pv_spin_while_eq(_Atomic uint32_t *word, uint32_t mask, uint32_t val);

/* Wait until f->word != val (acquire).  Spins, then sleeps. */
void pv_wait_while_eq(pv_futex_t *f, uint32_t val);

/* Wake every sleeper of f.  The caller must have changed f->word with a
 * sequentially consistent store or read-modify-write first: the pairing with
 * the sleeper's seq_cst increment of `sleepers` is what makes a lost wake-up
 * impossible (either we see the sleeper, or its futex_wait sees the new word). */
void pv_wake_sleepers(pv_futex_t *f);
static inline void pv_wake(pv_futex_t *f)
{
    if (atomic_load_explicit(&f->sleepers, memory_order_seq_cst) != 0)
        pv_wake_sleepers(f);
}

/* Bare-word form, for objects whose ABI size leaves no room for a sleeper
 * count (omp_lock_t is 4 bytes): spin while *word == val, then one futex
 * sleep.  The caller loops and encodes "has sleepers" in the word itself. */
void pv_wait_word(_Atomic uint32_t *word, uint32_t val);
void pv_wake_word(_Atomic uint32_t *word, int count);

/* Wake one sleeper: for news that any single waiter can act on fully. */
static inline void pv_wake_one(pv_futex_t *f)
{
    if (atomic_load_explicit(&f->sleepers, memory_order_seq_cst) != 0)
        pv_wake_word(&f->word, 1);
}

/* Policy (policy.c). */
void pv_wait_configure(enum pv_wait_policy policy, unsigned long long spin_count,
                       bool spin_count_given);
enum pv_wait_policy pv_wait_policy(void);
/* pvsched's rules apply: the policy is pvsched, or the default one found a
 * phantom tracker running. */
bool pv_wait_phantom_rules(void);
const char *pv_wait_policy_name(enum pv_wait_policy policy);
/* How many times a waiter checks before it sleeps; *yield: sched_yield
 * between checks (more threads than CPUs), else a pause. */
unsigned long long pv_wait_spin_count(bool *yield);
/* How many threads the runtime runs now; above the CPU count waiters yield. */
void pv_wait_managed_threads_add(int delta);
void pv_wait_managed_threads_set(int n); /* a fork child: its one thread */
void pv_wait_set_available_cpus(unsigned ncpus);
/* A thread that runs teams starts (the phantom tracker and the late-waiter
 * rules learn it), a pool worker leaves, a fork() child starts afresh. */
void pv_wait_thread_start(void);
void pv_wait_thread_end(void);
void pv_wait_fork_child(void);

#endif
