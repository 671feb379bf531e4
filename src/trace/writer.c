/* The writer thread: moves committed records from the threads' rings to the
 * log file.
 *
 * It wakes when a ring crosses a quarter-full threshold (pv_trace_kick), when
 * somebody asks for a flush, when a thread exits, and every period_ms.  One
 * pass: snapshot the rings and their `committed` positions, write the queued
 * self-description records, then for each ring one pvtrace_chunk record and
 * the bytes [tail, committed), then release the space.  Reading `committed`
 * before taking the queued declarations makes a declaration always precede
 * the first event that uses it (registration happens-before the commit the
 * pass saw).  The bytes go to the sink chosen at start (sink.h): the
 * file (logfile.c, direct I/O) or the ring-mode recorder (flight.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/linux.h"
#include "base/message.h"
#include "trace/doorbell.h"
#include "trace/registry.h"
#include "trace/sink.h"
#include "trace/spawn.h"
#include "trace/trace.h"

#define CHUNK_HDR PV_TRACE_CHUNK_HDR
#define BATCH 256 /* rings per writev */

static pthread_t writer_thread;
static _Atomic int writer_running;
static _Atomic int writer_stopping;

/* Where the bytes go, chosen at start. */
static const struct pv_trace_sink *sink;

/* Flush requests: a pass that starts after request n completes it. */
static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flush_cond = PTHREAD_COND_INITIALIZER;
static _Atomic uint64_t flush_req;
static uint64_t flush_done;

/* Totals for the end record (writer thread only). */
static uint64_t n_chunks, n_streams;

static bool membarrier_ok;

static const struct pv_trace_sink *configured_sink(void)
{
    return pv_trace_cfg.ring ? &pv_trace_flight_sink : &pv_trace_file_sink;
}

/* PVOMP_TRACE_MAX.  The writer writes records while they fit under the cap
 * (the last chunk is cut at a record boundary, an event and its pvtrace_cut
 * records staying together), then no more: it still empties the rings and
 * adds their events to the threads' dropped counts (a dropped record among
 * them carries its count over), so the close writes them as dropped
 * records.  What goes past the cap is bounded: the log's own records
 * (declarations, objects), one dropped record per thread and the end
 * record. */
static bool capped;

/* How many of the len bytes at p fit under the cap, with `more` bytes
 * already on their way to the file. */
static uint64_t cap_prefix(const uint8_t *p, uint64_t len, uint64_t more)
{
    uint64_t size = sink->size() + more + CHUNK_HDR;
    uint64_t room = capped || size >= pv_trace_cfg.max_bytes ? 0 : pv_trace_cfg.max_bytes - size;
    uint64_t keep = 0;
    while (keep < len) {
        uint64_t end = keep + pv_trace_rec_len(p + keep);
        while (end + PVOMP_TRACE_EVENT_HDR <= len && pv_trace_rec_id(p + end) == PVOMP_TRACE_CUT_ID)
            end += pv_trace_rec_len(p + end);
        if (end > room)
            break;
        keep = end;
    }
    if (keep < len)
        capped = true;
    return keep;
}

static void chunk_header(uint8_t *h, struct pv_trace_ring *r, uint64_t ts, uint64_t bytes)
{
    uint64_t a[3] = { r->stream, r->seq++, bytes };
    memcpy(pvomp_trace_put_header(h, PV_TRACE_EV_pvtrace_chunk, ts, CHUNK_HDR, r->tid), a, 24);
    if (r->seq == 1)
        n_streams++;
    n_chunks++;
}

/* A chunk of r's stream holding one record of one u64 argument, written by
 * the writer for a thread that will not write it itself (it exited, or the
 * log is closing). */
static void write_single(struct pv_trace_ring *r, uint64_t id, uint64_t ts, uint64_t arg)
{
    uint8_t rec[CHUNK_HDR + PVOMP_TRACE_EVENT_HDR + 8];
    chunk_header(rec, r, ts, PVOMP_TRACE_EVENT_HDR + 8);
    memcpy(pvomp_trace_put_header(rec + CHUNK_HDR, id, ts, PVOMP_TRACE_EVENT_HDR + 8, r->tid),
           &arg, 8);
    struct iovec iov[2] = { { rec, CHUNK_HDR }, { rec + CHUNK_HDR, sizeof rec - CHUNK_HDR } };
    sink->put_chunks(iov, 2);
}

/* The acquisition that the thread of `r` remembered (held.h) and could not
 * write itself.  Its fields are stable: the owner only changes them in
 * flight with the log open, and `closed` (release) or the quiesce at the
 * end (acquire of the flight's end) orders them before this read. */
static void write_held(struct pv_trace_ring *r)
{
    uint64_t id = r->held_id;
    if (id && !r->abandoned &&
        (__atomic_load_n(&pv_trace_state[id], __ATOMIC_RELAXED) & PV_TRACE_TRACED)) {
        if (pv_trace_cfg.max_bytes &&
            (capped || sink->size() + CHUNK_HDR + PVOMP_TRACE_EVENT_HDR + 8 >
                           pv_trace_cfg.max_bytes))
            atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
        else
            write_single(r, id, r->held_ts, r->held_obj);
    }
}

struct snap {
    struct pv_trace_ring *r;
    uint64_t committed;
    int closed;
};

/* One pass, between the sink's begin_pass and end_pass (in ring mode the
 * whole pass, the recorder, the rings' tails, the registry, is one critical
 * section against the crash handler). */
static void writer_pass(int final)
{
    static struct snap *s;
    static size_t s_cap;
    static struct iovec iov[2 * BATCH];
    static uint8_t hdrs[BATCH][CHUNK_HDR];
    struct pv_trace_buf meta = { 0 };
    size_t n = 0;

    sink->begin_pass();
    pv_trace_registry_lock();
    for (struct pv_trace_ring *r = pv_trace_registry_first(); r; r = r->next) {
        PV_GROW(s, n, s_cap, 64);
        s[n++].r = r;
    }
    pv_trace_registry_unlock();

    for (size_t i = 0; i < n; i++) {
        /* `closed` first: when set, the `committed` read after it is final. */
        s[i].closed = atomic_load_explicit(&s[i].r->closed, memory_order_acquire);
        s[i].committed = atomic_load_explicit(&s[i].r->committed, memory_order_acquire);
    }

    meta = pv_trace_meta_take();
    /* Objects dlopened since the last pass, before the chunks that may
     * name their code. */
    pv_trace_buf_objects(&meta, pv_trace_now());
    if (meta.len)
        sink->put_meta(meta.p, meta.len);
    free(meta.p);

    for (size_t i = 0; i < n;) {
        int k = 0, rings = 0;
        size_t first = i;
        uint64_t batch = 0; /* bytes of this batch, not put yet */
        for (; i < n && rings < BATCH; i++) {
            struct pv_trace_ring *r = s[i].r;
            uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
            if (s[i].committed == t)
                continue;
            uint8_t *data = r->buf + (t & r->mask);
            uint64_t len = s[i].committed - t;
            if (pv_trace_cfg.max_bytes) {
                uint64_t keep = cap_prefix(data, len, batch);
                if (keep < len)
                    atomic_fetch_add_explicit(&r->dropped, pv_trace_events_in(data + keep, len - keep),
                                              memory_order_relaxed);
                if (!keep)
                    continue; /* its tail moves on below with the others */
                len = keep;
            }
            batch += CHUNK_HDR + len;
            uint64_t ts;
            memcpy(&ts, data + 16, 8);
            chunk_header(hdrs[rings], r, ts, len);
            iov[k++] = (struct iovec){ hdrs[rings], CHUNK_HDR };
            iov[k++] = (struct iovec){ data, len };
            rings++;
        }
        sink->put_chunks(iov, k);
        /* Release: our reads of the ring are done before the owner reuses it. */
        for (size_t j = first; j < i; j++)
            atomic_store_explicit(&s[j].r->tail, s[j].committed, memory_order_release);
    }

    for (size_t i = 0; i < n; i++) {
        struct pv_trace_ring *r = s[i].r;
        if (!s[i].closed && !final)
            continue;
        write_held(r);
        uint64_t d = atomic_exchange_explicit(&r->dropped, 0, memory_order_relaxed);
        if (d)
            write_single(r, PVOMP_TRACE_DROPPED_ID, pv_trace_now(), d);
        if (s[i].closed) {
            pv_trace_registry_remove(r);
            pv_trace_ring_free(r);
        }
    }
    sink->end_pass(final);
}

static void *writer_main(void *arg)
{
    sigset_t all;
    (void)arg;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    /* SCHED_BATCH: a wake-up of the writer does not preempt the thread that
     * is producing events; it runs on an idle CPU, or at the next time
     * slice.  (With 2 CPUs and 2 busy producers, waking it with normal
     * wake-up preemption took up to half of a producer's time.) */
    struct sched_param sp = { 0 };
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
    for (;;) {
        uint32_t k = pv_trace_doorbell_count();
        uint64_t req = atomic_load_explicit(&flush_req, memory_order_acquire);
        int stop = atomic_load_explicit(&writer_stopping, memory_order_acquire);
        writer_pass(stop);
        if (req != flush_done)
            sink->wait(); /* a flush asks for the bytes in the file */
        pthread_mutex_lock(&flush_lock);
        flush_done = req;
        pthread_cond_broadcast(&flush_cond);
        pthread_mutex_unlock(&flush_lock);
        if (stop)
            break;
        pv_trace_doorbell_sleep(k, pv_trace_cfg.period_ms);
    }
    return NULL;
}

bool pv_trace_writer_start(void)
{
    struct pv_trace_buf pre = { 0 };
    sink = configured_sink();
    pv_trace_buf_preamble(&pre); /* ring mode keeps it until a snapshot */
    bool ok = sink->open(pre.p, pre.len);
    free(pre.p);
    if (!ok)
        return false;
    int e = pv_trace_spawn(&writer_thread, writer_main, "pvomp-trace");
    if (e != 0) {
        pv_warn("trace: cannot start the writer thread (%s); not tracing", strerror(e));
        sink->discard();
        return false;
    }
    /* For pv_trace_writer_quiesce at exit. */
    membarrier_ok = pv_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
    atomic_store_explicit(&writer_running, 1, memory_order_release);
    return true;
}

void pv_trace_writer_flush(void)
{
    if (!atomic_load_explicit(&writer_running, memory_order_acquire) ||
        pthread_equal(pthread_self(), writer_thread))
        return;
    uint64_t my = atomic_fetch_add_explicit(&flush_req, 1, memory_order_acq_rel) + 1;
    pv_trace_doorbell_ring();
    pthread_mutex_lock(&flush_lock);
    while (flush_done < my && atomic_load_explicit(&writer_running, memory_order_acquire))
        pthread_cond_wait(&flush_cond, &flush_lock);
    pthread_mutex_unlock(&flush_lock);
}

/* Before the final drain at exit, with pv_trace_on already 0: after
 * membarrier, every thread that reads pv_trace_on sees 0 and gives its
 * event up, and every record that some thread started before is visible as
 * in flight (pending != committed; the pairing is in trace.h).  Wait for
 * those to commit, so that the final drain has them; a thread that stays
 * in the middle of a record longer than 200 ms (preempted) has its record
 * counted as dropped instead. */
void pv_trace_writer_quiesce(void)
{
    if (!membarrier_ok || pv_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
        /* No membarrier: a pause instead, which covers a thread that was
         * running in the middle of a record (not one preempted there). */
        struct timespec t = { 0, 2000000 };
        nanosleep(&t, NULL);
    }
    struct timespec nap = { 0, 20000 };
    uint64_t start = pv_monotonic_ns();
    pv_trace_registry_lock();
    for (struct pv_trace_ring *r = pv_trace_registry_first(); r; r = r->next) {
        while (__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE) !=
               atomic_load_explicit(&r->committed, memory_order_acquire)) {
            if (pv_monotonic_ns() - start > 200000000u) {
                atomic_fetch_add_explicit(&pv_trace_lost, 1, memory_order_relaxed);
                r->abandoned = 1; /* its remembered acquisition is not read either */
                break;
            }
            nanosleep(&nap, NULL);
        }
    }
    pv_trace_registry_unlock();
}

void pv_trace_writer_stop(void)
{
    if (!atomic_exchange_explicit(&writer_running, 0, memory_order_acq_rel))
        return;
    atomic_store_explicit(&writer_stopping, 1, memory_order_release);
    pv_trace_doorbell_ring();
    pthread_join(writer_thread, NULL);
    /* The file: its end record; ring mode: the exit snapshot (it reports
     * pv_trace_lost). */
    sink->close(n_streams, n_chunks);
    /* Wake flushers that raced with the end. */
    pthread_mutex_lock(&flush_lock);
    pthread_cond_broadcast(&flush_cond);
    pthread_mutex_unlock(&flush_lock);
}

/* In the child of a fork there is no writer thread: the child is not traced. */
void pv_trace_writer_forget(void)
{
    atomic_store_explicit(&writer_running, 0, memory_order_relaxed);
    configured_sink()->forget();
    pv_trace_registry_forget();
    pthread_mutex_init(&flush_lock, NULL);
    pthread_cond_init(&flush_cond, NULL);
}
