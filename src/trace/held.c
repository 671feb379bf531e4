/* Sections held under a mutex: the records written outside the section
 * (see held.h for what and why). */
#include "trace/held.h"

/* The `n` (1 or 2) u64 arguments of a record reserved at `rec` (NULL:
 * dropped and counted, or refused), then its commit. */
static void finish(uint8_t *rec, uint64_t a, uint64_t b, unsigned n)
{
    if (!rec)
        return;
    __builtin_memcpy(rec + PVOMP_TRACE_EVENT_HDR, &a, 8);
    if (n > 1)
        __builtin_memcpy(rec + PVOMP_TRACE_EVENT_HDR + 8, &b, 8);
    pv_trace_commit();
}

/* One record of `n` u64 arguments at time `ts`. */
static void put(uint64_t id, uint64_t ts, uint64_t a, uint64_t b, unsigned n)
{
    finish(pv_trace_begin_at(id, PVOMP_TRACE_EVENT_HDR + 8 * n, 0, ts), a, b, n);
}

/* The same for a ring already in flight (pv_trace_enter_flight). */
static void put_in_flight(struct pv_trace_ring *r, uint64_t id, uint64_t ts, uint64_t a, uint64_t b,
                          unsigned n)
{
    finish(pv_trace_reserve_in_flight(r, id, PVOMP_TRACE_EVENT_HDR + 8 * n, ts), a, b, n);
}

/* Take the remembered acquisition out of the ring header, in flight (see
 * pv_trace_held_got).  False when the log is closing: it stays there for
 * the writer to write. */
static bool take(struct pv_trace_ring *r)
{
    if (!pv_trace_enter_flight(r, r->head + 1))
        return false;
    r->held_id = 0;
    r->limit = r->held_limit;
    return true;
}

void pv_trace_held_flush(void)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (!r || !r->held_id)
        return;
    uint64_t id = r->held_id;
    if (!take(r))
        return;
    if (__atomic_load_n(&pv_trace_state[id], __ATOMIC_RELAXED) & PV_TRACE_TRACED)
        put_in_flight(r, id, r->held_ts, r->held_obj, 0, 1);
    else
        pv_trace_give_up(r); /* the flight is over */
}

void pv_trace_held_enter(unsigned group, uint64_t asked, const void *obj, const void *ra)
{
    if (pv_trace_state[group + PV_TRACE_HELD_ENTER] & PV_TRACE_TRACED)
        put(group + PV_TRACE_HELD_ENTER, asked, (uint64_t)(uintptr_t)obj, (uint64_t)(uintptr_t)ra,
            group == PV_TRACE_HELD_CRITICAL ? 2 : 1);
}

void pv_trace_held_got_slow(unsigned group, uint64_t at, const void *obj)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (r) {
        /* Another acquisition is remembered (nested sections): it goes
         * into the ring first, this one is remembered instead (unless the
         * log is closing: then the first stays for the writer). */
        pv_trace_held_flush();
        if (!r->held_id)
            pv_trace_held_got(group, at, obj);
    } else if (pv_trace_state[group + PV_TRACE_HELD_ACQUIRED] & PV_TRACE_TRACED) {
        /* The thread's first record: written now (this creates its ring). */
        put(group + PV_TRACE_HELD_ACQUIRED, at, (uint64_t)(uintptr_t)obj, 0, 1);
    }
}

void pv_trace_held_released(unsigned group, const void *obj)
{
    struct pv_trace_ring *r = pv_trace_tls;
    uint64_t now = pv_trace_now(), o = (uint64_t)(uintptr_t)obj;
    if (r && r->held_id == group + PV_TRACE_HELD_ACQUIRED && r->held_obj == o) {
        uint64_t since = r->held_ts < now ? r->held_ts : now;
        if (!take(r))
            return; /* closing: the acquisition is the writer's to write */
        if (pv_trace_state[group + PV_TRACE_HELD_HELD] & PV_TRACE_TRACED) {
            put_in_flight(r, group + PV_TRACE_HELD_HELD, now, o, now - since, 2);
            return;
        }
        if (pv_trace_state[group + PV_TRACE_HELD_ACQUIRED] & PV_TRACE_TRACED)
            put_in_flight(r, group + PV_TRACE_HELD_ACQUIRED, since, o, 0, 1);
        else
            pv_trace_give_up(r);
    }
    /* Another remembered acquisition (overlapping sections) is written
     * before this record by the slow path of pv_trace_begin_at(). */
    if (pv_trace_state[group + PV_TRACE_HELD_RELEASE] & PV_TRACE_TRACED)
        put(group + PV_TRACE_HELD_RELEASE, now, o, 0, 1);
}
