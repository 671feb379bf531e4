/* Device tracing benchmark (not a test): how fast can threads store OMPT
 * trace records?
 *
 *   pvomp      src/ompt/device_trace.c, compiled into this program unchanged
 *              and driven through its own entry points (ompt_start_trace,
 *              ompt_flush_trace, ompt_stop_trace from pv_dtrace_lookup): each
 *              thread fills its own buffer, one atomic exchange per record.
 *   reference  the design of the seed patch (LLVM libomptarget's
 *              OmptTracingBufferMgr), written here in C: one global mutex
 *              around cursor assignment, a hash map from each record's cursor
 *              to its separately allocated state (the seed's unordered_map of
 *              shared_ptrs), a second locked lookup to mark the record ready;
 *              one helper thread (the seed has four) that reads and sets each
 *              record's state under the lock, hands the records back, then
 *              destroys the states and hands the buffer back as owned.
 *
 * Same tool callbacks for both (buffers of BUF_RECORDS records from a pool),
 * same records (prepared by the caller, as the runtime's event sites do), in
 * the same run, runs of the two designs alternating.  Prints records per
 * second at 1 and 2 producing threads, nanoseconds per record per thread
 * (best and median run) and the ratios; checks that every record was
 * delivered exactly once.
 *
 * Usage: trace_bench [records per thread (2000000)] [repeats (5)] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompt/device_trace.h"

unsigned pv_num_procs = 1;   /* device_entry.c asks for it */

#define BUF_RECORDS 512
#define REC sizeof(ompt_record_ompt_t)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------- the tool's side */

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static void *pool[4096];
static size_t npool;
static _Atomic uint64_t delivered, checksum;

static void tool_request(int device, ompt_buffer_t **buffer, size_t *bytes)
{
    (void)device;
    pthread_mutex_lock(&pool_lock);
    *buffer = npool ? pool[--npool] : malloc(BUF_RECORDS * REC);
    pthread_mutex_unlock(&pool_lock);
    *bytes = BUF_RECORDS * REC;
}

static void consume(const char *b, size_t bytes)
{
    uint64_t n = 0, sum = 0;
    for (size_t off = 0; off + REC <= bytes; off += REC, n++)
        sum += ((const ompt_record_ompt_t *)(b + off))->record.target_data_op.host_op_id;
    atomic_fetch_add(&delivered, n);
    atomic_fetch_add(&checksum, sum);
}

static void give_back(void *b)
{
    pthread_mutex_lock(&pool_lock);
    if (npool < 4096)
        pool[npool++] = b;
    else
        free(b);
    pthread_mutex_unlock(&pool_lock);
}

static void tool_complete(int device, ompt_buffer_t *buffer, size_t bytes,
                          ompt_buffer_cursor_t begin, int owned)
{
    (void)device;
    (void)begin;
    consume(buffer, bytes);
    if (owned)
        give_back(buffer);
}

/* ------------------------------------------------------ the reference */

enum { TR_INIT, TR_READY, TR_RELEASED };
struct ref_buf {
    char *mem;
    size_t cap, used;
    struct ref_buf *next;
};
struct ref_state {                  /* the seed's TraceRecordMd (a shared_ptr) */
    int state;
    struct ref_buf *buf;
};
struct ref_node {                   /* an unordered_map node: cursor -> state */
    void *cursor;
    struct ref_state *md;
    struct ref_node *next;
};
#define REF_HASH 65536
static pthread_mutex_t ref_mgr = PTHREAD_MUTEX_INITIALIZER;     /* BufferMgrMutex */
static pthread_mutex_t ref_flush = PTHREAD_MUTEX_INITIALIZER;   /* FlushMutex */
static pthread_cond_t ref_cv = PTHREAD_COND_INITIALIZER;
static struct ref_node *ref_map[REF_HASH];                      /* Cursor2BufMdMap */
static struct ref_buf *ref_cur, *ref_q, **ref_qtail = &ref_q;
static int ref_done;
static _Atomic int ref_pending;

static size_t ref_hash(void *p)
{
    return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15u >> 48 & (REF_HASH - 1);
}

static struct ref_state *ref_find(void *cursor)
{
    for (struct ref_node *n = ref_map[ref_hash(cursor)]; n; n = n->next)
        if (n->cursor == cursor)
            return n->md;
    return NULL;
}

static void ref_enqueue(struct ref_buf *b)
{
    pthread_mutex_lock(&ref_flush);
    b->next = NULL;
    *ref_qtail = b;
    ref_qtail = &b->next;
    atomic_fetch_add(&ref_pending, 1);
    pthread_cond_signal(&ref_cv);
    pthread_mutex_unlock(&ref_flush);
}

/* assignCursor + fill + setTRStatus(TR_ready), as the seed does them. */
static void ref_emit(const ompt_record_ompt_t *rec)
{
    pthread_mutex_lock(&ref_mgr);
    struct ref_buf *b = ref_cur, *full = NULL;
    if (!b || b->used + REC > b->cap) {
        full = b;
        b = calloc(1, sizeof *b);
        void *mem;
        tool_request(0, &mem, &b->cap);   /* (under the lock, as the seed) */
        b->mem = mem;
        ref_cur = b;
    }
    void *cursor = b->mem + b->used;
    b->used += REC;
    struct ref_state *md = malloc(sizeof *md);
    *md = (struct ref_state){TR_INIT, b};
    struct ref_node *n = malloc(sizeof *n);
    size_t h = ref_hash(cursor);
    *n = (struct ref_node){cursor, md, ref_map[h]};
    ref_map[h] = n;
    pthread_mutex_unlock(&ref_mgr);
    if (full)
        ref_enqueue(full);   /* setComplete */

    memcpy(cursor, rec, REC);

    pthread_mutex_lock(&ref_mgr);   /* setTRStatus(cursor, TR_ready) */
    ref_find(cursor)->state = TR_READY;
    pthread_mutex_unlock(&ref_mgr);
}

/* flushBuffer: each record's state is read and set under the lock; then the
 * buffer's states are destroyed and the buffer handed back. */
static void ref_deliver(struct ref_buf *b)
{
    for (size_t off = 0; off < b->used; off += REC) {
        for (;;) {
            pthread_mutex_lock(&ref_mgr);   /* getTRStatus */
            int st = ref_find(b->mem + off)->state;
            pthread_mutex_unlock(&ref_mgr);
            if (st == TR_READY)
                break;
            sched_yield();
        }
        pthread_mutex_lock(&ref_mgr);   /* setTRStatus(TR_released) */
        ref_find(b->mem + off)->state = TR_RELEASED;
        pthread_mutex_unlock(&ref_mgr);
    }
    tool_complete(0, b->mem, b->used, (ompt_buffer_cursor_t)(uintptr_t)b->mem, 0);
    pthread_mutex_lock(&ref_mgr);   /* destroyFlushedBuf */
    for (size_t off = 0; off < b->used; off += REC) {
        void *c = b->mem + off;
        struct ref_node **pp = &ref_map[ref_hash(c)];
        while ((*pp)->cursor != c)
            pp = &(*pp)->next;
        struct ref_node *n = *pp;
        *pp = n->next;
        free(n->md);
        free(n);
    }
    pthread_mutex_unlock(&ref_mgr);
    tool_complete(0, b->mem, 0, 0, 1);   /* buffer owned */
    free(b);
}

static void *ref_helper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&ref_flush);
    for (;;) {
        struct ref_buf *b = ref_q;
        if (b) {
            ref_q = b->next;
            if (!ref_q)
                ref_qtail = &ref_q;
            pthread_mutex_unlock(&ref_flush);
            ref_deliver(b);
            pthread_mutex_lock(&ref_flush);
            atomic_fetch_sub(&ref_pending, 1);
            continue;
        }
        if (ref_done)
            break;
        pthread_cond_wait(&ref_cv, &ref_flush);
    }
    pthread_mutex_unlock(&ref_flush);
    return NULL;
}

static void ref_flush_all(void)
{
    pthread_mutex_lock(&ref_mgr);
    struct ref_buf *b = ref_cur;
    ref_cur = NULL;
    pthread_mutex_unlock(&ref_mgr);
    if (b)
        ref_enqueue(b);
    while (atomic_load(&ref_pending))
        sched_yield();
}

/* --------------------------------------------------------- the driver */

static ompt_device_t *dev;
static int (*start_trace)(ompt_device_t *, ompt_callback_buffer_request_t,
                          ompt_callback_buffer_complete_t);
static int (*stop_trace)(ompt_device_t *);
static ompt_set_result_t (*set_trace_ompt)(ompt_device_t *, unsigned int, unsigned int);

struct job {
    int pvomp;
    long n;
    unsigned id;
    pthread_barrier_t *start;
};

static void *producer(void *arg)
{
    struct job *j = arg;
    ompt_record_ompt_t r;
    memset(&r, 0, sizeof r);
    r.type = ompt_callback_target_data_op;
    r.thread_id = j->id;
    r.record.target_data_op.optype = ompt_target_data_transfer_to_device;
    r.record.target_data_op.bytes = 64;
    pthread_barrier_wait(j->start);
    for (long i = 0; i < j->n; i++) {
        r.time = (uint64_t)i;
        r.record.target_data_op.host_op_id = (uint64_t)i + 1;
        r.record.target_data_op.end_time = (uint64_t)i + 1;
        if (j->pvomp)
            pv_dtrace_emit(0, &r);
        else
            ref_emit(&r);
    }
    return NULL;
}

/* One timed run; returns seconds for all producers to store everything. */
static double run(int pvomp, unsigned threads, long n)
{
    atomic_store(&delivered, 0);
    atomic_store(&checksum, 0);
    pthread_t helper;
    if (pvomp) {
        if (start_trace(dev, tool_request, tool_complete) != 1)
            abort();
    } else {
        ref_done = 0;
        pthread_create(&helper, NULL, ref_helper, NULL);
    }
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, threads + 1);
    pthread_t t[threads];
    struct job jobs[threads];
    for (unsigned i = 0; i < threads; i++) {
        jobs[i] = (struct job){pvomp, n, i + 1, &start};
        pthread_create(&t[i], NULL, producer, &jobs[i]);
    }
    pthread_barrier_wait(&start);
    double t0 = now();
    for (unsigned i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    double dt = now() - t0;
    if (pvomp) {
        stop_trace(dev);
    } else {
        ref_flush_all();
        pthread_mutex_lock(&ref_flush);
        ref_done = 1;
        pthread_cond_signal(&ref_cv);
        pthread_mutex_unlock(&ref_flush);
        pthread_join(helper, NULL);
    }
    uint64_t want = (uint64_t)threads * (uint64_t)n;
    uint64_t sum = (uint64_t)threads * ((uint64_t)n * (uint64_t)(n + 1) / 2);
    if (atomic_load(&delivered) != want || atomic_load(&checksum) != sum) {
        fprintf(stderr, "%s: delivered %llu of %llu records (checksum %s)\n",
                pvomp ? "pvomp" : "reference", (unsigned long long)atomic_load(&delivered),
                (unsigned long long)want, atomic_load(&checksum) == sum ? "ok" : "wrong");
        exit(1);
    }
    return dt;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `reps` runs of each design, alternating, so that both see the same
 * machine; best and median times of each. */
struct times {
    double best, median;
};
static void measure(unsigned threads, long n, int reps, struct times *tp, struct times *tr)
{
    double p[reps], r[reps];
    for (int i = 0; i < reps; i++) {
        p[i] = run(1, threads, n);
        r[i] = run(0, threads, n);
    }
    qsort(p, (size_t)reps, sizeof p[0], cmp);
    qsort(r, (size_t)reps, sizeof r[0], cmp);
    *tp = (struct times){p[0], p[reps / 2]};
    *tr = (struct times){r[0], r[reps / 2]};
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    dev = pv_dtrace_handle(0);
    start_trace = (void *)pv_dtrace_lookup("ompt_start_trace");
    stop_trace = (void *)pv_dtrace_lookup("ompt_stop_trace");
    set_trace_ompt = (void *)pv_dtrace_lookup("ompt_set_trace_ompt");
    set_trace_ompt(dev, 1, 0);
    printf("device tracing: %ld records per thread, %d-record buffers, %d runs of each "
           "design, alternating\n", n, BUF_RECORDS, reps);
    printf("%-8s %-10s %14s %14s %10s %14s %10s\n", "threads", "design", "best rec/s",
           "best ns/rec", "ratio", "median ns/rec", "ratio");
    for (unsigned threads = 1; threads <= 2; threads++) {
        run(1, threads, n / 10);   /* warm up both */
        run(0, threads, n / 10);
        struct times tp, tr;
        measure(threads, n, reps, &tp, &tr);
        double total = (double)n * threads;
        printf("%-8u %-10s %14.0f %14.1f %10s %14.1f %10s\n", threads, "pvomp", total / tp.best,
               tp.best / n * 1e9, "", tp.median / n * 1e9, "");
        printf("%-8u %-10s %14.0f %14.1f %9.1fx %14.1f %9.1fx\n", threads, "reference",
               total / tr.best, tr.best / n * 1e9, tr.best / tp.best, tr.median / n * 1e9,
               tr.median / tp.median);
    }
    return 0;
}
