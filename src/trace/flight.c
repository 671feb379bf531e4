/* Ring mode (PVOMP_TRACE_MODE=ring): a flight recorder that keeps the
 * newest PVOMP_TRACE_RING bytes (and/or seconds) of the log in memory and
 * writes them out as a complete log on SIGUSR2, at exit and on a crash.
 *
 * The recorder: the writer thread drains the threads' rings as in file
 * mode, but puts each chunk into `store`, a byte ring mapped twice (every
 * entry contiguous), instead of the file.  An entry is the chunk header and
 * its records, preceded by the store's own two words (the chunk's last
 * timestamp and its number of events).  Room for a new entry is made by
 * dropping the oldest ones; their events are added to their stream's
 * overwritten count.  The log's own records (header, declarations, objects)
 * are kept apart, all of them, in `meta`.
 *
 * A snapshot (write_snapshot) is: meta, a pvtrace_snapshot record, for each
 * stream whose oldest chunks were overwritten a chunk holding one dropped
 * record with that count (so delivered + dropped = generated holds per
 * thread), the entries in order with their chunk numbers renumbered from 0
 * per stream, on a crash also each ring's records not drained yet and its
 * pending drop count, then pvtrace_end.  It is written to NAME.part and
 * renamed, so a reader never sees half of one.
 *
 * Who touches what: only the writer thread changes the store, the stream
 * table, meta and the rings' tails, and only between flight_hold()
 * and _release() (the writer's pass is between begin_pass and end_pass, which hold and
 * release it).  The crash handler
 * runs on the crashing thread: it sets `frozen`, then waits until `busy` is
 * 0; a writer that holds after that sees `frozen` and waits until the
 * snapshot is written (store then load on both sides, seq_cst: either the
 * handler sees busy, or the writer sees frozen).  So the handler reads a
 * quiet recorder, and the registry list without freeing under it.  What it
 * calls is async-signal-safe: open, write, close, rename, nanosleep,
 * clock_gettime (pv_trace_now), sigaction, raise, and plain loads/stores;
 * no malloc, no stdio, no lock.  SIGUSR2 only bumps a counter and wakes the
 * writer, which writes the snapshot itself after its next pass. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/message.h"
#include "trace/doorbell.h"
#include "trace/registry.h"
#include "trace/sink.h"
#include "trace/trace.h"

#define CHUNK_HDR PV_TRACE_CHUNK_HDR
#define ENTRY_HDR 16 /* last_ts, events: the store's own, never written out */

struct stream_info {
    uint64_t over_events; /* events of this stream overwritten */
    uint64_t over_ts;     /* the newest timestamp among them */
    uint64_t seq;         /* while a snapshot is written: its next chunk number */
    uint32_t tid;
};

static uint8_t *store;
static uint64_t store_size;     /* a multiple of the page size */
static uint64_t s_head, s_tail; /* byte positions: entries are [s_tail, s_head) */
static uint64_t newest_ts;
static uint64_t max_piece;      /* the longest chunk kept in one entry */
static struct stream_info *streams; /* indexed by stream number */
static uint64_t streams_cap;
static uint64_t over_events, over_chunks;
static struct pv_trace_buf meta;

static _Atomic int busy, frozen, stopped;
static _Atomic int crash_written; /* the crash snapshot is on disk */
static _Atomic uint64_t snap_req;
static uint64_t snap_done;
static unsigned long snap_number; /* the last SIGUSR2 snapshot's: NAME.N */

/* PVOMP_TRACE names something that is not a regular file (a pipe,
 * /dev/null): every snapshot is written to it as it is, no NAME.part, no
 * rename, no NAME.N. */
static bool not_a_file;

static struct sigaction old_act[65];
static const int crash_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };

/* ------------------------------------------------------------ recorder */
static void flight_hold(void)
{
    atomic_store_explicit(&busy, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&frozen, memory_order_seq_cst)) {
        /* A crash snapshot is being written: stay off the recorder. */
        atomic_store_explicit(&busy, 0, memory_order_seq_cst);
        struct timespec t = { 0, 1000000 };
        nanosleep(&t, NULL);
        atomic_store_explicit(&busy, 1, memory_order_seq_cst);
    }
}

static void flight_release(void)
{
    atomic_store_explicit(&busy, 0, memory_order_release);
}

static uint8_t *entry_at(uint64_t pos)
{
    return store + pos % store_size;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t entry_len(const uint8_t *e)
{
    return ENTRY_HDR + CHUNK_HDR + get_u64(e + ENTRY_HDR + 48); /* the chunk's `bytes` */
}

static struct stream_info *stream_get(uint64_t s)
{
    if (s >= streams_cap) {
        uint64_t cap = streams_cap ? streams_cap : 64;
        while (cap <= s)
            cap *= 2;
        struct stream_info *n = pv_realloc(streams, cap * sizeof *n);
        memset(n + streams_cap, 0, (cap - streams_cap) * sizeof *n);
        streams = n;
        streams_cap = cap;
    }
    return &streams[s];
}

/* The oldest entry goes; its events are counted as overwritten. */
static void evict(void)
{
    const uint8_t *e = entry_at(s_tail);
    struct stream_info *si = stream_get(get_u64(e + ENTRY_HDR + 32));
    uint64_t last = get_u64(e);
    si->over_events += get_u64(e + 8);
    if (last > si->over_ts)
        si->over_ts = last;
    over_events += get_u64(e + 8);
    over_chunks++;
    s_tail += entry_len(e);
}

static void add_entry(const uint8_t *hdr, const uint8_t *data, uint64_t len)
{
    uint64_t need = ENTRY_HDR + CHUNK_HDR + len, last_ts = 0;
    while (s_head != s_tail && s_head + need - s_tail > store_size)
        evict();
    for (uint64_t off = 0; off + PVOMP_TRACE_EVENT_HDR <= len; off += pv_trace_rec_len(data + off))
        last_ts = get_u64(data + off + 16);
    uint64_t words[2] = { last_ts, pv_trace_events_in(data, len) };
    uint8_t *e = entry_at(s_head);
    memcpy(e, words, ENTRY_HDR);
    memcpy(e + ENTRY_HDR, hdr, CHUNK_HDR);
    memcpy(e + ENTRY_HDR + 48, &len, 8);
    memcpy(e + ENTRY_HDR + CHUNK_HDR, data, len);
    s_head += need;
    memcpy(&stream_get(get_u64(hdr + 32))->tid, hdr + 28, 4);
    if (last_ts > newest_ts)
        newest_ts = last_ts;
    /* PVOMP_TRACE_RING=...s: what ended before the window goes too. */
    while (pv_trace_cfg.ring_ns && s_head != s_tail &&
           get_u64(entry_at(s_tail)) + pv_trace_cfg.ring_ns < newest_ts)
        evict();
}

/* Writer thread, held: one chunk (header, `len` bytes of records), cut at
 * record boundaries into entries of at most max_piece bytes. */
static void flight_chunk(const uint8_t *hdr, const uint8_t *data, uint64_t len)
{
    uint8_t h[CHUNK_HDR];
    memcpy(h, hdr, CHUNK_HDR);
    while (len > 0) {
        uint64_t piece = 0;
        while (piece < len) {
            uint64_t next = piece + pv_trace_rec_len(data + piece);
            if (piece && next > max_piece)
                break;
            piece = next;
        }
        if (piece > len)
            piece = len;
        memcpy(h + 16, data + 16, 8); /* a chunk's time is its first record's */
        add_entry(h, data, piece);
        data += piece;
        len -= piece;
    }
}

static void flight_meta(const void *bytes, size_t len)
{
    pv_trace_buf_put(&meta, bytes, len);
}

/* ------------------------------------------------- snapshot (signal-safe) */
struct out {
    int fd;
    uint64_t bytes;
    bool failed;
};

static void out_put(struct out *o, const void *p, uint64_t len)
{
    const uint8_t *b = p;
    while (len > 0 && !o->failed) {
        ssize_t w = write(o->fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            o->failed = true;
            return;
        }
        b += w;
        len -= (uint64_t)w;
        o->bytes += (uint64_t)w;
    }
}

static void put_chunk_hdr(struct out *o, uint64_t stream, uint64_t seq, uint64_t ts, uint32_t tid,
                          uint64_t bytes)
{
    uint8_t h[CHUNK_HDR];
    uint64_t a[3] = { stream, seq, bytes };
    pvomp_trace_put_header(h, PV_TRACE_EV_pvtrace_chunk, ts, CHUNK_HDR, tid);
    memcpy(h + 32, a, 24);
    out_put(o, h, CHUNK_HDR);
}

/* A chunk of one dropped record (count n) in `stream`. */
static void put_dropped(struct out *o, uint64_t stream, uint64_t seq, uint64_t ts, uint32_t tid,
                        uint64_t n)
{
    uint8_t rec[PVOMP_TRACE_EVENT_HDR + 8];
    put_chunk_hdr(o, stream, seq, ts, tid, sizeof rec);
    pvomp_trace_put_header(rec, PVOMP_TRACE_DROPPED_ID, ts, sizeof rec, tid);
    memcpy(rec + PVOMP_TRACE_EVENT_HDR, &n, 8);
    out_put(o, rec, sizeof rec);
}

static size_t str_copy(char *dst, size_t at, size_t cap, const char *src)
{
    while (*src && at + 1 < cap)
        dst[at++] = *src++;
    dst[at] = 0;
    return at;
}

static size_t num_copy(char *dst, size_t at, size_t cap, unsigned long v)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < 24);
    while (n > 0 && at + 1 < cap)
        dst[at++] = digits[--n];
    dst[at] = 0;
    return at;
}

/* The whole recorder as a log at `path` (through path.part).  rings: also
 * the records still in the threads' rings (a crash: the writer has not
 * drained them).  True when it was written. */
static bool write_snapshot(const char *path, const char *reason, uint64_t number, bool rings)
{
    char tmp[PATH_MAX];
    size_t n = str_copy(tmp, 0, sizeof tmp, path);
    if (!not_a_file)
        str_copy(tmp, n, sizeof tmp, ".part");
    struct out o = { open(tmp, O_WRONLY | O_TRUNC | O_CLOEXEC | (not_a_file ? 0 : O_CREAT), 0644),
                     0, false };
    if (o.fd < 0)
        return false;
    uint64_t now = pv_trace_now(), nstreams = 0, nchunks = 0;
    uint32_t pid = (uint32_t)getpid();
    out_put(&o, meta.p, meta.len);
    if (rings) {
        /* Declarations of a program's events registered since the last
         * pass (the crash handler reads them without the lock: a group
         * registered at the moment of the crash may be cut). */
        const uint8_t *pm;
        size_t pl;
        pv_trace_meta_pending(&pm, &pl);
        if (pm && pl)
            out_put(&o, pm, pl);
    }

    /* pvtrace_snapshot(reason, number, overwritten events, chunks). */
    uint8_t rec[PVOMP_TRACE_EVENT_HDR + 4 + 32 + 8 * 3];
    uint32_t rlen = (uint32_t)strnlen(reason, 32);
    uint64_t args[3] = { number, over_events, over_chunks };
    pvomp_trace_put_header(rec, PV_TRACE_EV_pvtrace_snapshot, now,
                           PVOMP_TRACE_EVENT_HDR + 4 + rlen + 24, pid);
    memcpy(rec + PVOMP_TRACE_EVENT_HDR, &rlen, 4);
    memcpy(rec + PVOMP_TRACE_EVENT_HDR + 4, reason, rlen);
    memcpy(rec + PVOMP_TRACE_EVENT_HDR + 4 + rlen, args, 24);
    out_put(&o, rec, PVOMP_TRACE_EVENT_HDR + 4 + rlen + 24);

    /* Each stream opens with what was overwritten of it. */
    for (uint64_t s = 0; s < streams_cap; s++) {
        streams[s].seq = 0;
        if (streams[s].over_events) {
            put_dropped(&o, s, 0, streams[s].over_ts, streams[s].tid, streams[s].over_events);
            streams[s].seq = 1;
            nstreams++;
            nchunks++;
        }
    }
    for (uint64_t pos = s_tail; pos != s_head;) {
        const uint8_t *e = entry_at(pos);
        uint8_t h[CHUNK_HDR];
        memcpy(h, e + ENTRY_HDR, CHUNK_HDR);
        struct stream_info *si = &streams[get_u64(h + 32)];
        nstreams += si->seq == 0;
        memcpy(h + 40, &si->seq, 8);
        si->seq++;
        nchunks++;
        out_put(&o, h, CHUNK_HDR);
        out_put(&o, e + ENTRY_HDR + CHUNK_HDR, get_u64(h + 48));
        pos += entry_len(e);
    }
    for (struct pv_trace_ring *r = rings ? pv_trace_registry_head() : NULL; r; r = r->next) {
        uint64_t t = atomic_load_explicit(&r->tail, memory_order_acquire);
        uint64_t c = atomic_load_explicit(&r->committed, memory_order_acquire);
        uint64_t seq = r->stream < streams_cap ? streams[r->stream].seq : 0;
        uint64_t d = atomic_load_explicit(&r->dropped, memory_order_relaxed);
        nstreams += seq == 0 && (c != t || d);
        if (c != t) {
            const uint8_t *data = r->buf + (t & r->mask);
            put_chunk_hdr(&o, r->stream, seq++, get_u64(data + 16), r->tid, c - t);
            out_put(&o, data, c - t);
            nchunks++;
        }
        if (d) {
            put_dropped(&o, r->stream, seq++, now, r->tid, d);
            nchunks++;
        }
    }
    uint64_t lost = atomic_load_explicit(&pv_trace_lost, memory_order_relaxed);
    if (lost) {
        uint8_t drec[PVOMP_TRACE_EVENT_HDR + 8];
        pvomp_trace_put_header(drec, PVOMP_TRACE_DROPPED_ID, now, sizeof drec, 0);
        memcpy(drec + PVOMP_TRACE_EVENT_HDR, &lost, 8);
        out_put(&o, drec, sizeof drec);
    }
    /* pvtrace_end(streams, chunks, bytes, monotonic_ns). */
    uint8_t end[PVOMP_TRACE_EVENT_HDR + 32];
    uint64_t e4[4] = { nstreams, nchunks, o.bytes, pv_monotonic_ns() };
    pvomp_trace_put_header(end, PV_TRACE_EV_pvtrace_end, now, sizeof end, pid);
    memcpy(end + PVOMP_TRACE_EVENT_HDR, e4, 32);
    out_put(&o, end, sizeof end);
    bool ok = !o.failed;
    if (close(o.fd) != 0)
        ok = false;
    if (not_a_file)
        return ok;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok)
        unlink(tmp);
    return ok;
}

/* ------------------------------------------------------------- signals */
static void on_snapshot_signal(int sig)
{
    int e = errno;
    (void)sig;
    atomic_fetch_add_explicit(&snap_req, 1, memory_order_relaxed);
    pv_trace_doorbell_ring(); /* an atomic add and at most a futex call */
    errno = e;
}

static const char *crash_reason(int sig)
{
    switch (sig) {
    case SIGSEGV: return "crash SIGSEGV";
    case SIGABRT: return "crash SIGABRT";
    case SIGBUS: return "crash SIGBUS";
    case SIGFPE: return "crash SIGFPE";
    default: return "crash SIGILL";
    }
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
    int e = errno;
    (void)si;
    (void)uc;
    if (!atomic_load(&stopped) && !atomic_exchange_explicit(&frozen, 1, memory_order_seq_cst)) {
        /* Wait for the writer to leave the recorder (a pass is short; 2 s
         * covers a writer preempted in the middle of one). */
        struct timespec t = { 0, 1000000 };
        for (int i = 0; i < 2000 && atomic_load_explicit(&busy, memory_order_seq_cst); i++)
            nanosleep(&t, NULL);
        write_snapshot(pv_trace_cfg.path, crash_reason(sig), 0, true);
        atomic_store(&crash_written, 1);
        atomic_store_explicit(&frozen, 0, memory_order_release); /* a handler may recover */
    } else if (!atomic_load(&stopped)) {
        /* Another thread is writing the crash snapshot: let it finish
         * before this signal ends the process. */
        struct timespec t = { 0, 1000000 };
        for (int i = 0; i < 10000 && !atomic_load(&crash_written); i++)
            nanosleep(&t, NULL);
    }
    /* Die as the program would have: its own handler or the default
     * action, delivered when this handler returns. */
    sigaction(sig, &old_act[sig], NULL);
    raise(sig);
    errno = e;
}

static void install(int sig, struct sigaction *sa)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0)
        return;
    bool dfl = !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL;
    if (!dfl) {
        pv_warn("trace: the program handles signal %d (%s) itself; the ring-mode recorder does "
                "not take it over", sig, strsignal(sig));
        return;
    }
    old_act[sig] = cur;
    sigaction(sig, sa, NULL);
}

/* The next free number N of NAME.N (a snapshot never replaces an earlier
 * one, of this process or of an earlier run). */
static unsigned long first_free_number(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    unsigned long max = 0;
    if (slash) {
        size_t l = (size_t)(slash - path);
        if (l >= sizeof dir)
            return 0;
        memcpy(dir, path, l);
        dir[l ? l : 1] = 0;
        if (!l)
            dir[0] = '/';
    } else {
        strcpy(dir, ".");
    }
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d));) {
        char *end;
        if (strncmp(de->d_name, base, blen) || de->d_name[blen] != '.' ||
            de->d_name[blen + 1] < '0' || de->d_name[blen + 1] > '9')
            continue;
        unsigned long v = strtoul(de->d_name + blen + 1, &end, 10);
        if (*end == 0 && v > max)
            max = v;
    }
    closedir(d);
    return max;
}

static bool flight_start(const void *preamble, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    store_size = (pv_trace_cfg.ring_bytes + (uint64_t)page - 1) & ~((uint64_t)page - 1);
    /* Not prefaulted: the recorder takes memory as it fills. */
    store = pv_trace_map_twice(store_size, false);
    if (!store) {
        pv_warn("trace: no memory for the ring-mode recorder (%llu bytes: %s); not tracing",
                (unsigned long long)store_size, strerror(errno));
        return false;
    }
    max_piece = store_size / 4;
    struct stat st;
    not_a_file = stat(pv_trace_cfg.path, &st) == 0 && !S_ISREG(st.st_mode);
    flight_meta(preamble, len);
    snap_number = first_free_number(pv_trace_cfg.path);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_snapshot_signal;
    sa.sa_flags = SA_RESTART;
    install(SIGUSR2, &sa);
    sa.sa_handler = NULL;
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++)
        install(crash_signals[i], &sa);
    return true;
}

static uint64_t flight_requested(void)
{
    return atomic_load_explicit(&snap_req, memory_order_relaxed);
}

/* Writer thread, after a pass that started once `requested` signals had
 * come: one snapshot for them all (signals while it is written are served
 * by the next one). */
static void flight_serve(uint64_t requested)
{
    if (requested == snap_done)
        return;
    snap_done = requested;
    char path[PATH_MAX];
    size_t n = str_copy(path, 0, sizeof path, pv_trace_cfg.path);
    ++snap_number;
    if (!not_a_file) {
        n = str_copy(path, n, sizeof path, ".");
        num_copy(path, n, sizeof path, snap_number);
    }
    flight_hold();
    bool ok = write_snapshot(path, "signal", snap_number, false);
    flight_release();
    if (ok)
        pv_note("trace: snapshot %lu written to %s", snap_number, path);
    else
        pv_warn("trace: snapshot %lu: cannot write %s (%s)", snap_number, path, strerror(errno));
}

/* In the child of a fork: not traced, and the recorder (a copy of the
 * parent's) must never be written over the parent's snapshots. */
static void flight_forget(void)
{
    if (!store)
        return;
    atomic_store(&stopped, 1);
    atomic_store(&busy, 0);
    atomic_store(&frozen, 0);
    struct sigaction cur;
    if (sigaction(SIGUSR2, NULL, &cur) == 0 && cur.sa_handler == on_snapshot_signal)
        sigaction(SIGUSR2, &old_act[SIGUSR2], NULL);
    for (size_t i = 0; i < sizeof crash_signals / sizeof *crash_signals; i++) {
        int sig = crash_signals[i];
        if (sigaction(sig, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == on_crash)
            sigaction(sig, &old_act[sig], NULL);
    }
}

/* At exit, after the writer's final pass: the snapshot at PVOMP_TRACE. */
static void flight_stop(void)
{
    flight_hold();
    atomic_store(&stopped, 1); /* a crash from here on has nothing more to add */
    bool ok = write_snapshot(pv_trace_cfg.path, "exit", 0, false);
    flight_release();
    if (!ok)
        pv_warn("trace: the exit snapshot: cannot write %s (%s)", pv_trace_cfg.path,
                strerror(errno));
}

/* ---------------------------------------------------------- the sink */
static uint64_t pass_requests; /* snapshot requests before the pass began */

static void flight_begin_pass(void)
{
    pass_requests = flight_requested();
    flight_hold();
}

static void flight_put_chunks(struct iovec *iov, int k)
{
    for (int j = 0; j + 1 < k; j += 2)
        flight_chunk(iov[j].iov_base, iov[j + 1].iov_base, iov[j + 1].iov_len);
}

static void flight_end_pass(bool final)
{
    flight_release();
    if (!final)
        flight_serve(pass_requests); /* SIGUSR2: a snapshot of what is in by now */
}

static void flight_wait(void)
{
    /* Nothing goes to a file between snapshots. */
}

static uint64_t flight_size(void)
{
    return 0; /* PVOMP_TRACE_MAX does not apply to ring mode (control.c) */
}

static void flight_close(uint64_t streams, uint64_t chunks)
{
    (void)streams; /* the snapshot counts its own */
    (void)chunks;
    flight_stop();
}

static void flight_discard(void)
{
}

const struct pv_trace_sink pv_trace_flight_sink = {
    .open = flight_start,
    .begin_pass = flight_begin_pass,
    .put_meta = flight_meta,
    .put_chunks = flight_put_chunks,
    .end_pass = flight_end_pass,
    .wait = flight_wait,
    .size = flight_size,
    .close = flight_close,
    .discard = flight_discard,
    .forget = flight_forget,
};
