/* OMPT target events: callbacks (EMI form when the tool registered it, the
 * plain form otherwise) and the matching device trace records. */
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include "ompt/device_trace.h"
#include "ompt/inquiry.h"
#include "base/linux.h"
#include "runtime/league.h"
#include "target/events.h"

PV_TLS ompt_data_t *pv_ev_target_task;
static PV_TLS struct pv_tctx *cur_ctx;     /* innermost construct on this thread */
static PV_TLS struct pv_op *cur_op;        /* data op or submission in progress */
static PV_TLS pid_t my_tid;

/* Ids: unique, taken from the global counter in blocks so that threads do
 * not share a cache line per id. */
static _Atomic uint64_t id_next = 1;
static PV_TLS uint64_t id_cur, id_end;

static ompt_id_t new_id(void)
{
    if (id_cur == id_end) {
        id_cur = atomic_fetch_add_explicit(&id_next, 256, memory_order_relaxed);
        id_end = id_cur + 256;
    }
    return id_cur++;
}

static ompt_id_t thread_id(void)
{
    if (!my_tid)
        my_tid = pv_gettid();
    return (ompt_id_t)my_tid;
}

static int initial_device(void)
{
    return pv_target_num_devices();
}

static void record_header(ompt_record_ompt_t *r, ompt_callbacks_t type, uint64_t t,
                          ompt_id_t target_id)
{
    r->type = type;
    r->time = t;
    r->thread_id = thread_id();
    r->target_id = target_id;
}

static bool traced(int device, ompt_callbacks_t type)
{
    return device >= 0 && device < initial_device() && pv_dtrace_any() &&
           pv_dtrace_wants(device, type);
}

/* ------------------------------------------------------------- targets */

static void target_record(struct pv_tctx *c, ompt_scope_endpoint_t ep)
{
    if (!traced(c->device, ompt_callback_target))
        return;
    ompt_record_ompt_t r = {0};
    record_header(&r, pv_dtrace_record_type(c->device, ompt_callback_target), pv_dtrace_now(),
                  c->target_id);
    r.record.target = (ompt_record_target_t){
        .kind = c->kind,
        .endpoint = ep,
        .device_num = c->device,
        .task_id = c->task_data ? c->task_data->value : 0,
        .target_id = c->target_id,
        .codeptr_ra = c->codeptr,
    };
    pv_dtrace_emit(c->device, &r);
}

static void target_callback(struct pv_tctx *c, ompt_scope_endpoint_t ep)
{
    if (pv_ompt_on(target_emi))
        pv_ompt_call(target_emi, c->kind, ep, c->device, c->task_data, c->target_task_data,
                     &c->target_data, c->codeptr);
    else if (pv_ompt_on(target))
        pv_ompt_call(target, c->kind, ep, c->device, c->task_data, c->target_id, c->codeptr);
}

static int wait_state(ompt_target_t kind)
{
    switch (kind) {
    case ompt_target_update:
    case ompt_target_update_nowait:
        return ompt_state_wait_target_update;
    case ompt_target:
    case ompt_target_nowait:
        return ompt_state_wait_target;
    default:
        return ompt_state_wait_target_map;
    }
}

void pv_ev_target_begin(struct pv_tctx *c, ompt_target_t kind, int device, const void *codeptr)
{
    pv_ompt_thread_ensure();   /* a target region may be the thread's first use of OpenMP */
    struct pv_ompt_task *task = pv_ompt_task_at(pv_ev_target_task ? 1 : 0);
    *c = (struct pv_tctx){
        .kind = kind,
        .device = device,
        .target_id = new_id(),
        .task_data = task ? &task->data : NULL,
        .target_task_data = pv_ev_target_task,
        .codeptr = codeptr,
        .saved_state = pv_ompt_thr.state,
        .prev = cur_ctx,
    };
    cur_ctx = c;
    target_callback(c, ompt_scope_begin);
    target_record(c, ompt_scope_begin);
    pv_ompt_thr.state = wait_state(kind);
}

void pv_ev_target_end(struct pv_tctx *c)
{
    target_record(c, ompt_scope_end);
    target_callback(c, ompt_scope_end);
    pv_ompt_thr.state = c->saved_state;
    cur_ctx = c->prev;
}

/* ------------------------------------------------------------ data ops */

void pv_ev_data_op_begin(struct pv_op *op, ompt_target_data_op_t optype, void *src, int src_dev,
                         void *dst, int dst_dev, size_t bytes, int device)
{
    pv_ompt_thread_ensure();   /* e.g. omp_target_alloc, the thread's first OpenMP call */
    *op = (struct pv_op){
        .host_op_id = new_id(),
        .device = device,
        .optype = optype,
        .src = src,
        .dst = dst,
        .src_dev = src_dev,
        .dst_dev = dst_dev,
        .bytes = bytes,
        .ctx = cur_ctx,
    };
    cur_op = op;
    struct pv_tctx *c = op->ctx;
    if (pv_ompt_on(target_data_op_emi))
        pv_ompt_call(target_data_op_emi, ompt_scope_begin, c ? c->target_task_data : NULL,
                     c ? &c->target_data : NULL, &op->host_op_id, optype,
                     src, src_dev, dst, dst_dev, bytes, c ? c->codeptr : NULL);
    else if (pv_ompt_on(target_data_op))
        pv_ompt_call(target_data_op, c ? c->target_id : 0, op->host_op_id, optype, src, src_dev,
                     dst, dst_dev, bytes, c ? c->codeptr : NULL);
    op->t0 = pv_dtrace_now();
}

/* A transfer_rect's callbacks get pointers to ompt_subvolume_t, which do
 * not outlive the copy: its record carries the subvolumes' base addresses. */
static void *record_addr(const struct pv_op *op, void *addr)
{
    if (addr && (op->optype == ompt_target_data_transfer_rect ||
                 op->optype == ompt_target_data_transfer_rect_async))
        return (void *)((const ompt_subvolume_t *)addr)->base;
    return addr;
}

void pv_ev_data_op_end(struct pv_op *op)
{
    uint64_t t1 = pv_dtrace_now();
    struct pv_tctx *c = op->ctx;
    if (traced(op->device, ompt_callback_target_data_op)) {
        ompt_record_ompt_t r = {0};
        record_header(&r, pv_dtrace_record_type(op->device, ompt_callback_target_data_op), op->t0,
                      c ? c->target_id : 0);
        r.record.target_data_op = (ompt_record_target_data_op_t){
            .host_op_id = op->host_op_id,
            .optype = op->optype,
            .src_addr = record_addr(op, op->src),
            .src_device_num = op->src_dev,
            .dest_addr = record_addr(op, op->dst),
            .dest_device_num = op->dst_dev,
            .bytes = op->bytes,
            .end_time = t1,
            .codeptr_ra = c ? c->codeptr : NULL,
        };
        pv_dtrace_emit(op->device, &r);
    }
    if (pv_ompt_on(target_data_op_emi))
        pv_ompt_call(target_data_op_emi, ompt_scope_end, c ? c->target_task_data : NULL,
                     c ? &c->target_data : NULL, &op->host_op_id, op->optype,
                     op->src, op->src_dev, op->dst, op->dst_dev, op->bytes,
                     c ? c->codeptr : NULL);
    cur_op = NULL;
}

/* --------------------------------------------------------- submissions */

void pv_ev_submit_begin(struct pv_op *op, int device, unsigned requested)
{
    *op = (struct pv_op){
        .host_op_id = new_id(),
        .device = device,
        .requested = requested,
        .ctx = cur_ctx,
    };
    cur_op = op;
    struct pv_tctx *c = op->ctx;
    if (pv_ompt_on(target_submit_emi))
        pv_ompt_call(target_submit_emi, ompt_scope_begin, c ? &c->target_data : NULL,
                     &op->host_op_id, requested);
    else if (pv_ompt_on(target_submit))
        pv_ompt_call(target_submit, c ? c->target_id : 0, op->host_op_id, requested);
    op->t0 = pv_dtrace_now();
}

void pv_ev_submit_end(struct pv_op *op, unsigned granted)
{
    uint64_t t1 = pv_dtrace_now();
    struct pv_tctx *c = op->ctx;
    if (traced(op->device, ompt_callback_target_submit)) {
        ompt_record_ompt_t r = {0};
        record_header(&r, pv_dtrace_record_type(op->device, ompt_callback_target_submit), op->t0,
                      c ? c->target_id : 0);
        r.record.target_kernel = (ompt_record_target_kernel_t){
            .host_op_id = op->host_op_id,
            .requested_num_teams = op->requested,
            .granted_num_teams = granted,
            .end_time = t1,
        };
        pv_dtrace_emit(op->device, &r);
    }
    if (pv_ompt_on(target_submit_emi))
        pv_ompt_call(target_submit_emi, ompt_scope_end, c ? &c->target_data : NULL,
                     &op->host_op_id, op->requested);
    cur_op = NULL;
}

/* ----------------------------------------------------------------- maps */

void pv_ev_map(unsigned n, void **host, void **dev, size_t *bytes, unsigned *flags)
{
    struct pv_tctx *c = cur_ctx;
    if (!n)
        return;
    if (pv_ompt_on(target_map_emi))
        pv_ompt_call(target_map_emi, c ? &c->target_data : NULL, n, host, dev, bytes, flags,
                     c ? c->codeptr : NULL);
    else if (pv_ompt_on(target_map))
        pv_ompt_call(target_map, c ? c->target_id : 0, n, host, dev, bytes, flags,
                     c ? c->codeptr : NULL);
}

/* ompt_get_target_info (src/ompt calls it through ompt/devices.h). */
int pv_target_ompt_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id)
{
    struct pv_tctx *c = cur_ctx;
    if (!c)
        return 0;
    if (device_num)
        *device_num = (uint64_t)c->device;
    if (target_id)
        *target_id = c->target_id;
    if (host_op_id)
        *host_op_id = cur_op && cur_op->ctx == c ? cur_op->host_op_id : 0;
    return 1;
}

/* -------------------------------------------------------------- devices */

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(struct dl_phdr_info *)arg = *info;
    return 1;   /* the first object is the program */
}

void pv_ev_device_init(int device)
{
    if (!pv_ev_on())
        return;
    pv_ompt_thread_ensure();   /* the thread begins before its device does */
    if (pv_ompt_on(device_initialize))
        pv_ompt_call(device_initialize, device, "pvomp-host-device", pv_dtrace_handle(device),
                     pv_dtrace_lookup,
                     "pvomp host device: separate memory, kernels on host "
                     "threads; see docs/target.md");
    if (pv_ompt_on(device_load)) {
        /* The device runs the program's own code: report the executable. */
        struct dl_phdr_info info = {0};
        dl_iterate_phdr(first_object, &info);
        char path[512];
        ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
        path[len > 0 ? len : 0] = '\0';
        pv_ompt_call(device_load, device, path, 0, (void *)info.dlpi_addr, 0,
                     (void *)info.dlpi_addr, (void *)info.dlpi_addr, 1);
    }
}

void pv_ev_device_fini(int device)
{
    pv_dtrace_finalize(device);
    if (!pv_ev_on())
        return;
    if (pv_ompt_on(device_unload))
        pv_ompt_call(device_unload, device, 1);
    if (pv_ompt_on(device_finalize))
        pv_ompt_call(device_finalize, device);
}
