/* Device trace buffers: per-thread filling, one helper thread per device
 * delivering in FIFO order.
 *
 * Filling.  Each thread has one producer per device; its `slot` holds the
 * thread's current buffer.  To store a record the thread exchanges the slot
 * with DT_BUSY (taking the buffer), checks the tracing state, copies the
 * record and puts the buffer back with a release store.  A flush takes a
 * buffer out of a slot with a compare-and-swap buffer -> DT_EMPTY, so a
 * buffer has exactly one owner at a time: its thread, or the flush that
 * took it, or the delivery queue.  The exchange and the state load are
 * seq_cst, as are stop_trace's state store and the flush's slot loads: either
 * the producer sees tracing stopped, or the flush sees DT_BUSY and waits
 * for the copy (a few nanoseconds) to finish.  The tool's buffer_request is
 * never called while a slot is DT_BUSY, so a flush from inside a callback
 * cannot wait for its own thread.
 *
 * Delivery.  Full buffers (enqueued by their thread), collected buffers and
 * flush markers go to one FIFO (full buffers wake the helper in batches).  The helper thread calls buffer_complete for
 * each buffer -- begin = the buffer's start, bytes = what was written,
 * buffer_owned = 1, exactly once -- and, for a marker, wakes the flush that
 * waits for it.  A thread's buffers enter the FIFO in the order it filled
 * them, so every thread's records arrive in its order.  A flush called on
 * the helper thread itself (from inside buffer_complete) delivers the FIFO
 * up to its marker in place instead of waiting.
 *
 * Limits (OpenMP 6.0).  Every buffer from buffer_request is counted
 * outstanding until its buffer_complete returned.  Once the tool asked for
 * the device's limits (ompt_get_buffer_limits), a thread that needs a new
 * buffer while `limit` are outstanding hands the other threads' partly
 * filled buffers to delivery and waits until the helper has handed one
 * back (back-pressure: the records are delayed, not dropped).  Only the
 * helper itself cannot wait for the helper: a record it makes at the limit
 * (a tool that starts device work inside buffer_complete) is counted lost,
 * as is one whose thread still waits when tracing stops or pauses. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/message.h"
#include "ompt/device_trace_int.h"
#include "runtime/ompt_view.h"

struct dt pv_dt_devs[PV_DT_MAX_DEVICES];
_Atomic unsigned pv_dtrace_started;

#define TLS_IE __thread __attribute__((tls_model("initial-exec")))
static TLS_IE struct dt_prod *my_prod[PV_DT_MAX_DEVICES];
static TLS_IE struct dt *i_am_helper;   /* set on a device's helper thread */
static _Atomic int dt_v60;              /* the tool uses OpenMP 6.0's tracing interface */
static pthread_key_t prod_key;
static pthread_once_t prod_key_once = PTHREAD_ONCE_INIT;

__attribute__((constructor)) static void dt_init_devices(void)
{
    for (int i = 0; i < PV_DT_MAX_DEVICES; i++) {
        struct dt *d = &pv_dt_devs[i];
        d->device_num = i;
        pthread_mutex_init(&d->ctl, NULL);
        pthread_mutex_init(&d->collect, NULL);
        pthread_mutex_init(&d->reg, NULL);
        pthread_mutex_init(&d->qlock, NULL);
        pthread_condattr_t ca;   /* timed waits on CLOCK_MONOTONIC */
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&d->qcond, &ca);
        pthread_cond_init(&d->dcond, NULL);
        pthread_cond_init(&d->fcond, &ca);
        pthread_condattr_destroy(&ca);
    }
}

uint64_t pv_dtrace_now(void)
{
    return pv_monotonic_ns();
}

struct dt *pv_dt_from_handle(ompt_device_t *device)
{
    for (int i = 0; i < PV_DT_MAX_DEVICES; i++)
        if (device == (ompt_device_t *)&pv_dt_devs[i])
            return &pv_dt_devs[i];
    return NULL;
}

ompt_device_t *pv_dtrace_handle(int device)
{
    return device >= 0 && device < PV_DT_MAX_DEVICES ? (ompt_device_t *)&pv_dt_devs[device]
                                                     : NULL;
}

uint64_t pv_dtrace_lost(int device)
{
    if (device < 0 || device >= PV_DT_MAX_DEVICES)
        return 0;
    return atomic_load_explicit(&pv_dt_devs[device].lost, memory_order_relaxed);
}

void pv_dt_mark_v60(void)
{
    atomic_store_explicit(&dt_v60, 1, memory_order_relaxed);
}

bool pv_dtrace_v60(void)
{
    return atomic_load_explicit(&dt_v60, memory_order_relaxed) != 0;
}

ompt_callbacks_t pv_dtrace_record_type(int device, ompt_callbacks_t type)
{
    if (device < 0 || device >= PV_DT_MAX_DEVICES || !pv_dtrace_v60())
        return type;
    uint64_t emi = atomic_load_explicit(&pv_dt_devs[device].emi_types, memory_order_relaxed);
    if (!((emi >> (unsigned)type) & 1))
        return type;
    switch (type) {
    case ompt_callback_target:
        return ompt_callback_target_emi;
    case ompt_callback_target_data_op:
        return ompt_callback_target_data_op_emi;
    case ompt_callback_target_submit:
        return ompt_callback_target_submit_emi;
    default:
        return type;
    }
}

/* PVOMP_OMPT_TRACE_BUFFERS, else twice the processors (each recording
 * thread fills one buffer while others wait for delivery), at least 4. */
unsigned pv_dt_buffer_limit(void)
{
    static _Atomic unsigned limit;
    unsigned v = atomic_load_explicit(&limit, memory_order_relaxed);
    if (v)
        return v;
    v = 2 * pv_num_procs;
    if (v < 4)
        v = 4;
    const char *e = getenv("PVOMP_OMPT_TRACE_BUFFERS");
    if (e && *e) {
        char *end;
        unsigned long n = strtoul(e, &end, 10);
        if (*end || n < 1 || n > 65536 || *e == '-')
            pv_warn("PVOMP_OMPT_TRACE_BUFFERS=%s is not a number of buffers (1-65536); using %u",
                    e, v);
        else
            v = (unsigned)n;
    }
    atomic_store_explicit(&limit, v, memory_order_relaxed);
    return v;
}

/* 512 records a buffer: a few wake-ups of the helper per thousand events. */
size_t pv_dt_buffer_bytes(void)
{
    return 512 * DT_REC;
}

bool pv_dtrace_wants(int device, ompt_callbacks_t type)
{
    if (device < 0 || device >= PV_DT_MAX_DEVICES)
        return false;
    struct dt *d = &pv_dt_devs[device];
    unsigned st = atomic_load_explicit(&d->state, memory_order_relaxed);
    if ((st & (DT_STARTED | DT_PAUSED)) != DT_STARTED)
        return false;
    uint64_t types = atomic_load_explicit(&d->types, memory_order_relaxed);
    return (types >> (unsigned)type) & 1;
}

/* ------------------------------------------------------------- delivery */

/* Full buffers wake the helper only in batches of DT_WAKE_BATCH (a wake-up
 * per buffer costs a few ns per record); a started session's helper also
 * looks every DT_IDLE_MS by itself, and markers wake it at once. */
#define DT_WAKE_BATCH 4
#define DT_IDLE_MS 20

static void enqueue_wake(struct dt *d, struct dt_buf *b, bool urgent)
{
    b->next = NULL;
    pthread_mutex_lock(&d->qlock);
    if (d->qtail)
        d->qtail->next = b;
    else
        d->qhead = b;
    d->qtail = b;
    if (urgent || ++d->qlen >= DT_WAKE_BATCH) {
        d->qlen = 0;
        pthread_cond_signal(&d->qcond);
    }
    pthread_mutex_unlock(&d->qlock);
}

static void enqueue(struct dt *d, struct dt_buf *b)
{
    enqueue_wake(d, b, false);
}

/* Caller holds qlock. */
static struct dt_buf *dequeue(struct dt *d)
{
    struct dt_buf *b = d->qhead;
    if (b) {
        d->qhead = b->next;
        if (!d->qhead)
            d->qtail = NULL;
    }
    return b;
}

/* A buffer is back with the tool (delivered, or given up before any record
 * went into it): one more may be requested; waiters at the limit look again. */
static void buffer_returned(struct dt *d)
{
    atomic_fetch_sub_explicit(&d->outstanding, 1, memory_order_release);
    if (atomic_load_explicit(&d->limit, memory_order_relaxed)) {
        pthread_mutex_lock(&d->qlock);
        pthread_cond_broadcast(&d->fcond);
        pthread_mutex_unlock(&d->qlock);
    }
}

/* Hand one buffer back to the tool (no lock held). */
static void deliver(struct dt *d, struct dt_buf *b)
{
    if (b->complete && !__atomic_load_n(&d->no_callbacks, __ATOMIC_ACQUIRE)) {
        /* An empty buffer gets a null begin cursor: no record to read. */
        ompt_buffer_cursor_t begin = b->used ? (ompt_buffer_cursor_t)(uintptr_t)b->mem : 0;
        b->complete(d->device_num, b->mem, b->used, begin, 1);
    }
    free(b);
    buffer_returned(d);
}

/* A flush is done when its marker is passed and no buffer_complete call is
 * still running: a flush_trace made from inside buffer_complete passes the
 * markers of earlier flushes while the buffer being completed (queued before
 * them) is not delivered yet, so such markers are published only when the
 * outermost delivery returns.  Caller holds qlock. */
static void pass_marker(struct dt *d, uint64_t marker)
{
    if (marker > d->passed_marker)
        d->passed_marker = marker;
    if (d->delivering == 0 && d->passed_marker > d->done_marker) {
        d->done_marker = d->passed_marker;
        pthread_cond_broadcast(&d->dcond);
    }
}

/* Caller holds qlock; takes care of one item, releasing the lock meanwhile
 * for a buffer.  Returns the marker passed, or 0. */
static uint64_t process_one(struct dt *d, struct dt_buf *b)
{
    if (!b->mem) {
        pass_marker(d, b->marker);
        return b->marker;
    }
    d->delivering++;
    pthread_mutex_unlock(&d->qlock);
    deliver(d, b);
    pthread_mutex_lock(&d->qlock);
    d->delivering--;
    pass_marker(d, 0);
    return 0;
}

static void *helper_main(void *arg)
{
    struct dt *d = arg;
    i_am_helper = d;
    pthread_mutex_lock(&d->qlock);
    for (;;) {
        struct dt_buf *b = dequeue(d);
        if (b) {
            process_one(d, b);
            continue;
        }
        if (d->helper_exit)
            break;
        d->qlen = 0;
        if (atomic_load_explicit(&d->state, memory_order_relaxed) & DT_STARTED) {
            struct timespec ts = pv_timespec_of_ns(pv_monotonic_ns() + DT_IDLE_MS * 1000000ull);
            pthread_cond_timedwait(&d->qcond, &d->qlock, &ts);
        } else {
            pthread_cond_wait(&d->qcond, &d->qlock);
        }
    }
    pthread_mutex_unlock(&d->qlock);
    return NULL;
}

void pv_dt_start_helper(struct dt *d)
{
    pthread_mutex_lock(&d->qlock);
    bool start = !d->helper_running;
    d->helper_running = true;
    d->helper_exit = false;
    pthread_mutex_unlock(&d->qlock);
    if (!start)
        return;
    /* The helper must not inherit a signal mask or affinity surprise: it
     * only calls the tool. */
    int err = pthread_create(&d->helper, NULL, helper_main, d);
    if (err)
        pv_fatal("cannot start the trace helper thread of device %d: %s", d->device_num,
                 strerror(err));
}

void pv_dt_end_helper(struct dt *d)
{
    pthread_mutex_lock(&d->qlock);
    bool running = d->helper_running;
    d->helper_running = false;
    d->helper_exit = true;
    pthread_cond_signal(&d->qcond);
    pthread_mutex_unlock(&d->qlock);
    if (!running)
        return;
    if (i_am_helper == d)
        pthread_detach(d->helper);   /* finalized from inside a callback: it ends by itself */
    else
        pthread_join(d->helper, NULL);
}

/* --------------------------------------------------------------- flush */

/* Take the buffer out of one producer's slot (waiting out a record copy). */
static struct dt_buf *take(struct dt_prod *p)
{
    for (unsigned spins = 0;; spins++) {
        uintptr_t v = atomic_load_explicit(&p->slot, memory_order_seq_cst);
        if (v == DT_EMPTY)
            return NULL;
        if (v == DT_BUSY) {
            if (spins > 64)
                sched_yield();   /* the writer was preempted mid-copy */
            continue;
        }
        if (atomic_compare_exchange_strong_explicit(&p->slot, &v, DT_EMPTY,
                                                    memory_order_acquire, memory_order_relaxed))
            return (struct dt_buf *)v;
    }
}

/* Queue every producer's current buffer.  Caller holds d->collect. */
static void collect_buffers(struct dt *d)
{
    pthread_mutex_lock(&d->reg);
    for (struct dt_prod *p = d->prods; p; p = p->next) {
        struct dt_buf *b = take(p);
        if (b)
            enqueue(d, b);
    }
    pthread_mutex_unlock(&d->reg);
}

void pv_dt_flush(struct dt *d)
{
    struct dt_buf mark = {0};
    pthread_mutex_lock(&d->collect);
    collect_buffers(d);
    pthread_mutex_lock(&d->qlock);
    mark.marker = ++d->next_marker;
    pthread_mutex_unlock(&d->qlock);
    enqueue_wake(d, &mark, true);
    pthread_mutex_unlock(&d->collect);

    pthread_mutex_lock(&d->qlock);
    if (i_am_helper == d) {
        /* Inside buffer_complete: deliver up to our marker here. */
        struct dt_buf *b;
        while ((b = dequeue(d)) && process_one(d, b) != mark.marker)
            ;
    } else {
        while (d->done_marker < mark.marker) {
            if (!d->helper_running) {
                /* No helper (never started, or ended): deliver ourselves. */
                struct dt_buf *b;
                while ((b = dequeue(d)) && process_one(d, b) != mark.marker)
                    ;
                break;
            }
            pthread_cond_wait(&d->dcond, &d->qlock);
        }
    }
    pthread_mutex_unlock(&d->qlock);
}

/* ------------------------------------------------------------ producers */

static void prod_release(void *arg)
{
    /* Thread exit: hand the thread's buffers to the FIFO, free the producers. */
    (void)arg;
    for (int i = 0; i < PV_DT_MAX_DEVICES; i++) {
        struct dt_prod *p = my_prod[i];
        if (!p)
            continue;
        my_prod[i] = NULL;
        struct dt_buf *b = take(p);
        if (b)
            enqueue(&pv_dt_devs[i], b);
        atomic_store_explicit(&p->owned, 0, memory_order_release);
    }
}

static void prod_key_create(void)
{
    pthread_key_create(&prod_key, prod_release);
}

/* The calling thread's producer for device d: a free one, or a new one. */
static struct dt_prod *prod_attach(struct dt *d)
{
    pthread_once(&prod_key_once, prod_key_create);
    struct dt_prod *p;
    pthread_mutex_lock(&d->reg);
    for (p = d->prods; p; p = p->next) {
        int free_ = 0;
        if (atomic_compare_exchange_strong_explicit(&p->owned, &free_, 1, memory_order_acquire,
                                                    memory_order_relaxed))
            break;
    }
    if (!p) {
        p = aligned_alloc(64, sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&d->reg);
            return NULL;
        }
        memset(p, 0, sizeof *p);
        atomic_init(&p->owned, 1);
        p->next = d->prods;
        d->prods = p;
    }
    pthread_mutex_unlock(&d->reg);
    my_prod[d->device_num] = p;
    pthread_setspecific(prod_key, (void *)1);
    return p;
}

/* --------------------------------------------------------------- emit */

static inline unsigned epoch_of(unsigned st)
{
    return st >> DT_EPOCH_SHIFT;
}

/* Counts a lost record and, for the first fault of a session, says why. */
static void fault(struct dt *d, unsigned st, const char *why)
{
    unsigned want = st | DT_FAULT;
    if (!(st & DT_FAULT) &&
        atomic_compare_exchange_strong_explicit(&d->state, &st, want, memory_order_relaxed,
                                                memory_order_relaxed)) {
        if (getenv("PVOMP_TRACE_VERBOSE"))
            pv_note("device %d tracing: %s; records are counted as lost until the next "
                    "start_trace", d->device_num, why);
    }
    atomic_fetch_add_explicit(&d->lost, 1, memory_order_relaxed);
}

/* At the limit: hand the other threads' partly filled buffers to delivery
 * (when they hold every place, only that frees one), wake the helper and
 * wait a while for a buffer to come back.  The wait is timed so that a
 * stop, pause or restart meanwhile is seen. */
static void wait_for_place(struct dt *d)
{
    pthread_mutex_lock(&d->collect);
    collect_buffers(d);
    pthread_mutex_unlock(&d->collect);
    pthread_mutex_lock(&d->qlock);
    pthread_cond_signal(&d->qcond);
    if (atomic_load_explicit(&d->outstanding, memory_order_acquire) >=
        atomic_load_explicit(&d->limit, memory_order_relaxed)) {
        struct timespec ts = pv_timespec_of_ns(pv_monotonic_ns() + 10 * 1000000ull);
        pthread_cond_timedwait(&d->fcond, &d->qlock, &ts);
    }
    pthread_mutex_unlock(&d->qlock);
}

enum { PLACE_TAKEN, PLACE_STOPPED, PLACE_NONE };

/* Counts one more outstanding buffer, within the limit if the tool asked
 * for one: PLACE_TAKEN, or PLACE_STOPPED (tracing stopped, paused or
 * restarted while waiting), or PLACE_NONE (at the limit on the helper). */
static int take_place(struct dt *d, unsigned st)
{
    unsigned n = atomic_load_explicit(&d->outstanding, memory_order_relaxed);
    for (;;) {
        unsigned lim = atomic_load_explicit(&d->limit, memory_order_relaxed);
        if (!lim || n < lim) {
            if (atomic_compare_exchange_weak_explicit(&d->outstanding, &n, n + 1,
                                                      memory_order_acquire,
                                                      memory_order_relaxed))
                return PLACE_TAKEN;
            continue;
        }
        if (i_am_helper == d)
            return PLACE_NONE;
        wait_for_place(d);
        unsigned now = atomic_load_explicit(&d->state, memory_order_seq_cst);
        if ((now & (DT_STARTED | DT_PAUSED | DT_FAULT)) != DT_STARTED ||
            epoch_of(now) != epoch_of(st))
            return PLACE_STOPPED;
        n = atomic_load_explicit(&d->outstanding, memory_order_relaxed);
    }
}

/* A new buffer from the tool, or NULL (recording is then off: fault). */
static struct dt_buf *request_buffer(struct dt *d, unsigned st)
{
    ompt_callback_buffer_request_t req = d->request;
    ompt_callback_buffer_complete_t done = d->complete;
    if (!req) {
        fault(d, st, "no buffer_request callback");
        return NULL;
    }
    int place = take_place(d, st);
    if (place != PLACE_TAKEN) {
        /* The event happened while tracing was on: not silently gone. */
        if (getenv("PVOMP_TRACE_VERBOSE"))
            pv_note("device %d tracing: a record counted lost (%s while %u buffers are "
                    "outstanding)", d->device_num,
                    place == PLACE_NONE ? "made on the delivery thread"
                                        : "tracing stopped or paused",
                    atomic_load_explicit(&d->limit, memory_order_relaxed));
        atomic_fetch_add_explicit(&d->lost, 1, memory_order_relaxed);
        return NULL;
    }
    ompt_buffer_t *mem = NULL;
    size_t bytes = 0;
    req(d->device_num, &mem, &bytes);
    if (!mem || bytes < DT_REC) {
        struct dt_buf *b = mem ? calloc(1, sizeof *b) : NULL;
        if (b) {
            /* Too small for one record: give it straight back. */
            *b = (struct dt_buf){.mem = mem, .cap = bytes, .epoch = epoch_of(st),
                                 .complete = done};
            enqueue(d, b);
        } else {
            buffer_returned(d);
        }
        fault(d, st, mem ? "buffer too small for one record" : "buffer_request gave no buffer");
        return NULL;
    }
    struct dt_buf *b = calloc(1, sizeof *b);
    if (!b) {
        buffer_returned(d);
        fault(d, st, "out of memory");
        return NULL;
    }
    *b = (struct dt_buf){.mem = mem, .cap = bytes, .epoch = epoch_of(st), .complete = done};
    return b;
}

/* The slow path: no current buffer, or it is full or of an old session. */
static __attribute__((noinline)) void emit_slow(struct dt *d, struct dt_prod *p, uintptr_t v,
                                                unsigned st, const ompt_record_ompt_t *rec)
{
    if (v != DT_EMPTY)
        enqueue(d, (struct dt_buf *)v);
    /* Never call the tool while the slot is DT_BUSY. */
    atomic_store_explicit(&p->slot, DT_EMPTY, memory_order_release);
    struct dt_buf *b = request_buffer(d, st);
    if (!b)
        return;
    atomic_exchange_explicit(&p->slot, DT_BUSY, memory_order_seq_cst);   /* was DT_EMPTY */
    unsigned now = atomic_load_explicit(&d->state, memory_order_seq_cst);
    if ((now & (DT_STARTED | DT_PAUSED | DT_FAULT)) != DT_STARTED ||
        epoch_of(now) != b->epoch) {
        /* Tracing stopped, paused or restarted meanwhile: return the buffer
         * (unless the tool is gone) and drop the record. */
        atomic_store_explicit(&p->slot, DT_EMPTY, memory_order_release);
        if (now & DT_FINAL) {
            free(b);
            buffer_returned(d);
        } else
            enqueue(d, b);
        return;
    }
    memcpy(b->mem, rec, DT_REC);
    b->used = DT_REC;
    atomic_store_explicit(&p->slot, (uintptr_t)b, memory_order_release);
}

void pv_dtrace_emit(int device, const ompt_record_ompt_t *rec)
{
    struct dt *d = &pv_dt_devs[device];
    struct dt_prod *p = my_prod[device];
    if (__builtin_expect(!p, 0) && !(p = prod_attach(d)))
        return;
    /* Take our buffer, then look at the state (seq_cst: see the top). */
    uintptr_t v = atomic_exchange_explicit(&p->slot, DT_BUSY, memory_order_seq_cst);
    unsigned st = atomic_load_explicit(&d->state, memory_order_seq_cst);
    if (__builtin_expect((st & (DT_STARTED | DT_PAUSED | DT_FAULT)) != DT_STARTED, 0)) {
        atomic_store_explicit(&p->slot, v, memory_order_release);
        if ((st & (DT_STARTED | DT_PAUSED | DT_FAULT)) == (DT_STARTED | DT_FAULT))
            atomic_fetch_add_explicit(&d->lost, 1, memory_order_relaxed);
        return;
    }
    struct dt_buf *b = (struct dt_buf *)v;
    if (__builtin_expect(v != DT_EMPTY && b->epoch == epoch_of(st) && b->cap - b->used >= DT_REC,
                         1)) {
        memcpy(b->mem + b->used, rec, DT_REC);
        b->used += DT_REC;
        atomic_store_explicit(&p->slot, v, memory_order_release);
        return;
    }
    emit_slow(d, p, v, st, rec);
}
