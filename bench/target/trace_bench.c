/* Device tracing benchmark (not a test): how fast can threads store OMPT
 * trace records?
 *
 *   pvomp      src/ompt/device_trace.c, compiled into this program unchanged
 *              and driven through its own entry points (ompt_start_trace,
 *              ompt_flush_trace, ompt_stop_trace from pv_dtrace_lookup): each
 *              thread fills its own buffer, one atomic exchange per record.
 *   reference  the design of the seed patch (LLVM libomptarget's
 *              OmptTracingBufferMgr), written here in C: one global mutex
 *              around cursor assignment, a map from each record's cursor to
 *              its malloc'd state, a second locked lookup to mark the record
 *              ready, a helper thread that walks the states of full buffers.
 *
 * Same tool callbacks for both (buffers of BUF_RECORDS records from a pool),
 * same records (prepared by the caller, as the runtime's event sites do), in
 * the same run.  Prints records per second at 1 and 2 producing threads,
 * nanoseconds per record per thread, and the ratio; checks that every record
 * was delivered exactly once.
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

enum { TR_INIT, TR_READY };
struct ref_buf {
    char *mem;
    size_t cap, used;
    struct ref_buf *next;
};
struct ref_meta {
    void *cursor;
    int state;
    struct ref_buf *buf;
    struct ref_meta *next;
};
#define REF_HASH 65536
static pthread_mutex_t ref_mgr = PTHREAD_MUTEX_INITIALIZER;     /* BufferMgrMutex */
static pthread_mutex_t ref_flush = PTHREAD_MUTEX_INITIALIZER;   /* FlushMutex */
static pthread_cond_t ref_cv = PTHREAD_COND_INITIALIZER;
static struct ref_meta *ref_map[REF_HASH];                      /* Cursor2BufMdMap */
static struct ref_buf *ref_cur, *ref_q, **ref_qtail = &ref_q;
static int ref_done;
static _Atomic int ref_pending;

static size_t ref_hash(void *p)
{
    return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15u >> 48 & (REF_HASH - 1);
}

static struct ref_meta *ref_find(void *cursor)
{
    for (struct ref_meta *m = ref_map[ref_hash(cursor)]; m; m = m->next)
        if (m->cursor == cursor)
            return m;
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

static void ref_emit(const ompt_record_ompt_t *rec)
{
    pthread_mutex_lock(&ref_mgr);
    struct ref_buf *b = ref_cur;
    if (!b || b->used + REC > b->cap) {
        if (b)
            ref_enqueue(b);
        b = calloc(1, sizeof *b);
        void *mem;
        tool_request(0, &mem, &b->cap);
        b->mem = mem;
        ref_cur = b;
    }
    void *cursor = b->mem + b->used;
    b->used += REC;
    struct ref_meta *m = malloc(sizeof *m);
    *m = (struct ref_meta){cursor, TR_INIT, b, NULL};
    size_t h = ref_hash(cursor);
    m->next = ref_map[h];
    ref_map[h] = m;
    pthread_mutex_unlock(&ref_mgr);

    memcpy(cursor, rec, REC);

    pthread_mutex_lock(&ref_mgr);   /* setTRStatus(cursor, TR_ready) */
    ref_find(cursor)->state = TR_READY;
    pthread_mutex_unlock(&ref_mgr);
}

/* Deliver one buffer: every record must be ready; states are erased. */
static void ref_deliver(struct ref_buf *b)
{
    for (;;) {
        int ready = 1;
        pthread_mutex_lock(&ref_mgr);
        for (size_t off = 0; off < b->used; off += REC) {
            struct ref_meta *m = ref_find(b->mem + off);
            if (!m || m->state != TR_READY) {
                ready = 0;
                break;
            }
        }
        if (ready) {
            for (size_t off = 0; off < b->used; off += REC) {
                void *c = b->mem + off;
                struct ref_meta **pp = &ref_map[ref_hash(c)];
                while ((*pp)->cursor != c)
                    pp = &(*pp)->next;
                struct ref_meta *m = *pp;
                *pp = m->next;
                free(m);
            }
        }
        pthread_mutex_unlock(&ref_mgr);
        if (ready)
            break;
    }
    tool_complete(0, b->mem, b->used, (ompt_buffer_cursor_t)(uintptr_t)b->mem, 1);
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

static double median(int pvomp, unsigned threads, long n, int reps)
{
    double v[reps];
    for (int i = 0; i < reps; i++)
        v[i] = run(pvomp, threads, n);
    qsort(v, (size_t)reps, sizeof v[0], cmp);
    return v[reps / 2];
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
    printf("device tracing: %ld records per thread, %d-record buffers, median of %d runs\n", n,
           BUF_RECORDS, reps);
    printf("%-8s %-10s %14s %14s %10s\n", "threads", "design", "records/s", "ns/record", "ratio");
    for (unsigned threads = 1; threads <= 2; threads++) {
        run(1, threads, n / 10);   /* warm up both */
        run(0, threads, n / 10);
        double tp = median(1, threads, n, reps), tr = median(0, threads, n, reps);
        double total = (double)n * threads;
        printf("%-8u %-10s %14.0f %14.1f %10s\n", threads, "pvomp", total / tp, tp / n * 1e9, "");
        printf("%-8u %-10s %14.0f %14.1f %9.1fx\n", threads, "reference", total / tr,
               tr / n * 1e9, tr / tp);
    }
    return 0;
}
