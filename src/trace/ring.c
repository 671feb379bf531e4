/* Per-thread record rings: creation on a thread's first event, the slow path
 * of pv_trace_begin() (full ring, dropped-event records), and the hand-over
 * of a ring when its thread exits.  See trace.h for the protocol. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/linux.h"
#include "base/message.h"
#include "trace/doorbell.h"
#include "trace/held.h"
#include "trace/registry.h"
#include "trace/trace.h"

__thread struct pv_trace_ring *pv_trace_tls __attribute__((tls_model("initial-exec")));

/* Events that could not even get a ring (out of memory): the writer reports
 * them in a dropped-events record of their own at the end. */
_Atomic uint64_t pv_trace_lost PV_HIDDEN;

static pthread_key_t ring_key;
static pthread_once_t ring_key_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t ring_streams;

/* Thread exit: hand the ring over.  The writer drains what is committed,
 * writes the pending drop count, and frees the ring. */
static void ring_thread_exit(void *p)
{
    struct pv_trace_ring *r = p;
    if (pv_trace_tls == r) {
        pv_trace_held_flush(); /* an acquisition not written yet */
        pv_trace_tls = NULL;
    }
    /* Release: every record committed before is visible to the writer that
     * sees `closed` (it reads `committed` after `closed`). */
    atomic_store_explicit(&r->closed, 1, memory_order_release);
    pv_trace_doorbell_ring();
}

static void ring_key_create(void)
{
    if (pthread_key_create(&ring_key, ring_thread_exit) != 0)
        ring_key = (pthread_key_t)-1;
}

/* `size` bytes of memory mapped twice, back to back: a record that starts
 * near the end of the ring continues, contiguous, in the second view. */
uint8_t *pv_trace_map_twice(uint64_t size, bool populate)
{
    int fd = pv_memfd("pvomp-trace-ring");
    uint8_t *base;
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return NULL;
    }
    base = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    int prot = PROT_READ | PROT_WRITE;
    int flags = MAP_SHARED | MAP_FIXED | (populate ? MAP_POPULATE : 0);
    if (mmap(base, size, prot, flags, fd, 0) == MAP_FAILED ||
        mmap(base + size, size, prot, flags, fd, 0) == MAP_FAILED) {
        munmap(base, 2 * size);
        close(fd);
        return NULL;
    }
    close(fd);
    return base;
}

/* The memory budget (PVOMP_TRACE_BUFFER): bytes of all rings not freed. */
static _Atomic uint64_t ring_bytes;

/* A new thread's ring: half of what is left of the budget, as a power of
 * two, at most PVOMP_TRACE_BUFSIZE and at least RING_FLOOR (or BUFSIZE when
 * that is smaller).  The first threads get the full size; with many, the
 * later ones get less and the total stays near the budget: it passes it by
 * at most RING_FLOOR a thread once the budget is spent. */
#define RING_FLOOR (128u << 10)
static uint64_t ring_size_take(void)
{
    uint64_t max = pv_trace_cfg.bufsize, floor = max < RING_FLOOR ? max : RING_FLOOR;
    uint64_t used = atomic_load_explicit(&ring_bytes, memory_order_relaxed), size;
    do {
        uint64_t half = used < pv_trace_cfg.budget ? (pv_trace_cfg.budget - used) / 2 : 0;
        size = max;
        while (size > floor && size > half)
            size >>= 1;
        /* Taken before the mapping (which takes milliseconds): threads that
         * start together do not all see the budget untouched. */
    } while (!atomic_compare_exchange_weak_explicit(&ring_bytes, &used, used + size,
                                                    memory_order_relaxed, memory_order_relaxed));
    return size;
}

void pv_trace_ring_free(struct pv_trace_ring *r)
{
    munmap(r->buf, 2 * r->size);
    atomic_fetch_sub_explicit(&ring_bytes, r->size, memory_order_relaxed);
    free(r);
}

static struct pv_trace_ring *ring_create(void)
{
    static _Atomic int warned;
    uint64_t size = ring_size_take();
    struct pv_trace_ring *r = NULL;
    uint8_t *buf = pv_trace_map_twice(size, true);
    if (buf && posix_memalign((void **)&r, PV_CACHELINE, sizeof *r) != 0)
        r = NULL;
    if (!buf || !r) {
        int e = errno;
        if (buf)
            munmap(buf, 2 * size);
        atomic_fetch_sub_explicit(&ring_bytes, size, memory_order_relaxed);
        if (!atomic_exchange_explicit(&warned, 1, memory_order_relaxed))
            pv_warn("trace: no buffer for a thread (%s); its events are counted as dropped",
                    strerror(e));
        return NULL;
    }
    memset(r, 0, sizeof *r);
    r->buf = buf;
    r->size = size;
    r->mask = size - 1;
    r->limit = size;
    r->next_kick = size / 4;
    r->tid = (uint32_t)gettid();
    r->stream = atomic_fetch_add_explicit(&ring_streams, 1, memory_order_relaxed) + 1;
    return r;
}

void pv_trace_kick(struct pv_trace_ring *r)
{
    uint64_t quarter = r->size / 4;
    /* Every time a quarter of the ring fills up, not once: the next
     * threshold is the next multiple of a quarter above `head`. */
    r->next_kick = (r->head | (quarter - 1)) + 1;
    pv_trace_doorbell_ring();
}

/* The event is not recorded (the log is closing: pv_trace_on is 0, or it
 * was dropped and counted).  What the slow path put in the ring before (a
 * dropped-events record) is published, then the ring is no longer in flight
 * (pending == committed); release: the closing thread that sees that also
 * sees the record. */
uint8_t *pv_trace_give_up(struct pv_trace_ring *r)
{
    atomic_store_explicit(&r->committed, r->head, memory_order_release);
    __atomic_store_n(&r->pending, r->head, __ATOMIC_RELEASE);
    return NULL;
}

static uint8_t *drop(struct pv_trace_ring *r)
{
    if (r) {
        /* Counted by the owner, taken by whoever writes the dropped record
         * (this thread later, or the writer at the end) with an exchange:
         * an increment is never lost. */
        uint64_t before = atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
        /* The next event comes back here to write the dropped record (also
         * after a remembered acquisition restores the limit). */
        r->limit = 0;
        r->held_limit = 0;
        if (before == 0)
            pv_trace_doorbell_ring();
        pv_trace_give_up(r); /* not in flight any more (the count is in r->dropped) */
    } else {
        atomic_fetch_add_explicit(&pv_trace_lost, 1, memory_order_relaxed);
    }
    return NULL;
}

static uint8_t *reserve_slow(struct pv_trace_ring *r, uint64_t id, uint32_t size, uint32_t extra,
                             uint64_t ts);

uint8_t *pv_trace_begin_slow(uint64_t id, uint32_t size, uint32_t extra, uint64_t ts)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (r && r->held_id) {
        /* A remembered acquisition (held.h) precedes this record. */
        pv_trace_held_flush();
        if (r->held_id)
            return NULL; /* still there: the log is closing, this event is refused */
        return pv_trace_begin_at(id, size, extra, ts);
    }
    if (!r) {
        if (!atomic_load_explicit(&pv_trace_on, memory_order_acquire))
            return NULL; /* closing down, or never started (flags are off then) */
        pthread_once(&ring_key_once, ring_key_create);
        r = ring_create();
        if (!r)
            return drop(NULL);
        pv_trace_tls = r;
        if (ring_key != (pthread_key_t)-1)
            pthread_setspecific(ring_key, r);
        pv_trace_registry_add(r);
    }
    /* The slow path is in flight too: it may count a drop or write a
     * dropped-events record. */
    if (!pv_trace_enter_flight(r, r->head + 1))
        return NULL;
    return reserve_slow(r, id, size, extra, ts);
}

uint8_t *pv_trace_reserve_in_flight(struct pv_trace_ring *r, uint64_t id, uint32_t size, uint64_t ts)
{
    if (r->head + size > r->limit)
        return reserve_slow(r, id, size, 0, ts);
    r->pending = r->head + size;
    return pv_trace_put_header(r, id, size, ts);
}

/* In flight, the log seen open: make room (or count the event dropped). */
static uint8_t *reserve_slow(struct pv_trace_ring *r, uint64_t id, uint32_t size, uint32_t extra,
                             uint64_t ts)
{
    uint64_t need = (uint64_t)size + extra;
    if (need > r->size)
        return drop(r);
    /* Acquire: the writer has finished reading everything below `tail`. */
    r->limit = atomic_load_explicit(&r->tail, memory_order_acquire) + r->size;
    if (atomic_load_explicit(&r->dropped, memory_order_relaxed)) {
        const uint32_t drec = PVOMP_TRACE_EVENT_HDR + 8;
        if (r->head + drec + need > r->limit)
            return drop(r);
        uint64_t n = atomic_exchange_explicit(&r->dropped, 0, memory_order_relaxed);
        if (n) {
            uint8_t *p = r->buf + (r->head & r->mask);
            p = pvomp_trace_put_header(p, PVOMP_TRACE_DROPPED_ID, ts, drec, r->tid);
            memcpy(p, &n, 8);
            r->head += drec; /* published together with the event by pv_trace_commit() */
        }
    }
    if (r->head + need > r->limit)
        return drop(r);
    r->pending = r->head + need; /* still in flight: pending != committed */
    return pv_trace_put_header(r, id, size, ts);
}

/* Hand the calling thread's ring over now (as at thread exit). */
void pv_trace_ring_close_self(void)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (!r)
        return;
    if (ring_key != (pthread_key_t)-1)
        pthread_setspecific(ring_key, NULL);
    ring_thread_exit(r);
}

/* Exported for programs' own events (generated code). */
PV_EXPORT void *pvomp_trace_begin(uint64_t id, uint32_t size, uint32_t extra)
{
    return pv_trace_begin(id, size, extra);
}

PV_EXPORT void pvomp_trace_commit(void)
{
    pv_trace_commit();
}

uint64_t pv_trace_events_in(const uint8_t *p, uint64_t len)
{
    uint64_t n = 0;
    for (uint64_t off = 0; off + PVOMP_TRACE_EVENT_HDR <= len; off += pv_trace_rec_len(p + off)) {
        uint64_t id = pv_trace_rec_id(p + off);
        if (id == PVOMP_TRACE_DROPPED_ID) {
            uint64_t d;
            memcpy(&d, p + off + PVOMP_TRACE_EVENT_HDR, 8);
            n += d;
        } else if (id != PVOMP_TRACE_CUT_ID) {
            n++;
        }
    }
    return n;
}
