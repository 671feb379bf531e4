/* Internals of device tracing shared by device_trace.c (buffers, producers,
 * delivery) and device_entry.c (the tool's entry points). */
#ifndef PV_OMPT_DEVICE_TRACE_INT_H
#define PV_OMPT_DEVICE_TRACE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "ompt/device_trace.h"

/* state = epoch << DT_EPOCH_SHIFT | flags.  The epoch counts start_trace
 * calls, so a buffer can tell which tracing session it belongs to. */
enum {
    DT_STARTED = 1u,   /* between start_trace and stop_trace */
    DT_PAUSED = 2u,    /* pause_trace(device, 1) */
    DT_FAULT = 4u,     /* the tool gave no usable buffer: records are counted lost */
    DT_FINAL = 8u,     /* the tool is finalized: nothing more, ever */
};
#define DT_EPOCH_SHIFT 8

/* A producer slot holds DT_EMPTY, DT_BUSY (its thread is writing) or the
 * address of the thread's current struct dt_buf. */
#define DT_EMPTY ((uintptr_t)0)
#define DT_BUSY ((uintptr_t)1)

#define DT_REC sizeof(ompt_record_ompt_t)

struct dt_buf {
    char *mem;                      /* the tool's buffer (NULL: a flush marker) */
    size_t cap, used;
    unsigned epoch;                 /* session that requested it */
    ompt_callback_buffer_complete_t complete;   /* ... and its completion callback */
    uint64_t marker;                /* flush markers: sequence number */
    struct dt_buf *next;            /* delivery queue */
};

struct dt_prod {
    _Alignas(64) _Atomic uintptr_t slot;
    struct dt_prod *next;           /* the device's registry (never unlinked) */
    _Atomic int owned;              /* a live thread uses this producer */
};

struct dt {
    int device_num;
    _Atomic unsigned state;
    _Atomic uint64_t types;         /* bit t set: records of ompt_callbacks_t t wanted */
    _Atomic uint64_t emi_types;     /* bit t set: t was enabled by its EMI number */
    _Atomic uint64_t lost;
    /* Buffer limits (OpenMP 6.0's ompt_get_buffer_limits): once the tool
     * asked for them, at most `limit` buffers are outstanding (requested
     * and not yet handed back); 0: no limit (a 5.1 tool). */
    _Atomic unsigned limit;
    _Atomic unsigned outstanding;
    ompt_callback_buffer_request_t request;     /* of the current session */
    ompt_callback_buffer_complete_t complete;
    pthread_mutex_t ctl;            /* start / pause / stop / finalize transitions */
    pthread_mutex_t collect;        /* one flush collects at a time */
    pthread_mutex_t reg;            /* producer registry */
    struct dt_prod *prods;

    /* Delivery: FIFO of full / collected buffers and flush markers. */
    pthread_mutex_t qlock;
    pthread_cond_t qcond;           /* work for the helper */
    pthread_cond_t dcond;           /* a marker was passed */
    pthread_cond_t fcond;           /* a buffer was handed back (limit set) */
    struct dt_buf *qhead, *qtail;
    uint64_t next_marker, done_marker;
    uint64_t passed_marker;         /* newest marker passed inside a callback */
    unsigned delivering;            /* buffer_complete calls in progress */
    unsigned qlen;                  /* buffers queued since the helper was last woken */
    bool helper_running, helper_exit, no_callbacks;
    pthread_t helper;
};

extern struct dt pv_dt_devs[PV_DT_MAX_DEVICES];

/* device_trace.c */
struct dt *pv_dt_from_handle(ompt_device_t *device);
void pv_dt_start_helper(struct dt *d);
/* Collect every producer's buffer and wait until all of it was delivered. */
void pv_dt_flush(struct dt *d);
/* The number of buffers a device may have outstanding, and the size it
 * recommends (ompt_get_buffer_limits). */
unsigned pv_dt_buffer_limit(void);
size_t pv_dt_buffer_bytes(void);
/* A tool looked up a 6.0-only entry point: it is an OpenMP 6.0 tool. */
void pv_dt_mark_v60(void);
/* Let the helper thread end (joined unless the caller is the helper). */
void pv_dt_end_helper(struct dt *d);

#endif
