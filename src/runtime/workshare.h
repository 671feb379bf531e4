/* The worksharing slots (workshare.c, ws_release.c).  A team owns a small
 * ring of them; threads that run ahead through `nowait` constructs use the
 * next slot. */
#ifndef PV_RUNTIME_WORKSHARE_H
#define PV_RUNTIME_WORKSHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"
#include "wait/wait.h"

struct pv_team;

#define PV_WS_SLOTS 8   /* worksharing constructs a thread may run ahead by (nowait) */
#define PV_WS_INLINE_MEM 64

/* Phase in the low two bits of a slot's state word; sequence number above. */
enum { PV_WS_FREE = 0, PV_WS_INITIALIZING = 1, PV_WS_READY = 2 };

/* Ordered hand-over (loops/ordered.c), kept inline in the slot: the chunk that
 * starts at zero-based iteration `turn` may run its ordered regions.  A
 * waiter for turn t sleeps on chan[hash(t)], which the hand-over to t bumps,
 * so that a hand-over wakes (nearly always) just the thread it concerns. */
#define PV_ORD_CHANNELS 7   /* with `turn`, one cache line */
struct pv_ordered {
    _Atomic unsigned long long turn;
    pv_futex_t chan[PV_ORD_CHANNELS];
};
struct pv_doacross;  /* loops/doacross.c */

struct pv_ws {
    /* state = (seq << 2) | phase.  The first thread to arrive for `seq` moves
     * FREE -> INITIALIZING, sets the construct up, then publishes READY with a
     * release store; the others wait for READY.  The last thread to leave
     * recycles the slot for seq + PV_WS_SLOTS. */
    _Alignas(PV_CACHELINE) pv_futex_t state;
    _Atomic uint32_t left;               /* threads that have left the construct */

    /* Loop or sections description (src/loops: iter.c, gomp_loop.c, gomp_sections.c): written by
     * the initialiser, read-only afterwards, on its own line.  Iterations are
     * numbered 0..n-1; number k is start + k * incr in modulo-2^64 arithmetic,
     * which covers long and unsigned long long loops in both directions.
     * `end` is the caller's bound, handed back as the end of the last chunk. */
    _Alignas(PV_CACHELINE) unsigned long long n;
    unsigned long long start, incr, end;
    unsigned long long chunk;            /* iterations per chunk; static: 0 = one block each */
    int sched;                           /* PV_SCHED_STATIC, _DYNAMIC or _GUIDED */
    bool fast_add;                       /* dynamic: fetch_add on `next` cannot wrap */
    bool ordered_loop;                   /* ordered hand-over in use (ordered, > 1 thread) */
    bool ordered_start_work;             /* GOMP_ordered_start has work: the hand-over, or a
                                            tool's events (its one test) */
    unsigned nthreads;                   /* team size the construct was set up for */

    /* single copyprivate: the executing thread's data pointer. */
    void *copyprivate;

    /* Memory requested through the `mem` argument (zeroed; heap if large). */
    void *mem;
    _Alignas(16) char inline_mem[PV_WS_INLINE_MEM];

    struct pv_ordered *ordered;          /* &ord for ordered loops */
    struct pv_doacross *doacross;        /* doacross loops (heap) */
    unsigned doacross_dims;              /* doacross loops: ordered(n)'s n (for OMPT) */

    /* Hot shared iteration cursor (dynamic, guided, sections), own line. */
    _Alignas(PV_CACHELINE) _Atomic unsigned long long next;
    _Atomic uint64_t own_taken;          /* sections: bit t, thread t took its own section */

    /* Ordered hand-over, own line. */
    _Alignas(PV_CACHELINE) struct pv_ordered ord;
};

/* Enter the next worksharing construct.  Returns true for the one thread that
 * must initialise it; that thread then calls pv_ws_init_done().  Everybody
 * else gets the slot after it is READY. */
bool pv_ws_start(void);
void pv_ws_init_done(void);
void pv_ws_reset(struct pv_team *team);   /* all slots free, for a new region */
/* Leave the current construct (called by every thread once). */
void pv_ws_end_nowait(void);
/* Leave and wait at the team barrier. */
void pv_ws_end(void);
/* Leave and wait at a cancellable barrier; true when the region was cancelled. */
bool pv_ws_end_cancel(void);
/* Called by the last thread leaving a slot, before it is recycled
 * (ws_release.c; loops/ordered.c, loops/doacross.c own these pointers). */
void pv_ordered_release(struct pv_ws *ws);
void pv_doacross_release(struct pv_ws *ws);

#endif
