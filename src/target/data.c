/* target data, target enter/exit data, target update.
 *
 * For OMPT, a target data region is two constructs, as in LLVM: its start
 * is reported as ompt_target_enter_data, its end as ompt_target_exit_data. */
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/league.h"
#include "target/events.h"
#include "target/target.h"
#include "trace/trace.h"

static PV_TLS struct pv_mapped *data_stack;

void pv_target_data_push(struct pv_mapped *h)
{
    h->prev = data_stack;
    data_stack = h;
}

struct pv_mapped *pv_target_data_pop(void)
{
    struct pv_mapped *h = data_stack;
    if (h)
        data_stack = h->prev;
    return h;
}

static int ev_device(struct pv_device *d)
{
    return d ? d->num : pv_target_num_devices();
}

static ompt_target_t op_kind(int op, bool nowait)
{
    switch (op) {
    case PV_TT_UPDATE:
        return nowait ? ompt_target_update_nowait : ompt_target_update;
    case PV_TT_ENTER:
        return nowait ? ompt_target_enter_data_nowait : ompt_target_enter_data;
    default:
        return nowait ? ompt_target_exit_data_nowait : ompt_target_exit_data;
    }
}

void pv_target_data_op(int op, struct pv_device *d, const struct pv_maplist *l, unsigned flags,
                       const void *codeptr, bool nowait)
{
    (void)flags;
    struct pv_tctx c;
    bool ev = pv_ev_on();
    unsigned tk = op == PV_TT_UPDATE  ? PVTRACE_TARGET_KIND_UPDATE
                  : op == PV_TT_ENTER ? PVTRACE_TARGET_KIND_ENTER_DATA
                                      : PVTRACE_TARGET_KIND_EXIT_DATA;
    trace_target_begin(tk, ev_device(d));
    if (ev)
        pv_ev_target_begin(&c, op_kind(op, nowait), ev_device(d), codeptr);
    if (d) {
        if (op == PV_TT_UPDATE)
            pv_map_update(d, l);
        else if (op == PV_TT_ENTER)
            pv_map_enter(d, l, PV_MAP_ENTER);
        else
            pv_map_exit_data(d, l);
    }
    if (ev)
        pv_ev_target_end(&c);
    trace_target_end(tk, ev_device(d));
}

/* Runs op now, or as a target task when it has dependences. */
static void data_construct(int device, int op, const struct pv_maplist *l, unsigned flags,
                           void **depend, const void *codeptr)
{
    bool nowait = (flags & PV_TF_NOWAIT) != 0;
    if (depend) {
        pv_target_ttask_launch(device, op, NULL, l, flags, depend, codeptr, nowait);
        return;
    }
    pv_target_data_op(op, pv_target_resolve(device), l, flags, codeptr, false);
}

static void data_begin(int device, const struct pv_maplist *l, const void *codeptr)
{
    struct pv_device *d = pv_target_resolve(device);
    struct pv_tctx c;
    bool ev = pv_ev_on();
    /* The flight log shows the whole region: target_end at GOMP_target_end_data. */
    trace_target_begin(PVTRACE_TARGET_KIND_DATA, ev_device(d));
    if (ev)
        pv_ev_target_begin(&c, ompt_target_enter_data, ev_device(d), codeptr);
    struct pv_mapped *h = d ? pv_map_enter(d, l, PV_MAP_DATA) : pv_calloc(1, sizeof *h);
    pv_target_data_push(h);
    if (ev)
        pv_ev_target_end(&c);
}

PV_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                    unsigned short *kinds)
{
    struct pv_maplist l = {mapnum, hostaddrs, sizes, kinds};
    data_begin(device, &l, __builtin_return_address(0));
}

PV_EXPORT void GOMP_target_data(int device, const void *unused, size_t mapnum, void **hostaddrs,
                                size_t *sizes, unsigned char *kinds)
{
    (void)unused;
    unsigned short *w = pv_target_widen_kinds(kinds, mapnum);
    struct pv_maplist l = {mapnum, hostaddrs, sizes, w};
    data_begin(device, &l, __builtin_return_address(0));
    free(w);
}

PV_EXPORT void GOMP_target_end_data(void)
{
    struct pv_mapped *h = pv_target_data_pop();
    if (!h)
        return;
    struct pv_tctx c;
    bool ev = pv_ev_on();
    int devnum = ev_device(h->dev);   /* pv_map_exit frees h */
    if (ev)
        pv_ev_target_begin(&c, ompt_target_exit_data, devnum, __builtin_return_address(0));
    pv_map_exit(h);
    if (ev)
        pv_ev_target_end(&c);
    trace_target_end(PVTRACE_TARGET_KIND_DATA, devnum);
}

PV_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                      unsigned short *kinds, unsigned int flags, void **depend)
{
    struct pv_maplist l = {mapnum, hostaddrs, sizes, kinds};
    data_construct(device, PV_TT_UPDATE, &l, flags, depend, __builtin_return_address(0));
}

PV_EXPORT void GOMP_target_update(int device, const void *unused, size_t mapnum,
                                  void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused;
    unsigned short *w = pv_target_widen_kinds(kinds, mapnum);
    struct pv_maplist l = {mapnum, hostaddrs, sizes, w};
    data_construct(device, PV_TT_UPDATE, &l, 0, NULL, __builtin_return_address(0));
    free(w);
}

PV_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs,
                                           size_t *sizes, unsigned short *kinds,
                                           unsigned int flags, void **depend)
{
    struct pv_maplist l = {mapnum, hostaddrs, sizes, kinds};
    int op = (flags & PV_TF_EXIT_DATA) ? PV_TT_EXIT : PV_TT_ENTER;
    data_construct(device, op, &l, flags, depend, __builtin_return_address(0));
}
