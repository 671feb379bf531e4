/* The default policy's late-waiter rules (late.h).  A waiter spins first, as
 * libgomp's does, because a teammate that really runs is about to arrive.
 * Every 64 spins it reads the clock (vDSO) and asks:
 *  1. (off unless PVOMP_WAIT_ADAPT sets `late`; asked first, since a waiter
 *     that blocks need not yield) Once the wait is `late` old, every `peek`,
 *     and at once after a gap (rule 2): did a teammate that is not waiting
 *     get less than half the wall time on a CPU
 *     since the previous look (its thread CPU clock, one system call each)?
 *     It was preempted on another CPU, or its vCPU was: block, so that this
 *     CPU can take it (an idle CPU pulls a queued task at once) or whoever
 *     needs it.
 *  2. Yield (sched_yield) when another task may want this CPU: the waiter
 *     was itself off its CPU since the last check (a gap of more than `gap`:
 *     preempted, or its vCPU was), or a teammate that is not waiting last ran
 *     on this CPU (its rseq area names it, peers.h: it cannot be running, this
 *     waiter is), or the wait is `yield` old and another `yield` has passed,
 *     as libomp's waiters yield (every 256 pauses, ~13 us here, from the
 *     512th; 50 us measured best, docs/pvsched.md), or 5 us after a yield
 *     that gave the CPU back within 100 us (`fast`, `back` below).  A yield with nobody
 *     else queued is one cheap system call; with somebody queued it hands
 *     them the CPU at once, and the waiter stays runnable, so no wake-up is
 *     needed to bring it back.
 *  3. Crowded: after a yield that kept the waiter away `back` or more (a
 *     busy task shares its CPU), for `crowd` (20 ms) block instead of
 *     yielding, and once a wait is `cspin` (20 us) old.
 * A teammate that really runs passes every test, so on a quiet machine the
 * waiter spins as before, pays a clock read every 64 spins and, in a wait
 * longer than `yield`, a system call every `fast` (its yields come back at
 * once: nothing else is queued). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/message.h"
#include "wait/late.h"
#include "wait/peers.h"

bool pv_late_on = true;
static uint64_t gap_ns = 200000;   /* off-CPU gap that counts (rule 2; rule 1 looks at once) */
/* Rule 1 is off by default (late 0): blocking lets the idle CPU pull the
 * stalled teammate, and then the team shares one CPU, a context switch per
 * barrier, until the balancer spreads it again; with barriers every few
 * microseconds that cost more than it saved (docs/pvsched.md). */
static uint64_t late_ns = 0;       /* age of a wait before rule 1 (0: rule 1 off) */
static uint64_t peek_ns = 50000;   /* interval of rule 1's looks */
static uint64_t yield_ns = 50000;  /* a sched_yield this often, from this age on (0: never) */
/* After a yield that came back within `back` (nobody took the CPU for long:
 * nothing was queued, or what ran yields in turn, as a polling MPI rank
 * does), the next comes after `fast` instead: handing the CPU over is cheap
 * and lets the other task progress.  A yield that took a slice (a busy
 * co-runner ran) keeps the `yield` interval.  fast 0: always `yield`
 * (docs/pvsched.md, "The yield interval": MPI ranks beside each other 0.33x
 * the better of libgomp and libomp with it, 0.76x without). */
static uint64_t fast_ns = 5000;
static uint64_t back_ns = 100000;
/* Crowded (rule 3): a yield that kept this waiter away `back` or longer means
 * a busy task shares its CPU.  For the next `crowd` (0: rule off) this
 * thread's waits do not yield (under EEVDF a yield pushes the yielder's
 * deadline back a slice, so a released waiter waits out the co-runner's
 * slice) but block once `cspin` old: a futex wake-up is placed afresh and
 * preempts the co-runner (docs/pvsched.md, "Crowded waiters block").  The
 * window restarts only with another slow yield, so a thread whose co-runner
 * left is back to spinning within `crowd`. */
static uint64_t crowd_ns = 20000000;
static uint64_t cspin_ns = 20000;
static __thread uint64_t crowded_until_ns __attribute__((tls_model("initial-exec")));

/* PVOMP_WAIT_ADAPT: 0 or 1, or 1 followed by tuning
 * "gap=US,late=US,peek=US,yield=US,fast=US,back=US,crowd=US,cspin=US"
 * (":" may stand for ",", so that a value fits where commas separate). */
void pv_late_configure(void)
{
    const char *v = getenv("PVOMP_WAIT_ADAPT");
    if (!v || !*v)
        return;
    if (!strcmp(v, "0")) {
        pv_late_on = false;
        return;
    }
    const char *p = v;
    if (*p == '1')
        p++;
    while (*p == ',' || *p == ':')
        p++;
    while (*p) {
        char key[8];
        unsigned long long us;
        int n;
        if (sscanf(p, "%7[a-z]=%llu%n", key, &us, &n) != 2)
            goto bad;
        if (!strcmp(key, "gap"))
            gap_ns = us * 1000;
        else if (!strcmp(key, "late"))
            late_ns = us * 1000;
        else if (!strcmp(key, "peek"))
            peek_ns = us * 1000;
        else if (!strcmp(key, "yield"))
            yield_ns = us * 1000;
        else if (!strcmp(key, "fast"))
            fast_ns = us * 1000;
        else if (!strcmp(key, "back"))
            back_ns = us * 1000;
        else if (!strcmp(key, "crowd"))
            crowd_ns = us * 1000;
        else if (!strcmp(key, "cspin"))
            cspin_ns = us * 1000;
        else
            goto bad;
        p += n;
        if (*p == ',' || *p == ':')
            p++;
        else if (*p)
            goto bad;
    }
    return;
bad:
    pv_warn("PVOMP_WAIT_ADAPT='%s' is not 0, 1 or 1,key=microseconds,... (keys gap, late, "
            "peek, yield, fast, back, crowd, cspin); using the defaults from where it stopped", v);
}

/* Rule 2: a teammate that is not waiting last ran on this CPU. */
static bool teammate_behind(void)
{
    int cpu = sched_getcpu(); /* from rseq: no system call */
    if (cpu < 0)
        return false;
    unsigned high = atomic_load_explicit(&pv_peers_high, memory_order_relaxed);
    for (unsigned i = 0; i < high; i++) {
        struct pv_peer *p = &pv_peers[i];
        if (p == pv_peer_self || atomic_load_explicit(&p->tid, memory_order_relaxed) <= 0 ||
            atomic_load_explicit(&p->waiting, memory_order_relaxed))
            continue;
        if (pv_peer_cpu(p) == cpu)
            return true;
    }
    return false;
}

/* Rule 1: compare the working teammates' CPU clocks with the previous look,
 * then take new samples.  True when one got less than half the wall time. */
static bool teammate_stalled(struct pv_late *l, uint64_t now)
{
    bool stalled = false;
    uint64_t wall = now - l->sampled_ns;
    unsigned n = 0;
    unsigned high = atomic_load_explicit(&pv_peers_high, memory_order_relaxed);
    for (unsigned i = 0; i < high && n < sizeof l->samples / sizeof l->samples[0]; i++) {
        struct pv_peer *p = &pv_peers[i];
        pid_t tid = atomic_load_explicit(&p->tid, memory_order_acquire);
        if (p == pv_peer_self || tid <= 0 || atomic_load_explicit(&p->waiting, memory_order_relaxed))
            continue;
        uint64_t cpu = pv_peer_cpu_ns(p);
        if (!cpu)
            continue;
        for (unsigned k = 0; k < l->nsamples; k++)
            if (l->samples[k].slot == i && l->samples[k].tid == tid &&
                (cpu - l->samples[k].cpu_ns) * 2 < wall)
                stalled = true;
        l->samples[n++] = (struct pv_late_sample){i, tid, cpu};
        if (stalled)
            break;
    }
    l->nsamples = n;
    l->sampled_ns = now;
    return stalled;
}

enum pv_late_why pv_late_check(struct pv_late *l)
{
    uint64_t now = pv_monotonic_ns();
    if (!l->begin_ns) {
        l->begin_ns = l->last_ns = now;
        l->next_peek_ns = now + late_ns;
        l->next_yield_ns = now + yield_ns;
        l->nsamples = 0;
        l->sampled_ns = now;
        return PV_LATE_SPIN;
    }
    uint64_t gap = now - l->last_ns;
    l->last_ns = now;
    /* Rule 3: crowded, block instead of yielding (and wait no longer than cspin). */
    if (crowd_ns && now < crowded_until_ns &&
        (now - l->begin_ns >= cspin_ns || gap > gap_ns || teammate_behind()))
        return PV_LATE_CROWDED;
    bool late = late_ns && now - l->begin_ns >= late_ns;
    /* Rule 1 first.  A waiter that was off its CPU looks at once: under
     * load it may get few more checks. */
    if (late && (now >= l->next_peek_ns || gap > gap_ns)) {
        l->next_peek_ns = now + peek_ns;
        if (teammate_stalled(l, now))
            return PV_LATE_STALLED;
    }
    /* Rule 2 yields rather than blocks: the task that wants this CPU gets it
     * now, and this waiter stays runnable, so no wake-up is needed. */
    if (gap > gap_ns || (yield_ns && now >= l->next_yield_ns) || teammate_behind()) {
        sched_yield();
        uint64_t after = pv_monotonic_ns();
        bool slow = after - now >= back_ns; /* the yield's own length: a busy task had the CPU */
        l->last_ns = after;
        if (slow && crowd_ns) {
            crowded_until_ns = after + crowd_ns;
            return PV_LATE_CROWDED;
        }
        l->next_yield_ns = after + (fast_ns && !slow ? fast_ns : yield_ns);
    }
    return PV_LATE_SPIN;
}
