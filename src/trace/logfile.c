/* The log file: where the writer's bytes go.
 *
 * A regular file is written with O_DIRECT when the file system allows it.
 * Buffered writes cost 0.8-2 ns of CPU a byte in the page cache (and the
 * kernel's writeback more, later); direct writes of whole blocks about 0.1,
 * and with every CPU running a team thread that CPU comes out of the team.
 *
 * Direct writes need aligned buffers, offsets and lengths, and they sleep
 * until the device is done, so the writer thread (which must keep draining
 * the rings) does not make them itself:
 *
 *   - it copies the bytes into an aligned staging buffer, `cur`, that holds
 *     the file's bytes from cur->off (a multiple of ALIGN) on;
 *   - a full buffer, and at the end of every writer pass the buffer as it
 *     is, becomes a job for the I/O thread, and the writer goes on in a
 *     fresh buffer (starting with a copy of the partial block, if any);
 *   - the I/O thread takes jobs in order and writes each one's whole blocks
 *     direct and its partial last block through a second, buffered
 *     descriptor, so the file always ends exactly after the last record
 *     written (nothing is lost if the process is then killed); the next job
 *     covers that block again, whole.  One thread, in order: the file is
 *     always a prefix of the log, never one with a hole.
 *
 * Anything else (a pipe, a device, PVOMP_TRACE_DIRECT=0, or when O_DIRECT
 * cannot be opened or the I/O thread cannot start) is written by the writer
 * itself with plain sequential writes from the rings, without the copy.  A file system that refuses
 * direct writes (EINVAL) gets the jobs written buffered from then on.
 *
 * The writer thread calls everything here except io_main, between
 * pv_trace_log_open and pv_trace_log_close. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/message.h"
#include "trace/sink.h"
#include "trace/spawn.h"
#include "trace/trace.h"

#define ALIGN 4096u
#define BUF_SIZE (2u << 20)
#define MAX_BUFS 16 /* 32 MiB queued at most; then the writer waits */

struct iobuf {
    struct iobuf *next;
    uint64_t off; /* file offset of p[0] */
    size_t len;
    size_t done;  /* writer: the first `done` bytes are already in a job */
    uint8_t *p;
};

static int buf_fd = -1;    /* buffered: the file as opened */
static int direct_fd = -1; /* the same file with O_DIRECT, or -1 */
static uint64_t end_off;   /* bytes in the log so far */
static _Atomic int failed;

/* Direct mode: the writer's buffer and the I/O thread's queue. */
static struct iobuf *cur;
static pthread_t io_thread;
static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t io_work = PTHREAD_COND_INITIALIZER; /* queue not empty, or stop */
static pthread_cond_t io_done = PTHREAD_COND_INITIALIZER; /* a job finished */
static struct iobuf *queue_head, **queue_tail = &queue_head; /* under io_lock */
static struct iobuf *free_bufs;                              /* under io_lock */
static int n_bufs, io_busy, io_stop;                         /* under io_lock */
static int buffered_only; /* I/O thread: the file system refused O_DIRECT */

static void fail(const char *what, int err)
{
    if (!atomic_exchange(&failed, 1))
        pv_warn("trace: %s %s failed (%s); the log stops here", what, pv_trace_cfg.path,
                strerror(err));
}

/* After a write of w bytes from iov[0..*n): the iovecs still to write. */
static struct iovec *iov_advance(struct iovec *iov, int *n, size_t w)
{
    while (*n > 0 && w >= iov->iov_len) {
        w -= iov->iov_len;
        iov++;
        (*n)--;
    }
    if (*n > 0) {
        iov->iov_base = (uint8_t *)iov->iov_base + w;
        iov->iov_len -= w;
    }
    return iov;
}

/* pwritev of all of iov[0..n) at off through fd; false (errno set) on
 * failure.  iov is changed. */
static bool pwritev_all(int fd, struct iovec *iov, int n, uint64_t off)
{
    while (n > 0) {
        ssize_t w = pwritev(fd, iov, n, (off_t)off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        off += (uint64_t)w;
        iov = iov_advance(iov, &n, (size_t)w);
    }
    return true;
}

/* All of [p, p+len) at off through fd; false (errno set) on failure. */
static bool pwrite_all(int fd, const uint8_t *p, size_t len, uint64_t off)
{
    struct iovec one = { (void *)p, len };
    return pwritev_all(fd, &one, 1, off);
}

/* I/O thread: the jobs of the list `jobs` to the file, in one direct write
 * when there are several (each job starts where the previous one's whole
 * blocks end, so their whole blocks are contiguous in the file), then the
 * last job's partial block buffered. */
static void io_write(struct iobuf *jobs)
{
    struct iovec iov[MAX_BUFS];
    struct iobuf *last = jobs;
    int n = 0;
    for (struct iobuf *b = jobs; b; b = b->next) {
        size_t whole = b->len & ~(size_t)(ALIGN - 1);
        if (whole)
            iov[n++] = (struct iovec){ b->p, whole };
        last = b;
    }
    size_t last_whole = last->len & ~(size_t)(ALIGN - 1);
    if (!buffered_only && n && !pwritev_all(direct_fd, iov, n, jobs->off)) {
        if (errno != EINVAL) {
            fail("writing", errno);
            return;
        }
        buffered_only = 1; /* the file system refuses direct writes after all */
    }
    if (buffered_only) {
        /* Each job's bytes, buffered; a later job rewrites the one
         * partial block an earlier one ended with. */
        for (struct iobuf *b = jobs; b; b = b->next)
            if (!pwrite_all(buf_fd, b->p, b->len, b->off)) {
                fail("writing", errno);
                return;
            }
        return;
    }
    if (last->len > last_whole &&
        !pwrite_all(buf_fd, last->p + last_whole, last->len - last_whole, last->off + last_whole))
        fail("writing", errno);
}

static void *io_main(void *arg)
{
    (void)arg;
    /* SCHED_BATCH, like the writer: the end of a write does not preempt a
     * team thread; the queue absorbs the wait for a time slice, and what
     * queued up meanwhile goes out in one write. */
    struct sched_param sp = { 0 };
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
    pthread_mutex_lock(&io_lock);
    for (;;) {
        while (!queue_head && !io_stop)
            pthread_cond_wait(&io_work, &io_lock);
        struct iobuf *jobs = queue_head;
        if (!jobs)
            break; /* stopping, and nothing left */
        queue_head = NULL;
        queue_tail = &queue_head;
        io_busy = 1;
        pthread_mutex_unlock(&io_lock);
        if (!atomic_load(&failed))
            io_write(jobs);
        pthread_mutex_lock(&io_lock);
        io_busy = 0;
        while (jobs) {
            struct iobuf *next = jobs->next;
            jobs->next = free_bufs;
            free_bufs = jobs;
            jobs = next;
        }
        pthread_cond_broadcast(&io_done);
    }
    pthread_mutex_unlock(&io_lock);
    return NULL;
}

/* Staging memory: BUF_SIZE bytes aligned to BUF_SIZE, as a transparent huge
 * page where the kernel gives one (MADV_HUGEPAGE; THP "madvise" mode here).
 * With 4 KiB pages the writer took a page fault for every 4 KiB of a new
 * buffer and each direct write pinned 512 pages; in EPCC traced to a file,
 * huge pages brought BARRIER from 1.64x to 1.29x its untraced time and
 * SINGLE from 2.35x to 1.51x (docs/trace.md).  NULL when out of memory. */
static uint8_t *staging_alloc(void)
{
    uint8_t *m = mmap(NULL, 2 * (size_t)BUF_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)m + BUF_SIZE - 1) & ~(uintptr_t)(BUF_SIZE - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (p + BUF_SIZE < m + 2 * (size_t)BUF_SIZE)
        munmap(p + BUF_SIZE, (size_t)(m + 2 * (size_t)BUF_SIZE - (p + BUF_SIZE)));
    madvise(p, BUF_SIZE, MADV_HUGEPAGE); /* a hint: without it, small pages */
    return p;
}

/* A buffer and its staging memory (get_buf made both). */
static void iobuf_free(struct iobuf *b)
{
    munmap(b->p, BUF_SIZE);
    free(b);
}

/* A buffer for the writer: a free one, a new one, or (at MAX_BUFS) the
 * first one the I/O thread gives back.  NULL when out of memory. */
static struct iobuf *get_buf(void)
{
    struct iobuf *b = NULL;
    pthread_mutex_lock(&io_lock);
    for (;;) {
        if (free_bufs) {
            b = free_bufs;
            free_bufs = b->next;
            break;
        }
        if (n_bufs < MAX_BUFS) {
            b = malloc(sizeof *b);
            if (b && !(b->p = staging_alloc())) {
                free(b);
                b = NULL;
            }
            if (b)
                n_bufs++;
            break;
        }
        pthread_cond_wait(&io_done, &io_lock);
    }
    pthread_mutex_unlock(&io_lock);
    return b;
}

/* Appends b to the I/O thread's queue. */
static void queue_job(struct iobuf *b)
{
    pthread_mutex_lock(&io_lock);
    b->next = NULL;
    *queue_tail = b;
    queue_tail = &b->next;
    pthread_cond_signal(&io_work);
    pthread_mutex_unlock(&io_lock);
}

/* Hands `cur` to the I/O thread and starts a fresh one at the partial
 * block it ends with. */
static void hand_over(void)
{
    struct iobuf *b = cur, *n = get_buf();
    if (!n) {
        fail("buffering", ENOMEM);
        return;
    }
    size_t whole = b->len & ~(size_t)(ALIGN - 1);
    n->off = b->off + whole;
    n->len = n->done = b->len - whole;
    memcpy(n->p, b->p + whole, n->len);
    cur = n;
    queue_job(b);
}

static bool direct_start(void)
{
    cur = get_buf();
    if (!cur)
        return false;
    cur->off = cur->len = cur->done = 0;
    if (pv_trace_spawn(&io_thread, io_main, "pvomp-trace-io") != 0) {
        iobuf_free(cur);
        cur = NULL;
        n_bufs = 0;
        return false;
    }
    return true;
}

static bool log_open(const char *path)
{
    /* A log closed before (the writer stopped) leaves no state behind. */
    end_off = 0;
    atomic_store(&failed, 0);
    io_stop = n_bufs = buffered_only = 0;
    buf_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (buf_fd < 0)
        return false;
    struct stat st;
    if (pv_trace_cfg.direct && fstat(buf_fd, &st) == 0 && S_ISREG(st.st_mode)) {
        /* The same open file, not whatever the path names by now. */
        char self[64];
        snprintf(self, sizeof self, "/proc/self/fd/%d", buf_fd);
        direct_fd = open(self, O_WRONLY | O_DIRECT | O_CLOEXEC);
        if (direct_fd >= 0 && !direct_start()) {
            close(direct_fd);
            direct_fd = -1;
        }
    }
    return true;
}

static bool log_failed(void)
{
    return atomic_load(&failed);
}

static uint64_t log_size(void)
{
    return end_off;
}

/* Sequential writes from the caller's buffers (no direct I/O). */
static void put_buffered(struct iovec *iov, int n)
{
    while (n > 0 && !atomic_load(&failed)) {
        ssize_t w = writev(buf_fd, iov, n);
        if (w < 0) {
            if (errno != EINTR)
                fail("writing", errno);
            continue;
        }
        end_off += (uint64_t)w;
        iov = iov_advance(iov, &n, (size_t)w);
    }
}

/* Appends the bytes of iov[0..n) to the log; iov may be changed. */
static void log_put(struct iovec *iov, int n)
{
    if (direct_fd < 0) {
        put_buffered(iov, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const uint8_t *p = iov[i].iov_base;
        size_t len = iov[i].iov_len;
        while (len > 0 && !atomic_load(&failed)) {
            size_t k = BUF_SIZE - cur->len < len ? BUF_SIZE - cur->len : len;
            memcpy(cur->p + cur->len, p, k);
            cur->len += k;
            end_off += k;
            p += k;
            len -= k;
            if (cur->len == BUF_SIZE)
                hand_over();
        }
    }
}

/* The end of a writer pass: what was put goes to the file (queued, when
 * writing direct). */
static void log_sync(void)
{
    if (direct_fd < 0 || atomic_load(&failed))
        return;
    if (cur->len > cur->done)
        hand_over();
}

/* Returns when the I/O thread has written everything queued. */
static void log_wait(void)
{
    if (direct_fd < 0)
        return;
    pthread_mutex_lock(&io_lock);
    while (queue_head || io_busy)
        pthread_cond_wait(&io_done, &io_lock);
    pthread_mutex_unlock(&io_lock);
}

static void log_close(void)
{
    if (direct_fd >= 0) {
        /* The last bytes go as they are: no fresh buffer after them. */
        if (cur->len > cur->done && !atomic_load(&failed)) {
            queue_job(cur);
        } else {
            iobuf_free(cur);
        }
        pthread_mutex_lock(&io_lock);
        io_stop = 1;
        pthread_cond_signal(&io_work);
        pthread_mutex_unlock(&io_lock);
        pthread_join(io_thread, NULL); /* it writes the queue first */
        for (struct iobuf *b = free_bufs, *next; b; b = next) {
            next = b->next;
            iobuf_free(b);
        }
        free_bufs = cur = NULL;
        close(direct_fd);
        direct_fd = -1;
    }
    close(buf_fd);
    buf_fd = -1;
}

/* In a forked child: there is no I/O thread, and the descriptors are the
 * parent's business. */
static void log_forget(void)
{
    if (direct_fd >= 0)
        close(direct_fd);
    if (buf_fd >= 0)
        close(buf_fd);
    direct_fd = buf_fd = -1;
    queue_head = free_bufs = cur = NULL;
    queue_tail = &queue_head;
    pthread_mutex_init(&io_lock, NULL);
    pthread_cond_init(&io_work, NULL);
    pthread_cond_init(&io_done, NULL);
}

/* ---------------------------------------------------------- the sink */
static bool file_open(const void *preamble, size_t len)
{
    if (!log_open(pv_trace_cfg.path)) {
        pv_warn("PVOMP_TRACE=%s: cannot create the file (%s); not tracing", pv_trace_cfg.path,
                strerror(errno));
        return false;
    }
    struct iovec iov = { (void *)preamble, len };
    log_put(&iov, 1);
    log_sync();
    if (log_failed()) {
        log_close();
        return false;
    }
    return true;
}

static void file_begin_pass(void)
{
}

static void file_put_meta(const void *bytes, size_t len)
{
    struct iovec m = { (void *)bytes, len };
    log_put(&m, 1);
}

static void file_end_pass(bool final)
{
    (void)final;
    log_sync();
}

/* The end: records the writer counted as lost, then the end record. */
static void file_close(uint64_t streams, uint64_t chunks)
{
    struct pv_trace_buf tail = { 0 };
    uint64_t lost = atomic_exchange_explicit(&pv_trace_lost, 0, memory_order_relaxed);
    uint64_t ts = pv_trace_now();
    uint32_t pid = (uint32_t)getpid();
    if (lost)
        pv_trace_buf_event(&tail, PVOMP_TRACE_DROPPED_ID, ts, 0, "u", lost);
    pv_trace_buf_event(&tail, PV_TRACE_EV_pvtrace_end, ts, pid, "uuuu", streams, chunks,
                       log_size(), pv_monotonic_ns());
    struct iovec iov = { tail.p, tail.len };
    log_put(&iov, 1);
    free(tail.p);
    log_close();
}

const struct pv_trace_sink pv_trace_file_sink = {
    .open = file_open,
    .begin_pass = file_begin_pass,
    .put_meta = file_put_meta,
    .put_chunks = log_put,
    .end_pass = file_end_pass,
    .wait = log_wait,
    .size = log_size,
    .close = file_close,
    .discard = log_close,
    .forget = log_forget,
};
