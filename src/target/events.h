/* OMPT events of target constructs (events.c): callbacks and device trace
 * records, with one id scheme so that both tell the same story.
 *
 * A construct (target, target data, enter/exit data, update) is a struct
 * pv_tctx on the encountering thread's stack, pushed on a per-thread list so
 * that data operations inside know their target id and ompt_get_target_info
 * can answer.  Each data operation and kernel submission is a struct pv_op
 * with its own host_op_id; the EMI callbacks get a pointer to it (the tool
 * may replace it at begin), and the trace record written at the end carries
 * the value that the callbacks saw. */
#ifndef PV_TARGET_EVENTS_H
#define PV_TARGET_EVENTS_H

#include "ompt/device_trace.h"
#include "ompt/ompt.h"
#include "target/target.h"

struct pv_tctx {
    ompt_target_t kind;
    int device;                   /* device number (the initial device for host fallback) */
    ompt_id_t target_id;
    ompt_data_t target_data;      /* EMI: the tool's data for this construct */
    ompt_data_t *task_data;       /* encountering task */
    ompt_data_t *target_task_data;/* the target task (nowait), else NULL */
    const void *codeptr;
    int saved_state;
    struct pv_tctx *prev;
};

struct pv_op {
    ompt_id_t host_op_id;
    uint64_t t0;
    int device;
    ompt_target_data_op_t optype;
    void *src, *dst;
    int src_dev, dst_dev;
    size_t bytes;
    unsigned requested;           /* kernel submissions */
    struct pv_tctx *ctx;
};

/* Events are dispatched only with a tool attached (tracing needs one). */
static inline bool pv_ev_on(void)
{
    return pv_ompt_tool();
}

/* The tool uses OpenMP 6.0's interface (ompt/device_trace.h): 6.0's
 * data-op kinds (transfer, memset, transfer_rect and their async forms). */
static inline bool pv_ev_v60(void)
{
    return pv_dtrace_v60();
}

/* The kind of a copy as the tool is told it: 6.0's transfer(_async) for a
 * 6.0 tool; for a 5.1 tool to_device or from_device (5.1's _async forms
 * were never sent: kept). */
static inline ompt_target_data_op_t pv_ev_transfer_kind(bool to_device, bool async)
{
    if (pv_ev_v60())
        return async ? ompt_target_data_transfer_async : ompt_target_data_transfer;
    return to_device ? ompt_target_data_transfer_to_device : ompt_target_data_transfer_from_device;
}

/* The target task being executed on this thread (nowait), or NULL. */
extern PV_TLS ompt_data_t *pv_ev_target_task;

void pv_ev_target_begin(struct pv_tctx *c, ompt_target_t kind, int device, const void *codeptr);
void pv_ev_target_end(struct pv_tctx *c);
void pv_ev_data_op_begin(struct pv_op *op, ompt_target_data_op_t optype, void *src, int src_dev,
                         void *dst, int dst_dev, size_t bytes, int device);
void pv_ev_data_op_end(struct pv_op *op);
void pv_ev_submit_begin(struct pv_op *op, int device, unsigned requested);
void pv_ev_submit_end(struct pv_op *op, unsigned granted);
/* target_map(_emi): the items of a construct, with ompt_target_map_flag_t. */
void pv_ev_map(unsigned n, void **host, void **dev, size_t *bytes, unsigned *flags);

/* Device life: device_initialize + device_load when a device is first
 * used; device_unload + device_finalize when the tool goes away. */
/* ompt_get_target_info (handed to src/ompt by device.c). */
int pv_target_ompt_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id);
void pv_ev_device_init(int device);
void pv_ev_device_fini(int device);

#endif
