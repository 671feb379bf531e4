/* The default policy's rules for a waiter that is late (late.c): what a
 * waiter can learn without root about whether spinning on can still pay
 * (with a phantom tracker running, the default uses pvsched's rules
 * instead: policy.c).  Checked every 64 spins
 * of a wait; nothing is read before then. */
#ifndef PV_WAIT_LATE_H
#define PV_WAIT_LATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"

/* The state of one wait. */
struct pv_late {
    uint64_t begin_ns, last_ns, next_peek_ns, next_yield_ns;
    unsigned nsamples;
    struct pv_late_sample {
        unsigned slot;
        int32_t tid;
        uint64_t cpu_ns;
    } samples[8];
    uint64_t sampled_ns;
};

/* Why a waiter gave up spinning (trace event wait_late, #enum wait_late_why). */
enum pv_late_why {
    PV_LATE_SPIN = 0,    /* spin on */
    PV_LATE_STALLED = 1, /* a working teammate's CPU clock stood still */
    PV_LATE_CROWDED = 2, /* a busy task shares this CPU (rule 3) */
};

static inline void pv_late_init(struct pv_late *l)
{
    l->begin_ns = 0;
}

/* One check; PV_LATE_SPIN or the reason to block now. */
enum pv_late_why pv_late_check(struct pv_late *l) PV_HIDDEN;

/* PVOMP_WAIT_ADAPT (1 by default: the rules above, or pvsched's with a
 * tracker; 0: neither, spin the whole spin count as libgomp does) and its
 * tuning, read once at configuration. */
void pv_late_configure(void) PV_HIDDEN;
extern bool pv_late_on PV_HIDDEN;

#endif
