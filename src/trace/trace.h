/* pvomp flight log, internal interface.
 *
 * Every thread writes its records into its own ring (ring.c): a byte ring
 * mapped twice back to back, so that a record is always contiguous in
 * memory.  The owner is the only producer; it publishes whole records with
 * a release store of `committed`.  The writer thread (writer.c) is the only
 * consumer: it copies [tail, committed) to the file, framed by a
 * pvtrace_chunk record, then releases the space by advancing `tail`.
 * Nothing on the producer path takes a lock or makes a system call, except
 * the wake-up of the writer once per `kick` bytes.
 *
 * Generated code (from trace-events, see tracegen.py) calls
 * pv_trace_begin() / pv_trace_commit() below. */
#ifndef PV_TRACE_TRACE_H
#define PV_TRACE_TRACE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#define PVOMP_TRACE_WEAK /* defined here, not weak */
#include "pvomp/trace.h"
#include "trace/clock.h"
#include "trace/events.h" /* generated from trace-events: ids, flags, trace_<name>() */


struct pv_trace_ring {
    /* Producer (owner thread) fields. */
    uint8_t *buf;              /* 2 * size bytes of address space, one buffer */
    uint64_t mask;             /* size - 1 (size is a power of two) */
    uint64_t head;             /* where the next record goes (== committed between records) */
    uint64_t pending;          /* head after the reservation being written; a record
                                  is in flight while pending != committed */
    uint64_t limit;            /* head may grow up to here; 0 forces the slow path */
    uint64_t next_kick;        /* wake the writer when committed reaches this */
    /* An acquisition not written yet (held.h): event id (0: none), time,
     * object, and `limit` while it waits (limit is 0 then, so that the
     * thread's next record goes through the slow path, which writes it). */
    uint64_t held_id, held_ts, held_obj, held_limit;
    /* The thread's newest record: event id and time (pv_trace_time_after). */
    uint64_t last_id, last_ts;
    /* When this thread reads its run delay next (run_delay.h). */
    uint64_t run_delay_due;
    uint32_t tid;
    _Atomic uint64_t committed;/* released by the owner after each record */
    _Atomic uint64_t dropped;  /* events lost since the last dropped record */

    /* Consumer (writer thread) fields, on their own line. */
    _Alignas(PV_CACHELINE) _Atomic uint64_t tail; /* space below is free */
    _Atomic int closed;        /* the owner exited: nothing more will be committed */
    int abandoned;             /* still in flight when the log closed (quiesce gave up) */
    uint64_t stream;           /* unique stream number (tids get reused) */
    uint64_t seq;              /* chunks written so far */
    uint64_t size;
    struct pv_trace_ring *next;/* registry list (registry lock) */
};

extern __thread struct pv_trace_ring *pv_trace_tls
    __attribute__((tls_model("initial-exec"))) PV_HIDDEN;
extern _Atomic int pv_trace_on PV_HIDDEN;    /* file open, writer running */

/* ring.c */
uint8_t *pv_trace_begin_slow(uint64_t id, uint32_t size, uint32_t extra, uint64_t ts)
    PV_HIDDEN;
void pv_trace_kick(struct pv_trace_ring *r) PV_HIDDEN;
uint8_t *pv_trace_give_up(struct pv_trace_ring *r) PV_HIDDEN;
void pv_trace_writer_quiesce(void) PV_HIDDEN;
void pv_trace_ring_close_self(void) PV_HIDDEN;
void pv_trace_ring_free(struct pv_trace_ring *r) PV_HIDDEN;
extern _Atomic uint64_t pv_trace_lost PV_HIDDEN;

/* The header of the record reserved at `head` (pending is its end). */
static inline uint8_t *pv_trace_put_header(struct pv_trace_ring *r, uint64_t id, uint32_t size,
                                           uint64_t ts)
{
    uint8_t *p = r->buf + (r->head & r->mask);
    pvomp_trace_put_header(p, id, ts, size, r->tid);
    r->last_id = id;
    r->last_ts = ts;
    return p;
}

/* Mark the ring in flight (pending != committed; `pending` is the end of
 * the record about to be written, or head + 1 for work that writes none
 * yet), then see whether the log is still open.  False: it is closing, the
 * event is not generated, and the flight is over again.  This store then
 * load pairs with the closing thread's store of pv_trace_on then membarrier
 * then load of pending/committed (pv_trace_writer_quiesce): either we see
 * the log closing, or it sees this ring in flight and waits for the flight
 * to end.  The compiler barrier keeps the order here; membarrier supplies
 * the CPU's. */
static inline bool pv_trace_enter_flight(struct pv_trace_ring *r, uint64_t pending)
{
    r->pending = pending;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (__builtin_expect(!atomic_load_explicit(&pv_trace_on, memory_order_relaxed), 0)) {
        pv_trace_give_up(r);
        return false;
    }
    return true;
}

/* For a caller that has marked its ring in flight itself and then seen the
 * log open (held.c): reserve a record without looking at pv_trace_on again
 * (the closing thread waits for this flight, so the record is not refused). */
uint8_t *pv_trace_reserve_in_flight(struct pv_trace_ring *r, uint64_t id, uint32_t size, uint64_t ts)
    PV_HIDDEN;

/* Reserve and fill in the header of one record (plus `extra` bytes after it)
 * with timestamp `ts`, which must not be earlier than the thread's previous
 * record's.  Returns NULL when the event was dropped; otherwise the caller
 * writes the arguments and calls pv_trace_commit(). */
static inline uint8_t *pv_trace_begin_at(uint64_t id, uint32_t size, uint32_t extra, uint64_t ts)
{
    struct pv_trace_ring *r = pv_trace_tls;
    uint64_t end;
    if (__builtin_expect(r == NULL, 0))
        return pv_trace_begin_slow(id, size, extra, ts);
    end = r->head + size + extra;
    if (__builtin_expect(end > r->limit, 0))
        return pv_trace_begin_slow(id, size, extra, ts);
    /* In flight from here to pv_trace_commit(). */
    if (!pv_trace_enter_flight(r, end))
        return NULL;
    return pv_trace_put_header(r, id, size, ts);
}

/* The same, timestamped now. */
static inline uint8_t *pv_trace_begin(uint64_t id, uint32_t size, uint32_t extra)
{
    return pv_trace_begin_at(id, size, extra, pv_trace_now());
}

/* A time for an event that the runtime emits right after event `prev`, with
 * nothing but a few instructions between them: the time of `prev` when that
 * is the thread's newest record and nothing is pending (limit 0: a
 * remembered acquisition or a drop report must be written first), else the
 * clock.  One clock read (~10 ns) serves both records. */
static inline uint64_t pv_trace_time_after(uint64_t prev)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (r && r->last_id == prev && r->limit != 0)
        return r->last_ts;
    return pv_trace_now();
}

/* Something that takes time ran since the thread's newest record without
 * writing one (a tool's OMPT callbacks): the next record reads the clock. */
static inline void pv_trace_time_unshare(void)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (r)
        r->last_id = 0;
}

static inline uint8_t *pv_trace_begin_after(uint64_t prev, uint64_t id, uint32_t size,
                                            uint32_t extra)
{
    return pv_trace_begin_at(id, size, extra, pv_trace_time_after(prev));
}

static inline void pv_trace_commit(void)
{
    struct pv_trace_ring *r = pv_trace_tls;
    uint64_t end = r->pending;
    r->head = end;
    /* Release: the writer that reads `committed` sees the record's bytes. */
    atomic_store_explicit(&r->committed, end, memory_order_release);
    if (__builtin_expect(end >= r->next_kick, 0))
        pv_trace_kick(r);
}

/* control.c */
/* The settings' defaults (config.c); PVOMP_TRACE_* change them (control.c). */
#define PV_TRACE_DEFAULT_BUFSIZE (4u << 20) /* per thread */
#define PV_TRACE_DEFAULT_RING (64u << 20)   /* PVOMP_TRACE_RING */
#define PV_TRACE_DEFAULT_BUDGET (16u << 20) /* PVOMP_TRACE_BUFFER */

struct pv_trace_config {
    char *path;                /* PVOMP_TRACE, NULL when tracing is off */
    uint64_t bufsize;          /* per-thread ring size, bytes (power of two) */
    unsigned period_ms;        /* writer's periodic drain, 0 = only on demand */
    bool direct;               /* PVOMP_TRACE_DIRECT: O_DIRECT for a regular file */
    uint64_t max_bytes;        /* PVOMP_TRACE_MAX, 0: no cap */
    bool ring;                 /* PVOMP_TRACE_MODE=ring: flight recorder (flight.c) */
    uint64_t ring_bytes;       /* PVOMP_TRACE_RING: what the recorder keeps, bytes */
    uint64_t ring_ns;          /* ... and at most this long (0: no time bound) */
    uint64_t budget;           /* PVOMP_TRACE_BUFFER: all threads' rings together */
};
extern struct pv_trace_config pv_trace_cfg PV_HIDDEN; /* config.c */
void pv_trace_init(void) PV_HIDDEN;
void pv_trace_flush_all(void) PV_HIDDEN;
void pv_trace_set_all(uint8_t *state, const struct pvomp_trace_event_desc *d, unsigned n)
    PV_HIDDEN;
void pv_trace_disable_all(void) PV_HIDDEN;
/* A tool observes (on) or no longer observes the runtime site that tests
 * event `id`'s flag byte: its bit 1 (PV_TRACE_OBSERVED), which the trace
 * points ignore; set and cleared by src/ompt when a tool starts and ends. */
void pv_trace_observe(unsigned id, bool on) PV_HIDDEN;
/* The one test of a runtime site that shares event `id`'s flag with its
 * OMPT events: traced (bit 0) or observed by a tool (bit 1). */
#define pv_trace_site_on(id) __builtin_expect(pv_trace_state[id] != 0, 0)

/* The length and id of the record at `rec` (in a ring or a chunk). */
static inline uint64_t pv_trace_rec_len(const uint8_t *rec)
{
    uint32_t length;
    __builtin_memcpy(&length, rec + 24, 4);
    return 8 + (uint64_t)length;
}

static inline uint64_t pv_trace_rec_id(const uint8_t *rec)
{
    uint64_t id;
    __builtin_memcpy(&id, rec + 8, 8);
    return id;
}

#define PV_TRACE_CHUNK_HDR (PVOMP_TRACE_EVENT_HDR + 24)

/* ring.c: `size` bytes mapped twice back to back (NULL: errno); `populate`
 * prefaults them. */
uint8_t *pv_trace_map_twice(uint64_t size, bool populate) PV_HIDDEN;

/* ring.c: the events among the records at p (len bytes of one thread's
 * stream): a dropped record counts what it says, pvtrace_cut records are not
 * events. */
uint64_t pv_trace_events_in(const uint8_t *p, uint64_t len) PV_HIDDEN;

/* writer.c: the writer thread; its sink (sink.h), its registry (registry.h)
 * and its doorbell (doorbell.h) are below it. */
bool pv_trace_writer_start(void) PV_HIDDEN;
void pv_trace_writer_stop(void) PV_HIDDEN;      /* final drain, end record, close */
void pv_trace_writer_flush(void) PV_HIDDEN;     /* drain everything committed so far */
void pv_trace_writer_forget(void) PV_HIDDEN;    /* in a fork child */

/* buf.c: records built in memory.  Their strings are cut at PV_TRACE_STRMAX
 * bytes (the command line can be long; nothing else comes close). */
#define PV_TRACE_STRMAX 4096u
struct pv_trace_buf {
    uint8_t *p;
    size_t len, cap;
};
void pv_trace_buf_put(struct pv_trace_buf *b, const void *bytes, size_t len) PV_HIDDEN;
void pv_trace_buf_mapping(struct pv_trace_buf *b, uint64_t id, const char *name) PV_HIDDEN;
/* An event record with u64 (`s` == NULL) and string arguments: kinds[i] 's' or 'u'. */
void pv_trace_buf_event(struct pv_trace_buf *b, uint64_t id, uint64_t ts, uint32_t tid,
                        const char *kinds, ...) PV_HIDDEN;
/* meta.c: the records that describe the log. */
void pv_trace_buf_decls(struct pv_trace_buf *b, uint64_t base, const struct pvomp_trace_event_desc *d,
                        unsigned n, uint64_t ts, uint32_t tid) PV_HIDDEN;
void pv_trace_buf_preamble(struct pv_trace_buf *b) PV_HIDDEN;

/* objects.c: a pvtrace_object record for each loaded object not recorded yet. */
void pv_trace_buf_objects(struct pv_trace_buf *b, uint64_t ts) PV_HIDDEN;
void pv_trace_objects_forget(void) PV_HIDDEN;

#endif
