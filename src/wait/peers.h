/* The threads a waiter may be waiting for: every thread that runs pvomp
 * teams registers here (a slot of its own), and marks its slot while it
 * waits.  A late waiter (late.c) looks at the others' slots to tell whether
 * a teammate that is not waiting is really running:
 *  - rseq: glibc registers every thread's rseq area, and the kernel writes
 *    the CPU a thread runs on there each time it returns to user space.  A
 *    peer whose area names the CPU the waiter is running on now cannot be
 *    running (the waiter is): it waits for a CPU, most likely this one.
 *    One load, no system call.
 *  - the peer's CPU-time clock (clock_gettime on its thread CPU clock, one
 *    system call): the scheduler adds the running task's pending time when
 *    it is read, and steal time is not counted, so a peer that is not
 *    waiting and whose clock advanced by less than half the wall time over
 *    an interval was preempted, or its vCPU was.
 * A slot's `waiting` is written only by its owner (relaxed: a stale view
 * only delays a decision by one check). */
#ifndef PV_WAIT_PEERS_H
#define PV_WAIT_PEERS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "base/compiler.h"

#define PV_PEERS_MAX 256

struct pv_peer {
    _Atomic pid_t tid;              /* 0: free slot; -1: being filled in */
    _Atomic uint32_t waiting;       /* owner is inside a wait */
    _Atomic uint32_t readers;       /* waiters reading rseq_cpu now (pv_peer_cpu) */
    clockid_t cpu_clock;            /* the owner's thread CPU-time clock */
    const volatile uint32_t *_Atomic rseq_cpu; /* the owner's rseq cpu_id, or NULL */
} __attribute__((aligned(64)));

extern struct pv_peer pv_peers[PV_PEERS_MAX] PV_HIDDEN;
/* Slots in use are below this index (it only grows, until a fork child). */
extern _Atomic unsigned pv_peers_high PV_HIDDEN;
/* This thread's slot, or NULL when it has none. */
extern __thread struct pv_peer *pv_peer_self PV_HIDDEN __attribute__((tls_model("initial-exec")));

/* A thread that runs teams (pool workers, the initial thread, a program's
 * own thread starting a team) registers once; repeated calls are free. */
void pv_peer_thread_start(void) PV_HIDDEN;
/* A pool worker leaving, or a thread whose clock can no longer be read. */
void pv_peer_thread_end(void) PV_HIDDEN;
/* fork() child: only the calling thread exists. */
void pv_peers_fork_child(void) PV_HIDDEN;

static inline void pv_peer_set_waiting(uint32_t on)
{
    struct pv_peer *p = pv_peer_self;
    if (p)
        atomic_store_explicit(&p->waiting, on, memory_order_relaxed);
}

/* The CPU a peer last ran on (its rseq area), or -1 when unknown.  Safe
 * against the peer exiting: its slot is released only when no reader is
 * inside (pv_peer_thread_end waits for `readers` to drop to 0). */
int pv_peer_cpu(struct pv_peer *p) PV_HIDDEN;

/* The CPU time of a peer's thread in ns, or 0 when it cannot be read (the
 * thread is gone: its slot is then freed). */
uint64_t pv_peer_cpu_ns(struct pv_peer *p) PV_HIDDEN;

#endif
